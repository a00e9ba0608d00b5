//! The DOM: one module per WebIDL interface (the struct and its
//! `*Methods` implementation), plus the bindings runtime.

pub mod bindings;
pub mod domexception;
pub mod event;
pub mod eventtarget;
pub mod globalscope;
pub mod profiler;
pub mod testbinding;
pub mod testworkeronly;
