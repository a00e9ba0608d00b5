//! The state of the agent (one JS thread: the page's, or a dedicated
//! worker's) that lives as long as its [`JsRuntime`](crate::runtime::JsRuntime):
//! one [`Agent`] per thread, in one slot, instead of a `thread_local!`
//! table per module.
//!
//! The runtime's `Drop` takes the agent out of the slot ([`shut_down`])
//! while the context still lives, so every root the agent holds goes
//! before the context, in the order [`Agent`]'s `Drop` states. A thread
//! that runs a second runtime after the first gets a fresh agent: nothing
//! (a script's muted flag, a pending fetch, a rejected promise) carries
//! over from one agent to the next.
//!
//! Profiling's state ([`crate::profiling`]) follows the same pattern in its
//! own slot; the runtime drops it just before this one.

use std::cell::RefCell;
use std::rc::Rc;

/// This agent's tables, each owned by the module that uses it (the fields'
/// types are private to those modules; they reach them through
/// [`current`] and [`existing`]).
pub(crate) struct Agent {
    /// The dedicated workers this agent created (their `Worker` objects'
    /// roots and their threads).
    pub(crate) workers: crate::workers::OwnedWorkers,
    /// Script elements waiting for their fetch or post-connection steps
    /// (they root DOM nodes) and the script fetch threads.
    pub(crate) script_elements: crate::script_element::ScriptElements,
    /// `AbortSignal.timeout()` signals still waiting (roots).
    pub(crate) abort_timeouts: crate::dom::abortsignal::AbortTimeouts,
    /// Pending fetches' completion steps (they root JS objects).
    pub(crate) fetches: crate::fetch::Fetches,
    /// The rejected-promise lists (roots of promises).
    pub(crate) rejections: crate::rejection::Rejections,
    /// The pending mutation observers (roots) and the observer counters.
    pub(crate) mutation_observers: crate::dom::mutationobserver::MutationObservers,
    /// The classic scripts' host-defined data and the sampler's registry.
    pub(crate) scripts: crate::script_registry::Scripts,
}

impl Agent {
    fn new() -> Agent {
        Agent {
            workers: crate::workers::OwnedWorkers::default(),
            script_elements: crate::script_element::ScriptElements::default(),
            abort_timeouts: crate::dom::abortsignal::AbortTimeouts::default(),
            fetches: crate::fetch::Fetches::default(),
            rejections: crate::rejection::Rejections::default(),
            mutation_observers: crate::dom::mutationobserver::MutationObservers::default(),
            scripts: crate::script_registry::Scripts::default(),
        }
    }
}

impl Drop for Agent {
    /// The teardown order of the agent's tables, all while the context
    /// lives. `JsRuntime`'s `Drop` runs steps 1-4 earlier, at the points
    /// its own order needs them (the workers before the event loop shuts
    /// down; script elements, fetches and abort timeouts as it shuts
    /// down), so in a normal shutdown they find nothing left here; steps
    /// 5-7 run here, after profiling's state and the navigables are gone.
    fn drop(&mut self) {
        // 1. The workers: terminated, and their threads joined (their
        //    runtimes are this one's children).
        self.workers.shut_down();
        // 2. Script elements: the fetch threads are stopped and joined
        //    (their loader aborted) and the waiting scripts' roots go.
        self.script_elements.discard();
        // 3. Pending fetches: their threads stop before their next hop and
        //    their completion steps (and the roots they hold) go.
        self.fetches.discard();
        // 4. The signals waiting for `AbortSignal.timeout()`.
        self.abort_timeouts.discard();
        // 5. The rejected promises' roots.
        self.rejections.clear();
        // 6. The pending mutation observers' roots.
        self.mutation_observers.clear();
        // 7. The script records last: nothing above reads them, and the
        //    sampler that shared the registry is gone with profiling.
        self.scripts.clear();
    }
}

thread_local! {
    /// The agent running on this thread; `None` before first use and
    /// after [`shut_down`].
    static AGENT: RefCell<Option<Rc<Agent>>> = const { RefCell::new(None) };
}

/// This thread's agent, created on first use.
pub(crate) fn current() -> Rc<Agent> {
    AGENT.with(|a| {
        a.borrow_mut()
            .get_or_insert_with(|| Rc::new(Agent::new()))
            .clone()
    })
}

/// This thread's agent if it exists (callbacks running during or after
/// [`shut_down`], or at thread exit, do not create it again).
pub(crate) fn existing() -> Option<Rc<Agent>> {
    AGENT.try_with(|a| a.borrow().clone()).ok().flatten()
}

/// Drops this thread's agent (in the order of [`Agent`]'s `Drop`); called
/// before the context goes away.
pub(crate) fn shut_down() {
    let agent = AGENT.with(|a| a.borrow_mut().take());
    drop(agent);
}

#[cfg(test)]
mod tests {
    use crate::runtime::JsRuntime;
    use crate::script_registry::{self, ScriptRecord};

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
}
