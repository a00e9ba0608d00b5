//! `Profiler` (<https://wicg.github.io/js-self-profiling/#the-profiler-interface>),
//! generated from `webidl/Profiler.webidl`, on the sampler component
//! (`jsprof-sampler`) through [`crate::runtime::profiling`].
//!
//! Each `Profiler` owns exactly one profiling session
//! ([`SessionHandle`]); sessions of one agent share its one sampler.
//!
//! `samplebufferfull`: when the session's sample count reaches
//! `maxBufferSize` it takes no more samples and an `Event` named
//! `samplebufferfull` is fired at this `Profiler` in a task. As the
//! explainer (and its own example, which calls `stop()` from the listener
//! to collect the trace) has it, and unlike the letter of the
//! specification, the session is not moved to the stopped state: `stopped`
//! stays false and `stop()` resolves with the full trace.
//!
//! Lifetime: the `Profiler` is not kept alive by its session; when it is
//! garbage-collected while started, its session is cancelled and its
//! buffers freed at the next turn of the event loop (not inside the
//! finalizer). A navigation of its browsing context stops it.
//!
//! Pausing (RECOMMENDED for a browsing context not in the foreground): the
//! shell has no notion of foreground or background documents, so sessions
//! never pause.
//!
//! Dedicated workers (exposed there as a deviation from the specification,
//! see `webidl/Profiler.webidl`): a worker is its own agent, so a
//! `Profiler` made in a worker gets a session of the worker's own sampler
//! (one `AgentSampler` per thread), which samples the worker's thread only
//! and keeps only frames of the worker's realm; its timestamps are
//! relative to the worker's time origin. Terminating the worker (or its
//! owner going away) cancels its sessions on the worker's thread before
//! its context goes.

use std::cell::Cell;
use std::rc::Rc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::ProfilerBinding::ProfilerMethods;
use crate::dom::bindings::codegen::{
    ProfilerFrame, ProfilerInitOptions, ProfilerMarker, ProfilerSample, ProfilerStack,
    ProfilerTrace,
};
use crate::dom::bindings::conversions::Finite;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::DomRoot;
use crate::dom::bindings::weak::{WeakAnchor, WeakDom, WeakReferenceable};
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::globalscope::GlobalScope;
use crate::runtime::event_loop::EventLoop;
use crate::runtime::profiling::{self, SessionHandle};

#[derive(JSTraceable)]
pub struct Profiler {
    eventtarget: EventTarget,
    /// The associated profiling session.
    #[no_trace]
    session: Rc<SessionHandle>,
    /// Set by `stop()` (the session may also be stopped by a navigation).
    stop_called: Cell<bool>,
    /// What the buffer-full handler's weak handle refers to.
    #[no_trace]
    weak_anchor: WeakAnchor,
}

// SAFETY: `weak_anchor` is a field of the Profiler.
unsafe impl WeakReferenceable for Profiler {
    fn weak_anchor(&self) -> &WeakAnchor {
        &self.weak_anchor
    }
}

impl AsRef<EventTarget> for Profiler {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl Drop for Profiler {
    /// A `Profiler` collected while started: its session is cancelled
    /// (the handle's last strong reference goes with it) and its
    /// buffer-full handler forgotten.
    fn drop(&mut self) {
        profiling::forget(self.session.key());
        profiling::bury(self.session.clone());
    }
}

impl Profiler {
    /// The session (for the shell's hooks and tests).
    pub fn session(&self) -> &Rc<SessionHandle> {
        &self.session
    }

