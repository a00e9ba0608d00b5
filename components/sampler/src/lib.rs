//! The sampler component of the JS Self-Profiling API: suspends a JS thread,
//! walks SpiderMonkey's profiling stack, and produces traces per realm.
//!
//! This crate is being built up by the sampler issue; today it holds the C++
//! glue build (compiled against SpiderMonkey's public headers) that the
//! sampler will use.

pub mod glue;
