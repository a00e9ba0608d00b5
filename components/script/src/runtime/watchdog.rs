//! Per-page limits on the agents of one page: the watchdog that
//! interrupts running script when a time limit passes, and the heap
//! ceiling of each agent's SpiderMonkey context.
//!
//! # The watchdog
//!
//! [`Watchdog::arm`] starts a `js-watchdog` thread for the agents created
//! on the arming thread from then on (the page's [`crate::JsRuntime`]) and
//! every dedicated worker they create, transitively (a worker thread
//! inherits its owner's watchdog when it is spawned, see
//! [`AgentLimits`]). Each agent's runtime registers its context
//! ([`ThreadSafeJSContext`], which stays valid to call after the context
//! is gone) and its event loop's inbox while it lives.
//!
//! When the limit passes, the watchdog thread sets the `interrupting` flag
//! (from then on the event loops start no task and the parser no script),
//! requests an interrupt on every registered context (SpiderMonkey's
//! `JS_RequestInterruptCallback`, the one call that is safe from another
//! thread, the same mechanism as "terminate a worker") and aborts the
//! page's fetches. On each agent's thread, the interrupt callback
//! ([`interrupt_callback`], installed on every runtime) then records where
//! script was running (`DescribeScriptedCaller`: the URL and line of the
//! innermost scripted frame), stops the agents (below), asks for the next
//! interrupt at once and returns false: SpiderMonkey stops the script
//! with an uncatchable termination (no `catch` or `finally` runs), and
//! every later attempt to run script on that context stops at its first
//! interrupt check.
//!
//! Stopping sets the `fired` flag and wakes every registered event loop:
//! the loops (the page's `run_until_idle`, a worker's `run_until_closed`)
//! return, and the microtask checkpoint runs no further microtask, so an
//! endless task, an
//! endless microtask chain and a page idling on timers all end. The first
//! interrupt callback stops the agents; the watchdog thread does it
//! [`GRACE`] after the limit if none ran (no script was running, or only
//! code with no interrupt check). The embedder then drops the page's
//! runtime, which terminates and joins the workers and shuts the samplers
//! down (see `crate::runtime::agent::OwnedAgent`'s `Drop`).
//!
//! # The memory ceiling
//!
//! `--max-heap` bounds each agent's memory in two parts, both per agent
//! (every agent has its own SpiderMonkey runtime):
//!
//! - The GC heap (the arenas holding objects, strings, shapes, scripts):
//!   every agent's context gets `JSGC_MAX_BYTES`. An allocation that would
//!   grow the GC heap past it fails after a last-ditch collection, and
//!   SpiderMonkey throws its out-of-memory error (the string `"out of
//!   memory"`, catchable like any exception), which, uncaught, is reported
//!   like any uncaught error.
//! - Everything SpiderMonkey allocates with malloc for its cells
//!   (ArrayBuffer contents, the characters of long strings, element
//!   vectors, slots), which `JSGC_MAX_BYTES` does not count. SpiderMonkey
//!   counts these bytes per zone (`mallocHeapSize`) and triggers a
//!   collection of the zone when they pass a threshold that grows with the
//!   retained size. Every agent's runtime gets a GC callback
//!   ([`on_gc`]): at the end of each collection it reads the agent's whole
//!   usage, GC heap plus malloc'd bytes of every zone
//!   (`js::GetGCHeapUsage`), and, past the ceiling, requests an interrupt;
//!   the interrupt callback ([`interrupt_callback`]) checks again and stops
//!   the running script (an uncatchable termination, so a page cannot catch
//!   it and go on allocating), records where it ran, and the script's
//!   runner reports it like any uncaught error: an `out of memory` error at
//!   that script's URL and line (see
//!   `crate::dom::globals::globalscope::take_pending_exception`), an `error` event at
//!   the global, the console, or for a worker its `Worker` object in the
//!   owner. The next task starts with a full collection (see
//!   [`collect_after_out_of_memory`]).
//!
//! The malloc part is checked at collections, not at each allocation
//! (SpiderMonkey's allocator has no per-allocation limit an embedder can
//! set, and a malloc that succeeds is never failed): an agent may pass
//! the ceiling by the growth of one collection trigger (SpiderMonkey's
//! malloc threshold grows 1.5 to 3 times the retained size) plus one
//! allocation before it is stopped. It never grows without bound.
//!
//! Per thread (`thread_local!`), not in [`crate::runtime::agent::Agent`]: the limits
//! are installed on a worker's thread before its runtime (and agent)
//! exists, and the memory flags are set by SpiderMonkey's GC and
//! out-of-memory callbacks, which also run while the context is destroyed,
//! after the agent is gone (a new agent clears them: [`agent_started`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsapi::JSGCParamKey::JSGC_MAX_BYTES;
use mozjs::rust::ThreadSafeJSContext;

