//! One sampler per agent (one SpiderMonkey context = one thread), shared by
//! all of that agent's sessions, as Chromium's ProfilerGroup shares one V8
//! CpuProfiler.
//!
//! * JS thread side ([`AgentSampler`], [`crate::Session`]): installs the
//!   `ProfilingStack`, turns the instrumentation on with the first started
//!   session and off after the last (lazy; an eager agent keeps it on from
//!   its creation), resolves captures and builds traces.
//! * Sampler thread: one tick serves every started session (each at its own
//!   interval, by subsampling against absolute deadlines); on a tick with JS
//!   on the stack it signals the JS thread, whose handler captures into
//!   preallocated buffers (`glue.rs`), and collects that capture at its next
//!   tick; otherwise it records an idle sample without signalling.

use crate::marker::{self, Observed, OriginTag};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::clock::SessionClock;
use crate::glue::{
    self, CaptureBuffers, CaptureSlot, CaptureStatus, Collected, Context, GcWatch, ProfilingStack,
    Requested,
};
use crate::registry::ScriptRegistry;
use crate::resolve::{merge, FrameClass, RawStack, ResolvedFrame, Resolver};
use crate::trace::{SampleSink, TraceBuilder};

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

/// Frames preallocated in each capture buffer (grown after truncation).
const INITIAL_CAPTURE_FRAMES: usize = 256;
const INITIAL_CAPTURE_ARENA: usize = 64 * 1024;
/// Pending captures that make the sampling thread ask for a resolution.
const RESOLVE_THRESHOLD: usize = 256;

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
    /// Ticks served while this request was in flight (see [`ride`]).
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

/// Per-session state on the JS thread.
pub(crate) struct SessionState {
    pub realm: u64,
    pub markers: Option<OriginTag>,
    pub clock: SessionClock,
    pub builder: TraceBuilder,
}

pub(crate) struct AgentInner {
    pub(crate) cx: Context,
    shared: Arc<Shared>,
    pub(crate) registry: ScriptRegistry,
    preparation: Cell<Preparation>,
    thread: RefCell<Option<JoinHandle<()>>>,
    instrumentation: Cell<bool>,
    next_session_id: Cell<u64>,
    pub(crate) sessions: RefCell<HashMap<u64, SessionState>>,
    resolver: RefCell<Resolver>,
    on_thread_buf: RefCell<CaptureBuffers>,
    resolved_scratch: RefCell<Vec<ResolvedFrame>>,
    resolve_ns: Cell<u64>,
}

thread_local! {
    static CURRENT_AGENT: RefCell<Weak<AgentInner>> = const { RefCell::new(Weak::new()) };
}

/// The sampler of one agent. Create it on the agent's JS thread after the
/// context, drop it (on that thread) before the context is destroyed.
/// Creating another for the same context returns a handle to the same
/// sampler; it shuts down when the last handle is dropped (sessions do not
/// keep it alive).
pub struct AgentSampler {
    inner: Rc<AgentInner>,
}

/// Counters for diagnostics and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SamplerStats {
    /// Samples whose capture buffers were too small (root frames dropped).
    pub truncated_samples: u64,
    /// Stacks captured by the JS thread's signal handler.
    pub handler_captures: u64,
    /// Stacks captured by the on-thread path (`force_sample` and the
    /// interrupt fallback).
    pub on_thread_captures: u64,
    /// Total time the JS thread spent capturing in its signal handler (ns;
    /// excludes the kernel's signal delivery and return).
    pub handler_ns: u64,
    /// Total time spent resolving captures on the JS thread (ns).
    pub resolve_ns: u64,
    /// JIT return addresses resolved with `JS::GetProfiledFrames`.
    pub resolved_addresses: u64,
    /// JIT return addresses that could not be resolved.
    pub unresolved_addresses: u64,
    /// Physical JS frames resolved, by tier: interpreter, baseline
    /// interpreter, Baseline, Ion (an Ion frame may hold inlined frames).
    pub frames_by_tier: [u64; 4],
    /// Wasm function frames resolved, by tier: baseline, Ion (shown or not).
    pub wasm_frames_by_tier: [u64; 2],
    /// Samples whose wasm frames were not labelled because the thread was
    /// interrupted outside compiled code (their wasm frames never appear).
    pub wasm_withheld_samples: u64,
    /// Ticks the sampling thread served (idle ones included).
    pub ticks: u64,
    /// CPU time the sampling thread used (ns; counted when it exits).
    pub sampler_cpu_ns: u64,
}

