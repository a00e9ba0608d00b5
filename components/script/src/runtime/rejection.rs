//! Unhandled promise rejections
//! (<https://html.spec.whatwg.org/multipage/webappapis.html#unhandled-promise-rejections>):
//! SpiderMonkey's promise rejection tracker is HTML's
//! HostPromiseRejectionTracker; the microtask checkpoint calls
//! [`notify_about_rejected_promises`].
//!
//! One agent per thread, so the settings objects' "about-to-be-notified
//! rejected promises list" and "outstanding rejected promises weak set"
//! are kept per agent in [`Rejections`] (each promise knows its global). The weak set holds
//! its promises strongly until the runtime goes away (a simplification).

use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr::NonNull;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject, PromiseRejectionHandlingState};
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;

use crate::dom::bindings::reflector::enter::global_of;
use crate::dom::events::promiserejectionevent::PromiseRejectionEvent;
use crate::dom::globals::globalscope::GlobalScope;
use crate::runtime::event_loop::EventLoop;

type PromiseRoot = RootedTraceableBox<Heap<*mut JSObject>>;

/// This agent's rejected-promise lists (a field of
/// [`Agent`](crate::runtime::agent::Agent), dropped with it before the context).
#[derive(Default)]
pub(crate) struct Rejections {
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#about-to-be-notified-rejected-promises-list>
    about_to_be_notified: RefCell<Vec<PromiseRoot>>,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#outstanding-rejected-promises-weak-set>
    outstanding: RefCell<Vec<PromiseRoot>>,
}

impl Rejections {
    /// Drops every root.
    pub(crate) fn clear(&self) {
        drop(std::mem::take(&mut *self.about_to_be_notified.borrow_mut()));
        drop(std::mem::take(&mut *self.outstanding.borrow_mut()));
    }
}

/// Runs `f` on this agent's about-to-be-notified list; without an agent
/// (it shut down) the list is empty and `f` does not run.
fn about_to_be_notified<R: Default>(f: impl FnOnce(&RefCell<Vec<PromiseRoot>>) -> R) -> R {
    crate::runtime::agent::existing()
        .map_or_else(R::default, |a| f(&a.rejections.about_to_be_notified))
}

/// Runs `f` on this agent's outstanding set; without an agent (it shut
/// down) the set is empty and `f` does not run.
fn outstanding<R: Default>(f: impl FnOnce(&RefCell<Vec<PromiseRoot>>) -> R) -> R {
    crate::runtime::agent::existing().map_or_else(R::default, |a| f(&a.rejections.outstanding))
}

/// The most promises kept in the outstanding set (oldest dropped first).
const MAX_OUTSTANDING: usize = 10_000;

fn root(promise: *mut JSObject) -> PromiseRoot {
    let root = RootedTraceableBox::new(Heap::default());
    root.set(promise);
    root
}

