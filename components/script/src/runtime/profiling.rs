//! The JS Self-Profiling API's agent-level machinery in the shell
//! (<https://wicg.github.io/js-self-profiling/#profiling-sessions>): the
//! agent's one [`AgentSampler`] (one per [`crate::JsRuntime`], i.e. per
//! SpiderMonkey context), the live profiling sessions of its browsing
//! contexts, the `samplebufferfull` notifications coming from the sampling
//! thread, the WebDriver "Force Sample" hook, and the session the `jsprof
//! profile` command starts at document creation.
//!
//! * The sampler is created lazily at the first `new Profiler()` (document
//!   policy `js-profiling-mode=lazy`), or when a document whose policy says
//!   `eager` is created ([`document_created`]); it is dropped before the
//!   context (`AgentProfiling::shut_down`, step 6 of the agent's teardown
//!   in `crate::runtime::agent::OwnedAgent`'s `Drop`).
//! * Every session is owned by its [`SessionHandle`] (held by the `Profiler`
//!   object, or by the shell for `jsprof profile`); this module keeps weak
//!   references only, so a `Profiler` that becomes garbage drops its handle
//!   and with it the session and its buffers.
//! * `on_buffer_full` may run on the sampling thread: it only sets a flag
//!   and pushes the session key into a mutex-protected inbox; the event
//!   loop drains the inbox on the JS thread ([`deliver_notifications`]) and
//!   queues the task that fires `samplebufferfull`.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use jsprof_sampler::{
    AgentSampler, Preparation, ProfilerTrace, Session, SessionError, SessionOptions,
};
use mozjs::context::JSContext;

use crate::dom::globals::globalscope::GlobalScope;
use crate::navigation::browsing_context::{self, NavigableId};

/// The smallest sample interval the shell supports, in milliseconds.
pub const MIN_SUPPORTED_INTERVAL_MS: f64 = 1.0;

/// "The next interval supported by the UA" for a requested (non-negative,
/// finite) interval: the supported intervals are the whole milliseconds
/// from 1 ms up, and a request is rounded up to the next one (0.3 → 1,
/// 10 → 10, 10.5 → 11). Why whole milliseconds: the sampling thread keeps
/// 1 ms deadlines on a loaded 2-core machine (p50 1.000 ms) at a few percent
/// of overhead, while below 1 ms the signal round trips start to dominate
/// and trace timestamps are coarsened to 100 µs anyway (HR-Time), so a
/// finer interval would cost more than it shows. Rounding up (never down)
/// keeps the overhead a page asked for as its upper bound, and a supported
/// value maps to itself.
/// <https://wicg.github.io/js-self-profiling/#dom-profiler-profiler> step 3.1
pub fn supported_interval(requested_ms: f64) -> f64 {
    if !requested_ms.is_finite() || requested_ms <= MIN_SUPPORTED_INTERVAL_MS {
        return MIN_SUPPORTED_INTERVAL_MS;
    }
    requested_ms.ceil()
}

/// Applies `JSPROF_BENCH_JIT` (SpiderMonkey JIT options, `ion.enable=0,...`)
/// to a new context: the profiling-cost benchmark isolates the engine's
/// tiers with it (`components/sampler/README.md`). A bad value is reported
/// and ignored.
pub(crate) fn apply_jit_options_from_env(cx: &mut JSContext) {
    if let Some(spec) = std::env::var_os("JSPROF_BENCH_JIT") {
        let result = match spec.to_str() {
            Some(spec) => jsprof_sampler::set_jit_options(cx, spec),
            None => Err("not UTF-8".to_owned()),
        };
        if let Err(message) = result {
            eprintln!("jsprof: JSPROF_BENCH_JIT ignored: {message}");
        }
    }
}

