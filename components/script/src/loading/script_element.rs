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

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::Arc;
use std::thread::JoinHandle;

use mozjs::context::JSContext;
use mozjs::realm::AutoRealm;

use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::Element;
use crate::loading::script_loading::{
    classic_script_fetch_params, classic_script_from_fetch, is_javascript_mime_type_essence_match,
    run_classic_script, Loader,
};
use crate::loading::script_registry::ScriptRecord;
use crate::runtime::event_loop::EventLoop;

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

type FetchJob = Box<dyn FnOnce() + Send>;

/// The fetch threads of an agent and the loader they share.
struct FetchPool {
    /// The page loader this pool was made from (compared by address: a
    /// new page load with another loader gets a new pool).
    source: *const (),
    loader: Arc<dyn Loader + Send + Sync>,
    jobs: Option<crossbeam_channel::Sender<FetchJob>>,
    /// Shared by the threads: each job goes to one idle thread.
    receiver: crossbeam_channel::Receiver<FetchJob>,
    /// Started one per job until there are [`FETCH_THREADS`].
    threads: Vec<JoinHandle<()>>,
}

impl FetchPool {
    fn new(source: *const (), loader: Arc<dyn Loader + Send + Sync>) -> FetchPool {
        let (jobs, receiver) = crossbeam_channel::unbounded::<FetchJob>();
        FetchPool {
            source,
            loader,
            jobs: Some(jobs),
            receiver,
            threads: Vec::new(),
        }
    }

    fn submit(&mut self, job: FetchJob) {
        if self.threads.len() < FETCH_THREADS {
            let receiver = self.receiver.clone();
            let spawned = std::thread::Builder::new()
                .name("js-script-fetch".to_owned())
                // (Until the pool is discarded: its sender dropped.)
                .spawn(move || receiver.iter().for_each(|job| job()));
            if let Ok(handle) = spawned {
                self.threads.push(handle);
            }
        }
        if let Some(jobs) = &self.jobs {
            // (A send fails only when every thread is gone; the job's
            // completion is then never posted, and `discard` ends the
            // wait.)
            let _ = jobs.send(job);
        }
    }

