//! `History` (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-history-interface>):
//! a Window's session history entries within its document
//! (`pushState`/`replaceState` and fragment navigations add or replace
//! entries; `back`/`forward`/`go` traverse them, firing `popstate` and
//! `hashchange`).
//!
//! The shell keeps, per Window, the session history entries of its
//! document: the history steps of the document's navigable. A
//! cross-document traversal (to the entries of an earlier document of the
//! navigable) and the joint session history of a page with iframes
//! (whose `history.length` counts the steps of every navigable of the
//! top-level traversable) are not modelled: each navigable has its own
//! entries. `go(0)` (a reload) is not supported (see `Go`).

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::{JSVal, NullValue};
use mozjs::rooted;

use crate::dom::bindings::codegen::HistoryBinding::HistoryMethods;
use crate::dom::bindings::codegen::ScrollRestoration;
use crate::dom::bindings::conversions::{DOMString, RootedJsValue, USVString};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::bindings::structuredclone::{
    structured_deserialize, structured_serialize, Serialized,
};
use crate::dom::events::hashchangeevent::HashChangeEvent;
use crate::dom::events::popstateevent::PopStateEvent;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::{queue_global_task, Window};
use crate::navigation::browsing_context;
use crate::runtime::event_loop::EventLoop;

/// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#session-history-entry>
/// (the members a same-document entry needs).
#[derive(Clone)]
struct Entry {
    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#she-url>
    url: url::Url,
    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#she-classic-history-api-state>
    /// (`None`: StructuredSerializeForStorage(null)).
    state: Option<Serialized>,
    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#she-scroll-restoration-mode>
    scroll_restoration: ScrollRestoration,
}

/// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#history-handling-behavior>
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum HistoryHandling {
    Push,
    Replace,
}

#[derive(JSTraceable)]
pub struct History {
    pub(crate) reflector: Reflector,
    /// The document's session history entries, oldest first (made with
    /// the document's URL when first needed).
    #[no_trace]
    entries: RefCell<Vec<Entry>>,
    /// The index of the active session history entry in `entries`
    /// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#concept-history-index>).
    index: Cell<usize>,
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#concept-history-state>
    state: Box<Heap<JSVal>>,
}

impl History {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<History> {
        reflect_dom_object(
            cx,
            global,
            Box::new(History {
                reflector: Reflector::new(),
                entries: RefCell::new(Vec::new()),
                index: Cell::new(0),
                state: Heap::boxed(NullValue()),
            }),
            None,
        )
    }

    /// The History's relevant global object's Window.
    fn window(&self) -> &Window {
        // (History is exposed on Window only.)
        self.global_scope()
            .as_window()
            .expect("History lives in a Window global")
    }

    /// The Window's new document (the initial `about:blank` one replaced
    /// by a navigation that keeps the Window): its entry replaces the old
    /// document's (<https://html.spec.whatwg.org/multipage/browsing-the-web.html#navigate>
    /// replaces the initial about:blank entry), made from the new URL on
    /// first use, and the state is null again.
    pub(crate) fn replace_for_new_document(&self) {
        self.entries.borrow_mut().clear();
        self.index.set(0);
        self.state.set(NullValue());
    }

    /// The entries, with the document's initial entry made on first use.
    fn ensure_entries(&self) {
        let mut entries = self.entries.borrow_mut();
        if entries.is_empty() {
            entries.push(Entry {
                url: self.window().url(),
                state: None,
                scroll_restoration: ScrollRestoration::Auto,
            });
            self.index.set(0);
        }
    }

    /// <https://html.spec.whatwg.org/multipage/document-sequences.html#fully-active>:
    /// the document is its navigable's active document, and the
    /// navigable's parent's document is fully active (a removed iframe's
    /// navigable is destroyed).
    fn document_is_fully_active(&self) -> bool {
        let mut id = self.window().navigable_id();
        loop {
            if browsing_context::is_destroyed(id) {
                return false;
            }
            match browsing_context::parent_of(id) {
                Some(parent) => id = parent,
                None => return true,
            }
        }
    }

