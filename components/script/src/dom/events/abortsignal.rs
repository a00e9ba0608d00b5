//! `AbortSignal` (<https://dom.spec.whatwg.org/#interface-AbortSignal>).
//!
//! Abort algorithms are Rust closures holding no GC roots (ids into
//! thread-local tables cleared when the event loop shuts down): a signal
//! is finalized by the GC, which must not unroot anything.
//!
//! `AbortSignal.timeout()` waits on a sleeping thread of its own, which
//! posts the abort to the event loop's inbox (the loop's timers serve
//! `setTimeout` handles only); the signal is held strongly until then, in
//! a table cleared when the loop shuts down. A pending timeout does not
//! keep an otherwise idle event loop running.
//!
//! Not done: `AbortSignal.any()`; dependent signals exist for `Request`
//! (its signal follows its input's and init's).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::{JSVal, UndefinedValue};
use mozjs::rooted;

use crate::dom::bindings::codegen::AbortSignalBinding::AbortSignalMethods;
use crate::dom::bindings::conversions::{RootedJsValue, ToJsValue};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::domexception::DOMException;
use crate::dom::globals::globalscope::GlobalScope;

/// This agent's `AbortSignal.timeout()` signals (a field of
/// [`Agent`](crate::runtime::agent::Agent), dropped with it before the context).
#[derive(Default)]
pub(crate) struct AbortTimeouts {
    /// The signals whose timeout has not fired.
    signals: RefCell<HashMap<u64, DomRoot<AbortSignal>>>,
    next: Cell<u64>,
}

impl AbortTimeouts {
    /// Drops the signals waiting for their timeout (and their roots).
    pub(crate) fn discard(&self) {
        let signals = std::mem::take(&mut *self.signals.borrow_mut());
        drop(signals);
    }
}

/// Runs `f` on this agent's waiting signals; without an agent (it shut
/// down) `f` does not run and the result is the default.
fn with_timeouts<R: Default>(
    f: impl FnOnce(&RefCell<HashMap<u64, DomRoot<AbortSignal>>>) -> R,
) -> R {
    crate::runtime::agent::existing().map_or_else(R::default, |a| f(&a.abort_timeouts.signals))
}

/// The task of `AbortSignal.timeout()`'s timer: signal abort given the
/// signal and a new "TimeoutError" DOMException.
fn timeout_fired(cx: &mut JSContext, id: u64) {
    let Some(signal) = with_timeouts(|t| t.borrow_mut().remove(&id)) else {
        return;
    };
    let mut realm = signal.enter_relevant_realm(cx);
    let cx = &mut *realm;
    let exception = DOMException::new_named(
        cx,
        signal.global_scope(),
        DomExceptionName::TimeoutError,
        Some("signal timed out"),
    );
    rooted!(&in(cx) let mut value = UndefinedValue());
    // SAFETY: `value` is rooted; the exception is an object of this realm.
    unsafe { exception.to_js(cx, value.handle_mut()) };
    signal.signal_abort(cx, value.get());
}

/// One of a signal's abort algorithms (run with the signal's reason).
pub type AbortAlgorithm = Box<dyn FnOnce(&mut JSContext, JSVal)>;

#[derive(JSTraceable)]
pub struct AbortSignal {
    eventtarget: EventTarget,
    /// <https://dom.spec.whatwg.org/#abortsignal-abort-reason>: undefined
    /// while not aborted.
    reason: Box<Heap<JSVal>>,
    /// <https://dom.spec.whatwg.org/#abortsignal-abort-algorithms>
    #[no_trace]
    algorithms: RefCell<Vec<AbortAlgorithm>>,
    /// <https://dom.spec.whatwg.org/#abortsignal-dependent-signals>
    dependents: RefCell<Vec<Dom<AbortSignal>>>,
}

impl AsRef<EventTarget> for AbortSignal {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl AbortSignal {
    /// A new, not aborted signal in `global`.
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<AbortSignal> {
        reflect_dom_object(
            cx,
            global,
            Box::new(AbortSignal {
                eventtarget: EventTarget::new_inherited(),
                reason: Heap::boxed(UndefinedValue()),
                algorithms: RefCell::new(Vec::new()),
                dependents: RefCell::new(Vec::new()),
            }),
            None,
        )
    }

