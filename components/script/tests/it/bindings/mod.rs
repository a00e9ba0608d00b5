//! Runs JavaScript against the generated bindings (WebIDL's observable
//! behaviour, as WPT's idlharness checks it) and asserts from JS.

mod conversions;
mod events;
mod exposure;
mod interfaces;
mod platform_objects;

use jsprof_script::JsRuntime;

/// testharness.js-like assertions (synchronous, and promise tests that
/// record their outcome in `__results`).
const PRELUDE: &str = r#"
var __results = [];
function fmt(v) {
  try { return typeof v === "string" ? JSON.stringify(v) : String(v); } catch (e) { return "<value>"; }
}
function assert_true(c, m) { if (c !== true) throw new Error("assert_true failed: " + (m || "")); }
function assert_false(c, m) { if (c !== false) throw new Error("assert_false failed: " + (m || "")); }
function assert_equals(a, b, m) {
  if (!Object.is(a, b)) throw new Error("assert_equals: got " + fmt(a) + ", expected " + fmt(b) + " " + (m || ""));
}
function assert_array_equals(a, b, m) {
  assert_equals(a.length, b.length, "length " + (m || ""));
  for (var i = 0; i < a.length; i++) assert_equals(a[i], b[i], "index " + i + " " + (m || ""));
}
function assert_throws_js(ctor, f, m) {
  try { f(); } catch (e) {
    if (!(e instanceof ctor) || e.constructor !== ctor)
      throw new Error("assert_throws_js: threw " + fmt(e) + ", expected " + ctor.name + " " + (m || ""));
    return e;
  }
  throw new Error("assert_throws_js: did not throw " + (m || ""));
}
function assert_throws_dom(name, f, m) {
  try { f(); } catch (e) {
    if (!(e instanceof DOMException) || e.name !== name)
      throw new Error("assert_throws_dom: threw " + fmt(e) + ", expected " + name + " " + (m || ""));
    return e;
  }
  throw new Error("assert_throws_dom: did not throw " + (m || ""));
}
function promise_test(name, f) {
  Promise.resolve().then(f).then(
    function () { __results.push("PASS " + name); },
    function (e) { __results.push("FAIL " + name + ": " + fmt(e)); });
}
function promise_rejects(check, p) {
  return p.then(function () { throw new Error("promise fulfilled, expected a rejection"); }, check);
}
"#;

fn runtime() -> JsRuntime {
    let mut rt = JsRuntime::new_for_tests().expect("runtime");
    rt.evaluate(PRELUDE, "prelude.js", 1).expect("prelude");
    rt
}

/// Runs `source`; fails the test with the JS error if it throws.
fn run(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "test.js", 1)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs promise tests in `source` and checks that all `count` passed.
fn run_promise_tests(rt: &mut JsRuntime, source: &str, count: usize) {
    run(rt, source);
    let results = run(rt, "__results.join('\\n')");
    let lines: Vec<&str> = results.lines().collect();
    for line in &lines {
        assert!(line.starts_with("PASS"), "{line}");
    }
    assert_eq!(lines.len(), count, "{results}");
}