/// Installs the tracker on the context.
pub(crate) fn install(cx: &JSContext) {
    // SAFETY: installing a hook (a plain function) on this thread's context.
    unsafe {
        mozjs::rust::wrappers2::SetPromiseRejectionTrackerCallback(
            cx,
            Some(host_promise_rejection_tracker),
            std::ptr::null_mut(),
        )
    };
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#the-hostpromiserejectiontracker-implementation>
unsafe extern "C" fn host_promise_rejection_tracker(
    _cx: *mut RawJSContext,
    muted_errors: bool,
    promise: mozjs::jsapi::HandleObject,
    operation: PromiseRejectionHandlingState,
    _data: *mut c_void,
) {
    // Step 1: Let script be the running script.
    // Step 2: If script is a classic script and script's muted errors is
    // true, then return.
    if muted_errors {
        return;
    }
    // Step 3: Let settings object be the current settings object (the
    // promise's global, kept with it).
    let promise = promise.get();
    match operation {
        // Step 5: If operation is "reject", then: append promise to
        // settings object's about-to-be-notified rejected promises list.
        PromiseRejectionHandlingState::Unhandled => {
            about_to_be_notified(|l| l.borrow_mut().push(root(promise)));
        }
        // Step 6: If operation is "handle", then:
        PromiseRejectionHandlingState::Handled => {
            // Step 6.1: If settings object's about-to-be-notified rejected
            // promises list contains promise, then remove promise from that
            // list and return.
            let was_pending = about_to_be_notified(|l| {
                let mut l = l.borrow_mut();
                let before = l.len();
                l.retain(|p| p.get() != promise);
                l.len() != before
            });
            if was_pending {
                return;
            }
            // Step 6.2: If settings object's outstanding rejected promises
            // weak set does not contain promise, then return.
            // Step 6.3: Remove promise from settings object's outstanding
            // rejected promises weak set.
            let was_outstanding = outstanding(|l| {
                let mut l = l.borrow_mut();
                let before = l.len();
                l.retain(|p| p.get() != promise);
                l.len() != before
            });
            if !was_outstanding {
                return;
            }
            // Step 6.4: Let global be settings object's global object.
            // Step 6.5: Queue a global task on the DOM manipulation task
            // source given global to fire an event named rejectionhandled
            // at global, using PromiseRejectionEvent, with the promise
            // attribute initialized to promise, and the reason attribute
            // initialized to promise.[[PromiseResult]].
            let promise = root(promise);
            EventLoop::current().queue_task(Box::new(move |cx| {
                fire(cx, &promise, "rejectionhandled", false);
            }));
        }
    }
}

/// Fires `type_` at the promise's global (a window or a worker global);
/// returns "not handled" (the event was not canceled), or true when there
/// is no global to fire at.
fn fire(cx: &mut JSContext, promise: &PromiseRoot, type_: &str, cancelable: bool) -> bool {
    let Some(object) = NonNull::new(promise.get()) else {
        return true;
    };
    // SAFETY: `promise` roots the object, a promise SpiderMonkey handed to
    // the rejection tracker (never a cross-compartment wrapper).
    let global = unsafe { global_of(object) };
    let mut realm = AutoRealm::new(cx, global);
    let cx = &mut *realm;
    // SAFETY: `global` is the promise's global, a jsprof global alive while the promise (rooted
    // by `promise`) is.
    let scope = unsafe { GlobalScope::from_global(global.as_ptr()) };
    let Some(target) = scope.event_target() else {
        return true;
    };
    rooted!(&in(cx) let promise_object = promise.get());
    rooted!(&in(cx) let mut reason = UndefinedValue());
    // SAFETY: both handles are rooted; the promise is settled (rejected).
    unsafe {
        mozjs::rust::wrappers2::JS_GetPromiseResult(promise_object.handle(), reason.handle_mut())
    };
    let event = PromiseRejectionEvent::new_trusted(
        cx,
        scope,
        type_,
        cancelable,
        promise.get(),
        reason.get(),
    );
    target.dispatch(cx, event.upcast_event())
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#notify-about-rejected-promises>
/// (for the agent's settings objects at once).
pub(crate) fn notify_about_rejected_promises() {
    // Step 1: Let list be a clone of settings object's about-to-be-notified
    // rejected promises list.
    // Step 3: Clear settings object's about-to-be-notified rejected
    // promises list.
    let list = about_to_be_notified(|l| std::mem::take(&mut *l.borrow_mut()));
    // Step 2: If list is empty, then return.
    if list.is_empty() {
        return;
    }
    // Step 4: Let global be settings object's global object.
    // Step 5: Queue a global task on the DOM manipulation task source given
    // global to run the following substep:
    EventLoop::current().queue_task(Box::new(move |cx| {
        // Step 5.1: For each promise p of list:
        for p in list {
            rooted!(&in(cx) let promise = p.get());
            // Step 5.1.1: If p.[[PromiseIsHandled]] is true, then continue.
            // SAFETY: `promise` is rooted and is a promise object.
            if unsafe { mozjs::rust::wrappers2::GetPromiseIsHandled(promise.handle()) } {
                continue;
            }
            // Step 5.1.2: Let notCanceled be the result of firing an event
            // named unhandledrejection at global, using
            // PromiseRejectionEvent, with the cancelable attribute
            // initialized to true, the promise attribute initialized to p,
            // and the reason attribute initialized to p.[[PromiseResult]].
            let not_canceled = fire(cx, &p, "unhandledrejection", true);
            // Step 5.1.3: If notCanceled is true, then the user agent may
            // report p.[[PromiseResult]] to a developer console.
            if not_canceled {
                warn_unhandled(cx, &p);
            }
            // Step 5.1.4: If p.[[PromiseIsHandled]] is false, then append p
            // to settings object's outstanding rejected promises weak set.
            // SAFETY: `promise` is rooted and is a promise object.
            if !unsafe { mozjs::rust::wrappers2::GetPromiseIsHandled(promise.handle()) } {
                outstanding(|l| {
                    let mut l = l.borrow_mut();
                    if l.len() >= MAX_OUTSTANDING {
                        l.remove(0);
                    }
                    l.push(p);
                });
            }
        }
    }));
}

/// The console warning: `Uncaught (in promise) <reason>`.
fn warn_unhandled(cx: &mut JSContext, promise: &PromiseRoot) {
    let Some(object) = NonNull::new(promise.get()) else {
        return;
    };
    // SAFETY: `promise` roots the object, a promise SpiderMonkey handed to
    // the rejection tracker (never a cross-compartment wrapper).
    let global = unsafe { global_of(object) };
    let mut realm = AutoRealm::new(cx, global);
    let cx = &mut *realm;
    rooted!(&in(cx) let promise_object = promise.get());
    rooted!(&in(cx) let mut reason = UndefinedValue());
    // SAFETY: both handles are rooted; the promise is settled (rejected).
    unsafe {
        mozjs::rust::wrappers2::JS_GetPromiseResult(promise_object.handle(), reason.handle_mut())
    };
    let text = match crate::dom::bindings::conversions::to_rust_string(cx, reason.handle()) {
        Ok(text) => text,
        Err(()) => {
            // SAFETY: plain queries and clearing of the pending exception on this thread's
            // context.
            unsafe {
                if mozjs::rust::wrappers2::JS_IsExceptionPending(cx) {
                    mozjs::rust::wrappers2::JS_ClearPendingException(cx);
                }
            }
            "(a reason that cannot be converted to a string)".to_owned()
        }
    };
    eprintln!("Uncaught (in promise) {text}");
}