impl AgentSampler {
    /// Installs a `ProfilingStack` on `cx` (which costs nothing measurable
    /// while the instrumentation is off) and prepares per `preparation`.
    pub fn new(
        cx: &mut mozjs::context::JSContext,
        registry: ScriptRegistry,
        preparation: Preparation,
    ) -> AgentSampler {
        let cx = Context::from_mozjs(cx);
        if let Some(existing) = AgentSampler::existing(cx) {
            return existing;
        }
        let mode = if glue::signal_capture_available() {
            CaptureMode::SignalHandler
        } else {
            CaptureMode::OnThreadInterrupt
        };
        AgentSampler::with_mode(cx, registry, preparation, mode)
    }

    /// Like [`AgentSampler::new`] with an explicit capture mode (tests and
    /// platforms without the signal path use [`CaptureMode::OnThreadInterrupt`]).
    pub fn with_capture_mode(
        cx: &mut mozjs::context::JSContext,
        registry: ScriptRegistry,
        preparation: Preparation,
        mode: CaptureMode,
    ) -> AgentSampler {
        let cx = Context::from_mozjs(cx);
        if let Some(existing) = AgentSampler::existing(cx) {
            return existing;
        }
        let mode = if mode == CaptureMode::SignalHandler && !glue::signal_capture_available() {
            CaptureMode::OnThreadInterrupt
        } else {
            mode
        };
        AgentSampler::with_mode(cx, registry, preparation, mode)
    }

    /// The live sampler of `cx`, if any: a context has one sampler, and
    /// every `AgentSampler` created for it shares it.
    fn existing(cx: Context) -> Option<AgentSampler> {
        let inner = CURRENT_AGENT.with(|a| a.borrow().upgrade())?;
        (inner.cx == cx).then_some(AgentSampler { inner })
    }

    fn with_mode(
        cx: Context,
        registry: ScriptRegistry,
        preparation: Preparation,
        mode: CaptureMode,
    ) -> AgentSampler {
        let stack = ProfilingStack::install(cx);
        let gc = GcWatch::install(cx);
        let slot = CaptureSlot::install(cx, &stack);
        let shared = Arc::new(Shared {
            state: Mutex::new(SharedState {
                shutdown: false,
                sessions: Vec::new(),
                pending: Vec::new(),
                next_position: 1,
                capture: CaptureBuffers::new(INITIAL_CAPTURE_FRAMES, INITIAL_CAPTURE_ARENA),
                request: None,
                on_thread_ticks: Vec::new(),
            }),
            wake: Condvar::new(),
            cx,
            stack,
            gc,
            activity: marker::activity_word(),
            slot,
            mode,
            resolve_requested: AtomicBool::new(false),
            truncated_samples: AtomicU64::new(0),
            captures: AtomicU64::new(0),
            on_thread_captures: AtomicU64::new(0),
            handler_ns: AtomicU64::new(0),
            wasm_withheld_samples: AtomicU64::new(0),
            ticks: AtomicU64::new(0),
            sampler_cpu_ns: AtomicU64::new(0),
        });
        let inner = Rc::new(AgentInner {
            cx,
            shared,
            registry,
            preparation: Cell::new(Preparation::Lazy),
            thread: RefCell::new(None),
            instrumentation: Cell::new(false),
            next_session_id: Cell::new(1),
            sessions: RefCell::new(HashMap::new()),
            resolver: RefCell::new(Resolver::default()),
            on_thread_buf: RefCell::new(CaptureBuffers::new(
                INITIAL_CAPTURE_FRAMES,
                INITIAL_CAPTURE_ARENA,
            )),
            resolved_scratch: RefCell::new(Vec::new()),
            resolve_ns: Cell::new(0),
        });
        cx.add_interrupt_hook(interrupt_hook);
        CURRENT_AGENT.with(|a| *a.borrow_mut() = Rc::downgrade(&inner));
        let agent = AgentSampler { inner };
        agent.prepare(preparation);
        agent
    }

