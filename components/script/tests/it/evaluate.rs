//! The runtime evaluates JavaScript in SpiderMonkey and reports errors with
//! their positions.

use jsprof_script::JsRuntime;

#[test]
fn evaluates_and_converts_the_completion_value() {
    let mut rt = JsRuntime::new().unwrap();
    assert_eq!(rt.evaluate("6 * 7", "test.js", 1).unwrap(), "42");
    assert_eq!(
        rt.evaluate("[1, 2, 3].map(x => x * x).join()", "test.js", 1)
            .unwrap(),
        "1,4,9"
    );
    assert_eq!(
        rt.evaluate("({})", "test.js", 1).unwrap(),
        "[object Object]"
    );
}

#[test]
fn state_persists_across_evaluations_in_one_global() {
    let mut rt = JsRuntime::new().unwrap();
    rt.evaluate(
        "var counter = 1; function bump() { return ++counter; }",
        "a.js",
        1,
    )
    .unwrap();
    assert_eq!(rt.evaluate("bump(); bump()", "b.js", 1).unwrap(), "3");
}

#[test]
fn a_thrown_error_carries_message_file_and_position() {
    let mut rt = JsRuntime::new().unwrap();
    let err = rt
        .evaluate(
            "var ok = 1;\n  null.x;",
            "https://example.test/page.html",
            10,
        )
        .unwrap_err();
    assert!(err.message.starts_with("TypeError"), "{err}");
    assert_eq!(err.filename, "https://example.test/page.html");
    assert_eq!((err.line, err.column), (11, 3), "{err}");
    // The error was taken: the runtime keeps working.
    assert_eq!(rt.evaluate("1 + 1", "c.js", 1).unwrap(), "2");
}

#[test]
fn syntax_errors_and_thrown_values_are_errors() {
    let mut rt = JsRuntime::new().unwrap();
    let err = rt.evaluate("function (", "s.js", 1).unwrap_err();
    assert!(err.message.starts_with("SyntaxError"), "{err}");
    let err = rt.evaluate("throw 'plain string'", "t.js", 1).unwrap_err();
    assert!(err.message.contains("plain string"), "{err}");
    let err = rt
        .evaluate("({ toString() { throw new RangeError('no') } })", "u.js", 1)
        .unwrap_err();
    assert!(err.message.starts_with("RangeError"), "{err}");
}

#[test]
fn runtimes_on_several_threads_are_independent() {
    let handles: Vec<_> = (0..3)
        .map(|i| {
            std::thread::spawn(move || {
                let mut rt = JsRuntime::new().unwrap();
                rt.evaluate(&format!("var who = {i}; who * 10"), "t.js", 1)
                    .unwrap()
            })
        })
        .collect();
    let results: Vec<String> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results, ["0", "10", "20"]);
}
