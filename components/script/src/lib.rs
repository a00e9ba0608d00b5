//! Script runtime and DOM of the jsprof shell.
//!
//! Four areas, one folder each:
//! - [`runtime`]: one SpiderMonkey engine per process ([`runtime::engine`])
//!   and one [`JsRuntime`] per JS thread (agent) with its global: the
//!   page's, and one per dedicated worker ([`runtime::workers`]); the event
//!   loop, timers, the watchdog, and the profiling glue to the sampler.
//! - [`loading`]: fetching and running code and documents (classic and
//!   module scripts, import maps, worker scripts, HTML tree building).
//! - [`navigation`]: browsing contexts and their `WindowProxy` objects.
//! - [`dom`]: the DOM, in folders by area, exposed through bindings
//!   generated from `webidl/` by `bindings-gen` (see `dom::bindings`).

pub mod dom;
pub mod loading;
pub mod navigation;
pub mod runtime;

pub use dom::globals::globalscope::{GlobalKind, Prefs, PROFILER_PREF, TESTBINDING_PREF};
pub use runtime::{JsRuntime, RuntimeOptions, ScriptError};