use crate::runtime::event_loop::Inbox;

/// The default heap ceiling of an agent (`--max-heap`), in MiB.
pub const DEFAULT_MAX_HEAP_MB: u32 = 1024;

/// The largest heap ceiling SpiderMonkey's 32-bit parameter can hold, in
/// MiB (4095 MiB).
pub const MAX_MAX_HEAP_MB: u32 = u32::MAX / (1024 * 1024);

/// How long after the limit the watchdog stops the agents itself if no
/// interrupt callback did (the page was not running script): the time a
/// running script has to reach an interrupt check, so that it is the one
/// reported.
pub const GRACE: Duration = Duration::from_millis(100);

/// Where script was running when the watchdog interrupted it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptLocation {
    /// The file name the script was compiled with (its URL).
    pub url: String,
    /// 1-origin line.
    pub line: u32,
    /// Whether it ran in a dedicated worker (else in the page).
    pub in_worker: bool,
}

/// What the watchdog did (see [`Watchdog::interruption`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interruption {
    /// The limit that passed.
    pub after: Duration,
    /// Where script was stopped, the page's first if script ran there
    /// (else a worker's); `None` if no script was running (the page was
    /// waiting for timers, messages or its workers).
    pub location: Option<ScriptLocation>,
}

/// One registered agent.
struct Agent {
    id: u64,
    context: ThreadSafeJSContext,
    inbox: Arc<Inbox>,
}

/// What a watchdog shares with the agents it watches.
pub(crate) struct WatchdogState {
    limit: Duration,
    /// The limit passed: interrupt callbacks stop script.
    interrupting: AtomicBool,
    /// The agents are stopped: no task, microtask or script starts.
    fired: AtomicBool,
    /// Set when the watchdog is disarmed (dropped) before the limit.
    cancelled: Mutex<bool>,
    wake: Condvar,
    agents: Mutex<Vec<Agent>>,
    /// The first location recorded in the page, and in a worker.
    page_location: Mutex<Option<ScriptLocation>>,
    worker_location: Mutex<Option<ScriptLocation>>,
    /// Extra things to stop when the limit passes (the page's network
    /// fetches).
    on_fire: Mutex<Vec<Box<dyn Fn() + Send>>>,
}

impl WatchdogState {
    /// The limit passed: interrupts every agent's script, aborts the
    /// page's fetches.
    fn interrupt(&self) {
        self.interrupting.store(true, Ordering::Release);
        let agents = self.agents.lock().unwrap_or_else(|e| e.into_inner());
        for agent in agents.iter() {
            // Thread-safe; a no-op once the context is gone.
            agent.context.request_interrupt_callback();
        }
        drop(agents);
        for stop in self
            .on_fire
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            stop();
        }
    }

    /// Stops the agents: no further task starts, every loop is woken.
    fn stop(&self) {
        if self.fired.swap(true, Ordering::AcqRel) {
            return;
        }
        let agents = self.agents.lock().unwrap_or_else(|e| e.into_inner());
        for agent in agents.iter() {
            agent.inbox.wake();
        }
    }

    /// Waits until `until`; false if the watchdog was disarmed first.
    fn sleep_until(&self, until: Instant) -> bool {
        let mut cancelled = self.cancelled.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if *cancelled {
                return false;
            }
            let now = Instant::now();
            if now >= until {
                return true;
            }
            cancelled = self
                .wake
                .wait_timeout(cancelled, until - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn record(&self, location: ScriptLocation) {
        let slot = if location.in_worker {
            &self.worker_location
        } else {
            &self.page_location
        };
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(location);
        }
    }
}

