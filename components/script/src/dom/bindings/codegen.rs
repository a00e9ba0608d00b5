//! The bindings generated from `webidl/*.webidl` by `bindings-gen` (run by
//! `build.rs`).

#![allow(
    non_snake_case,
    non_camel_case_types,
    unused_imports,
    unused_unsafe,
    unused_mut,
    unused_variables,
    unreachable_code,
    clippy::all,
    clippy::pedantic
)]

include!(concat!(env!("OUT_DIR"), "/Bindings.rs"));
