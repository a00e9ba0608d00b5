//! The state of the agent (one JS thread: the page's, or a dedicated
//! worker's) that lives as long as its [`JsRuntime`](crate::runtime::JsRuntime):
//! one [`Agent`] per runtime, in one per-thread slot, instead of a
//! `thread_local!` table per module.
//!
//! * The runtime owns its agent ([`OwnedAgent`], made by [`start`] before
//!   anything else of the runtime): every table of the agent (workers,
//!   script elements, fetches, the event loop, profiling, navigables,
//!   module maps, session storage, ...) is a field of [`Agent`], whose type
//!   stays private to the module that uses it. Modules reach their table
//!   through [`current`] / [`existing`], or through an [`AgentLocal`] key
//!   used like a `thread_local!` key (`TABLE.with(|t| ...)`).
//! * The teardown order is written once, in [`OwnedAgent`]'s `Drop`: the
//!   runtime drops it first (its first field), while the context lives,
//!   so every root the agent holds goes before the context. During the teardown the
//!   agent stays reachable (a task dropped by the event loop's shutdown may
//!   still reach its table); afterwards the slot is empty.
//! * The slot holds an agent only from [`start`] to the end of the
//!   teardown; [`current`] without one gives an empty agent that is not
//!   the thread's, so nothing written then outlives the call.
//! * A thread that runs a second runtime after the first gets a fresh
//!   agent ([`start`] replaces whatever the slot holds): nothing (a
//!   navigable, a session storage bottle, a module map entry, a profiler,
//!   a script's muted flag, a pending fetch, a rejected promise) carries
//!   over from one agent to the next.
//!
//! What stays per thread (`thread_local!`) says why in its module: state
//! that SpiderMonkey's callbacks or finalizers touch while the context is
//! destroyed, after the agent is gone (the rooting stack, weak anchors,
//! the watchdog's flags, the test bindings' counters), state set before
//! the runtime exists (a worker's shared state, its inherited limits), and
//! counters that must only grow on the thread.

use std::cell::RefCell;
use std::rc::Rc;

/// This agent's tables, each owned by the module that uses it (the fields'
/// types are private to those modules; they reach them through
/// [`current`], [`existing`] and [`AgentLocal`] keys). No `Drop` here:
/// the order in which they are emptied is [`OwnedAgent`]'s.
pub(crate) struct Agent {
    /// The runtime whose agent this is (its `Runtime`) and the event
    /// loop's "performing a microtask checkpoint" flag.
    pub(crate) runtime: crate::runtime::AgentRuntime,
    /// The event loop (its tasks, timers and inbox).
    pub(crate) event_loop: crate::runtime::event_loop::InstalledEventLoop,
    /// The dedicated workers this agent created (their `Worker` objects'
    /// roots and their threads) and the fallback loader of new workers.
    pub(crate) workers: crate::runtime::workers::OwnedWorkers,
    /// Script elements waiting for their fetch or post-connection steps
    /// (they root DOM nodes) and the script fetch threads.
    pub(crate) script_elements: crate::loading::script_element::ScriptElements,
    /// `AbortSignal.timeout()` signals still waiting (roots).
    pub(crate) abort_timeouts: crate::dom::events::abortsignal::AbortTimeouts,
    /// Pending fetches' completion steps (they root JS objects).
    pub(crate) fetches: crate::loading::fetch::Fetches,
    /// The sampler, the profiling sessions and their notifications.
    pub(crate) profiling: Rc<crate::runtime::profiling::AgentProfiling>,
    /// The navigables (their globals' and containers' roots), the page's
    /// loader and the blob URL store without one.
    pub(crate) navigables: crate::navigation::browsing_context::Navigables,
    /// The synchronous iframe `load` events' nesting.
    pub(crate) iframes: crate::dom::html::htmliframeelement::IframeLoads,
    /// The rejected-promise lists (roots of promises).
    pub(crate) rejections: crate::runtime::rejection::Rejections,
    /// The pending mutation observers (roots) and the observer counters.
    pub(crate) mutation_observers: crate::dom::nodes::mutationobserver::MutationObservers,
    /// The classic scripts' host-defined data and the sampler's registry.
    pub(crate) scripts: crate::loading::script_registry::Scripts,
    /// The module maps: modules' host-defined data, pending static
    /// imports (roots) and the graphs' loading states (roots).
    pub(crate) modules: crate::loading::module_loading::ModuleMaps,
    /// The session storage bottles, by top-level traversable and origin.
    pub(crate) session_storage: crate::dom::globals::storage::SessionBottles,
}