    /// <https://dom.spec.whatwg.org/#abortsignal-aborted>: whether the
    /// abort reason is not undefined.
    pub fn is_aborted(&self) -> bool {
        !self.reason.get().is_undefined()
    }

    /// The abort reason (undefined while not aborted).
    pub fn reason(&self) -> JSVal {
        self.reason.get()
    }

    /// <https://dom.spec.whatwg.org/#abortsignal-add>: adds `algorithm`
    /// unless the signal is already aborted (then nothing is added).
    pub fn add_algorithm(&self, algorithm: AbortAlgorithm) {
        // Step 1: If signal is aborted, then return.
        if self.is_aborted() {
            return;
        }
        // Step 2: Append algorithm to signal's abort algorithms.
        self.algorithms.borrow_mut().push(algorithm);
    }

    /// <https://dom.spec.whatwg.org/#abortsignal-signal-abort> given
    /// `reason` (undefined: a new "AbortError" DOMException).
    pub fn signal_abort(&self, cx: &mut JSContext, reason: JSVal) {
        // Step 1: If signal is aborted, then return.
        if self.is_aborted() {
            return;
        }
        // Step 2: Set signal's abort reason to reason if it is given;
        // otherwise to a new "AbortError" DOMException.
        let reason = if reason.is_undefined() {
            let exception = DOMException::new_named(
                cx,
                self.global_scope(),
                DomExceptionName::AbortError,
                Some("signal is aborted without reason"),
            );
            rooted!(&in(cx) let mut value = UndefinedValue());
            // SAFETY: `value` is rooted; the exception is an object of
            // this realm.
            unsafe { exception.to_js(cx, value.handle_mut()) };
            value.get()
        } else {
            reason
        };
        self.reason.set(reason);
        // Step 3: Let dependentSignalsToAbort be a new list.
        // Step 4: For each dependentSignal of signal's dependent signals: if
        // dependentSignal is not aborted, set its abort reason to signal's
        // abort reason and append it to dependentSignalsToAbort.
        let dependents: Vec<DomRoot<AbortSignal>> = self
            .dependents
            .borrow()
            .iter()
            .map(Dom::root)
            .filter(|d| !d.is_aborted())
            .collect();
        for dependent in &dependents {
            dependent.reason.set(reason);
        }
        // Step 5: Run the abort steps with signal.
        self.run_abort_steps(cx);
        // Step 6: For each dependentSignal of dependentSignalsToAbort, run
        // the abort steps with dependentSignal.
        for dependent in dependents {
            dependent.run_abort_steps(cx);
        }
    }

    /// <https://dom.spec.whatwg.org/#run-the-abort-steps>
    fn run_abort_steps(&self, cx: &mut JSContext) {
        // Step 1: For each algorithm of signal's abort algorithms: run
        // algorithm.
        // Step 2: Empty signal's abort algorithms.
        let algorithms = std::mem::take(&mut *self.algorithms.borrow_mut());
        for algorithm in algorithms {
            algorithm(cx, self.reason.get());
        }
        // Step 3: Fire an event named abort at signal.
        let event = Event::new(cx, self.global_scope(), "abort", false, false);
        event.set_trusted(true);
        self.eventtarget.dispatch(cx, &event);
    }

    /// <https://dom.spec.whatwg.org/#create-a-dependent-abort-signal>
    /// from `signals`, in `global` (for `Request`'s signal).
    pub fn new_dependent(
        cx: &mut JSContext,
        global: &GlobalScope,
        signals: &[DomRoot<AbortSignal>],
    ) -> DomRoot<AbortSignal> {
        // Step 1: Let resultSignal be a new object implementing
        // signalInterface using realm.
        let result = AbortSignal::new(cx, global);
        // Step 2: For each signal of signals: if signal is aborted, then
        // set resultSignal's abort reason to signal's abort reason and
        // return resultSignal.
        if let Some(aborted) = signals.iter().find(|s| s.is_aborted()) {
            result.reason.set(aborted.reason.get());
            return result;
        }
        // Step 3: Set resultSignal's dependent to true.
        // Step 4: For each signal of signals: (not dependent signals here:
        // no `any()`) append signal to resultSignal's source signals and
        // append resultSignal to signal's dependent signals.
        for signal in signals {
            signal.dependents.borrow_mut().push(Dom::from_ref(&result));
        }
        // Step 5: Return resultSignal.
        result
    }
}

impl AbortSignalMethods for AbortSignal {
    /// <https://dom.spec.whatwg.org/#dom-abortsignal-aborted>
    fn Aborted(&self, _cx: &mut JSContext) -> bool {
        // The aborted getter steps are to return true if this is aborted;
        // otherwise false.
        self.is_aborted()
    }