    /// Prepares an existing agent for `preparation`: `Eager` turns
    /// everything on now (and keeps the instrumentation on while the agent
    /// lives, see [`Preparation::Eager`]); `Lazy` changes nothing (an eager
    /// agent stays eager). JS thread.
    pub fn prepare(&self, preparation: Preparation) {
        if preparation == Preparation::Eager {
            self.inner.preparation.set(Preparation::Eager);
            self.inner.set_instrumentation(true);
            self.inner.ensure_thread();
        }
    }

    /// The registry the agent resolves URLs and muted flags with.
    pub fn registry(&self) -> &ScriptRegistry {
        &self.inner.registry
    }

    /// How captures are taken on this platform.
    pub fn capture_mode(&self) -> CaptureMode {
        self.inner.shared.mode
    }

    /// Whether SpiderMonkey's profiler instrumentation is on.
    pub fn instrumentation_enabled(&self) -> bool {
        self.inner.cx.instrumentation_enabled()
    }

    pub fn stats(&self) -> SamplerStats {
        let resolver = self.inner.resolver.borrow();
        SamplerStats {
            truncated_samples: self.inner.shared.truncated_samples.load(Ordering::Relaxed),
            handler_captures: self.inner.shared.captures.load(Ordering::Relaxed),
            on_thread_captures: self.inner.shared.on_thread_captures.load(Ordering::Relaxed),
            handler_ns: self.inner.shared.handler_ns.load(Ordering::Relaxed),
            resolve_ns: self.inner.resolve_ns.get(),
            resolved_addresses: resolver.resolved_addresses,
            unresolved_addresses: resolver.unresolved_addresses,
            frames_by_tier: resolver.frames_by_tier,
            wasm_frames_by_tier: resolver.wasm_frames_by_tier,
            wasm_withheld_samples: self
                .inner
                .shared
                .wasm_withheld_samples
                .load(Ordering::Relaxed),
            ticks: self.inner.shared.ticks.load(Ordering::Relaxed),
            sampler_cpu_ns: self.inner.shared.sampler_cpu_ns.load(Ordering::Relaxed),
        }
    }

    /// Resolves pending captures now (also done at stop, at `force_sample`,
    /// and from the interrupt callback during long sessions).
    pub fn poll(&self) {
        self.inner.resolve_pending();
    }

    pub(crate) fn inner(&self) -> &Rc<AgentInner> {
        &self.inner
    }
}

fn interrupt_hook() {
    let agent = CURRENT_AGENT.with(|a| a.borrow().upgrade());
    if let Some(agent) = agent {
        agent.on_interrupt();
    }
}

impl AgentInner {
    fn ensure_thread(&self) {
        let mut thread = self.thread.borrow_mut();
        if thread.is_none() {
            let shared = Arc::clone(&self.shared);
            *thread = std::thread::Builder::new()
                .name("js-sampler".into())
                .spawn(move || sampler_thread(shared))
                .ok();
        }
    }

    fn stop_thread(&self) {
        let handle = self.thread.borrow_mut().take();
        if let Some(handle) = handle {
            self.shared.lock().shutdown = true;
            self.shared.wake.notify_all();
            let _ = handle.join();
            self.shared.lock().shutdown = false;
        }
    }