    fn not_fully_active() -> Error {
        Error::dom_with_message(
            DomExceptionName::SecurityError,
            "the History object's document is not fully active",
        )
    }

    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#restore-the-history-object-state>
    /// from `state` (`cx` in the History's realm).
    fn restore_state(&self, cx: &mut JSContext, state: &Option<Serialized>) {
        // Step 1: Let targetRealm be document's relevant realm.
        // Step 2: Let state be StructuredDeserialize(entry's classic
        // history API state, targetRealm). If this throws an exception,
        // catch it and let state be null.
        rooted!(&in(cx) let mut value = NullValue());
        if let Some(serialized) = state {
            if structured_deserialize(cx, serialized, value.handle_mut()).is_err() {
                value.set(NullValue());
            }
        }
        // Step 3: Set document's history object's state to state.
        self.state.set(value.get());
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#can-have-its-url-rewritten>
    fn can_have_its_url_rewritten(document_url: &url::Url, target: &url::Url) -> bool {
        // Step 1: Let documentURL be document's URL.
        // Step 2: If targetURL and documentURL differ in their scheme,
        // username, password, host, or port components, then return false.
        if target.scheme() != document_url.scheme()
            || target.username() != document_url.username()
            || target.password() != document_url.password()
            || target.host() != document_url.host()
            || target.port() != document_url.port()
        {
            return false;
        }
        // Step 3: If targetURL's scheme is an HTTP(S) scheme, then return
        // true.
        if matches!(target.scheme(), "http" | "https") {
            return true;
        }
        // Step 4: If targetURL's scheme is "file", and targetURL and
        // documentURL differ in their path component, then return false.
        if target.scheme() == "file" && target.path() != document_url.path() {
            return false;
        }
        // Step 5: If targetURL and documentURL differ in any component
        // besides fragment, then return false.
        let mut a = target.clone();
        let mut b = document_url.clone();
        a.set_fragment(None);
        b.set_fragment(None);
        if a != b {
            return false;
        }
        // Step 6: Return true.
        true
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#shared-history-push/replace-state-steps>
    fn shared_push_replace_state_steps(
        &self,
        cx: &mut JSContext,
        data: RootedJsValue,
        url: Option<USVString>,
        history_handling: HistoryHandling,
    ) -> Fallible<()> {
        // Step 1: Let document be history's associated Document.
        // Step 2: If document is not fully active, then throw a
        // "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 3: Optionally, return (no rate limit here).
        // Step 4: Let serializedData be
        // StructuredSerializeForStorage(data). Rethrow any exceptions.
        rooted!(&in(cx) let data = data.get());
        let serialized = structured_serialize(cx, data.handle())?;
        // Step 5: Let newURL be document's URL.
        let document_url = self.window().url();
        let mut new_url = document_url.clone();
        // Step 6: If url is not null or the empty string, then:
        if let Some(url) = url.filter(|u| !u.0.is_empty()) {
            // Step 6.1: Set newURL to the result of encoding-parsing a URL
            // given url, relative to the relevant settings object of
            // history (its API base URL: the document's base URL, which is
            // the document's URL in the shell).
            // Step 6.2: If newURL is failure, then throw a "SecurityError"
            // DOMException.
            new_url = url::Url::options()
                .base_url(Some(&document_url))
                .parse(&url.0)
                .map_err(|_| {
                    Error::dom_with_message(
                        DomExceptionName::SecurityError,
                        format!("{:?} is not a valid URL", url.0),
                    )
                })?;
            // Step 6.3: If document cannot have its URL rewritten to
            // newURL, then throw a "SecurityError" DOMException.
            if !Self::can_have_its_url_rewritten(&document_url, &new_url) {
                return Err(Error::dom_with_message(
                    DomExceptionName::SecurityError,
                    format!(
                        "a history state object with URL '{new_url}' cannot be created in a document with URL '{document_url}'"
                    ),
                ));
            }
        }
        // Step 7-9: (the navigate event of the Navigation API: none.)
        // Step 10: Run the URL and history update steps given document and
        // newURL, with serializedData set to serializedData and
        // historyHandling set to historyHandling.
        self.url_and_history_update_steps(cx, new_url, Some(serialized), history_handling);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#url-and-history-update-steps>
    fn url_and_history_update_steps(
        &self,
        cx: &mut JSContext,
        new_url: url::Url,
        serialized_data: Option<Serialized>,
        mut history_handling: HistoryHandling,
    ) {
        self.ensure_entries();
        // Step 1: Let navigable be document's node navigable.
        // Step 2: Let activeEntry be navigable's active session history
        // entry.
        let active = self.entries.borrow()[self.index.get()].clone();
        // Step 3: Let historyEntry be a new session history entry, with
        // URL newURL, serialized state serializedData if not null, else
        // activeEntry's classic history API state, and activeEntry's
        // scroll restoration mode.
        let entry = Entry {
            url: new_url.clone(),
            state: match &serialized_data {
                Some(data) => Some(data.clone()),
                None => active.state.clone(),
            },
            scroll_restoration: active.scroll_restoration,
        };
        // Step 4: If document's is initial about:blank is true, then set
        // historyHandling to "replace".
        if browsing_context::is_initial_about_blank(self.window().navigable_id()) {
            history_handling = HistoryHandling::Replace;
        }
        // Step 5: Let entryToReplace be activeEntry if historyHandling is
        // "replace", otherwise null.
        // Step 6: If historyHandling is "push", then increment document's
        // history object's index and set its length to its index + 1.
        // (Step 13, finalize a same-document navigation, is done here too:
        // a push removes the entries after the active one and appends
        // historyEntry; a replace puts historyEntry in entryToReplace's
        // place.)
        {
            let mut entries = self.entries.borrow_mut();
            match history_handling {
                HistoryHandling::Push => {
                    let index = self.index.get() + 1;
                    entries.truncate(index);
                    entries.push(entry.clone());
                    self.index.set(index);
                }
                HistoryHandling::Replace => entries[self.index.get()] = entry.clone(),
            }
        }
        // Step 7: If serializedData is not null, then restore the history
        // object state given document and historyEntry.
        if serialized_data.is_some() {
            self.restore_state(cx, &entry.state);
        }
        // Step 8: Set document's URL to newURL.
        // Step 9-10: Set document's latest entry and navigable's active
        // session history entry to historyEntry.
        self.window().set_url_same_document(new_url);
    }

    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#navigate-fragid>
    /// of this History's navigable to `url` (`cx` in the History's
    /// realm).
    pub(crate) fn navigate_to_fragment(
        &self,
        cx: &mut JSContext,
        url: url::Url,
        history_handling: HistoryHandling,
    ) {
        self.ensure_entries();
        // Step 1-4: (the Navigation API's navigate event: none.)
        // Step 5: Let historyEntry be a new session history entry, with
        // URL url, the active entry's document state and scroll
        // restoration mode (and a null classic history API state).
        let active = self.entries.borrow()[self.index.get()].clone();
        let entry = Entry {
            url: url.clone(),
            state: None,
            scroll_restoration: active.scroll_restoration,
        };
        let old_url = active.url.clone();
        // Step 6: Let entryToReplace be navigable's active session history
        // entry if historyHandling is "replace", otherwise null.
        // Step 7-10: If historyHandling is "push", then set history's state
        // to null, increment scriptHistoryIndex, and set
        // scriptHistoryLength to scriptHistoryIndex + 1 (with step 17,
        // finalize a same-document navigation: the entries after the
        // active one go).
        {
            let mut entries = self.entries.borrow_mut();
            match history_handling {
                HistoryHandling::Push => {
                    self.state.set(NullValue());
                    let index = self.index.get() + 1;
                    entries.truncate(index);
                    entries.push(entry.clone());
                    self.index.set(index);
                }
                HistoryHandling::Replace => entries[self.index.get()] = entry.clone(),
            }
        }
        // Step 11: Set navigable's active document's URL to url.
        // Step 12: Set navigable's active session history entry to
        // historyEntry.
        self.window().set_url_same_document(url);
        // Step 13: Update document for history step application given
        // navigable's active document, historyEntry, true,
        // scriptHistoryIndex, and scriptHistoryLength.
        self.update_document_for_history_step_application(cx, &entry, old_url);
        // Step 14-17: (Navigation API entries, scrolling to the fragment:
        // no layout; WebDriver BiDi: none.)
    }

    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#update-document-for-history-step-application>
    /// for a same-document entry change (documentsEntryChanged true,
    /// documentIsNew false), with `old_url` the document's latest entry's
    /// URL.
    fn update_document_for_history_step_application(
        &self,
        cx: &mut JSContext,
        entry: &Entry,
        old_url: url::Url,
    ) {
        let window = self.window();
        // Step 6.1-6.3: Let oldURL be document's latest entry's URL; set
        // document's latest entry to entry; restore the history object
        // state given document and entry.
        self.restore_state(cx, &entry.state);
        // Step 6.4.3: Fire an event named popstate at document's relevant
        // global object, using PopStateEvent, with the state attribute
        // initialized to document's history object's state and
        // hasUAVisualTransition initialized to false.
        let event = PopStateEvent::new_trusted(cx, window.global_scope(), self.state.get());
        window
            .upcast_event_target()
            .dispatch(cx, event.upcast_event());
        // Step 6.4.5: If oldURL's fragment is not equal to entry's URL's
        // fragment, then queue a global task on the DOM manipulation task
        // source given document's relevant global object to fire an event
        // named hashchange at document's relevant global object, using
        // HashChangeEvent, with the oldURL attribute initialized to the
        // serialization of oldURL and the newURL attribute initialized to
        // the serialization of entry's URL.
        if old_url.fragment() != entry.url.fragment() {
            let navigable = window.navigable_id();
            let old_url = old_url.to_string();
            let new_url = entry.url.to_string();
            queue_global_task(navigable, move |cx, window| {
                let event =
                    HashChangeEvent::new_trusted(cx, window.global_scope(), &old_url, &new_url);
                window
                    .upcast_event_target()
                    .dispatch(cx, event.upcast_event());
            });
        }
    }

    /// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#traverse-the-history-by-a-delta>:
    /// appends the traversal to the session history traversal queue (a
    /// task of this event loop, run in order with the other traversals).
    fn traverse_the_history_by_a_delta(&self, delta: i32) {
        let history = DomRoot::from_ref(self);
        EventLoop::current().queue_task(Box::new(move |cx| {
            let mut realm = history.enter_relevant_realm(cx);
            let cx = &mut *realm;
            // (A document no longer fully active has no traversal.)
            if !history.document_is_fully_active() {
                return;
            }
            history.ensure_entries();
            // Step 1: Let allSteps be the result of getting all used
            // history steps for traversable.
            // Step 2: Let currentStepIndex be the index of traversable's
            // current session history step within allSteps.
            // Step 3: Let targetStepIndex be currentStepIndex plus delta.
            let target = history.index.get() as i64 + i64::from(delta);
            // Step 4: If allSteps[targetStepIndex] does not exist, then
            // abort these steps.
            let len = history.entries.borrow().len() as i64;
            if target < 0 || target >= len {
                return;
            }
            // Step 5: Apply the traverse history step
            // allSteps[targetStepIndex] to traversable: the same document's
            // entry becomes active, and the document is updated for the
            // history step application.
            let old_url = history.entries.borrow()[history.index.get()].url.clone();
            history.index.set(target as usize);
            let entry = history.entries.borrow()[target as usize].clone();
            history.window().set_url_same_document(entry.url.clone());
            history.update_document_for_history_step_application(cx, &entry, old_url);
        }));
    }
}

impl HistoryMethods for History {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-length>
    fn Length(&self, _cx: &mut JSContext) -> Fallible<u32> {
        // Step 1: If this's associated Document is not fully active, then
        // throw a "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 2: Return this's length.
        self.ensure_entries();
        Ok(self.entries.borrow().len() as u32)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-scroll-restoration>
    fn ScrollRestoration(&self, _cx: &mut JSContext) -> Fallible<ScrollRestoration> {
        // Step 1: If this's associated Document is not fully active, then
        // throw a "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 2: Return this's node navigable's active session history
        // entry's scroll restoration mode.
        self.ensure_entries();
        Ok(self.entries.borrow()[self.index.get()].scroll_restoration)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-scroll-restoration>
    fn SetScrollRestoration(&self, _cx: &mut JSContext, value: ScrollRestoration) -> Fallible<()> {
        // Step 1: If this's associated Document is not fully active, then
        // throw a "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 2: Set this's node navigable's active session history
        // entry's scroll restoration mode to the given value.
        self.ensure_entries();
        self.entries.borrow_mut()[self.index.get()].scroll_restoration = value;
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-state>
    fn State(&self, _cx: &mut JSContext) -> Fallible<RootedJsValue> {
        // Step 1: If this's associated Document is not fully active, then
        // throw a "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 2: Return this's state.
        let value = RootedJsValue::new(Heap::default());
        value.set(self.state.get());
        Ok(value)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-go>
    fn Go(&self, _cx: &mut JSContext, delta: i32) -> Fallible<()> {
        // Step 1: Let document be this's associated Document.
        // Step 2: If document is not fully active, then throw a
        // "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 3: If delta is 0, then reload document's node navigable, and
        // return. NOT SUPPORTED: the shell cannot reload a document (no
        // cross-document navigation of a loaded page); go(0) does
        // nothing.
        if delta == 0 {
            return Ok(());
        }
        // Step 4: Traverse the history by a delta given document's node
        // navigable's traversable navigable, delta, and with
        // sourceDocument set to document.
        self.traverse_the_history_by_a_delta(delta);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-back>
    fn Back(&self, _cx: &mut JSContext) -> Fallible<()> {
        // Step 1: Let document be this's associated Document.
        // Step 2: If document is not fully active, then throw a
        // "SecurityError" DOMException.
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 3: Traverse the history by a delta with −1, document's node
        // navigable's traversable navigable, and with sourceDocument set
        // to document.
        self.traverse_the_history_by_a_delta(-1);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-forward>
    fn Forward(&self, _cx: &mut JSContext) -> Fallible<()> {
        if !self.document_is_fully_active() {
            return Err(Self::not_fully_active());
        }
        // Step 3: Traverse the history by a delta with +1.
        self.traverse_the_history_by_a_delta(1);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-pushstate>:
    /// the shared history push/replace state steps given this, data, url,
    /// and "push".
    fn PushState(
        &self,
        cx: &mut JSContext,
        data: RootedJsValue,
        _unused: DOMString,
        url: Option<USVString>,
    ) -> Fallible<()> {
        self.shared_push_replace_state_steps(cx, data, url, HistoryHandling::Push)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-history-replacestate>:
    /// the shared history push/replace state steps given this, data, url,
    /// and "replace".
    fn ReplaceState(
        &self,
        cx: &mut JSContext,
        data: RootedJsValue,
        _unused: DOMString,
        url: Option<USVString>,
    ) -> Fallible<()> {
        self.shared_push_replace_state_steps(cx, data, url, HistoryHandling::Replace)
    }
}