    /// Queues the task firing `samplebufferfull` at `profiler`, if that
    /// `Profiler` still exists when the task runs (it has not been
    /// collected: the handler must not keep it alive).
    fn queue_sample_buffer_full(profiler: WeakDom<Profiler>) {
        EventLoop::current().queue_task(Box::new(move |cx| {
            let Some(profiler) = profiler.root(cx) else {
                return;
            };
            let mut realm = profiler.enter_relevant_realm(cx);
            let cx = &mut *realm;
            let event = Event::new(
                cx,
                profiler.global_scope(),
                "samplebufferfull",
                false,
                false,
            );
            event.set_trusted(true);
            profiler.eventtarget.dispatch(cx, &event);
        }));
    }
}

/// Converts the sampler's trace into the generated `ProfilerTrace`
/// dictionary (optional members absent when the sampler has none).
fn to_dictionary(trace: jsprof_sampler::ProfilerTrace) -> ProfilerTrace {
    ProfilerTrace {
        frames: trace
            .frames
            .into_iter()
            .map(|f| ProfilerFrame {
                column: f.column,
                line: f.line,
                name: f.name,
                resource_id: f.resource_id,
            })
            .collect(),
        resources: trace.resources,
        samples: trace
            .samples
            .into_iter()
            .map(|s| ProfilerSample {
                // The sampler gives markers to sessions of cross-origin
                // isolated realms only; the generated conversion also
                // leaves the member out anywhere else.
                marker: s.marker.map(to_idl_marker),
                stack_id: s.stack_id,
                timestamp: Finite::<f64>::wrap(s.timestamp),
            })
            .collect(),
        stacks: trace
            .stacks
            .into_iter()
            .map(|s| ProfilerStack {
                frame_id: s.frame_id,
                parent_id: s.parent_id,
            })
            .collect(),
    }
}

/// The sampler's marker as the generated `ProfilerMarker` enum
/// (<https://github.com/WICG/js-self-profiling/blob/main/markers.md>).
fn to_idl_marker(marker: jsprof_sampler::ProfilerMarker) -> ProfilerMarker {
    match marker {
        jsprof_sampler::ProfilerMarker::Script => ProfilerMarker::Script,
        jsprof_sampler::ProfilerMarker::Gc => ProfilerMarker::Gc,
        jsprof_sampler::ProfilerMarker::Style => ProfilerMarker::Style,
        jsprof_sampler::ProfilerMarker::Layout => ProfilerMarker::Layout,
        jsprof_sampler::ProfilerMarker::Paint => ProfilerMarker::Paint,
        jsprof_sampler::ProfilerMarker::Other => ProfilerMarker::Other,
    }
}

impl ProfilerMethods for Profiler {
    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-profiler>
    ///
    /// The dictionary conversion (generated) already threw a `TypeError`
    /// for a missing member or a non-finite `sampleInterval`.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        options: ProfilerInitOptions,
    ) -> Fallible<DomRoot<Profiler>> {
        let requested = *options.sample_interval;
        // Step 1: If options' sampleInterval is less than 0, throw a
        // RangeError.
        if requested < 0.0 {
            return Err(Error::Range(format!(
                "sampleInterval must not be negative (got {requested})"
            )));
        }
        // Step 2: Get the policy value for "js-profiling" in the Document.
        // If the result is false, throw a "NotAllowedError" DOMException.
        // (In a dedicated worker: the worker's policy container's document
        // policy, from its own script response or inherited by a blob: or
        // data: worker; see `jsprof_document::worker_document_policy`.)
        let allowed = global
            .document_policy()
            .is_some_and(|p| p.js_profiling_allowed());
        if !allowed {
            let message = if global.as_worker().is_some() {
                "JS profiling is not enabled by the worker's policy (Document-Policy: js-profiling on the worker script, or inherited by a blob:/data: worker from its creator)"
            } else {
                "JS profiling is not enabled by the document's policy (Document-Policy: js-profiling)"
            };
            return Err(Error::dom_with_message(
                DomExceptionName::NotAllowedError,
                message,
            ));
        }
        // Step 3: Create a new profiling session: 3.1 the requested interval
        // or the next one the UA supports; 3.2 the current global's time
        // origin; 3.3 the buffer limit maxBufferSize; 3.4 the surrounding
        // agent; 3.5 the current realm; 3.6 an empty ProfilerTrace. It starts
        // in the started state.
        let interval = profiling::supported_interval(requested);
        let session =
            profiling::start_session(cx, global, interval, options.max_buffer_size as usize);
        let key = session.key();
        // Step 4: Return a new Profiler associated with the new session.
        let profiler = reflect_dom_object(
            cx,
            global,
            Box::new(Profiler {
                eventtarget: EventTarget::new_inherited(),
                session,
                stop_called: Cell::new(false),
                weak_anchor: WeakAnchor::new(),
            }),
            proto,
        );
        let weak = WeakDom::new(&*profiler);
        profiling::on_buffer_full(
            key,
            Box::new(move |_cx| Profiler::queue_sample_buffer_full(weak.clone())),
        );
        Ok(profiler)
    }

    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-sampleinterval>:
    /// the session's sample interval (the supported interval step 3.1
    /// chose).
    fn SampleInterval(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.session.sample_interval_ms())
    }

    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-stopped>:
    /// true iff the session's state is stopped (a full buffer does not
    /// stop it; see the module documentation).
    fn Stopped(&self, _cx: &mut JSContext) -> bool {
        self.stop_called.get() || self.session.stopped()
    }

    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-stop>
    fn Stop(&self, cx: &mut JSContext) -> Fallible<Rc<Promise>> {
        // Step 1: If the session's state is stopped, return a promise
        // rejected with an "InvalidStateError" DOMException.
        if self.stop_called.get() || self.session.stopped() {
            return Ok(Promise::new_rejected(
                cx,
                Error::dom_with_message(
                    DomExceptionName::InvalidStateError,
                    "the profiler is already stopped",
                ),
            ));
        }
        // Step 2: Set the session's state to stopped (no sample taken
        // after this is included: the sampler removes the session now).
        self.stop_called.set(true);
        let trace = self.session.stop();
        // Step 3: Let p be a new promise.
        let promise = Promise::new(cx);
        // Step 4: In parallel: 4.1 stop the session (done above); 4.2
        // resolve p with the trace (in a task: the conversion needs the
        // JS thread).
        let p = promise.clone();
        EventLoop::current().queue_task(Box::new(move |cx| {
            let mut realm = p.enter_realm(cx);
            let cx = &mut *realm;
            match trace {
                Ok(trace) => p.resolve(cx, &to_dictionary(trace)),
                Err(_) => p.reject_error(
                    cx,
                    Error::dom_with_message(
                        DomExceptionName::InvalidStateError,
                        "the profiling session ended with its agent",
                    ),
                ),
            }
        }));
        // Step 5: Return p.
        Ok(promise)
    }
}