    /// Registers a started session (JS thread).
    pub(crate) fn add_session(
        &self,
        interval_ns: u64,
        limit: usize,
        state: SessionState,
        on_full: Option<BufferFullCallback>,
    ) -> u64 {
        let id = self.next_session_id.get();
        self.next_session_id.set(id + 1);
        let clock = state.clock;
        let sink = state.builder.sink();
        let markers = state.markers;
        self.sessions.borrow_mut().insert(id, state);
        // Instrumentation first: samples need it.
        self.set_instrumentation(true);
        self.ensure_thread();
        {
            let mut st = self.shared.lock();
            let now = glue::monotonic_ns();
            st.sessions.push(Active {
                id,
                interval_ns: interval_ns.max(1),
                next_due_ns: now.saturating_add(interval_ns.max(1)),
                limit,
                taken: 0,
                full: false,
                on_full,
                clock,
                sink,
                markers,
            });
        }
        self.shared.wake.notify_all();
        id
    }

    /// Ends a session: no further samples are assigned to it; pending ones are
    /// resolved. Returns its builder (JS thread).
    pub(crate) fn remove_session(&self, id: u64) -> Option<TraceBuilder> {
        self.shared.lock().sessions.retain(|s| s.id != id);
        self.resolve_pending();
        let state = self.sessions.borrow_mut().remove(&id);
        self.update_instrumentation();
        state.map(|s| s.builder)
    }

    fn set_instrumentation(&self, on: bool) {
        if self.instrumentation.get() != on {
            self.cx.set_instrumentation(on);
            self.instrumentation.set(on);
        }
    }

    /// In lazy mode, turns the instrumentation and the thread off once no
    /// session samples any more (an eager agent keeps both).
    fn update_instrumentation(&self) {
        if self.preparation.get() == Preparation::Eager {
            return;
        }
        let sampling = self.shared.lock().sessions.iter().any(|s| !s.full);
        if !sampling && self.instrumentation.get() {
            // Everything captured so far is resolved before the JIT code
            // it references is released.
            self.resolve_pending();
            self.set_instrumentation(false);
            // Sessions still alive are full: they take no more samples, so
            // the agent-wide frame indices can start over.
            if let Ok(mut resolver) = self.resolver.try_borrow_mut() {
                resolver.reset();
            }
            self.stop_thread();
        }
    }

    /// `force_sample` for one session (JS thread): takes a sample now.
    pub(crate) fn force_sample(&self, id: u64) {
        let position = {
            let mut st = self.shared.lock();
            let position = st.next_position;
            let Some(active) = st.sessions.iter_mut().find(|s| s.id == id) else {
                return;
            };
            match admit(active) {
                Admit::Take => {}
                Admit::Full(cb) => {
                    drop(st);
                    if let Some(cb) = cb {
                        cb();
                    }
                    self.update_instrumentation();
                    return;
                }
                Admit::Skip => return,
            }
            st.next_position += 1;
            position
        };
        let sample = self.capture_here(position, vec![id]);
        self.shared.lock().pending.push(sample);
        self.resolve_pending();
    }

    /// Captures on the JS thread itself.
    fn capture_here(&self, position: u64, sessions: Vec<u64>) -> RawSample {
        let time_ns = glue::monotonic_ns();
        let mut marker = observe_without_stack(&self.shared, false);
        let stack = if self.shared.stack.depth() == 0 {
            None
        } else {
            let mut buf = self.on_thread_buf.borrow_mut();
            let status = glue::capture_on_thread(
                self.cx,
                &self.shared.stack,
                position,
                &mut buf,
                markers_wanted(&self.shared.lock(), &self.shared),
            );
            let stack = (status == CaptureStatus::Ok).then(|| merge(&buf));
            marker = observe_capture(&buf, false);
            self.shared
                .on_thread_captures
                .fetch_add(1, Ordering::Relaxed);
            if buf.truncated() {
                self.shared
                    .truncated_samples
                    .fetch_add(1, Ordering::Relaxed);
                buf.grow_after_truncation();
            }
            stack
        };
        RawSample {
            position,
            time_ns,
            sessions,
            stack,
            marker,
        }
    }

