//! The processing model of the `script` element
//! (<https://html.spec.whatwg.org/multipage/scripting.html#script-processing-model>)
//! for classic scripts: "prepare the script element" for parser-inserted
//! and script-inserted scripts, what makes a script-inserted script
//! prepare (its post-connection steps, children changed steps and
//! attribute change steps), "mark as ready", the document's set of scripts
//! that will execute as soon as possible and list of scripts that will
//! execute in order as soon as possible, and "execute the script element".
//!
//! External scripts of the last two kinds are fetched off the JS thread:
//! a small pool of fetch threads (at most [`FETCH_THREADS`]) per agent
//! sends the requests through a shareable loader
//! ([`Loader::for_workers`]) and posts each result to the event loop's
//! inbox, where the script is marked as ready. The fetch itself is the
//! one parser-inserted scripts use (`script_loading::fetch_classic_script`'s
//! request parameters and response processing, the document component's
//! CORS state machine deciding blocked / muted / not muted), so a
//! script-inserted script is muted exactly when a parser-inserted one with
//! the same attributes would be. While a fetch is in flight the event loop
//! has a pending load (it is not idle) and the document's load event is
//! delayed; a runtime that goes away aborts its fetches
//! ([`ScriptElements::discard`]).
//!
//! This module holds the per-document state (the pending, waiting and
//! in-order scripts) and the element's post-connection, children changed
//! and attribute change hooks; `prepare` "prepare the script element";
//! `fetch` the fetch pool and "mark as ready"; `execute` running the
//! in-order list and "execute the script element".

mod execute;
mod fetch;
mod prepare;

pub(crate) use execute::execute_the_script_element;
pub(crate) use fetch::submit_fetch_job;
pub(crate) use prepare::prepare_the_script_element;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::ptr::NonNull;

use mozjs::context::JSContext;
use mozjs::realm::AutoRealm;

use self::fetch::FetchPool;
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::loading::script_loading::Loader;
use crate::loading::script_registry::ScriptRecord;

/// The most fetch threads an agent uses for script-inserted and `async`
/// scripts: a page inserting thousands of scripts queues their fetches
/// instead of starting a thread each.
pub const FETCH_THREADS: usize = 4;

/// A classic script ready to run: its source text and host-defined data
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#classic-script>).
pub(crate) struct ClassicScript {
    pub(crate) source: String,
    pub(crate) record: ScriptRecord,
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#concept-script-result>
/// once it is no longer "uninitialized": `None` is null (the fetch failed,
/// fire `error`).
pub(crate) type ScriptResult = Option<ClassicScript>;

/// A script element with its result (a parser-inserted script waiting for
/// the parser, or for the end of parsing if deferred).
pub(crate) struct PendingScript {
    pub(crate) element: DomRoot<HTMLScriptElement>,
    pub(crate) result: ScriptResult,
    /// A module script's result (`crate::loading::module_loading`; then `result`
    /// is unused).
    pub(crate) module: Option<crate::loading::module_loading::ModuleResult>,
}

/// What the parser gives "prepare the script element" for the script
/// elements it inserts: the loader of its document's navigation, and the
/// document's list of scripts that will execute when it has finished
/// parsing.
pub(crate) struct ParserScripts<'a> {
    pub(crate) loader: &'a dyn Loader,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#list-of-scripts-that-will-execute-when-the-document-has-finished-parsing>
    pub(crate) deferred: &'a RefCell<Vec<PendingScript>>,
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#steps-to-run-when-the-result-is-ready>
/// of a script element whose fetch is in flight.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum WhenReady {
    /// In its preparation-time document's set of scripts that will execute
    /// as soon as possible: execute it, remove it from the set.
    AsSoonAsPossible,
    /// In its preparation-time document's list of scripts that will
    /// execute in order as soon as possible.
    InOrder,
}

/// A script element waiting for its fetch.
struct WaitingScript {
    element: DomRoot<HTMLScriptElement>,
    /// Its preparation-time document.
    document: DomRoot<Document>,
    when_ready: WhenReady,
    /// `None`: "uninitialized".
    result: Option<ScriptResult>,
    /// A module script's result, once ready (then `result` is `Some(None)`,
    /// unused).
    module: Option<crate::loading::module_loading::ModuleResult>,
}

/// The agent's script element state (in [`ScriptElements`]).
#[derive(Default)]
struct State {
    /// Script elements whose post-connection steps (or children changed
    /// or attribute change steps) are due, in order; run by
    /// [`run_post_connection_steps`] once the DOM operation that made them
    /// due has finished its mutations.
    post_connection: Vec<DomRoot<HTMLScriptElement>>,
    /// Scripts whose fetch is in flight or who wait for earlier scripts of
    /// their in-order list, by fetch ID.
    waiting: HashMap<u64, WaitingScript>,
    /// The lists of scripts that will execute in order as soon as
    /// possible of every document, as fetch IDs in insertion order (each
    /// document's list is the subsequence of its own scripts).
    in_order: VecDeque<u64>,
    next_id: u64,
    /// The fetch threads (created on first use).
    pool: Option<FetchPool>,
}

