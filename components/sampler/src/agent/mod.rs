//! One sampler per agent (one SpiderMonkey context = one thread), shared by
//! all of that agent's sessions, as Chromium's ProfilerGroup shares one V8
//! CpuProfiler. Two threads share it:
//!
//! * the JS thread ([`js_thread`]: [`AgentSampler`], and [`crate::Session`]
//!   through it): installs the `ProfilingStack`, turns the instrumentation on
//!   with the first started session and off after the last (lazy; an eager
//!   agent keeps it on from its creation), resolves captures and builds
//!   traces;
//! * the sampling thread ([`sampling_thread`]): one tick serves every started
//!   session (each at its own interval, by subsampling against absolute
//!   deadlines); on a tick with JS on the stack it signals the JS thread,
//!   whose handler captures into preallocated buffers (`glue.rs`), and
//!   collects that capture at its next tick; otherwise it records an idle
//!   sample without signalling.
//!
//! This module holds what they share: [`Shared`] (the agent's mutex over
//! [`SharedState`], the capture slot and the counters) and the steps either
//! thread runs under that mutex (collecting the capture in flight,
//! delivering samples, the buffer limit, the marker observations).

mod js_thread;
mod sampling_thread;

pub(crate) use js_thread::{AgentInner, SessionState};
pub use js_thread::{AgentSampler, SamplerStats};

use crate::marker::{Observed, OriginTag};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::clock::SessionClock;
use crate::glue::{
    self, CaptureBuffers, CaptureSlot, CaptureStatus, Collected, Context, GcWatch, ProfilingStack,
};
use crate::resolve::{merge, RawStack};
use crate::trace::SampleSink;

/// When the agent prepares its sampling machinery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Preparation {
    /// Nothing is prepared before the first session: no cost until then.
    /// The first session turns SpiderMonkey's profiler instrumentation on
    /// (which discards all JIT code, recompiled instrumented), the last one
    /// turns it off again.
    #[default]
    Lazy,
    /// Everything is prepared when the agent is created, the instrumentation
    /// included, and stays on while the agent lives: a session then starts
    /// without discarding JIT code, and frames already running when it
    /// starts are complete; the price is the instrumentation's steady cost
    /// from the start, with or without a session (measured in the README).
    Eager,
}

/// How captures are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureMode {
    /// Interrupt the JS thread with a signal whose handler walks its stack
    /// (unbiased). Used wherever available.
    SignalHandler,
    /// Fallback for platforms without the signal path: the sampling thread
    /// requests an interrupt and the JS thread captures itself at its next
    /// interrupt check (biased towards safepoints).
    OnThreadInterrupt,
}

pub(crate) type BufferFullCallback = Box<dyn FnOnce() + Send>;

/// A started session as the sampling thread sees it.
struct Active {
    id: u64,
    interval_ns: u64,
    next_due_ns: u64,
    limit: usize,
    taken: usize,
    /// Stopped by the buffer limit (no more samples).
    full: bool,
    on_full: Option<BufferFullCallback>,
    /// For idle samples, appended here directly by the sampling thread.
    clock: SessionClock,
    sink: SampleSink,
    /// Its origin when its realm is cross-origin isolated (markers).
    markers: Option<OriginTag>,
}

/// A captured sample, waiting for resolution on the JS thread.
struct RawSample {
    #[allow(dead_code)]
    position: u64,
    time_ns: u64,
    sessions: Vec<u64>,
    stack: Option<RawStack>,
    /// What the agent was doing (markers, before the per-session check).
    marker: Observed,
}

/// The capture request in flight (signal sent, handler not collected yet).
struct Request {
    position: u64,
    sessions: Vec<u64>,
    sent_at_ns: u64,
    /// Ticks served while this request was in flight (see
    /// [`sampling_thread::ride`]).
    riders: Vec<(u64, u64, Vec<u64>)>,
}

struct SharedState {
    shutdown: bool,
    sessions: Vec<Active>,
    pending: Vec<RawSample>,
    /// Sample positions for `JS::ProfilingFrameIterator` (JIT code liveness).
    next_position: u64,
    /// The signal path's buffers (filled by the JS thread's handler) and the
    /// request in flight, if any.
    capture: CaptureBuffers,
    request: Option<Request>,
    /// Ticks served by the on-thread fallback, waiting for the JS thread.
    on_thread_ticks: Vec<(u64, u64, Vec<u64>)>,
}