    fn on_interrupt(&self) {
        // The on-thread fallback's ticks.
        let ticks = std::mem::take(&mut self.shared.lock().on_thread_ticks);
        for (position, time_ns, sessions) in ticks {
            let mut sample = self.capture_here(position, sessions);
            sample.time_ns = time_ns;
            self.shared.lock().pending.push(sample);
        }
        if self.shared.resolve_requested.swap(false, Ordering::AcqRel) {
            self.resolve_pending();
            self.update_instrumentation();
        }
    }

    /// Resolves every pending capture into the sessions' traces (JS thread).
    pub(crate) fn resolve_pending(&self) {
        let (pending, range_start) = {
            let mut st = self.shared.lock();
            // A capture its handler finished since the last tick.
            collect_flight(&self.shared, &mut st);
            // The oldest position that may still be captured or resolved.
            let oldest_unresolved = st
                .request
                .iter()
                .map(|r| r.position)
                .chain(st.on_thread_ticks.iter().map(|t| t.0))
                .fold(st.next_position, u64::min);
            (std::mem::take(&mut st.pending), oldest_unresolved)
        };
        if pending.is_empty() {
            return;
        }
        let (Ok(mut resolver), Ok(mut sessions), Ok(mut frames)) = (
            self.resolver.try_borrow_mut(),
            self.sessions.try_borrow_mut(),
            self.resolved_scratch.try_borrow_mut(),
        ) else {
            // Re-entered: put them back for the outer call.
            self.shared.lock().pending.splice(0..0, pending);
            return;
        };
        let started = glue::monotonic_ns();
        resolver.begin_batch();
        for sample in &pending {
            match &sample.stack {
                Some(stack) => resolver.resolve(self.cx, &self.registry, stack, &mut frames),
                None => frames.clear(),
            }
            // Built-ins are attributed to the frame below them only when the
            // walk saw every frame.
            let complete = sample.stack.as_ref().is_none_or(|s| !s.in_gc);
            // A capture that could not read its realm (inside a GC that
            // began outside any realm) is the leaf-most JS frame's realm's.
            let observed = sample
                .marker
                .or_realm(frames.iter().rev().map(|f| f.realm).find(|&r| r != 0));
            for id in &sample.sessions {
                if let Some(session) = sessions.get_mut(id) {
                    let marker = observed.for_session(session.markers);
                    take_sample(session, sample.time_ns, &frames, complete, &resolver);
                    session.builder.set_last_marker(marker);
                }
            }
        }
        // Every position below `range_start` is resolved: its JIT code may go.
        self.cx.set_range_start(range_start);
        self.resolve_ns
            .set(self.resolve_ns.get() + glue::monotonic_ns().saturating_sub(started));
    }

    fn shutdown(&self) {
        self.stop_thread();
        self.shared.lock().sessions.clear();
        self.resolve_pending();
        self.sessions.borrow_mut().clear();
        self.set_instrumentation(false);
    }
}

impl Drop for AgentInner {
    fn drop(&mut self) {
        // The last handle is gone: stop sampling; once the sampling thread
        // is joined nothing else reads the stack, so uninstall it, once.
        self.shutdown();
        self.shared.slot.uninstall();
        self.shared.gc.uninstall();
        self.shared.stack.uninstall();
        self.cx.forget_interrupt_hook();
    }
}

