//! Fetching the descendants of and linking a module graph: the queue of
//! static imports the load hook fills, `LoadRequestedModules` driven to
//! completion with HTML's loadState, then `ModuleLink`; and "fetch an
//! external module script graph".

use std::ptr::NonNull;

use jsprof_document::CorsSettings;
use mozjs::context::{JSContext, RawJSContext};
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{HandleValue as RawHandleValue, Heap, JSObject};
use mozjs::jsval::{Int32Value, JSVal, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2;
use mozjs::rust::Handle;

use super::errors::{new_type_error, take_exception};
use super::fetch::{fetch_single_module_script, Fetched};
use super::{GraphState, Kind, ModuleResult, PendingLoad, GRAPHS, NEXT_GRAPH, STATIC_LOADS};
use crate::dom::globals::globalscope::GlobalScope;

/// Processes the queued static-import requests until none is left (each
/// one can queue more: the requests of the module it finished).
pub(super) fn drain_static_loads(cx: &mut JSContext) {
    while let Some(load) = STATIC_LOADS.with(|loads| loads.borrow_mut().pop_front()) {
        let Some(global) = NonNull::new(load.global.get()) else {
            continue;
        };
        let mut realm = AutoRealm::new(cx, global);
        finish_static_load(&mut realm, load);
    }
}

/// Whether the graph `id` stopped loading (failed): its later requests
/// are not fetched.
fn graph_settled(id: u32) -> bool {
    GRAPHS.with(|g| g.borrow().get(&id).is_none_or(|s| s.outcome.is_some()))
}

/// Step 10-16 of HostLoadImportedModule for `load`, up to
/// onSingleFetchComplete: fetch a single imported module script (or find
/// it in the module map) and return its record; otherwise `None`, with the
/// completion's error in `error`: a TypeError for a resolution failure or a
/// null module script, the parse error for one that does not parse (both
/// of those also become the loadState's \[\[ErrorToRethrow]] if it was null).
pub(super) fn fetch_imported_module(
    cx: &mut JSContext,
    load: &PendingLoad,
    mut error: mozjs::rust::MutableHandleValue,
) -> Option<*mut JSObject> {
    // SAFETY: `load.global` is rooted (a `RootedTraceableBox`) for as long as
    // `load` lives, which outlives `global`; it was set in the load hook
    // from `GlobalScope::current`, so it is one of our globals.
    let global = unsafe { GlobalScope::from_global(load.global.get()) };
    let (url, kind) = match &load.target {
        // Step 11: If the previous step threw an exception, then
        // FinishLoadingImportedModule(referrer, moduleRequest, payload,
        // ThrowCompletion(resolutionError)); with a loadState, its
        // [[ErrorToRethrow]] becomes resolutionError.
        Err(message) => {
            new_type_error(cx, message, error.reborrow());
            if let Some(graph) = load.graph {
                set_graph_error_to_rethrow(graph, error.get());
            }
            return None;
        }
        Ok(target) => target,
    };
    match fetch_single_module_script(cx, global, url, *kind, load.credentials) {
        // onSingleFetchComplete step 4: NormalCompletion(moduleScript's
        // record).
        Fetched::Record(record) => Some(record),
        // Step 2: If moduleScript is null, then set completion to
        // ThrowCompletion(a new TypeError).
        Fetched::Null => {
            new_type_error(
                cx,
                &format!("could not fetch the imported module {url}"),
                error,
            );
            None
        }
        // Step 3: if moduleScript's parse error is not null, completion is
        // ThrowCompletion(parseError), and loadState.[[ErrorToRethrow]]
        // becomes parseError if it was null.
        Fetched::ParseError(parse_error) => {
            error.set(parse_error);
            if let Some(graph) = load.graph {
                set_graph_error_to_rethrow(graph, parse_error);
            }
            None
        }
    }
}

/// FinishLoadingImportedModule(referrer, moduleRequest, payload,
/// NormalCompletion(record)) for `load` (`use_promise`: a dynamic import,
/// which SpiderMonkey then links and evaluates from a promise job). False
/// if the engine failed (an exception may be pending).
pub(super) fn finish_loading_imported_module(
    cx: &mut JSContext,
    load: &PendingLoad,
    record: Handle<*mut JSObject>,
    use_promise: bool,
) -> bool {
    rooted!(&in(cx) let referrer = load.referrer.get());
    rooted!(&in(cx) let request = load.request.get());
    rooted!(&in(cx) let payload = load.payload.get());
    // SAFETY: every handle is rooted (locals above and the caller's
    // `record`); `referrer`, `request` and `payload` are the values the
    // engine passed to the load hook for this request, kept alive since by
    // the `load`'s roots; `cx` is in the importing global's realm.
    unsafe {
        wrappers2::FinishLoadingImportedModule(
            cx,
            referrer.handle(),
            request.handle(),
            payload.handle(),
            record,
            use_promise,
        )
    }
}

/// Step 16 of HostLoadImportedModule for a static import: fetch a single
/// imported module script, then onSingleFetchComplete step 5: perform
/// FinishLoadingImportedModule(referrer, moduleRequest, payload,
/// completion).
fn finish_static_load(cx: &mut JSContext, load: PendingLoad) {
    if load.graph.is_none_or(graph_settled) {
        // The graph already failed: nothing more to fetch for it.
        return;
    }
    rooted!(&in(cx) let payload = load.payload.get());
    rooted!(&in(cx) let mut error = UndefinedValue());
    match fetch_imported_module(cx, &load, error.handle_mut()) {
        Some(record) => {
            rooted!(&in(cx) let record = record);
            if !finish_loading_imported_module(cx, &load, record.handle(), false) {
                // An engine failure (out of memory): the graph fails.
                rooted!(&in(cx) let mut failure = UndefinedValue());
                take_exception(cx, failure.handle_mut());
            }
        }
        // SAFETY: `payload` and `error` are rooted locals; `payload` is the
        // engine's payload for this request (see above); no exception is
        // pending (`fetch_imported_module` took it into `error`).
        None => unsafe {
            wrappers2::FinishLoadingImportedModuleFailed(cx, payload.handle(), error.handle());
        },
    }
}

fn set_graph_error_to_rethrow(graph: u32, error: JSVal) {
    GRAPHS.with(|graphs| {
        if let Some(state) = graphs.borrow_mut().get_mut(&graph) {
            if state.error_to_rethrow.is_none() {
                let root = RootedTraceableBox::new(Heap::default());
                root.set(error);
                state.error_to_rethrow = Some(root);
            }
        }
    });
}

/// `LoadRequestedModules`' fulfilment callback.
unsafe extern "C" fn graph_loaded(_cx: *mut RawJSContext, host_defined: RawHandleValue) -> bool {
    // SAFETY: the engine passes a rooted handle to the host-defined value
    // (an int32, no GC thing), valid for this call.
    let id = unsafe { *host_defined.ptr };
    if id.is_int32() {
        GRAPHS.with(|graphs| {
            if let Some(state) = graphs.borrow_mut().get_mut(&(id.to_int32() as u32)) {
                state.outcome = Some(Ok(()));
            }
        });
    }
    true
}

/// `LoadRequestedModules`' rejection callback.
unsafe extern "C" fn graph_failed(
    _cx: *mut RawJSContext,
    host_defined: RawHandleValue,
    error: RawHandleValue,
) -> bool {
    // SAFETY: the engine passes a rooted handle to the host-defined value
    // (an int32, no GC thing), valid for this call.
    let id = unsafe { *host_defined.ptr };
    // SAFETY: a rooted handle to the rejection's error, valid for this
    // call; the value is stored in a new root below before any call that
    // can collect (only a Rust allocation and map lookups in between).
    let error = unsafe { *error.ptr };
    if id.is_int32() {
        GRAPHS.with(|graphs| {
            if let Some(state) = graphs.borrow_mut().get_mut(&(id.to_int32() as u32)) {
                let root = RootedTraceableBox::new(Heap::default());
                root.set(error);
                state.outcome = Some(Err(root));
            }
        });
    }
    true
}

/// How loading a graph's requested modules ended.
pub(super) enum GraphOutcome {
    Loaded,
    /// Rejected: the loadState's error to rethrow (if any) and the
    /// rejection's error.
    Failed(
        Option<RootedTraceableBox<Heap<JSVal>>>,
        RootedTraceableBox<Heap<JSVal>>,
    ),
}

/// `record.LoadRequestedModules(state)` with a fresh loadState, driven to
/// completion (`cx` in the record's realm).
pub(super) fn load_requested_modules(
    cx: &mut JSContext,
    record: Handle<*mut JSObject>,
) -> GraphOutcome {
    let id = NEXT_GRAPH.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1).max(1));
        id
    });
    GRAPHS.with(|g| g.borrow_mut().insert(id, GraphState::default()));
    rooted!(&in(cx) let host_defined = Int32Value(id as i32));
    // SAFETY: `record` (the caller's) and `host_defined` are rooted; `cx` is
    // in the record's realm (this function's contract); the callbacks are
    // `extern "C"` functions with the expected signatures, valid forever.
    let started = unsafe {
        wrappers2::LoadRequestedModules(
            cx,
            record,
            host_defined.handle(),
            Some(graph_loaded),
            Some(graph_failed),
        )
    };
    if !started {
        rooted!(&in(cx) let mut failure = UndefinedValue());
        take_exception(cx, failure.handle_mut());
    }
    drain_static_loads(cx);
    let state = GRAPHS
        .with(|g| g.borrow_mut().remove(&id))
        .unwrap_or_default();
    match state.outcome {
        Some(Ok(())) => GraphOutcome::Loaded,
        Some(Err(error)) => GraphOutcome::Failed(state.error_to_rethrow, error),
        None => {
            // Never settled (the engine failed to start loading): a
            // failure with a TypeError.
            let error = RootedTraceableBox::new(Heap::default());
            rooted!(&in(cx) let mut value = UndefinedValue());
            new_type_error(
                cx,
                "the module graph could not be loaded",
                value.handle_mut(),
            );
            error.set(value.get());
            GraphOutcome::Failed(state.error_to_rethrow, error)
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-the-descendants-of-and-link-a-module-script>
/// for the module script `fetched` (`cx` in its realm).
pub(super) fn fetch_descendants_and_link(
    cx: &mut JSContext,
    fetched: Fetched,
    external: bool,
) -> ModuleResult {
    let mut result = ModuleResult::null(external);
    let record = match fetched {
        Fetched::Null => return result,
        // Step 2: If record is null, then set moduleScript's error to
        // rethrow to moduleScript's parse error, run onComplete given
        // moduleScript, and return.
        Fetched::ParseError(error) => {
            let root = RootedTraceableBox::new(Heap::default());
            root.set(error);
            result.error_to_rethrow = Some(root);
            return result;
        }
        Fetched::Record(record) => record,
    };
    rooted!(&in(cx) let record = record);
    // Step 3-4: Let state be Record { [[ErrorToRethrow]]: null, ... }; let
    // loadingPromise be record.LoadRequestedModules(state).
    match load_requested_modules(cx, record.handle()) {
        // Step 5: Upon fulfillment of loadingPromise: perform
        // record.Link(); if this throws an exception, set moduleScript's
        // error to rethrow to that exception. Run onComplete given
        // moduleScript.
        GraphOutcome::Loaded => {
            result.record.set(record.get());
            // SAFETY: `record` is a rooted module record whose requested
            // modules are all loaded (the graph settled as loaded); `cx` is
            // in its realm.
            if !unsafe { wrappers2::ModuleLink(cx, record.handle()) } {
                rooted!(&in(cx) let mut error = UndefinedValue());
                take_exception(cx, error.handle_mut());
                let root = RootedTraceableBox::new(Heap::default());
                root.set(error.get());
                result.error_to_rethrow = Some(root);
            }
        }
        // Step 6: Upon rejection: if state.[[ErrorToRethrow]] is not null,
        // set moduleScript's error to rethrow to it and run onComplete
        // given moduleScript; otherwise, run onComplete given null.
        GraphOutcome::Failed(error_to_rethrow, _) => {
            if let Some(error) = error_to_rethrow {
                result.record.set(record.get());
                result.error_to_rethrow = Some(error);
            }
        }
    }
    result
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-an-external-module-script-graph>
pub(super) fn fetch_external_module_script_graph(
    cx: &mut JSContext,
    global: &GlobalScope,
    url: &url::Url,
    credentials: CorsSettings,
) -> ModuleResult {
    // Step 2: Fetch a single module script given url, settings object,
    // "script", options, settings object, "client", true, and onComplete:
    // Step 2.1: If result is null, run onComplete given null, and abort.
    // Step 2.2: Fetch the descendants of and link result.
    let fetched = fetch_single_module_script(cx, global, url, Kind::JavaScript, credentials);
    fetch_descendants_and_link(cx, fetched, true)
}
