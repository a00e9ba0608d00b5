//! Script runtime and DOM of the jsprof shell.
//!
//! One SpiderMonkey engine per process ([`engine`]) and one [`JsRuntime`]
//! per JS thread (agent) with a global to evaluate classic scripts in
//! ([`runtime`]): the page's, and one per dedicated worker ([`workers`]). The DOM ([`dom`]) is exposed through bindings generated
//! from `webidl/` by `bindings-gen` (see `dom::bindings`).

pub(crate) mod agent;
pub mod browsing_context;
pub mod dom;
pub mod engine;
pub mod event_loop;
pub mod fetch;
pub(crate) mod html_serializer;
pub mod html_tree_builder;
pub(crate) mod html_tree_sink;
pub mod import_map;
pub mod module_loading;
pub mod profiling;
pub mod rejection;
pub mod rendering;
pub mod runtime;
pub mod script_element;
pub mod script_loading;
pub mod script_registry;
pub(crate) mod timers;
pub mod watchdog;
pub mod windowproxy;
pub mod worker_scripts;
pub mod workers;

pub use dom::globalscope::{GlobalKind, Prefs, PROFILER_PREF, TESTBINDING_PREF};
pub use runtime::{JsRuntime, RuntimeOptions, ScriptError};