    /// Stops the pool: no new job is taken, fetches in flight are aborted
    /// (the loader is this pool's own), and the threads are joined.
    fn shut_down(mut self) {
        self.jobs = None;
        self.loader.abort();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
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

/// The script block's type string of `element`
/// (<https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// step 8).
fn script_block_type_string(element: &Element) -> String {
    let type_ = element.get_attribute("type");
    let language = element.get_attribute("language");
    match (type_, language) {
        // If el has a type attribute whose value is the empty string; el
        // has no type attribute but has a language attribute whose value
        // is the empty string; or el has neither: "text/javascript".
        (Some(t), _) if t.is_empty() => "text/javascript".to_owned(),
        (None, Some(l)) if l.is_empty() => "text/javascript".to_owned(),
        (None, None) => "text/javascript".to_owned(),
        // Otherwise, if el has a type attribute: its value with leading
        // and trailing ASCII whitespace stripped.
        (Some(t), _) => t.trim_matches(|c: char| c.is_ascii_whitespace()).to_owned(),
        // Otherwise: "text/" followed by the language attribute's value.
        (None, Some(l)) => format!("text/{l}"),
    }
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// given `script`, for classic scripts (a module or import map type is
/// left to the module loader: not run here). `parser` is the parser of the
/// script's parser document for a parser-inserted script that the parser
/// prepares (at its end tag); `None` for every other trigger. `cx` is in
/// the realm of the script's node document's global.
pub(crate) fn prepare_the_script_element(
    cx: &mut JSContext,
    script: &HTMLScriptElement,
    parser: Option<&ParserScripts<'_>>,
) {
    let element = script.element();
    // Step 1: If el's already started is true, then return.
    if script.already_started() {
        return;
    }
    // Step 2: Let parser document be el's parser document.
    // Step 3: Set el's parser document to null.
    let parser_document = script.parser_inserted();
    script.set_parser_document(false);
    // Step 4: If parser document is non-null and el does not have an async
    // attribute, then set el's force async to true.
    if parser_document && element.get_attribute("async").is_none() {
        script.set_force_async(true);
    }
    // (Steps 3-4 are why a parser-inserted script that does not run here,
    // being empty or of an unsupported type, can run later, async, when a
    // script changes it: it is no longer parser-inserted.)
    // Step 5: Let source text be el's child text content.
    let source_text = script.source_text();
    // Step 6: If el has no src attribute, and source text is the empty
    // string, then return.
    if element.get_attribute("src").is_none() && source_text.is_empty() {
        return;
    }
    // Step 7: If el is not connected, then return.
    if !element.upcast_node().is_connected() {
        return;
    }
    // Step 8: the script block's type string.
    let type_string = script_block_type_string(element);
    // Step 9: If the script block's type string is a JavaScript MIME type
    // essence match, then set el's type to "classic".
    // Step 10-12: "module" and "importmap" go to the module loader
    // (`module_loading`, which runs the rest of these steps for them);
    // otherwise return (no script is executed, el's type is left null).
    if !is_javascript_mime_type_essence_match(&type_string) {
        let lowered = type_string.to_ascii_lowercase();
        if matches!(lowered.as_str(), "module" | "importmap") {
            prepare_module_or_import_map(cx, script, parser, parser_document, &lowered);
        }
        return;
    }
    // Step 13: If parser document is non-null, then set el's parser
    // document back to parser document and set el's force async to false.
    if parser_document {
        script.set_parser_document(true);
        script.set_force_async(false);
    }
    // Step 14: Set el's already started to true.
    script.set_already_started(true);
    // Step 15: Set el's preparation-time document to its node document.
    let Some(document) = element.upcast_node().owner_doc() else {
        return;
    };
    script.set_preparation_time_document(Some(&document));
    // Step 16: If parser document is non-null, and parser document is not
    // equal to el's preparation-time document, then return. (The parser
    // document is the node document here: the parser's nodes are not
    // moved to other documents before they run.)
    // Step 17: If scripting is disabled for el, then return.
    if scripting_is_disabled(cx, &document) {
        return;
    }
    // Step 18: If el has a nomodule content attribute and its type is
    // "classic", then return.
    if element.get_attribute("nomodule").is_some() {
        return;
    }
    // Step 19-20: (Content Security Policy; the `event`/`for` attributes:
    // no such script blocks here.)
    if let (Some(event), Some(for_)) =
        (element.get_attribute("event"), element.get_attribute("for"))
    {
        // Step 20.1-20.5: for must be "window" and event "onload" or
        // "onload()" (ASCII case-insensitive, whitespace stripped), else
        // return.
        let strip = |s: &str| {
            s.trim_matches(|c: char| c.is_ascii_whitespace())
                .to_ascii_lowercase()
        };
        if strip(&for_) != "window" || !matches!(strip(&event).as_str(), "onload" | "onload()") {
            return;
        }
    }
    // Step 21: If el has a charset attribute, then let encoding be the
    // result of getting an encoding from the value of the charset
    // attribute. If el does not have a charset attribute, or if getting an
    // encoding failed, then let encoding be el's node document's encoding.
    let encoding = element
        .get_attribute("charset")
        .and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()))
        .unwrap_or_else(|| document_encoding(&document));
    // Step 22: Let classic script CORS setting be the current state of el's
    // crossorigin content attribute (read by the fetch's parameters).
    // Step 23-30: the fetch options and settings object (the document's).
    match element.get_attribute("src") {
        // Step 31: If el has a src content attribute, then:
        Some(src) => {
            // Step 31.2: Let src be the value of el's src attribute.
            // Step 31.3: If src is the empty string, then queue an element
            // task on the DOM manipulation task source given el to fire an
            // event named error at el, and return.
            // Step 31.4: Set el's from an external file to true.
            // Step 31.5: Let url be the result of encoding-parsing a URL
            // given src, relative to el's node document.
            // Step 31.6: If url is failure, then queue an element task ...
            // to fire an event named error at el, and return.
            let url = if src.is_empty() {
                None
            } else {
                script.set_from_an_external_file(true);
                script.resolved_src().and_then(Result::ok)
            };
            let Some(url) = url else {
                queue_error_event(script);
                return;
            };
            // Step 33 (el's type is "classic" and el has a src attribute):
            let is_async = element.get_attribute("async").is_some() || script.force_async();
            match parser {
                // Step 33.2: If el has an async attribute or el's force
                // async is true: the set of scripts that will execute as
                // soon as possible.
                _ if is_async => start_fetch(
                    &document,
                    script,
                    &url,
                    encoding,
                    WhenReady::AsSoonAsPossible,
                ),
                // Step 33.3: Otherwise, if el is not parser-inserted: the
                // list of scripts that will execute in order as soon as
                // possible.
                None => start_fetch(&document, script, &url, encoding, WhenReady::InOrder),
                Some(parser) => {
                    // Step 31.8-31.11: fetch a classic script (for the
                    // parser, synchronously: the parser waits for a
                    // parser-blocking script, and a deferred one is
                    // fetched before parsing goes on).
                    let params = classic_script_fetch_params(&document, &url, element);
                    let origin = params.client_origin.clone();
                    let fetched = parser.loader.fetch_classic_script(params);
                    let pending = PendingScript {
                        element: DomRoot::from_ref(script),
                        result: classic_script_from_fetch(&url, fetched, &origin, encoding),
                        module: None,
                    };
                    if element.get_attribute("defer").is_some() {
                        // Step 33.4: Otherwise, if el has a defer
                        // attribute: append el to its parser document's
                        // list of scripts that will execute when the
                        // document has finished parsing.
                        parser.deferred.borrow_mut().push(pending);
                    } else {
                        // Step 33.5: Otherwise: el is the pending
                        // parsing-blocking script; the parser executes it
                        // once ready (which it is: it was fetched above).
                        execute_the_script_element(cx, &document, pending);
                    }
                }
            }
        }
        // Step 32: If el does not have a src content attribute:
        None => {
            // Step 32.1: Let base URL be el's node document's document base
            // URL.
            // Step 32.2 ("classic"): Let script be the result of creating
            // a classic script using source text, settings object, base
            // URL, and options (compiled in "run a classic script", with
            // the document's URL as its file name and, for a
            // parser-inserted script, the line its text starts on).
            // Mark as ready el given script.
            let line = if parser_document { script.line() } else { 1 };
            let record = ScriptRecord::inline(document.url().as_str(), line);
            // Step 34.3: Otherwise, immediately execute the script element
            // el, even if other scripts are already executing.
            let pending = PendingScript {
                element: DomRoot::from_ref(script),
                result: Some(ClassicScript {
                    source: source_text,
                    record,
                }),
                module: None,
            };
            execute_the_script_element(cx, &document, pending);
        }
    }
}

/// Steps 13-34 of "prepare the script element" for a `module` or
/// `importmap` script (`type_` lowercased): the module graph is fetched
/// and linked now (`module_loading`), then a parser-inserted module
/// script without `async` goes to the list of scripts that will execute
/// when the document has finished parsing, any other one executes as soon
/// as possible (a task). An import map is registered at once.
fn prepare_module_or_import_map(
    cx: &mut JSContext,
    script: &HTMLScriptElement,
    parser: Option<&ParserScripts<'_>>,
    parser_document: bool,
    type_: &str,
) {
    // Step 13: If parser document is non-null, then set el's parser
    // document back to parser document and set el's force async to false.
    if parser_document {
        script.set_parser_document(true);
        script.set_force_async(false);
    }
    // Step 15: Set el's preparation-time document to its node document.
    let Some(document) = script.element().upcast_node().owner_doc() else {
        return;
    };
    script.set_preparation_time_document(Some(&document));
    // Step 17: If scripting is disabled for el, then return (after step
    // 14: el's already started is true).
    if scripting_is_disabled(cx, &document) {
        script.set_already_started(true);
        return;
    }
    // Step 14 (already started) and the fetch: `module_loading`.
    let Some((module, _)) =
        crate::loading::module_loading::prepare_module_or_import_map(cx, &document, script, type_)
    else {
        return;
    };
    // Step 34 (el's type is "module"):
    // Step 34.2: If el has an async attribute or el's force async is true
    // (a script-inserted script unless `async = false`): the set of scripts
    // that will execute as soon as possible.
    let is_async = script.element().get_attribute("async").is_some() || script.force_async();
    match parser {
        // Step 34.2 (the graph is fetched already, so its result is ready:
        // the steps to run then execute it, in a task).
        _ if is_async => {
            let pending = PendingScript {
                element: DomRoot::from_ref(script),
                result: None,
                module: Some(module),
            };
            EventLoop::current().queue_task(Box::new(move |cx| {
                let Some(global) = NonNull::new(document.upcast_node().global().global_object())
                else {
                    return;
                };
                let mut realm = AutoRealm::new(cx, global);
                execute_the_script_element(&mut realm, &document, pending);
            }));
        }
        // Step 34.3: Otherwise, if el is not parser-inserted: the list of
        // scripts that will execute in order as soon as possible.
        None => append_ready_module_to_in_order_list(&document, script, module),
        // Step 34.4: Otherwise (parser-inserted, type "module"): the list
        // of scripts that will execute when the document has finished
        // parsing.
        Some(parser) => parser.deferred.borrow_mut().push(PendingScript {
            element: DomRoot::from_ref(script),
            result: None,
            module: Some(module),
        }),
    }
}

/// Step 34.3 of "prepare the script element" for a module script whose
/// graph is already fetched (`module_loading` fetches synchronously):
/// set el's delaying the load event to true, append el to its
/// preparation-time document's list of scripts that will execute in order
/// as soon as possible, and mark el as ready in a task (as a fetch
/// completing would), so that it runs after the in-order scripts inserted
/// before it and before those inserted after it.
fn append_ready_module_to_in_order_list(
    document: &Document,
    script: &HTMLScriptElement,
    module: crate::loading::module_loading::ModuleResult,
) {
    let id = start_waiting(document, script, WhenReady::InOrder);
    EventLoop::current().queue_task(Box::new(move |cx| {
        fetch_completed(cx, id, None, Some(module));
    }));
}

/// Queues an element task on the DOM manipulation task source given
/// `script` to fire an event named error at it.
fn queue_error_event(script: &HTMLScriptElement) {
    let script = DomRoot::from_ref(script);
    EventLoop::current().queue_task(Box::new(move |cx| {
        let node = script.element().upcast_node();
        let Some(global) = NonNull::new(node.global().global_object()) else {
            return;
        };
        let mut realm = AutoRealm::new(cx, global);
        fire_simple_event(&mut realm, &script, "error");
    }));
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fire-a-simple-event>
/// (not bubbling, not cancelable, trusted) named `type_` at `script`.
fn fire_simple_event(cx: &mut JSContext, script: &HTMLScriptElement, type_: &str) {
    let node = script.element().upcast_node();
    let event = Event::new(cx, node.global(), type_, false, false);
    event.set_trusted(true);
    node.as_ref().dispatch(cx, &event);
}

/// Step 31.8-31.11 and 33.2-33.3 of "prepare the script element" for a
/// fetch whose result the event loop waits for: "set el's delaying the
/// load event to true", the element joins its set or list, and the fetch
/// starts (on a fetch thread when the page's loader can be shared, else in
/// a task).
fn start_fetch(
    document: &Document,
    script: &HTMLScriptElement,
    url: &url::Url,
    encoding: &'static encoding_rs::Encoding,
    when: WhenReady,
) {
    let Some(loader) = crate::navigation::browsing_context::loader() else {
        // No page loader (a document not loaded by the shell): nothing can
        // be fetched; the result is null.
        queue_error_event(script);
        return;
    };
    let params = classic_script_fetch_params(document, url, script.element());
    let id = start_waiting(document, script, when);
    let event_loop = EventLoop::current();
    let url = url.clone();
    let origin = params.client_origin.clone();
    let shared = pool_loader(&loader);
    match shared {
        Some(shared) => {
            let inbox = event_loop.inbox().clone();
            let job: FetchJob = Box::new(move || {
                let fetched = shared.fetch_classic_script(params);
                inbox.post(Box::new(move |cx| {
                    let result = classic_script_from_fetch(&url, fetched, &origin, encoding);
                    fetch_completed(cx, id, result, None);
                }));
            });
            submit_to_pool(job);
        }
        None => {
            // The loader cannot leave this thread: fetch in a task.
            event_loop.queue_task(Box::new(move |cx| {
                let fetched = loader.fetch_classic_script(params);
                let result = classic_script_from_fetch(&url, fetched, &origin, encoding);
                fetch_completed(cx, id, result, None);
            }));
        }
    }
}

/// Step 31.8 (or 32.2 for a module script) and 33.2-33.3 of "prepare the
/// script element" for `script`, whose result is not ready yet: set el's
/// delaying the load event to true (and hold a pending load of the event
/// loop, released by [`fetch_completed`]), and add el to `document`'s set
/// or list. Returns its ID.
fn start_waiting(document: &Document, script: &HTMLScriptElement, when: WhenReady) -> u64 {
    document.delay_load();
    EventLoop::current().begin_load();
    with_state(|s| {
        let mut s = s.borrow_mut();
        s.next_id += 1;
        let id = s.next_id;
        s.waiting.insert(
            id,
            WaitingScript {
                element: DomRoot::from_ref(script),
                document: DomRoot::from_ref(document),
                when_ready: when,
                result: None,
                module: None,
            },
        );
        if when == WhenReady::InOrder {
            // Step 33.3.2 (34.3.2): Append el to scripts.
            s.in_order.push_back(id);
        }
        id
    })
}

/// The loader this agent's fetch threads use for the page loader
/// `loader` (its [`Loader::for_workers`] copy), creating the pool on first
/// use; `None` if the loader cannot leave this thread (fetch in a task
/// then). A new page loader gets a new pool (the old pool's fetches are
/// aborted).
fn pool_loader(loader: &Rc<dyn Loader>) -> Option<Arc<dyn Loader + Send + Sync>> {
    let source = Rc::as_ptr(loader) as *const ();
    let old = with_state(|s| {
        let mut s = s.borrow_mut();
        match &s.pool {
            Some(pool) if pool.source != source => s.pool.take(),
            _ => None,
        }
    });
    if let Some(old) = old {
        old.shut_down();
    }
    with_state(|s| {
        let mut s = s.borrow_mut();
        if s.pool.is_none() {
            if let Some(shared) = loader.for_workers() {
                s.pool = Some(FetchPool::new(source, shared));
            }
        }
        s.pool.as_ref().map(|p| p.loader.clone())
    })
}

fn submit_to_pool(job: FetchJob) {
    with_state(|s| {
        if let Some(pool) = s.borrow_mut().pool.as_mut() {
            pool.submit(job);
        }
    });
}

/// Runs `job` on this agent's fetch threads (the pool script elements
/// use), given the pool's copy of `loader`: the network request of
/// `fetch()` and `XMLHttpRequest` runs off the event loop's thread, and
/// the job posts its result back to the loop's inbox. Returns `false`
/// (and drops `job`) if `loader` cannot leave this thread.
pub(crate) fn submit_fetch_job(
    loader: &Rc<dyn Loader>,
    job: impl FnOnce(Arc<dyn Loader + Send + Sync>) + Send + 'static,
) -> bool {
    if discarding() {
        return false;
    }
    let Some(shared) = pool_loader(loader) else {
        return false;
    };
    submit_to_pool(Box::new(move || job(shared)));
    true
}

/// A fetch ended: <https://html.spec.whatwg.org/multipage/scripting.html#mark-as-ready>
/// for its element, given `result` (a classic script's) or `module` (a
/// module script's, then `result` is unused).
fn fetch_completed(
    cx: &mut JSContext,
    id: u64,
    result: ScriptResult,
    module: Option<crate::loading::module_loading::ModuleResult>,
) {
    EventLoop::current().end_load();
    let Some((when, document)) = with_state(|s| {
        let mut s = s.borrow_mut();
        let waiting = s.waiting.get_mut(&id)?;
        // Step 1: Set el's result to result.
        waiting.result = Some(result);
        waiting.module = module;
        Some((waiting.when_ready, waiting.document.clone()))
    }) else {
        return;
    };
    let Some(global) = NonNull::new(document.upcast_node().global().global_object()) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global);
    let cx = &mut *realm;
    // Processing the fetch's result is `other` work (markers).
    let _work = crate::runtime::profiling::other_work(document.upcast_node().global());
    // Step 2: If el's steps to run when the result is ready are not null,
    // then run them.
    match when {
        WhenReady::AsSoonAsPossible => {
            // Step 33.2.3: Execute the script element el. Remove el from
            // scripts.
            if let Some(waiting) = with_state(|s| s.borrow_mut().waiting.remove(&id)) {
                let pending = PendingScript {
                    element: waiting.element,
                    result: waiting.result.flatten(),
                    module: waiting.module,
                };
                execute_the_script_element(cx, &document, pending);
                // Step 4: Set el's delaying the load event to false.
                document.undelay_load();
            }
        }
        WhenReady::InOrder => run_in_order_scripts(cx, &document, id),
    }
}

/// Step 33.3.3 of "prepare the script element": the steps to run when the
/// result of `id`, in `document`'s list of scripts that will execute in
/// order as soon as possible, is ready.
fn run_in_order_scripts(cx: &mut JSContext, document: &Document, id: u64) {
    // The first script of `document`'s list, and whether its result is
    // ready.
    let first = || {
        with_state(|s| {
            let s = s.borrow();
            s.in_order
                .iter()
                .copied()
                .find(|i| {
                    s.waiting
                        .get(i)
                        .is_some_and(|w| std::ptr::eq(&*w.document, document))
                })
                .map(|i| (i, s.waiting.get(&i).is_some_and(|w| w.result.is_some())))
        })
    };
    // Step 33.3.3.1: If scripts[0] is not el, then abort these steps.
    if first().map(|(i, _)| i) != Some(id) {
        return;
    }
    // Step 33.3.3.2: While scripts is not empty, and scripts[0]'s result is
    // not "uninitialized":
    while let Some((next, true)) = first() {
        let Some(waiting) = with_state(|s| {
            let mut s = s.borrow_mut();
            // Step 33.3.3.2.2: Remove scripts[0].
            s.in_order.retain(|i| *i != next);
            s.waiting.remove(&next)
        }) else {
            break;
        };
        // Step 33.3.3.2.1: Execute the script element scripts[0].
        let pending = PendingScript {
            element: waiting.element,
            result: waiting.result.flatten(),
            module: waiting.module,
        };
        execute_the_script_element(cx, document, pending);
        crate::runtime::perform_microtask_checkpoint(cx);
        // Mark as ready step 4: el's delaying the load event is false.
        document.undelay_load();
    }
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#execute-the-script-element>
/// (`cx` in the realm of `document`'s global).
pub(crate) fn execute_the_script_element(
    cx: &mut JSContext,
    document: &Document,
    pending: PendingScript,
) {
    let script = pending.element;
    // Step 1: Let document be el's node document.
    let node_document = script.element().upcast_node().owner_doc();
    // Step 2: If el's preparation-time document is not equal to document,
    // then return.
    let same = match (script.preparation_time_document(), node_document) {
        (Some(a), Some(b)) => std::ptr::eq(&*a, &*b),
        (None, _) => true,
        _ => false,
    };
    if !same {
        return;
    }
    // Step 3: Unblock rendering on el (no rendering).
    // Steps 4-8 for a module script: `module_loading`.
    if let Some(module) = pending.module {
        crate::loading::module_loading::execute_module_script_element(
            cx, document, &script, module,
        );
        return;
    }
    // Step 4: If el's result is null, then fire an event named error at
    // el, and return.
    let Some(classic) = pending.result else {
        fire_simple_event(cx, &script, "error");
        return;
    };
    // Step 5: If el's from an external file is true, or el's type is
    // "module", then increment document's ignore-destructive-writes
    // counter (no document.write here).
    // Step 6 ("classic"):
    // Step 6.1: Let oldCurrentScript be the value to which document's
    // currentScript object was most recently set.
    let old_current_script = document.current_script();
    // Step 6.2: If el's root is not a shadow root, then set document's
    // currentScript attribute to el (no shadow roots).
    document.set_current_script(Some(&script));
    // Step 6.3: Run the classic script given by el's result.
    let filename = classic.record.url.clone();
    let line = classic.record.start_line;
    run_classic_script(cx, &classic.source, &filename, line, classic.record);
    // (Run a classic script, step 9: clean up after running script: if the
    // JavaScript execution context stack is now empty, perform a
    // microtask checkpoint. A script the parser or a task runs leaves it
    // empty; one another script inserted runs inside that script, whose
    // own clean-up performs the checkpoint.)
    // <https://html.spec.whatwg.org/multipage/webappapis.html#clean-up-after-running-script>
    if execution_context_stack_is_empty(cx) {
        crate::runtime::perform_microtask_checkpoint(cx);
    }
    // Step 6.4: Set document's currentScript attribute to
    // oldCurrentScript.
    document.set_current_script(old_current_script.as_deref());
    // Step 7: Decrement the ignore-destructive-writes counter.
    // Step 8: If el's from an external file is true, then fire an event
    // named load at el.
    if script.from_an_external_file() {
        fire_simple_event(cx, &script, "load");
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-n-noscript>
/// for a script element whose node document is `document`: scripting is
/// disabled when the document has no browsing context (it is not its
/// window's document: `createHTMLDocument()`, `DOMParser`-like documents).
fn scripting_is_disabled(cx: &mut JSContext, document: &Document) -> bool {
    match document.upcast_node().global().as_window() {
        Some(window) => !std::ptr::eq(&*window.document(cx), document),
        None => true,
    }
}

/// <https://dom.spec.whatwg.org/#concept-document-encoding> of
/// `document`: UTF-8, as its `characterSet` says (the shell decodes every
/// document as UTF-8).
fn document_encoding(_document: &Document) -> &'static encoding_rs::Encoding {
    encoding_rs::UTF_8
}

/// Whether the JavaScript execution context stack holds no script (no
/// scripted frame is running on `cx`), as "clean up after running
/// script" asks (<https://html.spec.whatwg.org/multipage/webappapis.html#clean-up-after-running-script>).
fn execution_context_stack_is_empty(cx: &mut JSContext) -> bool {
    // SAFETY: `cx` is this thread's live context; the call only reads its
    // activation stack.
    unsafe { mozjs::jsapi::JS::GetScriptedCallerGlobal(cx.raw_cx()).is_null() }
}
