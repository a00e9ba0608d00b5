//! The script crate's integration tests, in one test binary: SpiderMonkey
//! is linked once for all of them, not once per file. Each module is one
//! area (its doc says what it covers); `common` holds what they share.
//!
//! Run one area with a filter on the module path, e.g.
//! `./mach cargo test --release -p jsprof-script --test it -- workers::`.
//!
//! The tests share one process and run in parallel. A test that looks at
//! the whole process (its threads, the count of live worker threads, a
//! hook that acts on the next worker anywhere in the process) runs in a
//! process of its own instead: it starts with
//! `if !common::own_process() { return; }` (see [`common::own_process`]).
//! Everything else a test touches is its own: each test runs on a thread
//! of its own, with its own agent (runtime, navigables, profiler state),
//! its own test server and its own temp files.

mod common;

mod bindings;
mod deep_documents;
mod dom_tree;
mod elements;
mod evaluate;
mod event_handlers;
mod fetch_blob;
mod fetch_xhr;
mod frames_and_idle;
mod hostile;
mod iframes;
mod modules;
mod net_page;
mod page;
mod profiler;
mod profiler_markers;
mod profiler_security;
mod profiler_wasm;
mod script_iframes;
mod script_inserted;
mod webdata;
mod windowproxy;
mod worker_stress;
mod workers;
