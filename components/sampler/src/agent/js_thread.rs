//! The agent's JS-thread side: [`AgentSampler`] (one per context, shared
//! by every handle created for it) and the per-session state the
//! [`crate::Session`]s keep here. It installs the `ProfilingStack`, the GC
//! watch and the capture slot; starts the sampling thread with the first
//! session (or at creation when eager) and joins it before uninstalling
//! them; turns the instrumentation on and off; captures on this thread
//! (`force_sample`, the interrupt fallback); and resolves pending captures
//! into each session's trace ("take a sample", steps 2-6), at `stop()`,
//! `force_sample()`, [`AgentSampler::poll`] and from the interrupt callback
//! the sampling thread requests. Everything here runs on the JS thread
//! (`Rc`, `RefCell`); only [`Shared`] crosses to the sampling thread.

use crate::marker;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use super::{
    admit, collect_flight, markers_wanted, observe_capture, observe_without_stack, sampling_thread,
    Active, Admit, BufferFullCallback, CaptureMode, Preparation, RawSample, Shared, SharedState,
};
use crate::clock::SessionClock;
use crate::glue::{
    self, CaptureBuffers, CaptureSlot, CaptureStatus, Context, GcWatch, ProfilingStack,
};
use crate::marker::OriginTag;
use crate::registry::ScriptRegistry;
use crate::resolve::{merge, FrameClass, ResolvedFrame, Resolver};
use crate::trace::TraceBuilder;

/// Frames preallocated in each capture buffer (grown after truncation).
const INITIAL_CAPTURE_FRAMES: usize = 256;
const INITIAL_CAPTURE_ARENA: usize = 64 * 1024;

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

    /// The agent's counters so far (see [`SamplerStats`]).
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
                .spawn(move || sampling_thread::run(shared))
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
