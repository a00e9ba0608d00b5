//! Script-made network requests off the event loop's thread: `fetch()`
//! (<https://fetch.spec.whatwg.org/#fetch-method>) and the fetches of
//! `XMLHttpRequest`.
//!
//! [`start`] hands a [`jsprof_net::ApiRequest`] to the agent's fetch
//! threads (the pool script elements use, `crate::loading::script_element`), where
//! the page loader's [`Loader::fetch_api`](crate::loading::script_loading::Loader::fetch_api)
//! runs the Fetch Standard's fetch (CORS, preflight, redirects, cookies);
//! the result comes back through the event loop's inbox as a networking
//! task, which runs the caller's completion steps. While a fetch is in
//! flight the event loop counts it as a pending load (it is not idle).
//!
//! The completion steps may hold GC roots (promises, DOM objects): they
//! live in the agent's table keyed by fetch id, dropped by
//! [`Fetches::discard`] when the event loop shuts down (the agent's
//! teardown); abort algorithms hold only the id.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use jsprof_net::{ApiRequest, ApiResponse, NetError};
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::JSVal;
use mozjs::realm::AutoRealm;

use crate::dom::bindings::codegen::RequestBinding::RequestMethods;
use crate::dom::bindings::codegen::{RequestInit, RequestOrUSVString};
use crate::dom::bindings::conversions::RootedJsValue;
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::fetch::request::Request;
use crate::dom::fetch::response::Response;
use crate::dom::globals::globalscope::GlobalScope;
use crate::navigation::browsing_context;
use crate::runtime::event_loop::EventLoop;

/// What runs when a fetch ends (in a networking task, on the loop's
/// thread): its result, or `None` if the deadline given to
/// [`time_out_after`] passed first.
pub type Completion = Box<dyn FnOnce(&mut JSContext, Option<Result<ApiResponse, NetError>>)>;

struct Pending {
    completion: Completion,
    /// Polled by the fetch thread before each hop.
    cancelled: Arc<AtomicBool>,
}

/// This agent's pending fetches (a field of
/// [`Agent`](crate::runtime::agent::Agent), dropped with it before the context).
#[derive(Default)]
pub(crate) struct Fetches {
    pending: RefCell<HashMap<u64, Pending>>,
    next_id: Cell<u64>,
}

impl Fetches {
    /// Cancels every pending fetch and drops its completion steps (and
    /// their roots).
    pub(crate) fn discard(&self) {
        let pending = std::mem::take(&mut *self.pending.borrow_mut());
        for (_, entry) in pending.iter() {
            entry.cancelled.store(true, Ordering::SeqCst);
        }
        drop(pending);
    }
}

/// Removes fetch `id` from this agent's pending fetches (none once the
/// agent shut down).
fn take_pending(id: u64) -> Option<Pending> {
    crate::runtime::agent::existing().and_then(|a| a.fetches.pending.borrow_mut().remove(&id))
}

/// Starts fetching `request` off the event loop's thread; `completion`
/// runs in a task once it ends (unless [`cancel`]led first). Returns the
/// fetch's id.
pub(crate) fn start(request: ApiRequest, completion: Completion) -> u64 {
    let agent = crate::runtime::agent::current();
    let id = agent.fetches.next_id.get() + 1;
    agent.fetches.next_id.set(id);
    let cancelled = Arc::new(AtomicBool::new(false));
    agent.fetches.pending.borrow_mut().insert(
        id,
        Pending {
            completion,
            cancelled: cancelled.clone(),
        },
    );
    drop(agent);
    let event_loop = EventLoop::current();
    event_loop.begin_load();
    let Some(loader) = browsing_context::loader() else {
        // No page was loaded (a bare script evaluation): a network error.
        let url = request.url.clone();
        event_loop.queue_task(Box::new(move |cx| {
            complete(
                cx,
                id,
                Err(NetError::InvalidRequest {
                    url,
                    reason: "no loader (no page was loaded)".to_owned(),
                }),
            )
        }));
        return id;
    };
    let inbox = event_loop.inbox().clone();
    let flag = cancelled.clone();
    let job_request = request.clone();
    let submitted = crate::loading::script_element::submit_fetch_job(&loader, move |shared| {
        let result = shared.fetch_api(job_request, &|| flag.load(Ordering::SeqCst));
        // (The loop may be gone: the result is dropped.)
        inbox.post(Box::new(move |cx| complete(cx, id, result)));
    });
    if !submitted {
        // The loader cannot leave this thread: fetch in a task (blocking
        // the loop for the fetch's duration, as before the pool existed).
        event_loop.queue_task(Box::new(move |cx| {
            let result = loader.fetch_api(request, &|| cancelled.load(Ordering::SeqCst));
            complete(cx, id, result);
        }));
    }
    id
}

/// Stops waiting for fetch `id`: its completion steps never run, and the
/// fetch thread stops before its next hop (a hop in flight finishes and
/// is dropped). Returns whether it was still pending.
pub(crate) fn cancel(id: u64) -> bool {
    let pending = take_pending(id);
    match pending {
        Some(pending) => {
            pending.cancelled.store(true, Ordering::SeqCst);
            EventLoop::current().end_load();
            drop(pending);
            true
        }
        None => false,
    }
}

/// The networking task of fetch `id`.
fn complete(cx: &mut JSContext, id: u64, result: Result<ApiResponse, NetError>) {
    let Some(pending) = take_pending(id) else {
        return;
    };
    EventLoop::current().end_load();
    (pending.completion)(cx, Some(result));
}