/// A profiling session of this agent, owned by a `Profiler` (or by the
/// shell). Dropping it stops the session and frees its buffers.
pub struct SessionHandle {
    key: u64,
    /// The `profilerRealmID` of the session's realm.
    realm_id: u64,
    /// The browsing context whose realm this is, if a window's.
    navigable: Option<NavigableId>,
    session: RefCell<Option<Session>>,
    /// Set (possibly on the sampling thread) when the buffer filled.
    buffer_full: Arc<std::sync::atomic::AtomicBool>,
    interval_ms: f64,
}

impl SessionHandle {
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The session's sample interval (ms).
    pub fn sample_interval_ms(&self) -> f64 {
        self.interval_ms
    }

    /// Whether the session is stopped (by `stop()`, or because its browsing
    /// context was navigated or closed).
    pub fn stopped(&self) -> bool {
        self.session.borrow().as_ref().is_none_or(|s| s.stopped())
    }

    /// Whether the session's sample buffer filled (it takes no more
    /// samples; it stays "started" until `stop()`, as the explainer says).
    pub fn buffer_full(&self) -> bool {
        self.buffer_full.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Stops the session and returns its trace
    /// (<https://wicg.github.io/js-self-profiling/#dom-profiler-stop>
    /// steps 2 and 4.1-4.2).
    pub fn stop(&self) -> Result<ProfilerTrace, SessionError> {
        let mut session = self.session.borrow_mut();
        match session.as_mut() {
            Some(s) => s.stop(),
            None => Err(SessionError::AlreadyStopped),
        }
    }

    /// Takes a sample now if started (WebDriver's Force Sample).
    pub fn force_sample(&self) {
        if let Some(s) = self.session.borrow().as_ref() {
            s.force_sample();
        }
    }

    /// Samples taken so far.
    pub fn sample_count(&self) -> usize {
        self.session
            .borrow()
            .as_ref()
            .map_or(0, |s| s.sample_count())
    }

    /// Cancels the session (its trace is discarded).
    fn cancel(&self) {
        // Dropping the session removes it from the sampler.
        self.session.borrow_mut().take();
    }
}

/// What runs on the JS thread when a session's buffer filled.
type BufferFullHandler = Box<dyn Fn(&mut JSContext)>;

/// This agent's profiling state, a field of [`crate::runtime::agent::Agent`]: made
/// with the agent, emptied by [`AgentProfiling::shut_down`] in the agent's
/// teardown, before the context (the order within is there).
pub(crate) struct AgentProfiling {
    /// The agent's sampler (created lazily, see [`with_agent`]).
    agent: RefCell<Option<AgentSampler>>,
    /// Every session of the agent, weakly (the handles own them).
    sessions: RefCell<Vec<Weak<SessionHandle>>>,
    next_key: Cell<u64>,
    /// Keys of sessions whose buffer filled, pushed by `on_buffer_full`
    /// (possibly on the sampling thread).
    inbox: Arc<Mutex<Vec<u64>>>,
    /// Listeners for buffer-full notifications, by session key (the
    /// `Profiler` objects register a callback that queues their task).
    buffer_full_handlers: RefCell<Vec<(u64, BufferFullHandler)>>,
    /// What the `jsprof profile` command asked for.
    shell_profile: RefCell<Option<ShellProfileRequest>>,
    shell_session: RefCell<Option<Rc<SessionHandle>>>,
    /// Sessions of `Profiler`s finalized by the GC, cancelled at the next
    /// turn of the event loop (not inside the finalizer, which may run
    /// while the sampler itself is busy on this thread).
    graveyard: RefCell<Vec<Rc<SessionHandle>>>,
    /// Whether sessions started from now on track markers (see
    /// [`set_marker_tracking`]).
    marker_tracking: Cell<bool>,
}

impl AgentProfiling {
    fn new() -> AgentProfiling {
        AgentProfiling {
            agent: RefCell::new(None),
            sessions: RefCell::new(Vec::new()),
            next_key: Cell::new(1),
            inbox: Arc::new(Mutex::new(Vec::new())),
            buffer_full_handlers: RefCell::new(Vec::new()),
            shell_profile: RefCell::new(None),
            shell_session: RefCell::new(None),
            graveyard: RefCell::new(Vec::new()),
            marker_tracking: Cell::new(true),
        }
    }