impl Agent {
    fn new() -> Agent {
        Agent {
            runtime: Default::default(),
            event_loop: Default::default(),
            workers: Default::default(),
            script_elements: Default::default(),
            abort_timeouts: Default::default(),
            fetches: Default::default(),
            profiling: Default::default(),
            navigables: Default::default(),
            iframes: Default::default(),
            rejections: Default::default(),
            mutation_observers: Default::default(),
            scripts: Default::default(),
            modules: Default::default(),
            session_storage: Default::default(),
        }
    }
}

/// The agent as its runtime owns it (a field of `JsRuntime`, dropped
/// first). Its `Drop` is the agent's whole teardown order.
pub(crate) struct OwnedAgent {
    agent: Rc<Agent>,
    /// The `profilerRealmID` of the runtime's global, once made (its
    /// environment's blob URLs are revoked at teardown).
    global_realm: Option<u64>,
}

impl OwnedAgent {
    /// The agent.
    pub(crate) fn agent(&self) -> &Agent {
        &self.agent
    }

    /// Records the runtime's global (see `global_realm`).
    pub(crate) fn set_global_realm(&mut self, realm_id: u64) {
        self.global_realm = Some(realm_id);
    }
}

impl Drop for OwnedAgent {
    /// The teardown order of the agent, all while the context lives and
    /// the agent is still this thread's (a step may reach another's table
    /// through the slot: a task dropped in step 5 may bury a profiling
    /// session, which step 6 then cancels).
    fn drop(&mut self) {
        let agent = &self.agent;
        // 1. No watchdog interrupts this context from now on.
        crate::runtime::watchdog::unregister_runtime();
        // 2. A worker's context is unpublished before it goes (see
        //    `workers::PublishedContext`).
        crate::runtime::workers::runtime_dropping();
        // 3. The global's environment is destroyed: its blob URL entries
        //    are removed (https://w3c.github.io/FileAPI/#lifeTime).
        if let Some(realm_id) = self.global_realm {
            crate::navigation::browsing_context::blob_store().revoke_environment(realm_id);
        }
        // 4. The workers: terminated, and their threads joined (their
        //    runtimes are this one's children), before the event loop
        //    stops taking their messages.
        agent.workers.shut_down();
        // 5. The event loop shuts down, interleaved with the tables whose
        //    threads and timers queue tasks to it:
        let event_loop = agent.event_loop.installed();
        // 5.1. its inbox closes and its queued tasks (and their roots) go;
        if let Some(event_loop) = &event_loop {
            event_loop.close();
        }
        // 5.2. script elements: the fetch threads are stopped and joined
        //      (their loader aborted) and the waiting scripts' roots go;
        agent.script_elements.discard();
        // 5.3. pending fetches: their threads stop before their next hop
        //      and their completion steps (and the roots they hold) go;
        agent.fetches.discard();
        // 5.4. the signals waiting for `AbortSignal.timeout()`;
        agent.abort_timeouts.discard();
        // 5.5. its timers go and the loop is uninstalled.
        if let Some(event_loop) = event_loop {
            event_loop.uninstall();
        }
        // 6. Profiling: every session is cancelled while the sampler
        //    exists, then the sampler goes (`AgentProfiling::shut_down`).
        agent.profiling.shut_down();
        // 7. The navigables' roots (globals, containers) and the loader.
        agent.navigables.shut_down();
        // 8. The rejected promises' roots.
        agent.rejections.clear();
        // 9. The pending mutation observers' roots.
        agent.mutation_observers.clear();
        // 10. The script records: nothing above reads them after its step,
        //     and the sampler that shared the registry is gone.
        agent.scripts.clear();
        // 11. The module maps: pending loads and graph states (roots).
        agent.modules.clear();
        // 12. The session storage bottles (they end with the agent's
        //     top-level traversables).
        agent.session_storage.clear();
        // 13. The agent leaves the slot (the runtime is no longer
        //     reachable through it); its emptied tables drop with the
        //     last reference.
        let _ = AGENT.try_with(|a| {
            let mut slot = a.borrow_mut();
            if slot.as_ref().is_some_and(|s| Rc::ptr_eq(s, agent)) {
                slot.take();
            }
        });
    }
}