/// Steps 2-6 of "take a sample" for one session, given the resolved stack
/// (root first), with the per-frame realm and muted checks of "get a frame
/// ID" and the built-in attribution rule. `complete` is false when the
/// engine hid JIT and wasm frames from the capture (GC): scripted frames are
/// still judged on their own, but the frame below a built-in may not be its
/// caller, so built-ins are left out (fail closed).
/// <https://wicg.github.io/js-self-profiling/#dfn-take-a-sample>
fn take_sample(
    session: &mut SessionState,
    time_ns: u64,
    frames: &[ResolvedFrame],
    complete: bool,
    resolver: &Resolver,
) {
    // Step 3: the timestamp relative to the session's time origin, coarsened.
    let timestamp = session.clock.relative(time_ns);
    // Steps 4-5: "get a stack ID" on the stack. The recursion on the tail
    // (step 3 of that algorithm) is unrolled from the root: `parent` is the
    // stack ID of the tail so far.
    let mut parent: Option<u32> = None;
    // Whether the nearest scripted caller so far is included (built-ins are
    // attributed to it: step 4.2 of "get a frame ID").
    let mut caller_included = false;
    // The realm of the nearest JS frame so far (wasm frames need it).
    let mut caller_realm: Option<u64> = None;
    for frame in frames {
        let (desc, class) = &resolver.descs[frame.index as usize];
        // "get a frame ID", step 1: the realm check, per frame.
        let same_realm = frame.realm == session.realm;
        let include = match class {
            // Steps 4.1 and 7: scripted code is included unless muted.
            FrameClass::Scripted { muted } => {
                caller_realm = Some(frame.realm);
                caller_included = same_realm && !muted;
                caller_included
            }
            // Step 4.2: a built-in is attributed to the script that invoked it.
            FrameClass::Builtin => {
                caller_realm = Some(frame.realm);
                complete && same_realm && caller_included
            }
            FrameClass::Native => complete && caller_included,
            // Event-handler attributes add no frame and leave attribution
            // to their caller.
            FrameClass::Hidden => {
                caller_realm = Some(frame.realm);
                false
            }
            // A wasm function (realm: the compiling realm, see `wasm.rs`):
            // included if its compiling script is visible, and, when JS
            // called into it, that JS ran in the session's realm too (a
            // module used from another realm is not shown).
            FrameClass::Wasm { visible } => {
                caller_included =
                    *visible && same_realm && caller_realm.is_none_or(|r| r == session.realm);
                caller_included
            }
            FrameClass::WasmUnknown => {
                caller_included = false;
                false
            }
            FrameClass::WasmStub => false,
        };
        // "get a stack ID", step 5: an undefined frame ID keeps the parent.
        if !include {
            continue;
        }
        let frame_id = session.builder.frame_id(frame.index, desc);
        // "get a stack ID", steps 6-7.
        parent = Some(session.builder.stack_id(parent, frame_id));
    }
    // Step 6 of "take a sample".
    session.builder.push_sample(timestamp, parent);
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

/// Slack for considering a session due at a tick.
const DUE_SLACK_NS: u64 = 50_000;
/// How long a sent signal may stay unhandled before the request is
/// abandoned (a thread that blocks the signal must not stall sampling).
const ABANDON_AFTER_NS: u64 = 200_000_000;

fn sampler_thread(shared: Arc<Shared>) {
    let mut fired: Vec<BufferFullCallback> = Vec::new();
    let mut st = shared.lock();
    loop {
        if st.shutdown {
            shared
                .sampler_cpu_ns
                .fetch_add(glue::thread_cpu_ns(), Ordering::Relaxed);
            return;
        }
        let Some(next_due) = st
            .sessions
            .iter()
            .filter(|s| !s.full)
            .map(|s| s.next_due_ns)
            .min()
        else {
            st = shared.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let now = glue::monotonic_ns();
        if next_due > now + DUE_SLACK_NS / 5 {
            let wait = Duration::from_nanos(next_due - now);
            st = shared
                .wake
                .wait_timeout(st, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            continue;
        }
        // The previous tick's capture, if its handler is done (one wake-up
        // per tick: the sampling thread never waits for the handler).
        collect_flight(&shared, &mut st);
        abandon_if_stale(&shared, &mut st, now);
        // One tick serves every due session.
        let mut due = Vec::new();
        for active in st.sessions.iter_mut().filter(|s| !s.full) {
            if active.next_due_ns > now + DUE_SLACK_NS {
                continue;
            }
            // Absolute deadlines: skip missed ticks instead of drifting.
            while active.next_due_ns <= now + DUE_SLACK_NS {
                active.next_due_ns = active.next_due_ns.saturating_add(active.interval_ns);
            }
            match admit(active) {
                Admit::Take => due.push(active.id),
                Admit::Full(cb) => fired.extend(cb),
                Admit::Skip => {}
            }
        }
        if due.is_empty() {
            drop(st);
            for cb in fired.drain(..) {
                cb();
            }
            // Let the JS thread turn the instrumentation off.
            shared.resolve_requested.store(true, Ordering::Release);
            shared.cx.request_interrupt();
            st = shared.lock();
            continue;
        }
        let position = st.next_position;
        st.next_position += 1;
        shared.ticks.fetch_add(1, Ordering::Relaxed);
        tick(&shared, &mut st, position, due, now);
        let many = st.pending.len() >= RESOLVE_THRESHOLD;
        if many || !fired.is_empty() {
            drop(st);
            for cb in fired.drain(..) {
                cb();
            }
            shared.resolve_requested.store(true, Ordering::Release);
            shared.cx.request_interrupt();
            st = shared.lock();
        }
    }
}

/// Serves one tick (sampling thread, under the agent's mutex): an idle
/// sample when no JS is on the stack; otherwise a capture request to the
/// JS thread's signal handler, collected later (or, on platforms without
/// signals, a request for an on-thread capture).
fn tick(shared: &Shared, st: &mut SharedState, position: u64, sessions: Vec<u64>, now: u64) {
    // No JS on the stack: an idle sample, without signalling.
    if shared.stack.depth() == 0 {
        let marker = observe_without_stack(shared, false);
        deliver_without_stack(st, position, now, sessions, marker);
        return;
    }
    match shared.mode {
        CaptureMode::SignalHandler => {
            let markers = markers_wanted(st, shared);
            let sent = st.request.is_none()
                && st
                    .capture
                    .request(&shared.slot, &shared.gc, markers, position)
                    == Requested::Sent;
            if sent {
                st.request = Some(Request {
                    position,
                    sessions,
                    sent_at_ns: now,
                    riders: Vec::new(),
                });
            } else if let Some(request) = st.request.as_mut() {
                // The previous request is still in flight: a sample without
                // stack whose marker is the late capture's (see `ride`).
                ride(request, position, now, sessions);
            } else {
                // The previous request is still in flight, or the signal
                // could not be sent: a sample without stack.
                let marker = observe_without_stack(shared, true);
                deliver_without_stack(st, position, now, sessions, marker);
            }
        }
        CaptureMode::OnThreadInterrupt => {
            st.on_thread_ticks.push((position, now, sessions));
            shared.cx.request_interrupt();
        }
    }
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

/// Markers: a tick served while the previous capture request is still in
/// flight gets a sample without stack, whose marker is the one that
/// capture reads when its handler runs. Sound because a pending signal is
/// handled before the thread runs any more user code: between the request
/// and the handler the thread did no work of its own (it waited in the
/// kernel or for a CPU, typically in a GC's parallel phases), so its state
/// at these ticks is the state the handler reads. Without this, such ticks
/// would fall mostly inside GCs and bias the `gc` share down.
fn ride(request: &mut Request, position: u64, now: u64, sessions: Vec<u64>) {
    request.riders.push((position, now, sessions));
}

/// Gives up a request whose signal has not been handled for
/// [`ABANDON_AFTER_NS`]: its tick gets a sample without stack.
fn abandon_if_stale(shared: &Shared, st: &mut SharedState, now: u64) {
    let stale = st
        .request
        .as_ref()
        .is_some_and(|r| now.saturating_sub(r.sent_at_ns) > ABANDON_AFTER_NS);
    if stale && st.capture.abandon(&shared.slot) {
        if let Some(request) = st.request.take() {
            let marker = observe_without_stack(shared, true);
            deliver_without_stack(
                st,
                request.position,
                request.sent_at_ns,
                request.sessions,
                marker,
            );
            for (position, time_ns, sessions) in request.riders {
                deliver_without_stack(st, position, time_ns, sessions, marker);
            }
        }
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
