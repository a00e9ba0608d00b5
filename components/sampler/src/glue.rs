//! The sampler's glue: every `unsafe` access to SpiderMonkey's C++ profiling
//! API that mozjs does not bind lives here and in `glue.cpp`.
//!
//! # Invariants
//!
//! * `glue.cpp` is compiled against the objdir of the linked mozjs_sys with
//!   the same configure defines (`build.rs`); `profiling_stack_layout_matches`
//!   checks this at run time.

use std::ffi::{c_char, CStr};

extern "C" {
    fn jsprof_glue_profiling_stack_size() -> usize;
    fn jsprof_glue_implementation_version() -> *const c_char;
}

/// Whether the C++ glue and mozjs's bindgen agree on `ProfilingStack`'s size.
pub fn profiling_stack_layout_matches() -> bool {
    // SAFETY: a pure function of the compile-time layout.
    let cxx = unsafe { jsprof_glue_profiling_stack_size() };
    cxx == std::mem::size_of::<mozjs::jsapi::ProfilingStack>()
}

/// The linked SpiderMonkey's implementation version, as seen from the glue.
pub fn implementation_version() -> &'static str {
    // SAFETY: SpiderMonkey returns a pointer to a static NUL-terminated string.
    unsafe { CStr::from_ptr(jsprof_glue_implementation_version()) }
        .to_str()
        .unwrap_or("")
}