/// The limits an agent runs under; a worker thread inherits its owner's
/// (captured by `workers::spawn` on the owner's thread).
#[derive(Clone, Default)]
pub(crate) struct AgentLimits {
    pub(crate) watchdog: Option<Arc<WatchdogState>>,
    /// The heap ceiling of runtimes created on this thread, in MiB (`None`:
    /// [`DEFAULT_MAX_HEAP_MB`]).
    pub(crate) max_heap_mb: Option<u32>,
}

thread_local! {
    static LIMITS: RefCell<AgentLimits> = RefCell::new(AgentLimits::default());
    /// This thread's registration with its watchdog, while its runtime
    /// lives.
    static REGISTERED: RefCell<Option<(Arc<WatchdogState>, u64)>> = const { RefCell::new(None) };
}

/// The limits of this thread (for a worker spawned from it).
pub(crate) fn current_limits() -> AgentLimits {
    LIMITS.with(|l| l.borrow().clone())
}

/// Installs the limits a worker thread inherited from its owner.
pub(crate) fn install_limits(limits: AgentLimits) {
    LIMITS.with(|l| *l.borrow_mut() = limits);
}

/// Sets the heap ceiling (MiB) of the runtimes created on this thread
/// from now on and of the workers they create (clamped to
/// 1..=[`MAX_MAX_HEAP_MB`]).
pub fn set_max_heap_mb(mb: u32) {
    let mb = mb.clamp(1, MAX_MAX_HEAP_MB);
    LIMITS.with(|l| l.borrow_mut().max_heap_mb = Some(mb));
}

/// The heap ceiling of runtimes created on this thread, in bytes.
pub(crate) fn max_heap_bytes() -> u32 {
    let mb = LIMITS
        .with(|l| l.borrow().max_heap_mb)
        .unwrap_or(DEFAULT_MAX_HEAP_MB);
    mb.saturating_mul(1024 * 1024)
}

/// How far above the heap ceiling the engine's own objects may go (the
/// events it fires, made when the page's allocations have reached the
/// ceiling): see [`with_heap_reserve`].
pub const HEAP_RESERVE_BYTES: u32 = 16 * 1024 * 1024;

/// Runs `f` with this agent's heap ceiling raised by
/// [`HEAP_RESERVE_BYTES`], then lowers it again: for objects the engine
/// must make even when the page's allocations have reached the ceiling
/// (the `error` event reporting the out-of-memory error, a `load`
/// event). The heap never exceeds the ceiling by more than the reserve.
pub(crate) fn with_heap_reserve<R>(cx: &mut JSContext, f: impl FnOnce(&mut JSContext) -> R) -> R {
    let ceiling = max_heap_bytes();
    // SAFETY: the live context of this thread.
    unsafe {
        mozjs::rust::wrappers2::JS_SetGCParameter(
            cx,
            JSGC_MAX_BYTES,
            ceiling.saturating_add(HEAP_RESERVE_BYTES),
        )
    };
    let result = f(cx);
    // SAFETY: as above.
    unsafe { mozjs::rust::wrappers2::JS_SetGCParameter(cx, JSGC_MAX_BYTES, ceiling) };
    result
}

/// A new agent starts on this thread (`crate::runtime::agent::start`): the memory
/// flags a previous agent's last collections left (a stop pending past the
/// ceiling, an out-of-memory note) do not stop the new agent's script.
pub(crate) fn agent_started() {
    OUT_OF_MEMORY.with(|o| o.set(false));
    OVER_CEILING.with(|o| o.set(false));
    MEMORY_STOP.with(|m| m.borrow_mut().take());
    HELD_PAST_CEILING.with(|h| h.set(0));
}

