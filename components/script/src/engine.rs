//! The process-wide SpiderMonkey engine.
//!
//! `JS_Init` may run once per process and `JS_ShutDown` ends SpiderMonkey for
//! good, so the engine is initialised on first use and lives until the process
//! exits; every [`crate::JsRuntime`] (one per thread) holds a handle to it.

use std::sync::OnceLock;

use mozjs::rust::{JSEngine, JSEngineHandle};

static ENGINE: OnceLock<Result<JSEngineHandle, String>> = OnceLock::new();

/// A handle to the process's engine, initialising it on first call.
pub fn handle() -> Result<JSEngineHandle, String> {
    ENGINE
        .get_or_init(|| {
            let engine =
                JSEngine::init().map_err(|e| format!("SpiderMonkey failed to start: {e:?}"))?;
            let handle = engine.handle();
            // Never shut down: a JSEngine dropped while runtimes exist would
            // assert, and a shut-down engine cannot be started again.
            std::mem::forget(engine);
            Ok(handle)
        })
        .clone()
}