/// Ends fetch `id` with a timeout (its completion gets `None`) unless it
/// completed within `after`: the timer is a sleeping thread posting to
/// the loop's inbox; the fetch thread stops before its next hop.
pub(crate) fn time_out_after(id: u64, after: std::time::Duration) {
    let inbox = EventLoop::current().inbox().clone();
    let spawned = std::thread::Builder::new()
        .name("js-fetch-timeout".to_owned())
        .spawn(move || {
            std::thread::sleep(after);
            inbox.post(Box::new(move |cx| {
                let Some(pending) = take_pending(id) else {
                    return;
                };
                pending.cancelled.store(true, Ordering::SeqCst);
                EventLoop::current().end_load();
                (pending.completion)(cx, None);
            }));
        });
    // (Without a thread there is no timeout: the fetch ends on its own,
    // within the loader's timeout.)
    drop(spawned);
}

/// <https://fetch.spec.whatwg.org/#abort-fetch> for `fetch()`: rejects
/// `promise` with `error` (the signal's abort reason).
fn abort_fetch_call(cx: &mut JSContext, promise: &Promise, error: JSVal) {
    // Step 1: Reject promise with error. (This is a no-op if promise has
    // already fulfilled.)
    let reason = RootedJsValue::new(Heap::default());
    reason.set(error);
    promise.reject(cx, &reason);
    // Steps 2-4 (the request's body stream, the response object's body
    // stream): no streams here.
}

/// Runs `f` in the realm of `global` (a global object alive while the
/// caller's roots are).
fn in_realm(
    cx: &mut JSContext,
    global: *mut mozjs::jsapi::JSObject,
    f: impl FnOnce(&mut JSContext),
) {
    let Some(global) = NonNull::new(global) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global);
    f(&mut realm);
}

/// <https://fetch.spec.whatwg.org/#fetch-method> for a Window or a
/// dedicated worker `global` (the request's client: its origin decides
/// CORS).
pub fn fetch_method(
    global: &GlobalScope,
    cx: &mut JSContext,
    input: RequestOrUSVString,
    init: RequestInit,
) -> Fallible<Rc<Promise>> {
    // Step 1: Let p be a new promise.
    let promise = Promise::new(cx);
    // Step 2: Let requestObject be the result of invoking the initial value
    // of Request as constructor with input and init as arguments. If this
    // throws an exception, reject p with it and return p.
    let request_object = match Request::Constructor(cx, global, None, input, init) {
        Ok(request) => request,
        Err(error) => {
            promise.reject_error(cx, error);
            return Ok(promise);
        }
    };
    // Step 3: Let request be requestObject's request.
    let request = request_object.api_request(global);
    request_object.take_body();
    let signal = request_object.signal();
    // Step 4: If requestObject's signal is aborted, then: abort the fetch()
    // call with p, request, null, and requestObject's signal's abort
    // reason; return p.
    if signal.is_aborted() {
        abort_fetch_call(cx, &promise, signal.reason());
        return Ok(promise);
    }
    // Step 5: Let globalObject be request's client's global object.
    let global_object = global.global_object();
    // Steps 6-11: (no service workers); responseObject null; relevantRealm
    // this's relevant realm; locallyAborted false; controller null.
    let locally_aborted = Rc::new(Cell::new(false));
    // Step 13: Set controller to the result of calling fetch given
    // request and processResponse given response being these steps:
    let result = promise.clone();
    let aborted = locally_aborted.clone();
    let id = start(
        request,
        Box::new(move |cx, response| {
            in_realm(cx, global_object, |cx| {
                // Step 13.1: If locallyAborted is true, then abort these
                // steps.
                if aborted.get() {
                    return;
                }
                let Some(response) = response else {
                    return;
                };
                match response {
                    // Step 13.2: If response's aborted flag is set, then
                    // ... abort the fetch() call (handled by the abort
                    // steps: a cancelled fetch never completes).
                    // Step 13.3: If response is a network error, then reject
                    // p with a TypeError and abort these steps.
                    Err(error) => result.reject_error(cx, Error::Type(format!("fetch: {error}"))),
                    // Step 13.4: Set responseObject to the result of
                    // creating a Response object, given response,
                    // "immutable", and relevantRealm.
                    // Step 13.5: Resolve p with responseObject.
                    Ok(response) => {
                        // SAFETY: `global_object` is the realm just
                        // entered, alive while the promise is.
                        let scope = unsafe { GlobalScope::from_global(global_object) };
                        // Fetch processing is `other` work (markers).
                        let _work = crate::runtime::profiling::other_work(scope);
                        let response_object = Response::from_fetched(cx, scope, response);
                        result.resolve(cx, &response_object);
                    }
                }
            });
        }),
    );
    // Step 12: Add the following abort steps to requestObject's signal:
    // set locallyAborted to true; abort controller with requestObject's
    // signal's abort reason; abort the fetch() call with p, request,
    // responseObject, and requestObject's signal's abort reason.
    // (The promise is reached through the pending fetch's table: the
    // signal holds no root.)
    let abort_promise = Rc::downgrade(&promise);
    signal.add_algorithm(Box::new(move |cx, reason| {
        locally_aborted.set(true);
        // (The pending completion holds the promise until `cancel`.)
        let promise = abort_promise.upgrade();
        if cancel(id) {
            if let Some(promise) = promise {
                abort_fetch_call(cx, &promise, reason);
            }
        }
    }));
    // Step 14: Return p.
    Ok(promise)
}