thread_local! {
    /// An allocation failed at the ceiling since the last collection.
    static OUT_OF_MEMORY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// SpiderMonkey's out-of-memory callback (every runtime's): notes that
/// the next script should start with a full collection.
pub(crate) unsafe extern "C" fn on_out_of_memory(
    _cx: *mut RawJSContext,
    _data: *mut std::ffi::c_void,
) {
    OUT_OF_MEMORY.with(|o| o.set(true));
}

thread_local! {
    /// A collection found this agent's memory past its ceiling: the next
    /// interrupt stops the running script.
    static OVER_CEILING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Where the ceiling stopped script, until its runner reports it.
    static MEMORY_STOP: RefCell<Option<ScriptLocation>> = const { RefCell::new(None) };
    /// What the agent still holds past the ceiling after the collection
    /// that follows a stop (0 when below it): later scripts are stopped
    /// only when they grow past this plus [`HEAP_RESERVE_BYTES`], so that
    /// a page holding memory can still run the script that drops it.
    static HELD_PAST_CEILING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The agent's memory SpiderMonkey counts (GC heap and malloc'd memory of
/// its cells, every zone) and its ceiling (`JSGC_MAX_BYTES`, raised by the
/// reserve while the engine fires its own events, and above what the page
/// still held after its last stop), in bytes.
///
/// # Safety
/// `cx` is the live context of this thread.
unsafe fn usage_and_ceiling(cx: *mut RawJSContext) -> (u64, u64) {
    // SAFETY: the caller's; both read the runtime's counters.
    let (used, ceiling) = unsafe {
        (
            mozjs::jsapi::js::GetGCHeapUsage(cx),
            u64::from(mozjs::jsapi::JS_GetGCParameter(cx, JSGC_MAX_BYTES)),
        )
    };
    let held = HELD_PAST_CEILING.with(|h| h.get());
    let ceiling = if held > 0 {
        ceiling.max(held + u64::from(HEAP_RESERVE_BYTES))
    } else {
        ceiling
    };
    (used, ceiling)
}

/// Every runtime's GC callback: at the end of a collection, if the
/// agent's memory is past its ceiling, asks for an interrupt, where
/// [`interrupt_callback`] stops the running script.
pub(crate) unsafe extern "C" fn on_gc(
    cx: *mut RawJSContext,
    status: mozjs::jsapi::JSGCStatus,
    _reason: mozjs::jsapi::JS::GCReason,
    _data: *mut std::ffi::c_void,
) {
    if status != mozjs::jsapi::JSGCStatus::JSGC_END {
        return;
    }
    // SAFETY: SpiderMonkey calls back with the live context of this thread.
    let (used, ceiling) = unsafe { usage_and_ceiling(cx) };
    // Back below the ceiling itself: what the page held is gone.
    // SAFETY: as above.
    if used <= u64::from(unsafe { mozjs::jsapi::JS_GetGCParameter(cx, JSGC_MAX_BYTES) }) {
        HELD_PAST_CEILING.with(|h| h.set(0));
    }
    if used > ceiling {
        OVER_CEILING.with(|o| o.set(true));
        // SAFETY: as above.
        unsafe { mozjs::jsapi::JS_RequestInterruptCallback(cx) };
    }
}

/// Where the memory ceiling stopped script since the last call (the
/// runner of that script reports it as an uncaught `out of memory`
/// error).
pub(crate) fn take_memory_stop() -> Option<ScriptLocation> {
    MEMORY_STOP.with(|m| m.borrow_mut().take())
}

/// Whether the memory ceiling stopped script that was not reported yet.
pub(crate) fn memory_stopped() -> bool {
    MEMORY_STOP.with(|m| m.borrow().is_some())
}

/// In the interrupt callback: whether to stop the running script because
/// the agent's memory is past its ceiling (checked again: the collection
/// that noticed may have been followed by frees).
fn stop_at_ceiling(cx: *mut RawJSContext) -> bool {
    if !OVER_CEILING.with(|o| o.replace(false)) {
        return false;
    }
    // SAFETY: the live context of this thread (the interrupt callback's).
    let (used, ceiling) = unsafe { usage_and_ceiling(cx) };
    if used <= ceiling {
        return false;
    }
    let location = std::ptr::NonNull::new(cx).and_then(|raw| {
        // SAFETY: as above.
        let cx = unsafe { JSContext::from_ptr(raw) };
        mozjs::rust::describe_scripted_caller(&cx).ok()
    });
    let location = ScriptLocation {
        url: location
            .as_ref()
            .map(|c| c.filename.clone())
            .unwrap_or_default(),
        line: location.map_or(0, |c| c.line),
        in_worker: crate::runtime::workers::on_worker_thread(),
    };
    MEMORY_STOP.with(|m| *m.borrow_mut() = Some(location));
    // The next task starts with a full collection.
    OUT_OF_MEMORY.with(|o| o.set(true));
    true
}

/// Before a task or a script: after an out-of-memory error, a full
/// collection, so that the garbage the page dropped since is freed before
/// it allocates again. (SpiderMonkey runs its own last-ditch collection at
/// the ceiling at most once a minute, so that a page at the ceiling does
/// not collect at every allocation; without this, the page's next
/// allocation within that minute would fail even with its heap emptied.)
///
/// Also forgets a collection's finding that the agent is past its memory
/// ceiling: it stops the script that was running then (or that
/// allocates next, through its own collection), not a script that starts
/// afterwards and frees memory.
pub(crate) fn collect_after_out_of_memory(cx: &mut JSContext) {
    if OUT_OF_MEMORY.with(|o| o.replace(false)) {
        // SAFETY: the live context of this thread, between scripts.
        unsafe { mozjs::rust::wrappers2::JS_GC(cx, mozjs::jsapi::GCReason::API) };
        // What the page still holds past its ceiling (see
        // `HELD_PAST_CEILING`).
        HELD_PAST_CEILING.with(|h| h.set(0));
        // SAFETY: as above.
        let (used, ceiling) = unsafe { usage_and_ceiling(cx.raw_cx()) };
        HELD_PAST_CEILING.with(|h| h.set(if used > ceiling { used } else { 0 }));
    }
    OVER_CEILING.with(|o| o.set(false));
}

/// Whether this thread's watchdog's limit passed: no more tasks or
/// scripts start (the microtask checkpoint goes on until [`fired`], so that
/// an endless microtask chain is interrupted, and reported, where it runs).
pub fn interrupting() -> bool {
    LIMITS.with(|l| {
        l.borrow()
            .watchdog
            .as_ref()
            .is_some_and(|w| w.interrupting.load(Ordering::Acquire))
    })
}

/// Whether this thread's watchdog stopped the agents: no more tasks,
/// microtasks or scripts run.
pub fn fired() -> bool {
    LIMITS.with(|l| {
        l.borrow()
            .watchdog
            .as_ref()
            .is_some_and(|w| w.fired.load(Ordering::Acquire))
    })
}

/// Registers this thread's new runtime (its context and inbox) with this
/// thread's watchdog, if there is one; called by `JsRuntime::create`.
pub(crate) fn register_runtime(context: ThreadSafeJSContext, inbox: Arc<Inbox>) {
    static NEXT_ID: AtomicU64 = AtomicU64::new(1);
    let Some(state) = LIMITS.with(|l| l.borrow().watchdog.clone()) else {
        return;
    };
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mut agents = state.agents.lock().unwrap_or_else(|e| e.into_inner());
    // Interrupting already (a worker started as the limit passed): its
    // script stops at once.
    if state.interrupting.load(Ordering::Acquire) {
        context.request_interrupt_callback();
    }
    agents.push(Agent { id, context, inbox });
    drop(agents);
    REGISTERED.with(|r| *r.borrow_mut() = Some((state, id)));
}

/// Unregisters this thread's runtime (first thing in `JsRuntime`'s drop).
pub(crate) fn unregister_runtime() {
    if let Some((state, id)) = REGISTERED.with(|r| r.borrow_mut().take()) {
        state
            .agents
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|a| a.id != id);
    }
}

/// The interrupt callback of every runtime: stops the script when the
/// agent's memory passed its ceiling; once this thread's watchdog fired, records where script was running, asks for the next interrupt
/// at once and stops the script (false: an uncatchable termination).
pub(crate) unsafe extern "C" fn interrupt_callback(cx: *mut RawJSContext) -> bool {
    // The memory ceiling (see the module comment): an uncatchable stop,
    // reported by the script's runner as an out-of-memory error.
    if stop_at_ceiling(cx) {
        return false;
    }
    let Some(state) = LIMITS
        .try_with(|l| l.borrow().watchdog.clone())
        .ok()
        .flatten()
    else {
        return true;
    };
    if !state.interrupting.load(Ordering::Acquire) {
        return true;
    }
    if let Some(raw) = std::ptr::NonNull::new(cx) {
        // SAFETY: the live context of this thread, which SpiderMonkey is
        // calling back on.
        let cx = unsafe { JSContext::from_ptr(raw) };
        if let Ok(caller) = mozjs::rust::describe_scripted_caller(&cx) {
            if !caller.filename.is_empty() {
                state.record(ScriptLocation {
                    url: caller.filename,
                    line: caller.line,
                    in_worker: crate::runtime::workers::on_worker_thread(),
                });
            }
        }
    }
    state.stop();
    // SAFETY: the live context of this thread.
    unsafe { mozjs::jsapi::JS_RequestInterruptCallback(cx) };
    false
}

/// A time limit on the page's agents (see the module comment). Disarmed
/// when dropped (its thread joined).
pub struct Watchdog {
    state: Arc<WatchdogState>,
    started: Instant,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Arms a watchdog with `limit` for the runtime of this thread (made
    /// before or after) and the workers it creates from now on.
    pub fn arm(limit: Duration) -> Result<Watchdog, String> {
        let state = Arc::new(WatchdogState {
            limit,
            interrupting: AtomicBool::new(false),
            fired: AtomicBool::new(false),
            cancelled: Mutex::new(false),
            wake: Condvar::new(),
            agents: Mutex::new(Vec::new()),
            page_location: Mutex::new(None),
            worker_location: Mutex::new(None),
            on_fire: Mutex::new(Vec::new()),
        });
        LIMITS.with(|l| l.borrow_mut().watchdog = Some(state.clone()));
        // A runtime made before the watchdog: registered now.
        if let Some((context, inbox)) = crate::runtime::current_context_and_inbox() {
            register_runtime(context, inbox);
        }
        let started = Instant::now();
        let for_thread = state.clone();
        let thread = std::thread::Builder::new()
            .name("js-watchdog".to_owned())
            .spawn(move || {
                let state = for_thread;
                let deadline = started + state.limit;
                if !state.sleep_until(deadline) {
                    return;
                }
                state.interrupt();
                // (Cancelled in the grace: the page's runtime is gone.)
                state.sleep_until(deadline + GRACE);
                state.stop();
            })
            .map_err(|e| format!("could not start the watchdog thread: {e}"))?;
        Ok(Watchdog {
            state,
            started,
            thread: Some(thread),
        })
    }

    /// Also runs `stop` (from the watchdog's thread) when the limit
    /// passes: e.g. aborting the page's network fetches, which no
    /// interrupt reaches.
    pub fn on_fire(&self, stop: impl Fn() + Send + 'static) {
        self.state
            .on_fire
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Box::new(stop));
    }

    /// Whether the limit passed.
    pub fn fired(&self) -> bool {
        self.state.interrupting.load(Ordering::Acquire)
    }

    /// How long since the watchdog was armed.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// What the watchdog interrupted, once it fired (read it after the
    /// page's runtime was dropped: every worker has then recorded its
    /// location).
    pub fn interruption(&self) -> Option<Interruption> {
        if !self.fired() {
            return None;
        }
        let page = self
            .state
            .page_location
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let location = page.or_else(|| {
            self.state
                .worker_location
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone()
        });
        Some(Interruption {
            after: self.state.limit,
            location,
        })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        *self
            .state
            .cancelled
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = true;
        self.state.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // Runtimes made on this thread from now on are not watched (the
        // flag of the old watchdog stays with the agents that have it).
        LIMITS.with(|l| {
            let mut l = l.borrow_mut();
            if l.watchdog
                .as_ref()
                .is_some_and(|w| Arc::ptr_eq(w, &self.state))
            {
                l.watchdog = None;
            }
        });
    }
}