    /// The profiling part of the agent's teardown (step 6): sessions (the
    /// shell's, the finalized `Profiler`s', then every live one) are
    /// cancelled while the sampler exists, then the handlers and
    /// notifications go, the sampler last.
    pub(crate) fn shut_down(&self) {
        let shell_session = self.shell_session.borrow_mut().take();
        drop(shell_session);
        self.shell_profile.borrow_mut().take();
        cancel_all(std::mem::take(&mut *self.graveyard.borrow_mut()));
        let sessions = std::mem::take(&mut *self.sessions.borrow_mut());
        for session in sessions.iter().filter_map(Weak::upgrade) {
            session.cancel();
        }
        drop(sessions);
        let handlers = std::mem::take(&mut *self.buffer_full_handlers.borrow_mut());
        drop(handlers);
        self.inbox.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let sampler = self.agent.borrow_mut().take();
        drop(sampler);
    }
}

impl Default for AgentProfiling {
    fn default() -> Self {
        AgentProfiling::new()
    }
}

/// This agent's profiling state (without an agent, an empty detached one:
/// see `crate::runtime::agent::current`).
fn state() -> Rc<AgentProfiling> {
    crate::runtime::agent::current().profiling.clone()
}

/// This agent's profiling state if the agent exists (finalizers running
/// after its teardown, or at thread exit, do not make it again).
fn existing_state() -> Option<Rc<AgentProfiling>> {
    crate::runtime::agent::existing().map(|a| a.profiling.clone())
}

/// Cancels `handles`' sessions, then drops the handles.
fn cancel_all(handles: Vec<Rc<SessionHandle>>) {
    for handle in &handles {
        handle.cancel();
    }
    drop(handles);
}

/// Hands over the session of a finalized `Profiler` (see [`reap`]).
pub(crate) fn bury(handle: Rc<SessionHandle>) {
    // Without a state (the agent shut down, or the thread's locals are
    // being destroyed) the handle simply drops here: its session was
    // cancelled with the agent.
    if let Some(state) = existing_state() {
        state.graveyard.borrow_mut().push(handle);
    }
}

/// Cancels the sessions of finalized `Profiler`s, freeing their buffers.
pub fn reap() {
    let Some(state) = existing_state() else {
        return;
    };
    let dead = std::mem::take(&mut *state.graveyard.borrow_mut());
    cancel_all(dead);
}

/// The agent's sampler, created on first use with `preparation`.
fn with_agent<R>(
    cx: &mut JSContext,
    preparation: Preparation,
    f: impl FnOnce(&AgentSampler) -> R,
) -> R {
    let state = state();
    let mut agent = state.agent.borrow_mut();
    let agent = agent.get_or_insert_with(|| {
        AgentSampler::new(
            cx,
            crate::loading::script_registry::sampler_registry(),
            preparation,
        )
    });
    f(agent)
}

/// Whether this agent's sampler exists.
pub fn sampler_created() -> bool {
    existing_state().is_some_and(|s| s.agent.borrow().is_some())
}

/// Whether SpiderMonkey's profiler instrumentation is on in this agent
/// (from document creation with an `eager` policy; during sessions with
/// `lazy`).
pub fn instrumentation_enabled() -> bool {
    existing_state().is_some_and(|s| {
        s.agent
            .borrow()
            .as_ref()
            .is_some_and(|a| a.instrumentation_enabled())
    })
}

/// Creates a profiling session in `global`'s realm (the `Profiler`
/// constructor's step 3), started immediately.
pub fn start_session(
    cx: &mut JSContext,
    global: &GlobalScope,
    interval_ms: f64,
    max_buffer_size: usize,
) -> Rc<SessionHandle> {
    let state = state();
    let key = state.next_key.get();
    state.next_key.set(key + 1);
    let buffer_full = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let inbox = state.inbox.clone();
    let event_loop = crate::runtime::event_loop::EventLoop::current()
        .inbox()
        .clone();
    let flag = buffer_full.clone();
    let options = SessionOptions {
        // Step 3.1: the supported interval (the caller rounded it).
        sample_interval_ms: interval_ms,
        // Step 3.3: the sample buffer size limit.
        max_buffer_size,
        // Step 3.5: the current realm.
        realm_id: global.profiler_realm_id(),
        // Step 3.2: the time origin of the current global object.
        time_origin: global.time_origin(),
        cross_origin_isolated: global.cross_origin_isolated(),
        markers: session_markers(global),
        // May run on the sampling thread: only record and queue.
        on_buffer_full: Some(Box::new(move || {
            flag.store(true, std::sync::atomic::Ordering::Release);
            inbox.lock().unwrap_or_else(|e| e.into_inner()).push(key);
            // Wake the agent's event loop (it may be blocked waiting, and
            // counts as busy until it has delivered the notification): the
            // posted no-op is followed by the notification's delivery at
            // the start of the next turn.
            event_loop.post(Box::new(|_| {}));
        })),
    };
    // Step 3.4: the surrounding agent's sampler.
    let session = with_agent(cx, Preparation::Lazy, |agent| {
        Session::start(agent, options)
    });
    let handle = Rc::new(SessionHandle {
        key,
        realm_id: global.profiler_realm_id(),
        navigable: global.as_window().map(|w| w.navigable_id()),
        session: RefCell::new(Some(session)),
        buffer_full,
        interval_ms,
    });
    let mut sessions = state.sessions.borrow_mut();
    sessions.retain(|w| w.strong_count() > 0);
    sessions.push(Rc::downgrade(&handle));
    drop(sessions);
    handle
}

/// Every live session handle.
fn live_sessions() -> Vec<Rc<SessionHandle>> {
    existing_state().map_or_else(Vec::new, |state| {
        state
            .sessions
            .borrow()
            .iter()
            .filter_map(Weak::upgrade)
            .collect()
    })
}

/// How many session handles are alive (held by a `Profiler` or the shell).
pub fn live_session_count() -> usize {
    live_sessions().len()
}

/// Whether any session of this agent is started.
pub fn has_started_sessions() -> bool {
    live_sessions().iter().any(|s| !s.stopped())
}

/// Registers what to do on the JS thread when session `key`'s buffer
/// fills (the `Profiler` queues its `samplebufferfull` task).
pub(crate) fn on_buffer_full(key: u64, handler: BufferFullHandler) {
    state()
        .buffer_full_handlers
        .borrow_mut()
        .push((key, handler));
}

/// Forgets session `key`'s buffer-full handler (its `Profiler` is gone).
pub(crate) fn forget(key: u64) {
    let Some(state) = existing_state() else {
        return;
    };
    // Take the handlers out before dropping them: a handler's captures may
    // drop more state.
    let removed: Vec<_> = {
        let mut h = state.buffer_full_handlers.borrow_mut();
        let (gone, kept) = std::mem::take(&mut *h)
            .into_iter()
            .partition(|(k, _)| *k == key);
        *h = kept;
        gone
    };
    drop(removed);
}

/// Drains the buffer-full notifications (on the JS thread, from the event
/// loop) and runs their handlers, which queue the `samplebufferfull`
/// tasks. Returns whether any arrived.
pub fn deliver_notifications(cx: &mut JSContext) -> bool {
    reap();
    let Some(state) = existing_state() else {
        return false;
    };
    let keys: Vec<u64> =
        std::mem::take(&mut *state.inbox.lock().unwrap_or_else(|e| e.into_inner()));
    if keys.is_empty() {
        return false;
    }
    for key in keys {
        // Run the handler outside the borrow (it queues a task).
        let handler = {
            let mut h = state.buffer_full_handlers.borrow_mut();
            h.iter().position(|(k, _)| *k == key).map(|i| h.remove(i).1)
        };
        if let Some(handler) = handler {
            handler(cx);
        }
    }
    true
}

/// Resolves pending captures now and then during long sessions (the event
/// loop calls this between tasks).
pub fn poll() {
    if let Some(state) = existing_state() {
        if let Some(agent) = state.agent.borrow().as_ref() {
            agent.poll();
        }
    }
}

/// WebDriver's "Force Sample"
/// (<https://wicg.github.io/js-self-profiling/#force-sample>), as an
/// internal hook of the shell: every started profiling session created in
/// the browsing context `navigable` (its top-level traversable and its
/// descendants; `None`: every session of the agent) takes a sample now.
/// Returns how many sessions sampled.
pub fn force_sample(navigable: Option<NavigableId>) -> usize {
    // Step 1: Let sessions be a list of all profiling sessions created in
    // the current browsing context.
    let top = navigable.map(browsing_context::top_of);
    let sessions: Vec<_> = live_sessions()
        .into_iter()
        .filter(|s| match top {
            None => true,
            Some(top) => s
                .navigable
                .is_some_and(|n| browsing_context::top_of(n) == top),
        })
        .collect();
    // Step 2: For each session: if its state is started, take a sample.
    let mut count = 0;
    for session in sessions {
        if !session.stopped() {
            session.force_sample();
            count += 1;
        }
    }
    count
}

/// Stops (cancels) every session of the realm `realm_id`: its document is
/// being replaced or its browsing context closed.
pub fn stop_sessions_of_realm(realm_id: u64) {
    for session in live_sessions() {
        if session.realm_id == realm_id {
            session.cancel();
        }
    }
}

/// How the `jsprof profile` command profiles a page.
#[derive(Clone, Debug)]
pub struct ShellProfileRequest {
    pub interval_ms: f64,
    pub max_samples: usize,
}

/// Asks that the next top-level document created on this thread be
/// profiled from its creation: its policy is enabled (the `profile`
/// command's user profiles their own page) and a session starts in its
/// realm.
pub fn request_shell_profile(request: ShellProfileRequest) {
    *state().shell_profile.borrow_mut() = Some(request);
}

/// The session the shell started for `jsprof profile`, if any.
pub fn shell_session() -> Option<Rc<SessionHandle>> {
    existing_state().and_then(|s| s.shell_session.borrow().clone())
}

/// Called when a document is created in `global` (a navigation): stops
/// the realm's earlier sessions, applies the `profile` command's request
/// to a top-level document, and prepares the sampler for an `eager`
/// document policy (<https://wicg.github.io/js-self-profiling/#document-policy>).
pub(crate) fn document_created(
    cx: &mut JSContext,
    global: &GlobalScope,
    document: &crate::dom::nodes::document::Document,
    top_level: bool,
) {
    stop_sessions_of_realm(global.profiler_realm_id());
    // The realm's previous document is discarded: the dedicated workers it
    // created go with it.
    crate::runtime::workers::terminate_workers_of_realm(global.profiler_realm_id());
    if top_level {
        let request = existing_state().and_then(|s| s.shell_profile.borrow_mut().take());
        if let Some(request) = request {
            document.set_document_policy(Some(jsprof_document::DocumentPolicy::enabled(
                jsprof_document::ProfilingMode::Eager,
            )));
            with_agent(cx, Preparation::Eager, |agent| {
                agent.prepare(Preparation::Eager)
            });
            let interval = supported_interval(request.interval_ms);
            let handle = start_session(cx, global, interval, request.max_samples);
            *state().shell_session.borrow_mut() = Some(handle);
            return;
        }
    }
    let setup = document
        .document_policy()
        .map(|p| p.sampler_setup())
        .unwrap_or(jsprof_document::SamplerSetup::Never);
    if setup == jsprof_document::SamplerSetup::AtDocumentCreation {
        with_agent(cx, Preparation::Eager, |agent| {
            agent.prepare(Preparation::Eager)
        });
    }
}

/// Called when a dedicated worker's global is set up with its document
/// policy: an `eager` policy prepares this agent's sampler now, the
/// instrumentation included (as [`document_created`] does for a document),
/// so the worker's first `new Profiler()` discards no JIT code.
pub(crate) fn worker_global_created(cx: &mut JSContext, policy: &jsprof_document::DocumentPolicy) {
    if policy.sampler_setup() == jsprof_document::SamplerSetup::AtDocumentCreation {
        with_agent(cx, Preparation::Eager, |agent| {
            agent.prepare(Preparation::Eager)
        });
    }
}

/// Whether the event loop should [`poll`] now (at most every 50 ms;
/// `last` is when it last did).
pub(crate) fn poll_due(last: &Cell<Option<Instant>>) -> bool {
    let now = Instant::now();
    match last.get() {
        Some(t) if now.duration_since(t).as_millis() < 50 => false,
        _ => {
            last.set(Some(now));
            true
        }
    }
}

// Markers (the spec repository's markers extension,
// <https://github.com/WICG/js-self-profiling/blob/main/markers.md>): what
// the sampler reads and how the shell feeds it is in
// `components/sampler/src/marker.rs`. The shell records each global's
// origin with its realm, and marks its own work outside script.

/// The markers' tag of `origin` (each opaque origin is its own).
fn marker_origin(origin: &jsprof_document::Origin) -> jsprof_sampler::OriginTag {
    if origin.is_opaque() {
        jsprof_sampler::OriginTag::unique()
    } else {
        jsprof_sampler::OriginTag::of(&origin.ascii_serialization())
    }
}

/// Records `global`'s origin with its realm (when its settings object's
/// origin is set): markers of its script and work are then shown to
/// same-origin profilers only.
pub(crate) fn note_realm_origin(global: &GlobalScope) {
    jsprof_sampler::set_realm_origin(global.profiler_realm_id(), marker_origin(&global.origin()));
}

/// The markers scope of a session in `global`: its origin when the global
/// is cross-origin isolated (the proposal's `[CrossOriginIsolated]`
/// member), else none.
fn session_markers(global: &GlobalScope) -> Option<jsprof_sampler::OriginTag> {
    if !global.cross_origin_isolated() || !state().marker_tracking.get() {
        return None;
    }
    let origin = marker_origin(&global.origin());
    // The session's own realm is known to be of that origin.
    jsprof_sampler::set_realm_origin(global.profiler_realm_id(), origin);
    Some(origin)
}

/// Turns markers on (the default) or off for the sessions this agent
/// starts from now on (the benchmark's baseline: sessions without marker
/// tracking, where the signal handler skips the marker reads).
pub fn set_marker_tracking(on: bool) {
    state().marker_tracking.set(on);
}

/// Marks the shell's own work for `global`'s document or worker (HTML
/// parsing, structured clone, fetch processing, timers' bookkeeping) until
/// the guard is dropped: samples outside script carry `other`.
pub(crate) fn other_work(global: &GlobalScope) -> jsprof_sampler::OtherWork {
    jsprof_sampler::marker::other_work_for_realm(global.profiler_realm_id())
}

/// [`other_work`] for the current realm's global, if it is one of ours.
pub(crate) fn other_work_here(cx: &JSContext) -> Option<jsprof_sampler::OtherWork> {
    // SAFETY: the reference is used within this call only, while the
    // current realm's global is alive.
    let global = unsafe { GlobalScope::current(cx) }?;
    Some(other_work(global))
}

/// Wall time this agent's thread spent in GC while its sampler watched it
/// (ns; markers are checked against it).
pub fn gc_time_ns() -> u64 {
    jsprof_sampler::gc_total_ns()
}
