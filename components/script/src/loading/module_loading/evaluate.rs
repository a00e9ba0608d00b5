//! Running module scripts: "run a module script" (`ModuleEvaluate`, a
//! rejected evaluation promise reported) and a module worker's script.

use std::ptr::{self, NonNull};

use jsprof_document::CorsSettings;
use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsapi::JSObject;
use mozjs::jsval::{JSVal, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2;

use super::errors::set_pending_exception;
use super::fetch::{create_module_script, fetched_module_record, module_map_set};
use super::graph::fetch_descendants_and_link;
use super::{Kind, ModuleResult};
use crate::dom::globals::globalscope::{report_pending_exception, GlobalScope};

/// The reaction to a rejected evaluation promise: "report an exception
/// given by reason" in the current realm.
unsafe extern "C" fn report_evaluation_failure(
    cx: *mut RawJSContext,
    argc: u32,
    vp: *mut JSVal,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a JSNative called by SpiderMonkey on this thread: `raw` is the
    // live context, and `vp`/`argc` are its argument vector (rooted by the
    // engine for the call), so `args.get(0)` is a valid handle; the reason
    // is rooted at once, before the calls that can collect.
    unsafe {
        let args = mozjs::jsapi::CallArgs::from_vp(vp, argc);
        let mut cx = JSContext::from_ptr(raw);
        rooted!(&in(&mut cx) let reason = *args.get(0).ptr);
        // (An evaluation the memory ceiling stopped is rejected with
        // undefined: it is reported as the out-of-memory error it is, see
        // `crate::runtime::watchdog`; nothing is pending then.)
        if !(reason.get().is_undefined() && crate::runtime::watchdog::memory_stopped()) {
            wrappers2::JS_SetPendingException(
                &mut cx,
                reason.handle(),
                mozjs::jsapi::ExceptionStackBehavior::Capture,
            );
        }
        report_pending_exception(&mut cx);
        args.rval().set(UndefinedValue());
    }
    true
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#run-a-module-script>
/// with preventErrorReporting false (`cx` in the script's realm).
pub(super) fn run_module_script(cx: &mut JSContext, script: &ModuleResult) {
    // Step 1-4: settings, check if we can run script, prepare to run
    // script (the caller entered the realm).
    // Step 6: If script's error to rethrow is not null, then set
    // evaluationPromise to a promise rejected with it; step 8 reports it.
    if let Some(error) = &script.error_to_rethrow {
        set_pending_exception(cx, error.get());
        report_pending_exception(cx);
        return;
    }
    // Step 7: Otherwise: let record be script's record; set
    // evaluationPromise to record.Evaluate().
    rooted!(&in(cx) let record = script.record.get());
    if record.get().is_null() {
        return;
    }
    rooted!(&in(cx) let mut promise = UndefinedValue());
    // SAFETY: `record` is a rooted, non-null (checked above), linked module
    // record (`fetch_descendants_and_link` linked it); `cx` is in its realm
    // (the caller's contract); `promise` is rooted.
    if !unsafe { wrappers2::ModuleEvaluate(cx, record.handle(), promise.handle_mut()) } {
        // Evaluate did not complete (the agent was terminated, or the
        // engine failed): report what is pending, if anything.
        report_pending_exception(cx);
        return;
    }
    // Step 8: upon rejection of evaluationPromise with reason, report an
    // exception given by reason for script's settings object's global
    // object.
    if promise.get().is_object() {
        // SAFETY: `cx` is this thread's live context, in the script's realm;
        // the promise is rooted at once; `function` is used (to get its
        // object, no GC) only right after its null check and rooted as
        // `on_rejected` before the next call that can collect; the native
        // has the JSNative signature; the name is a static C string.
        unsafe {
            rooted!(&in(cx) let promise = promise.get().to_object());
            let function = mozjs::jsapi::JS_NewFunction(
                cx.raw_cx(),
                Some(report_evaluation_failure),
                1,
                0,
                c"reportModuleError".as_ptr(),
            );
            if function.is_null() {
                return;
            }
            rooted!(&in(cx) let on_rejected = mozjs::jsapi::JS_GetFunctionObject(function));
            rooted!(&in(cx) let none = ptr::null_mut::<JSObject>());
            mozjs::jsapi::AddPromiseReactions(
                cx.raw_cx(),
                promise.handle().into(),
                none.handle().into(),
                on_rejected.handle().into(),
            );
        }
    }
    // Step 9: Clean up after running script (the caller performs the
    // microtask checkpoint).
}

/// Why a module worker's script did not start.
pub(crate) enum WorkerModuleError {
    /// Null, or an error to rethrow: the `Worker` gets a plain `error`
    /// event (the reason goes to the console).
    NotRunnable(String),
}

/// A module worker's script
/// (<https://html.spec.whatwg.org/multipage/workers.html#run-a-worker>
/// step 12, "fetch a module worker script graph", and onComplete steps
/// 1-10): the fetched root (`source` from `response_url`, requested as
/// `request_url`) becomes a module script in the worker's module map, its
/// descendants are fetched (CORS, credentials from the worker's options)
/// and linked, then it runs; its evaluation errors are reported in the
/// worker. `cx` is in the worker global's realm.
pub(crate) fn run_module_worker_script(
    cx: &mut JSContext,
    source: &str,
    request_url: &url::Url,
    response_url: &url::Url,
    credentials: CorsSettings,
) -> Result<(), WorkerModuleError> {
    // SAFETY: `cx` is in the worker global's realm (this function's
    // contract), which keeps its global alive while entered, i.e. for this
    // whole call; `global` does not outlive it.
    let Some(global) = (unsafe { GlobalScope::current(cx) }) else {
        return Err(WorkerModuleError::NotRunnable("no global".to_owned()));
    };
    global.modules().module_worker.set(true);
    // The MIME type was checked by the worker script fetch (HTTP(S)); a
    // module script of another scheme needs one too (step 6 of "fetch a
    // single module script" applies to every response).
    let record = fetched_module_record(response_url, &global.origin());
    let fetched = create_module_script(
        cx,
        source,
        record,
        response_url,
        Kind::JavaScript,
        credentials,
    );
    module_map_set(global, request_url.clone(), Kind::JavaScript, &fetched);
    let result = fetch_descendants_and_link(cx, fetched, false);
    // onComplete step 1: If script is null or if script's error to rethrow
    // is non-null, then queue a global task to fire an event named error
    // at worker (the caller), and abort these steps.
    if result.is_null() {
        return Err(WorkerModuleError::NotRunnable(format!(
            "{response_url}: a module of the worker's graph could not be fetched"
        )));
    }
    if let Some(error) = &result.error_to_rethrow {
        set_pending_exception(cx, error.get());
        let description = crate::dom::globals::globalscope::take_pending_exception(cx)
            .map(|e| e.to_string())
            .unwrap_or_default();
        return Err(WorkerModuleError::NotRunnable(description));
    }
    // Step 10: Otherwise, it is a module script; run the module script
    // script.
    run_module_script(cx, &result);
    Ok(())
}
