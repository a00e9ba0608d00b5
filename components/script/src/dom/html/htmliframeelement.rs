//! `HTMLIFrameElement`
//! (<https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>):
//! its insertion steps create a child navigable
//! (`crate::navigation::browsing_context::create_child_navigable`) and process the
//! iframe attributes (navigate to `srcdoc`, `src` or stay on the initial
//! `about:blank`); its removing steps destroy the child navigable; a
//! change of `src` or `srcdoc` navigates it again.

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLIFrameElementBinding::HTMLIFrameElementMethods;
use crate::dom::bindings::conversions::{DOMString, RootedJsObject, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::Element;
use crate::navigation::browsing_context::{self, NavigationTarget};
use crate::runtime::event_loop::EventLoop;

#[derive(JSTraceable)]
pub struct HTMLIFrameElement {
    htmlelement: HTMLElement,
}

impl AsRef<HTMLElement> for HTMLIFrameElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLIFrameElement {
    pub fn new_inherited(element: Element) -> HTMLIFrameElement {
        HTMLIFrameElement {
            htmlelement: HTMLElement::new_inherited(element),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    /// The `src` attribute parsed against the node document's URL; `None`
    /// when absent, empty or not a URL (the child then gets
    /// `about:blank`).
    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#shared-attribute-processing-steps-for-iframe-and-frame-elements>
    pub fn src_url(&self) -> Option<url::Url> {
        // Step 1: Let url be the URL "about:blank".
        // Step 2: If element has a src attribute specified, and its value
        // is not the empty string, then: parse it relative to the
        // element's node document; if that is not failure, set url to it.
        let src = self.element().get_attribute("src")?;
        if src.is_empty() {
            return None;
        }
        let base = self.element().upcast_node().owner_doc().map(|d| d.url());
        match base {
            Some(base) => base.join(&src).ok(),
            None => url::Url::parse(&src).ok(),
        }
    }

    /// The child navigable's id, once created.
    pub fn content_navigable(&self) -> Option<browsing_context::NavigableId> {
        browsing_context::navigable_of_container(self)
    }

    /// The insertion steps
    /// (<https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>),
    /// run when the element becomes connected.
    pub fn insertion_steps(&self) {
        if self.content_navigable().is_some() {
            return;
        }
        // Step 1: If insertedNode's shadow-including root's browsing
        // context is null, then return (only a document that is its
        // window's active document has one).
        let Some(document) = self.element().upcast_node().owner_doc() else {
            return;
        };
        let has_browsing_context = document
            .upcast_node()
            .global()
            .as_window()
            .and_then(|w| w.active_document())
            .is_some_and(|d| d.reflector_object() == document.reflector_object());
        if !has_browsing_context {
            return;
        }
        let Some(mut cx) = crate::runtime::current_context() else {
            return;
        };
        // Step 2: Create a new child navigable for insertedNode.
        if browsing_context::create_child_navigable(&mut cx, self, &document).is_none() {
            // A limit was reached: no navigable; the element still gets
            // its load event.
            HTMLIFrameElement::queue_iframe_load_event_steps(DomRoot::from_ref(self));
            return;
        }
        // Step 3: (sandboxing flags) none. Step 4: Process the iframe
        // attributes for insertedNode, with initialInsertion set to true.
        self.process_the_iframe_attributes(&mut cx, true);
    }

    /// The removing steps: destroy a child navigable given removedNode.
    pub fn removing_steps(&self) {
        browsing_context::destroy_child_navigable(self);
    }

    /// The attribute change steps for `src` and `srcdoc`
    /// (<https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>):
    /// "Whenever an iframe element with a non-null content navigable has
    /// its srcdoc attribute set, changed, or removed, the user agent must
    /// process the iframe attributes. Similarly, whenever an iframe element
    /// with a non-null content navigable but with no srcdoc attribute
    /// specified has its src attribute set, changed, or removed, the user
    /// agent must process the iframe attributes."
    pub fn attribute_changed(&self, name: &str, _value: Option<&str>) {
        let relevant = match name {
            "srcdoc" => true,
            "src" => self.element().get_attribute("srcdoc").is_none(),
            _ => false,
        };
        if !relevant || self.content_navigable().is_none() {
            return;
        }
        if let Some(mut cx) = crate::runtime::current_context() {
            self.process_the_iframe_attributes(&mut cx, false);
        }
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#process-the-iframe-attributes>
    fn process_the_iframe_attributes(&self, cx: &mut JSContext, initial_insertion: bool) {
        let Some(navigable) = self.content_navigable() else {
            return;
        };
        // Step 1: If element's srcdoc attribute is specified, then: (no
        // lazy loading) navigate an iframe or frame given element,
        // about:srcdoc, the empty string, and the value of element's
        // srcdoc attribute.
        if let Some(srcdoc) = self.element().get_attribute("srcdoc") {
            browsing_context::navigate(navigable, NavigationTarget::Srcdoc(srcdoc));
            return;
        }
        // Step 2.1: Let url be the result of running the shared attribute
        // processing steps for iframe and frame elements given element
        // and initialInsertion.
        // Step 2.2: If url is null, then return.
        let Some(url) = self.shared_attribute_processing_steps(navigable) else {
            return;
        };
        // Step 2.3: If url matches about:blank and initialInsertion is
        // true, then run the iframe load event steps given element, and
        // return.
        if matches_about_blank(&url) && initial_insertion {
            // A load listener that moves its iframe re-enters here from
            // inside the event: past a nesting limit the event is queued
            // instead, so such a page cannot exhaust the native stack.
            let depth = SYNC_LOAD_DEPTH.with(Cell::get);
            if depth >= MAX_SYNC_LOAD_DEPTH {
                HTMLIFrameElement::queue_iframe_load_event_steps(DomRoot::from_ref(self));
                return;
            }
            SYNC_LOAD_DEPTH.with(|d| d.set(depth + 1));
            self.iframe_load_event_steps(cx);
            SYNC_LOAD_DEPTH.with(|d| d.set(depth));
            return;
        }
        // Steps 2.4-2.6: (referrer policy, lazy loading) navigate an iframe
        // or frame given element, url, and referrerPolicy.
        browsing_context::navigate(navigable, NavigationTarget::Url(url));
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#shared-attribute-processing-steps-for-iframe-and-frame-elements>
    fn shared_attribute_processing_steps(
        &self,
        navigable: browsing_context::NavigableId,
    ) -> Option<url::Url> {
        // Steps 1-2: about:blank, or the src attribute parsed.
        let url = self
            .src_url()
            .unwrap_or_else(|| url::Url::parse("about:blank").expect("about:blank parses"));
        // Step 3: If the inclusive ancestor navigables of element's node
        // navigable contains a navigable whose active document's URL
        // equals url with exclude fragments set to true, then return null.
        let without_fragment = |u: &url::Url| {
            let mut u = u.clone();
            u.set_fragment(None);
            u
        };
        if !matches_about_blank(&url) {
            let mut ancestor = browsing_context::parent_of(navigable);
            while let Some(id) = ancestor {
                let same = browsing_context::window_of(id)
                    .and_then(|w| w.active_document())
                    .is_some_and(|d| without_fragment(&d.url()) == without_fragment(&url));
                if same {
                    return None;
                }
                ancestor = browsing_context::parent_of(id);
            }
        }
        // Step 4: (URL and history update steps for about:blank: the
        // initial document's URL is already about:blank.)
        // Step 5: Return url.
        Some(url)
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#iframe-load-event-steps>;
    /// then the node document stops delaying its load event for this
    /// element's navigation.
    fn iframe_load_event_steps(&self, cx: &mut JSContext) {
        let node = self.element().upcast_node();
        let mut realm = node.enter_relevant_realm(cx);
        // Step 1: Assert: element's content navigable is not null. Steps
        // 2-4: (no lazy-load or srcdoc-specific state) Step 5: Fire an
        // event named load at element.
        let event = Event::new(&mut realm, node.global(), "load", false, false);
        event.set_trusted(true);
        node.as_ref().dispatch(&mut realm, &event);
        if let Some(id) = self.content_navigable() {
            if browsing_context::set_delaying_load(id, false) {
                if let Some(document) = node.owner_doc() {
                    document.undelay_load();
                }
            }
        }
    }

    /// Queues an element task on the DOM manipulation task source given
    /// `element` to run the iframe load event steps (a navigation ended).
    pub fn queue_iframe_load_event_steps(element: DomRoot<HTMLIFrameElement>) {
        EventLoop::current().queue_task(Box::new(move |cx| {
            element.iframe_load_event_steps(cx);
        }));
    }
}

/// How deep synchronous `load` events of initial about:blank iframes may
/// nest (a listener inserting an iframe whose load event inserts another).
const MAX_SYNC_LOAD_DEPTH: u32 = 16;

/// The agent's iframe state (a field of [`crate::runtime::agent::Agent`]): how
/// deep synchronous `load` events of initial about:blank iframes nest now.
#[derive(Default)]
pub(crate) struct IframeLoads {
    sync_load_depth: Cell<u32>,
}

static SYNC_LOAD_DEPTH: crate::runtime::agent::AgentLocal<Cell<u32>> =
    crate::runtime::agent::AgentLocal(|a| &a.iframes.sync_load_depth);

/// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#matches-about:blank>
fn matches_about_blank(url: &url::Url) -> bool {
    url.scheme() == "about"
        && url.path() == "blank"
        && url.username().is_empty()
        && url.password().is_none()
        && url.host().is_none()
}

impl HTMLIFrameElementMethods for HTMLIFrameElement {
    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-src>
    fn Src(&self, _cx: &mut JSContext) -> USVString {
        match self.element().get_attribute("src") {
            None => USVString(String::new()),
            Some(raw) => USVString(self.src_url().map_or(raw, String::from)),
        }
    }

    fn SetSrc(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_attribute_value("src", &value.0);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-srcdoc>:
    /// reflects `srcdoc`.
    fn Srcdoc(&self, _cx: &mut JSContext) -> DOMString {
        self.element().get_attribute("srcdoc").unwrap_or_default()
    }

    fn SetSrcdoc(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("srcdoc", &value);
        Ok(())
    }

    fn Name(&self, _cx: &mut JSContext) -> DOMString {
        self.element().get_attribute("name").unwrap_or_default()
    }

    fn SetName(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("name", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-contentdocument>:
    /// "the content document" — null unless the document's origin is the
    /// same as the current settings object's origin.
    fn ContentDocument(&self, cx: &mut JSContext) -> Option<DomRoot<Document>> {
        let window = browsing_context::window_of(self.content_navigable()?)?;
        // SAFETY: we are inside a binding call, so the current realm's global
        // is the caller's and is kept alive by the running script for the
        // whole call; `current` and `accessor` do not outlive this function.
        let current = unsafe { GlobalScope::current(cx) }?;
        let accessor = current.as_window()?;
        if !accessor.origin().same_origin(&window.origin()) {
            return None;
        }
        Some(window.document(cx))
    }

    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#dom-iframe-contentwindow>
    fn ContentWindow(&self, _cx: &mut JSContext) -> Option<RootedJsObject> {
        browsing_context::window_proxy_of(self.content_navigable()?)
    }
}

/// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>:
/// the iframe element's steps in the DOM's tree algorithms.
impl crate::dom::nodes::virtualmethods::VirtualMethods for HTMLIFrameElement {
    fn insertion_steps(&self) {
        HTMLIFrameElement::insertion_steps(self);
    }

    fn removing_steps(&self) {
        HTMLIFrameElement::removing_steps(self);
    }

    fn attribute_changed(&self, name: &str, value: Option<&str>) {
        HTMLIFrameElement::attribute_changed(self, name, value);
    }
}
