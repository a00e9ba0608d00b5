//! The C++ glue is compiled against the headers of the SpiderMonkey that is
//! linked, with matching configure defines.

use crate::Runner;
use jsprof_sampler::test_hooks;

fn glue_sees_the_linked_spidermonkey() {
    assert!(test_hooks::implementation_version().starts_with("JavaScript-C153"));
}

fn glue_and_bindgen_agree_on_profiling_stack_layout() {
    assert!(test_hooks::profiling_stack_layout_matches());
}

fn glue_and_rust_agree_on_capture_records() {
    assert!(test_hooks::record_layouts_match());
}

/// The cases, in order; they need no engine.
const CASES: &[(&str, fn())] = &[
    (
        "glue_sees_the_linked_spidermonkey",
        glue_sees_the_linked_spidermonkey,
    ),
    (
        "glue_and_bindgen_agree_on_profiling_stack_layout",
        glue_and_bindgen_agree_on_profiling_stack_layout,
    ),
    (
        "glue_and_rust_agree_on_capture_records",
        glue_and_rust_agree_on_capture_records,
    ),
];

/// Runs the cases the filter selects, as `glue_build::<case>`.
pub(crate) fn run(runner: &mut Runner) {
    for (name, case) in CASES {
        let name = format!("glue_build::{name}");
        if runner.selects(&name) {
            runner.run(&name, case);
        } else {
            runner.skip(1);
        }
    }
}