    /// <https://dom.spec.whatwg.org/#dom-abortsignal-reason>
    fn Reason(&self, _cx: &mut JSContext) -> RootedJsValue {
        // The reason getter steps are to return this's abort reason.
        let value = RootedJsValue::new(Heap::default());
        value.set(self.reason.get());
        value
    }

    /// <https://dom.spec.whatwg.org/#dom-abortsignal-throwifaborted>
    fn ThrowIfAborted(&self, cx: &mut JSContext) -> Fallible<()> {
        // The throwIfAborted() method steps are to throw this's abort
        // reason, if this is aborted.
        if !self.is_aborted() {
            return Ok(());
        }
        rooted!(&in(cx) let reason = self.reason.get());
        // SAFETY: `reason` is rooted and a value of this realm.
        unsafe {
            mozjs::rust::wrappers2::JS_SetPendingException(
                cx,
                reason.handle(),
                mozjs::jsapi::ExceptionStackBehavior::Capture,
            );
        }
        Err(Error::JSFailed)
    }

    /// <https://dom.spec.whatwg.org/#dom-abortsignal-abort>
    fn Abort(
        cx: &mut JSContext,
        global: &GlobalScope,
        reason: RootedJsValue,
    ) -> Fallible<DomRoot<AbortSignal>> {
        // Step 1: Let signal be a new AbortSignal object.
        let signal = AbortSignal::new(cx, global);
        // Step 2: Set signal's abort reason to reason if it is given;
        // otherwise to a new "AbortError" DOMException. (Nothing listens
        // yet: signal abort does just that, and fires an event nobody
        // hears.)
        signal.signal_abort(cx, reason.get());
        // Step 3: Return signal.
        Ok(signal)
    }

    /// <https://dom.spec.whatwg.org/#dom-abortsignal-timeout>
    fn Timeout(
        cx: &mut JSContext,
        global: &GlobalScope,
        milliseconds: u64,
    ) -> Fallible<DomRoot<AbortSignal>> {
        // Step 1: Let signal be a new AbortSignal object.
        let signal = AbortSignal::new(cx, global);
        // Step 2: Let global be signal's relevant global object.
        // Step 3: Run steps after a timeout given global,
        // "AbortSignal-timeout", milliseconds, and the following step:
        // queue a global task on the timer task source given global to
        // signal abort given signal and a new "TimeoutError" DOMException.
        // For the duration of this timeout, if signal has any event
        // listeners registered for its abort event, there must be a strong
        // reference from global to signal (held here in any case).
        let agent = crate::runtime::agent::current();
        let id = agent.abort_timeouts.next.get() + 1;
        agent.abort_timeouts.next.set(id);
        agent
            .abort_timeouts
            .signals
            .borrow_mut()
            .insert(id, signal.clone());
        drop(agent);
        let inbox = crate::runtime::event_loop::EventLoop::current()
            .inbox()
            .clone();
        let spawned = std::thread::Builder::new()
            .name("js-abort-timeout".to_owned())
            .spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(milliseconds));
                inbox.post(Box::new(move |cx| timeout_fired(cx, id)));
            });
        if spawned.is_err() {
            with_timeouts(|t| t.borrow_mut().remove(&id));
            return Err(Error::dom_with_message(
                DomExceptionName::OperationError,
                "cannot start the timeout's timer",
            ));
        }
        // Step 4: Return signal.
        Ok(signal)
    }
}
