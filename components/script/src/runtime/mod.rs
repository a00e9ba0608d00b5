//! The JS thread's machinery: the engine and a [`JsRuntime`] per agent,
//! the event loop, timers, promise rejections, the watchdog, dedicated
//! workers' agent threads, rendering steps, and the profiling glue to the
//! sampler.

pub(crate) mod agent;
pub mod engine;
pub mod event_loop;
mod js_runtime;
pub mod profiling;
pub mod rejection;
pub mod rendering;
pub(crate) mod timers;
pub mod watchdog;
pub mod workers;

pub(crate) use js_runtime::{
    current_context, current_context_and_inbox, parent_for_new_worker, AgentRuntime,
};
pub use js_runtime::{perform_microtask_checkpoint, JsRuntime, RuntimeOptions, ScriptError};
