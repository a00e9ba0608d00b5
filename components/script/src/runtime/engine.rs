//! The process-wide SpiderMonkey engine.
//!
//! `JS_Init` may run once per process and `JS_ShutDown` ends SpiderMonkey for
//! good, so the engine is initialised on first use and lives until the
//! process exits; every [`crate::JsRuntime`] (one per thread) holds a handle
//! to it. At exit, if no runtime is left, the engine is shut down before
//! SpiderMonkey's static destructors run (they crash on the locks of still
//! running helper threads otherwise).

use std::sync::Mutex;

use mozjs::rust::{JSEngine, JSEngineHandle};

/// The engine; only touched under the mutex.
struct Engine(JSEngine);

// SAFETY: JSEngine is only used under ENGINE's lock; creating handles and
// shutting down are thread-safe in SpiderMonkey.
unsafe impl Send for Engine {}

static ENGINE: Mutex<Option<Result<Engine, String>>> = Mutex::new(None);

extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
}

/// Shuts the engine down at process exit when no runtime is alive.
extern "C" fn shut_down_at_exit() {
    let Ok(mut engine) = ENGINE.try_lock() else {
        return;
    };
    if let Some(Ok(engine)) = engine.take() {
        if engine.0.can_shutdown() {
            drop(engine);
        } else {
            // A runtime is still alive on another thread: leave it alone.
            std::mem::forget(engine);
        }
    }
}

/// A handle to the process's engine, initialising it on first call.
pub fn handle() -> Result<JSEngineHandle, String> {
    let mut engine = ENGINE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if engine.is_none() {
        let result = JSEngine::init()
            .map(Engine)
            .map_err(|e| format!("SpiderMonkey failed to start: {e:?}"));
        if result.is_ok() {
            // SAFETY: registering a plain function.
            unsafe { atexit(shut_down_at_exit) };
            // The DOM's side of the bindings runtime, before any runtime
            // (and so any global) exists.
            crate::dom::bindings::install_hooks();
        }
        *engine = Some(result);
    }
    match engine.as_ref() {
        Some(Ok(engine)) => Ok(engine.0.handle()),
        Some(Err(e)) => Err(e.clone()),
        None => Err("SpiderMonkey was shut down".to_owned()),
    }
}