/// This agent's script element state (a field of
/// [`Agent`](crate::runtime::agent::Agent), discarded with it before the context).
#[derive(Default)]
pub(crate) struct ScriptElements {
    state: RefCell<State>,
    /// Set while `discard` runs, so that nothing is queued again.
    discarding: Cell<bool>,
}

impl ScriptElements {
    /// Forgets every waiting script and stops the fetch threads: called
    /// when the event loop shuts down (the agent's teardown, step 5.2),
    /// before the context goes (the roots held here must go first). A
    /// fetch completing after this finds the loop's inbox closed.
    pub(crate) fn discard(&self) {
        self.discarding.set(true);
        let (pool, state) = {
            let mut s = self.state.borrow_mut();
            let pool = s.pool.take();
            let state = std::mem::take(&mut *s);
            (pool, state)
        };
        drop(state);
        if let Some(pool) = pool {
            pool.shut_down();
        }
        self.discarding.set(false);
    }
}

/// Runs `f` on this agent's script element state; without an agent (it
/// shut down) `f` does not run and the result is the default.
fn with_state<R: Default>(f: impl FnOnce(&RefCell<State>) -> R) -> R {
    crate::runtime::agent::existing().map_or_else(R::default, |a| f(&a.script_elements.state))
}

/// Whether this agent is discarding its script element state (an agent
/// that shut down counts as discarding: nothing is queued again).
fn discarding() -> bool {
    crate::runtime::agent::existing().is_none_or(|a| a.script_elements.discarding.get())
}

/// The script HTML element attribute change steps, given `script` and the
/// changed attribute's `local_name` (HTML namespace attributes only).
pub(crate) fn attribute_changed(script: &HTMLScriptElement, local_name: &str) {
    // Step 1: If namespace is not null, then return.
    // Step 2: If localName is src, then run the script HTML element
    // post-connection steps, given element.
    if local_name != "src" {
        return;
    }
    // (The post-connection steps run when the calling DOM method's
    // mutations are done, see `run_post_connection_steps`. For an element
    // that is not connected now, running them now would do nothing:
    // "prepare the script element" returns at step 7, and its steps 2-4
    // concern a parser-inserted element, which the post-connection steps'
    // step 1 leaves alone. Queued, they would run later on a changed
    // element: the parser's "create an element for a token" appends the
    // `src` attribute of a script element before it is inserted and
    // marked parser-inserted.)
    if !script.element().upcast_node().is_connected() {
        return;
    }
    queue_post_connection_steps(script);
}

/// Queues the post-connection steps of `script` (run by
/// [`run_post_connection_steps`]). A parser-inserted script is never
/// queued: its steps return at once.
pub(crate) fn queue_post_connection_steps(script: &HTMLScriptElement) {
    if script.parser_inserted() || discarding() {
        return;
    }
    with_state(|s| {
        s.borrow_mut()
            .post_connection
            .push(DomRoot::from_ref(script))
    });
}

/// Runs the post-connection steps queued by the DOM operation that just
/// finished (called by every binding method that inserts, removes or sets
/// attributes, once its mutations are done, as DOM's "insert" runs them
/// after all insertions). The steps of scripts queued while these run
/// (a script inserting scripts) run in the nested operation's own call.
pub fn run_post_connection_steps(cx: &mut JSContext) {
    let due = with_state(|s| std::mem::take(&mut s.borrow_mut().post_connection));
    for script in due {
        post_connection_steps(cx, &script);
    }
    // The same moment queues the mutation observer microtask for the
    // records the operation queued (see `dom::mutationobserver`).
    crate::dom::nodes::mutationobserver::queue_pending_microtask(cx);
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#script-processing-model>:
/// the script HTML element post-connection steps, given insertedNode.
fn post_connection_steps(cx: &mut JSContext, script: &HTMLScriptElement) {
    // Step 1: If insertedNode is parser-inserted, then return.
    if script.parser_inserted() {
        return;
    }
    // Step 2: Prepare the script element given insertedNode (in the realm
    // of its node document's global, whatever realm the DOM call came
    // from).
    let Some(document) = script.element().upcast_node().owner_doc() else {
        return;
    };
    let Some(global) = NonNull::new(document.upcast_node().global().global_object()) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global);
    prepare_the_script_element(&mut realm, script, None);
}
