//! Deeply nested documents: the parser's depth limit
//! (`html_tree_builder::MAX_DEPTH`) keeps the tree exact below the cap,
//! loses no element or text past it, and keeps tree building linear in
//! the document's depth (checked on an operation count, not on time).

use crate::common;
use jsprof_script::loading::html_tree_builder::{name_lookups, MAX_DEPTH};
use jsprof_script::JsRuntime;

/// Loads `html` from a file and runs the page to idle.
fn load(name: &str, html: &str) -> JsRuntime {
    let dir = common::temp_dir("deep", name);
    let rt = common::load_files(&dir, &[("index.html", html)]);
    let _ = std::fs::remove_dir_all(&dir);
    rt
}

/// `depth` nested `<div>`s, each holding the text `t<i>` before its child,
/// all closed at the end.
fn nested_divs(depth: usize) -> String {
    let mut html = String::from("<!DOCTYPE html><body>");
    for i in 0..depth {
        html.push_str(&format!("<div id=d{i}>t{i} "));
    }
    for _ in 0..depth {
        html.push_str("</div>");
    }
    html.push_str("<p id=after>after</p>");
    html
}

/// The depth of every `div` (the document is depth 0), as "min,max,count".
const DEPTHS: &str = "(() => {
    const divs = document.querySelectorAll('div');
    let min = Infinity, max = 0;
    for (const div of divs) {
        let depth = 0;
        for (let n = div; n; n = n.parentNode) depth++;
        depth--;
        min = Math.min(min, depth);
        max = Math.max(max, depth);
    }
    return `${min},${max},${divs.length}`;
})()";

#[test]
fn below_the_cap_the_tree_is_exactly_nested() {
    let depth = MAX_DEPTH - 10;
    let mut rt = load("exact", &nested_divs(depth));
    // body is at depth 2, so the divs span 3 ..= depth + 2, each the child
    // of the previous one.
    assert_eq!(
        rt.evaluate(DEPTHS, "check.js", 1).unwrap(),
        format!("3,{},{depth}", depth + 2)
    );
    let chained = rt
        .evaluate(
            &format!(
                "(() => {{ for (let i = 1; i < {depth}; i++) {{
                    const div = document.querySelector('#d' + i);
                    if (div.parentNode.getAttribute('id') !== 'd' + (i - 1)) return 'd' + i;
                }} return 'ok'; }})()"
            ),
            "check.js",
            1,
        )
        .unwrap();
    assert_eq!(chained, "ok");
}

#[test]
fn past_the_cap_nothing_is_lost_and_nothing_is_deeper() {
    let depth = 3 * MAX_DEPTH;
    let mut rt = load("capped", &nested_divs(depth));
    // Every div is there, none deeper than the cap.
    assert_eq!(
        rt.evaluate(DEPTHS, "check.js", 1).unwrap(),
        format!("3,{MAX_DEPTH},{depth}")
    );
    // The text keeps its document order, and the elements after the deep
    // part are where they belong.
    let text = rt
        .evaluate("document.body.textContent", "check.js", 1)
        .unwrap();
    let expected: String = (0..depth).map(|i| format!("t{i} ")).collect::<String>() + "after";
    assert_eq!(text, expected);
    assert_eq!(
        rt.evaluate(
            "document.querySelector('#after').parentNode.tagName",
            "check.js",
            1
        )
        .unwrap(),
        "BODY"
    );
    // A script past the cap runs, with the document around it.
    drop(rt);
    let mut html = nested_divs(2 * MAX_DEPTH);
    html.insert_str(
        html.find("</div>").unwrap(),
        "<script>window.ran = document.querySelectorAll('div').length</script>",
    );
    let mut rt = load("script", &html);
    assert_eq!(
        rt.evaluate("String(window.ran)", "check.js", 1).unwrap(),
        (2 * MAX_DEPTH).to_string()
    );
}

/// The tree builder's work (element names it looks up in its scope
/// checks) for a document of `depth` nested divs.
fn parse_work(depth: usize) -> u64 {
    let before = name_lookups();
    drop(load(&format!("work{depth}"), &nested_divs(depth)));
    name_lookups() - before
}

#[test]
fn tree_building_work_grows_linearly_with_depth() {
    // Well past the cap, four times the depth must cost about four times
    // the work (it was sixteen times: every start tag scanned the whole
    // stack of open elements).
    let small = parse_work(4 * MAX_DEPTH);
    let large = parse_work(16 * MAX_DEPTH);
    let ratio = large as f64 / small as f64;
    assert!(
        (3.0..5.0).contains(&ratio),
        "work at 4x the depth: {large} vs {small} lookups (x{ratio:.2})"
    );
}

#[test]
fn a_very_deep_script_made_tree_does_not_exhaust_the_stack() {
    // Scripts are not limited by the parser's cap: a chain 200,000 deep,
    // then moved, searched, serialised and removed as a whole.
    let mut rt = load("script-made", "<!DOCTYPE html><body>");
    let result = rt
        .evaluate(
            "(() => {
                const root = document.createElement('div');
                let node = root;
                for (let i = 0; i < 200000; i++) {
                    const child = document.createElement('span');
                    node.appendChild(child);
                    node = child;
                }
                node.textContent = 'leaf';
                document.body.appendChild(root);
                const found = document.querySelectorAll('span').length;
                const text = document.body.textContent;
                document.body.removeChild(root);
                return `${found},${text},${root.textContent}`;
            })()",
            "check.js",
            1,
        )
        .unwrap();
    assert_eq!(result, "200000,leaf,leaf");
}
