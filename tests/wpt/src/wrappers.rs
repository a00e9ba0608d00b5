//! Generated test pages for `.window.js` and `.any.js` files.
//!
//! `x.window.js` is served as `x.window.html` and `x.any.js` as
//! `x.any.html` (the window scope; worker scopes are not run by this
//! harness): a page loading testharness.js, our testharnessreport.js, the
//! scripts named by `// META: script=...`, then the test file itself.
//! `// META: title=...` sets the page title (testharness.js uses it to name
//! a single-test file's test) and `// META: timeout=long` the long timeout.
//! META lines are read from the comment block at the top of the file, as
//! WPT's manifest does.

/// The `// META:` key/value pairs of a JS test file, in order.
pub fn parse_meta(source: &str) -> Vec<(String, String)> {
    let mut metas = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(comment) = line.strip_prefix("//") else {
            break;
        };
        let Some(meta) = comment.trim_start().strip_prefix("META:") else {
            continue;
        };
        if let Some((key, value)) = meta.split_once('=') {
            metas.push((key.trim().to_owned(), value.trim().to_owned()));
        }
    }
    metas
}

/// Which kind of generated page a request path asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Window,
    Any,
}

impl Kind {
    /// For a request path ending in `.window.html` / `.any.html`, the kind
    /// and the path of the JS source (`.window.js` / `.any.js`).
    pub fn from_html_path(path: &str) -> Option<(Kind, String)> {
        if let Some(stem) = path.strip_suffix(".window.html") {
            Some((Kind::Window, format!("{stem}.window.js")))
        } else {
            path.strip_suffix(".any.html")
                .map(|stem| (Kind::Any, format!("{stem}.any.js")))
        }
    }

    /// For a JS test file name, the kind and the page path to run.
    pub fn from_js_path(path: &str) -> Option<(Kind, String)> {
        if let Some(stem) = path.strip_suffix(".window.js") {
            Some((Kind::Window, format!("{stem}.window.html")))
        } else {
            path.strip_suffix(".any.js")
                .map(|stem| (Kind::Any, format!("{stem}.any.html")))
        }
    }
}

/// Whether an `.any.js` file's `// META: global=` list includes the window
/// scope (the default set, `window` and `dedicatedworker`, does).
pub fn any_runs_in_window(metas: &[(String, String)]) -> bool {
    let globals: Vec<&str> = metas
        .iter()
        .filter(|(k, _)| k == "global")
        .flat_map(|(_, v)| v.split(','))
        .map(str::trim)
        .collect();
    globals.is_empty()
        || globals
            .iter()
            .any(|g| matches!(*g, "window" | "default" | "window-module"))
}

/// The HTML page for the JS test at `js_url_path` (absolute URL path).
pub fn generate(kind: Kind, js_url_path: &str, source: &str) -> String {
    let metas = parse_meta(source);
    let mut page = String::from("<!doctype html>\n<meta charset=utf-8>\n");
    for (key, value) in &metas {
        match key.as_str() {
            "title" => page.push_str(&format!("<title>{}</title>\n", escape(value))),
            "timeout" if value == "long" => {
                page.push_str("<meta name=timeout content=long>\n");
            }
            _ => {}
        }
    }
    if kind == Kind::Any {
        page.push_str(
            "<script>\nself.GLOBAL = {\n  isWindow: function() { return true; },\n  \
             isWorker: function() { return false; },\n  \
             isShadowRealm: function() { return false; },\n};\n</script>\n",
        );
    }
    page.push_str("<script src=\"/resources/testharness.js\"></script>\n");
    page.push_str("<script src=\"/resources/testharnessreport.js\"></script>\n");
    for (key, value) in &metas {
        if key == "script" {
            page.push_str(&format!("<script src=\"{}\"></script>\n", escape(value)));
        }
    }
    page.push_str("<div id=log></div>\n");
    page.push_str(&format!(
        "<script src=\"{}\"></script>\n",
        escape(js_url_path)
    ));
    page
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "// META: title=Profiler <basics>\n\
                          // META: script=/common/utils.js\n\
                          //META: script=resources/helper.js\n\
                          // META: timeout=long\n\
                          \n\
                          test(() => {});\n\
                          // META: script=/late.js\n";

    #[test]
    fn meta_is_read_from_the_leading_comments_only() {
        let metas = parse_meta(SOURCE);
        assert_eq!(
            metas,
            vec![
                ("title".into(), "Profiler <basics>".into()),
                ("script".into(), "/common/utils.js".into()),
                ("script".into(), "resources/helper.js".into()),
                ("timeout".into(), "long".into()),
            ]
        );
    }

    #[test]
    fn window_page_loads_harness_then_meta_scripts_then_the_test() {
        let page = generate(Kind::Window, "/d/t.window.js", SOURCE);
        let order = [
            "<title>Profiler &lt;basics&gt;</title>",
            "<meta name=timeout content=long>",
            "/resources/testharness.js",
            "/resources/testharnessreport.js",
            "/common/utils.js",
            "resources/helper.js",
            "src=\"/d/t.window.js\"",
        ];
        let mut at = 0;
        for needle in order {
            let found = page[at..]
                .find(needle)
                .unwrap_or_else(|| panic!("{needle} in {page}"));
            at += found + needle.len();
        }
        assert!(!page.contains("late.js"));
        assert!(!page.contains("GLOBAL"));
    }

    #[test]
    fn any_page_defines_global() {
        let page = generate(Kind::Any, "/d/t.any.js", "test(() => {});");
        assert!(page.contains("self.GLOBAL"));
        assert!(page.find("GLOBAL").unwrap() < page.find("testharness.js").unwrap());
    }

    #[test]
    fn paths_map_both_ways() {
        assert_eq!(
            Kind::from_html_path("/a/b.window.html"),
            Some((Kind::Window, "/a/b.window.js".into()))
        );
        assert_eq!(
            Kind::from_js_path("a/b.any.js"),
            Some((Kind::Any, "a/b.any.html".into()))
        );
        assert_eq!(Kind::from_html_path("/a/b.html"), None);
        assert_eq!(Kind::from_js_path("a/b.worker.js"), None);
    }

    #[test]
    fn any_globals() {
        assert!(any_runs_in_window(&[]));
        assert!(any_runs_in_window(&[(
            "global".into(),
            "window,worker".into()
        )]));
        assert!(!any_runs_in_window(&[("global".into(), "worker".into())]));
    }
}
