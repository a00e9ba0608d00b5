//! The C++ glue is compiled against the headers of the SpiderMonkey that is
//! linked, with matching configure defines.

#[test]
fn glue_sees_the_linked_spidermonkey() {
    assert!(jsprof_sampler::glue::implementation_version().starts_with("JavaScript-C153"));
}

#[test]
fn glue_and_bindgen_agree_on_profiling_stack_layout() {
    assert!(jsprof_sampler::glue::profiling_stack_layout_matches());
}

#[test]
fn glue_and_rust_agree_on_capture_records() {
    assert!(jsprof_sampler::glue::record_layouts_match());
}