/// State shared with the sampling thread.
struct Shared {
    state: Mutex<SharedState>,
    wake: Condvar,
    cx: Context,
    stack: ProfilingStack,
    gc: GcWatch,
    /// The JS thread's activity word (markers, `marker.rs`).
    activity: Arc<AtomicU64>,
    slot: CaptureSlot,
    mode: CaptureMode,
    resolve_requested: AtomicBool,
    truncated_samples: AtomicU64,
    captures: AtomicU64,
    on_thread_captures: AtomicU64,
    /// Total time the JS thread spent capturing in its signal handler.
    handler_ns: AtomicU64,
    wasm_withheld_samples: AtomicU64,
    /// Ticks served and CPU time used by the sampling thread (added when it
    /// exits).
    ticks: AtomicU64,
    sampler_cpu_ns: AtomicU64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, SharedState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

enum Admit {
    Take,
    Skip,
    Full(Option<BufferFullCallback>),
}

/// Step 1 of "take a sample": the buffer limit.
/// <https://wicg.github.io/js-self-profiling/#dfn-take-a-sample>
fn admit(active: &mut Active) -> Admit {
    if active.full {
        return Admit::Skip;
    }
    if active.taken >= active.limit {
        // Fire samplebufferfull and move to stopped.
        active.full = true;
        return Admit::Full(active.on_full.take());
    }
    active.taken += 1;
    Admit::Take
}

/// Collects the request in flight if its handler is done (sampling thread
/// or JS thread, under the agent's mutex).
fn collect_flight(shared: &Shared, st: &mut SharedState) {
    if st.request.is_none() {
        return;
    }
    let Collected::Done(status, at, took) = st.capture.collect(&shared.slot) else {
        return;
    };
    let Some(request) = st.request.take() else {
        return;
    };
    let buf = &mut st.capture;
    let marker = match status {
        CaptureStatus::NotCaptured => observe_without_stack(shared, true),
        _ => observe_capture(buf, buf.in_gc),
    };
    let (time_ns, stack) = match status {
        CaptureStatus::Ok => {
            shared.captures.fetch_add(1, Ordering::Relaxed);
            shared.handler_ns.fetch_add(took, Ordering::Relaxed);
            if buf.wasm_withheld > 0 {
                shared.wasm_withheld_samples.fetch_add(1, Ordering::Relaxed);
            }
            (at, Some(merge(buf)))
        }
        CaptureStatus::NoInstrumentation => (at, None),
        CaptureStatus::NotCaptured => (request.sent_at_ns, None),
    };
    if buf.truncated() {
        shared.truncated_samples.fetch_add(1, Ordering::Relaxed);
        buf.grow_after_truncation();
    }
    deliver(
        st,
        RawSample {
            position: request.position,
            time_ns,
            sessions: request.sessions,
            stack,
            marker,
        },
    );
    for (position, time_ns, sessions) in request.riders {
        deliver_without_stack(st, position, time_ns, sessions, marker);
    }
}

/// Delivers the sample of tick `position`, taken at `time_ns`, as a sample
/// without stack.
fn deliver_without_stack(
    st: &mut SharedState,
    position: u64,
    time_ns: u64,
    sessions: Vec<u64>,
    marker: Observed,
) {
    deliver(
        st,
        RawSample {
            position,
            time_ns,
            sessions,
            stack: None,
            marker,
        },
    );
}

/// Hands a sample to its sessions: straight into their samples when it has
/// no stack (nothing to resolve), else into the pending list.
fn deliver(st: &mut SharedState, sample: RawSample) {
    if sample.stack.is_some() {
        st.pending.push(sample);
        return;
    }
    for active in st
        .sessions
        .iter()
        .filter(|a| sample.sessions.contains(&a.id))
    {
        active.sink.push_idle(
            active.clock.relative(sample.time_ns),
            sample.marker.for_session(active.markers),
        );
    }
}

/// The activity word for a capture when a started session has markers
/// (otherwise the handler skips the marker reads).
fn markers_wanted<'a>(st: &SharedState, shared: &'a Shared) -> Option<&'a Arc<AtomicU64>> {
    st.sessions
        .iter()
        .any(|s| s.markers.is_some())
        .then_some(&shared.activity)
}

/// The marker state a capture read (markers, `marker.rs`): script when it
/// found JS frames, GC per `in_gc`, the activity word and current realm as
/// the handler saw them.
fn observe_capture(buf: &CaptureBuffers, in_gc: bool) -> Observed {
    // JS frames, built-ins, or the engine's JS entry (`js::RunScript`, its
    // stack-pointer marker) whose JIT frames a GC hides; engine labels alone
    // (a GC with no JS on the stack) are not script.
    let script = !buf.jit.is_empty()
        || buf.ps.iter().any(|f| match f.kind {
            glue::PS_LABEL => buf.string(f.str_off, f.str_len) == Some(&b"js::RunScript"[..]),
            _ => true,
        });
    Observed::at_capture(in_gc, script, buf.marker_activity, buf.marker_realm)
}

/// The marker state read without a capture (sampling thread, or the JS
/// thread itself): the GC depth and the activity word. `script_on_stack`:
/// JS was on the stack but its realm is not known, so script (or a GC
/// inside it) gets no marker (fail closed).
fn observe_without_stack(shared: &Shared, script_on_stack: bool) -> Observed {
    let in_gc = shared.gc.active();
    if script_on_stack {
        return Observed::at_capture(in_gc, true, 0, 0);
    }
    Observed::outside_script(in_gc, shared.activity.load(Ordering::Relaxed))
}
