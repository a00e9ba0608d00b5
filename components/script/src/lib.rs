//! Script runtime and DOM of the jsprof shell.
//!
//! Today: one SpiderMonkey engine per process ([`engine`]) and one
//! [`JsRuntime`] per JS thread (agent) with a global to evaluate classic
//! scripts in. The bindings-gen and shell issues add the generated DOM here.

pub mod engine;
pub mod runtime;

pub use runtime::{JsRuntime, ScriptError};