thread_local! {
    /// The agent running on this thread; `None` before its runtime starts
    /// it and after its teardown. (The one per-thread slot: everything per
    /// agent is a field of [`Agent`].)
    static AGENT: RefCell<Option<Rc<Agent>>> = const { RefCell::new(None) };
}

/// Starts a fresh agent on this thread for a new runtime, which owns it
/// (the only way an agent enters the slot). Whatever the slot held before
/// (nothing, unless a runtime was leaked) is dropped: nothing carries over.
pub(crate) fn start() -> OwnedAgent {
    let agent = Rc::new(Agent::new());
    let stale = AGENT.with(|a| a.borrow_mut().replace(agent.clone()));
    drop(stale);
    crate::runtime::watchdog::agent_started();
    OwnedAgent {
        agent,
        global_realm: None,
    }
}

/// This thread's agent. Without one (no runtime yet, or after its
/// teardown, or at thread exit) an empty agent that is not this thread's:
/// what a caller writes into it goes with the returned handle, so a
/// callback running after the teardown never makes a table (or a root)
/// that would outlive the context or reach the next runtime.
pub(crate) fn current() -> Rc<Agent> {
    existing().unwrap_or_else(|| Rc::new(Agent::new()))
}

/// This thread's agent if it exists (callbacks running after its
/// runtime's teardown, or at thread exit, do not create it again).
pub(crate) fn existing() -> Option<Rc<Agent>> {
    AGENT.try_with(|a| a.borrow().clone()).ok().flatten()
}

/// A key naming one table of this thread's agent, used like a
/// `thread_local!` key: `TABLE.with(|t| ...)` runs on the field of
/// [`current`] that the key's function selects.
pub(crate) struct AgentLocal<T: 'static>(pub(crate) fn(&Agent) -> &T);

impl<T: 'static> AgentLocal<T> {
    /// Runs `f` on this agent's table.
    pub(crate) fn with<R>(&'static self, f: impl FnOnce(&T) -> R) -> R {
        let agent = current();
        f((self.0)(&agent))
    }
}

#[cfg(test)]
mod tests {
    use crate::loading::script_registry::{self, ScriptRecord};
    use crate::runtime::JsRuntime;

    /// A thread's second runtime is a new agent: what the first one
    /// recorded (here a cross-origin script with muted errors) does not
    /// carry over, and nothing is recorded once the agent is gone.
    #[test]
    fn a_second_runtime_on_the_thread_starts_a_fresh_agent() {
        let url = "https://other.example/lib.js";
        let first = JsRuntime::new().expect("runtime");
        script_registry::register(ScriptRecord {
            url: url.to_owned(),
            start_line: 1,
            cors_status: "opaque".to_owned(),
            muted_errors: true,
        });
        assert!(script_registry::is_muted(url));
        assert!(script_registry::lookup(url, 1).is_some());
        drop(first);
        assert!(!script_registry::is_muted(url));
        assert!(script_registry::all().is_empty());
        let second = JsRuntime::new().expect("runtime");
        assert!(!script_registry::is_muted(url));
        assert_eq!(script_registry::lookup(url, 1), None);
        drop(second);
    }

    /// What a late callback writes after its runtime's teardown (here a
    /// script record) goes into a detached agent: it is not kept on the
    /// thread, so the next runtime cannot inherit it. (When `current`
    /// made the agent on first use, the record stayed in the slot, for
    /// the next runtime, which reused that agent, to find.)
    #[test]
    fn what_is_written_after_the_teardown_reaches_no_runtime() {
        let url = "https://late.example/lib.js";
        drop(JsRuntime::new().expect("runtime"));
        script_registry::register(ScriptRecord {
            url: url.to_owned(),
            start_line: 1,
            cors_status: "opaque".to_owned(),
            muted_errors: true,
        });
        assert!(!script_registry::is_muted(url));
        assert!(super::existing().is_none());
        let next = JsRuntime::new().expect("runtime");
        assert!(!script_registry::is_muted(url));
        assert!(script_registry::all().is_empty());
        drop(next);
    }
}
