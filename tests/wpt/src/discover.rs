//! Finding the testharness.js tests of a WPT-layout root.
//!
//! A test is an `.html`/`.htm`/`.xhtml` page that loads
//! `/resources/testharness.js`, or a `.window.js` / `.any.js` file (run as
//! its generated `.window.html` / `.any.html` page; `.any.js` only when its
//! globals include the window). Skipped: hidden entries, `resources`,
//! `support`, `tools` and `common` directories, reference and manual files
//! (`-ref`, `-notref`, `-manual`), and worker-only variants (`.worker.js`).
//! Files named `.https.` are loaded over HTTPS.

use std::path::Path;

use crate::wrappers::{self, Kind};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFile {
    /// Path relative to the root, `/`-separated: what the server serves and
    /// what names the test (`dir/x.window.html`).
    pub path: String,
    pub https: bool,
    /// `timeout=long`.
    pub long: bool,
}

const SKIPPED_DIRS: [&str; 5] = ["resources", "support", "tools", "common", "node_modules"];

/// The tests under `root` whose path starts with one of `include` (all when
/// empty), sorted by path.
pub fn discover(root: &Path, include: &[String]) -> Result<Vec<TestFile>, String> {
    if !root.is_dir() {
        return Err(format!("test root {} is not a directory", root.display()));
    }
    let mut tests = Vec::new();
    walk(root, "", include, &mut tests)?;
    tests.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(tests)
}

fn could_include(dir_path: &str, include: &[String]) -> bool {
    include.is_empty()
        || include
            .iter()
            .any(|p| dir_path.starts_with(p.as_str()) || p.starts_with(dir_path))
}

fn walk(dir: &Path, rel: &str, include: &[String], out: &mut Vec<TestFile>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        let path = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        let file_type = entry.file_type().map_err(|e| e.to_string())?;
        if file_type.is_dir() {
            if SKIPPED_DIRS.contains(&name.as_str()) || !could_include(&format!("{path}/"), include)
            {
                continue;
            }
            walk(&entry.path(), &path, include, out)?;
            continue;
        }
        if !include.is_empty() && !include.iter().any(|p| path.starts_with(p.as_str())) {
            continue;
        }
        if let Some(test) = classify(&entry.path(), &path, &name) {
            out.push(test);
        }
    }
    Ok(())
}

fn classify(file: &Path, path: &str, name: &str) -> Option<TestFile> {
    let stem = name.split('.').next().unwrap_or(name);
    if stem.ends_with("-ref") || stem.ends_with("-notref") || stem.ends_with("-manual") {
        return None;
    }
    let https = name.contains(".https.");
    if let Some((kind, page)) = Kind::from_js_path(path) {
        let source = std::fs::read_to_string(file).ok()?;
        let metas = wrappers::parse_meta(&source);
        if kind == Kind::Any && !wrappers::any_runs_in_window(&metas) {
            return None;
        }
        let long = metas.iter().any(|(k, v)| k == "timeout" && v == "long");
        return Some(TestFile {
            path: page,
            https,
            long,
        });
    }
    let ext = name.rsplit('.').next().unwrap_or("");
    if !matches!(ext, "html" | "htm" | "xhtml" | "xht") {
        return None;
    }
    let text = std::fs::read(file).ok()?;
    let text = String::from_utf8_lossy(&text);
    if !text.contains("/resources/testharness.js") {
        return None;
    }
    let long = text.contains("name=\"timeout\" content=\"long\"")
        || text.contains("name=timeout content=long");
    Some(TestFile {
        path: path.to_owned(),
        https,
        long,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tests_and_skips_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let files: &[(&str, &str)] = &[
            ("a/t.html", "<script src=/resources/testharness.js></script>"),
            ("a/slow.https.html", "<meta name=\"timeout\" content=\"long\"><script src=\"/resources/testharness.js\"></script>"),
            ("a/plain.html", "<p>not a test"),
            ("a/t-ref.html", "<script src=/resources/testharness.js></script>"),
            ("a/x.window.js", "test(() => {});"),
            ("a/y.any.js", "// META: timeout=long\n"),
            ("a/w.any.js", "// META: global=worker\n"),
            ("a/z.worker.js", ""),
            ("a/resources/helper.html", "<script src=/resources/testharness.js></script>"),
            ("b/u.html", "<script src=/resources/testharness.js></script>"),
            (".git/v.html", "<script src=/resources/testharness.js></script>"),
        ];
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let all = discover(dir.path(), &[]).unwrap();
        let paths: Vec<&str> = all.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "a/slow.https.html",
                "a/t.html",
                "a/x.window.html",
                "a/y.any.html",
                "b/u.html"
            ]
        );
        assert!(all[0].https && all[0].long);
        assert!(!all[1].https && !all[1].long);
        assert!(all[3].long);

        let some = discover(dir.path(), &["b".into()]).unwrap();
        assert_eq!(some.len(), 1);
        let one = discover(dir.path(), &["a/x.window".into()]).unwrap();
        assert_eq!(one[0].path, "a/x.window.html");
        assert!(discover(&dir.path().join("missing"), &[]).is_err());
    }
}
