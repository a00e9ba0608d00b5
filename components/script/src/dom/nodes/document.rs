//! `Document` (<https://dom.spec.whatwg.org/#interface-document>, with
//! HTML's additions): the document's URL, readiness, current script, and
//! the response's Document-Policy and isolation (read by the `Profiler`
//! constructor).

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::DocumentBinding::DocumentMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::comment::Comment;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::domimplementation::DOMImplementation;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::node::{Node, NodeKind};
use crate::dom::nodes::text::Text;

/// <https://html.spec.whatwg.org/multipage/dom.html#current-document-readiness>
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentReadyState {
    Loading,
    Interactive,
    Complete,
}

#[derive(JSTraceable)]
pub struct Document {
    node: Node,
    /// <https://dom.spec.whatwg.org/#concept-document-url>
    #[no_trace]
    url: RefCell<url::Url>,
    #[no_trace]
    ready_state: Cell<DocumentReadyState>,
    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-currentscript>
    current_script: MutNullableDom<HTMLScriptElement>,
    /// The response's `Document-Policy` (parsed by `jsprof-document`).
    #[no_trace]
    document_policy: RefCell<Option<jsprof_document::DocumentPolicy>>,
    /// The response's header list, kept for the document component
    /// (Document-Policy, COOP, COEP).
    #[no_trace]
    response_headers: RefCell<jsprof_document::HeaderList>,
    /// <https://html.spec.whatwg.org/multipage/browsers.html#concept-document-policy-container>'s
    /// embedder policy value: the client's COEP for subresource fetches.
    #[no_trace]
    embedder_policy: Cell<jsprof_document::EmbedderPolicyValue>,
    quirks: Cell<bool>,
    /// Things delaying the load event
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#delay-the-load-event>):
    /// child navigables not loaded yet.
    load_delay: Cell<u32>,
    /// The line the HTML parser of this document is at while it parses
    /// (the script location of event handler content attributes it sets).
    parser_line: Cell<Option<u32>>,
    /// The element that is the document's focused area
    /// (<https://html.spec.whatwg.org/multipage/interaction.html#focused-area-of-the-document>),
    /// None for the viewport.
    focused: MutNullableDom<Element>,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#associated-inert-template-document>
    inert_template_document: MutNullableDom<Document>,
    /// Whether this document is an inert template document (created by
    /// "appropriate template contents owner document").
    is_inert_template_document: Cell<bool>,
    /// `implementation` (`[SameObject]`), made on first use.
    implementation: MutNullableDom<DOMImplementation>,
}

impl AsRef<Node> for Document {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

impl Document {
    /// A new, empty document at `url` in `global`.
    pub fn new(cx: &mut JSContext, global: &GlobalScope, url: url::Url) -> DomRoot<Document> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Document {
                node: Node::new_inherited(NodeKind::Document, None),
                url: RefCell::new(url),
                ready_state: Cell::new(DocumentReadyState::Loading),
                current_script: MutNullableDom::default(),
                document_policy: RefCell::new(None),
                response_headers: RefCell::new(jsprof_document::HeaderList::new()),
                embedder_policy: Cell::new(Default::default()),
                quirks: Cell::new(false),
                load_delay: Cell::new(0),
                parser_line: Cell::new(None),
                focused: MutNullableDom::default(),
                inert_template_document: MutNullableDom::default(),
                is_inert_template_document: Cell::new(false),
                implementation: MutNullableDom::default(),
            }),
            None,
        )
    }

    pub fn upcast_node(&self) -> &Node {
        &self.node
    }

    pub fn url(&self) -> url::Url {
        self.url.borrow().clone()
    }

    /// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url>:
    /// the frozen base URL of the first `base` element with an `href`
    /// attribute, in tree order, else the fallback base URL (the
    /// document's URL). Computed when asked: the same as freezing it
    /// whenever such an element is inserted, removed or changes `href`,
    /// since the fallback base URL it is parsed against is the document's
    /// URL.
    pub fn base_url(&self) -> url::Url {
        // The fallback base URL
        // (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url>):
        // the document's URL (srcdoc and `about:blank` documents that
        // inherit their creator's base URL are not distinguished).
        let fallback = self.url();
        // Step 1: If document has no descendant base element that has an
        // href attribute, then return document's fallback base URL.
        // Step 2: Otherwise, return the frozen base URL of the first base
        // element in document that has an href attribute, in tree order.
        // (A depth-first walk that stops at the first one.)
        let mut pending: Vec<DomRoot<Node>> = self.node.children().into_iter().rev().collect();
        while let Some(node) = pending.pop() {
            if let Some(element) = node.downcast::<Element>() {
                if element.is_html("base") {
                    if let Some(href) = element.get_attribute("href") {
                        return frozen_base_url(&fallback, &href);
                    }
                }
            }
            pending.extend(node.children().into_iter().rev());
        }
        fallback
    }

    /// Sets the document's URL (a same-document navigation:
    /// `history.pushState`, a fragment navigation).
    pub fn set_url(&self, url: url::Url) {
        *self.url.borrow_mut() = url;
    }

    pub fn ready_state(&self) -> DocumentReadyState {
        self.ready_state.get()
    }

    pub fn set_ready_state(&self, state: DocumentReadyState) {
        self.ready_state.set(state);
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#update-the-current-document-readiness>
    /// (`cx` is in the realm of this document's global).
    pub fn update_the_current_document_readiness(
        &self,
        cx: &mut JSContext,
        readiness_value: DocumentReadyState,
    ) {
        // Step 1: If document's current document readiness equals
        // readinessValue, then return.
        if self.ready_state.get() == readiness_value {
            return;
        }
        // Step 2: Set document's current document readiness to
        // readinessValue.
        self.ready_state.set(readiness_value);
        // Step 3: (navigation timing entries: none here.)
        // Step 4: Fire an event named readystatechange at document.
        let event = crate::dom::events::event::Event::new(
            cx,
            self.upcast_node().global(),
            "readystatechange",
            false,
            false,
        );
        event.set_trusted(true);
        self.upcast_node().as_ref().dispatch(cx, &event);
    }

    pub fn set_current_script(&self, script: Option<&HTMLScriptElement>) {
        self.current_script.set(script);
    }

    pub fn current_script(&self) -> Option<DomRoot<HTMLScriptElement>> {
        self.current_script.get()
    }

    pub fn set_quirks(&self, quirks: bool) {
        self.quirks.set(quirks);
    }

    /// The document's Document-Policy (None: no header or an invalid one).
    pub fn document_policy(&self) -> Option<jsprof_document::DocumentPolicy> {
        *self.document_policy.borrow()
    }

    pub fn set_document_policy(&self, policy: Option<jsprof_document::DocumentPolicy>) {
        *self.document_policy.borrow_mut() = policy;
    }

    /// Something starts delaying the load event.
    /// The HTML parser's current line while it parses this document.
    pub fn parser_line(&self) -> Option<u32> {
        self.parser_line.get()
    }

    pub fn set_parser_line(&self, line: Option<u32>) {
        self.parser_line.set(line);
    }

    pub fn delay_load(&self) {
        self.load_delay.set(self.load_delay.get() + 1);
    }

    /// Something stops delaying the load event.
    pub fn undelay_load(&self) {
        self.load_delay.set(self.load_delay.get().saturating_sub(1));
    }

    /// Whether the load event is delayed.
    pub fn load_delayed(&self) -> bool {
        self.load_delay.get() > 0
    }

    /// The header list of the response the document was created from.
    pub fn response_headers(&self) -> jsprof_document::HeaderList {
        self.response_headers.borrow().clone()
    }

    pub fn set_response_headers(&self, headers: jsprof_document::HeaderList) {
        *self.response_headers.borrow_mut() = headers;
    }

    /// The document's embedder policy value (COEP).
    pub fn embedder_policy(&self) -> jsprof_document::EmbedderPolicyValue {
        self.embedder_policy.get()
    }

    pub fn set_embedder_policy(&self, value: jsprof_document::EmbedderPolicyValue) {
        self.embedder_policy.set(value);
    }

    /// <https://dom.spec.whatwg.org/#document-element>
    pub fn document_element(&self) -> Option<DomRoot<Element>> {
        self.node
            .children()
            .into_iter()
            .find_map(|c| c.downcast::<Element>())
    }

    /// The focused area of the document when it is an element still
    /// connected to this document (a removed element loses the focus:
    /// the focus fixup rule,
    /// <https://html.spec.whatwg.org/multipage/interaction.html#focus-fixup-rule>).
    pub fn focused_element(&self) -> Option<DomRoot<Element>> {
        let element = self.focused.get()?;
        let connected = element.upcast_node().is_connected()
            && element
                .upcast_node()
                .owner_doc()
                .is_some_and(|d| std::ptr::eq::<Document>(&*d, self));
        if !connected {
            self.focused.set(None);
            return None;
        }
        Some(element)
    }

    pub fn set_focused_element(&self, element: Option<&Element>) {
        self.focused.set(element);
    }

    /// <https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document>
    pub fn appropriate_template_contents_owner_document(
        &self,
        cx: &mut JSContext,
    ) -> DomRoot<Document> {
        // Step 1: If doc is not a Document created by this algorithm, then:
        if self.is_inert_template_document.get() {
            // Step 2: Return doc.
            return DomRoot::from_ref(self);
        }
        // Step 1.1: If doc does not yet have an associated inert template
        // document, then: let new doc be a new Document (whose browsing
        // context is null: it has no window, so nothing in it loads or
        // runs), marked as an HTML document if doc is one; set doc's
        // associated inert template document to new doc.
        if let Some(inert) = self.inert_template_document.get() {
            return inert;
        }
        let url = url::Url::parse("about:blank").expect("a valid URL");
        let inert = Document::new(cx, self.node.global(), url);
        inert.is_inert_template_document.set(true);
        inert.set_quirks(self.quirks.get());
        self.inert_template_document.set(Some(&inert));
        // Step 1.2: Set doc to doc's associated inert template document.
        inert
    }

    /// Whether this document is in quirks mode
    /// (<https://dom.spec.whatwg.org/#concept-document-quirks>).
    pub fn is_quirks(&self) -> bool {
        self.quirks.get()
    }

    /// The first child of the html element that is an HTML element named
    /// `name` (the `head`/`body` algorithms).
    fn html_child(&self, names: &[&str]) -> Option<DomRoot<HTMLElement>> {
        let root = self.document_element()?;
        if !root.is_html("html") {
            return None;
        }
        root.upcast_node()
            .children()
            .into_iter()
            .filter_map(|c| c.downcast::<HTMLElement>())
            .find(|e| names.iter().any(|n| e.upcast_element().is_html(n)))
    }
}

impl DocumentMethods for Document {
    /// <https://dom.spec.whatwg.org/#dom-document-url>
    fn URL(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.borrow().to_string())
    }

    /// <https://dom.spec.whatwg.org/#dom-document-documenturi>
    fn DocumentURI(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.borrow().to_string())
    }

    /// <https://dom.spec.whatwg.org/#dom-document-compatmode>
    fn CompatMode(&self, _cx: &mut JSContext) -> DOMString {
        if self.quirks.get() {
            "BackCompat"
        } else {
            "CSS1Compat"
        }
        .into()
    }

    /// <https://dom.spec.whatwg.org/#dom-document-characterset>
    fn CharacterSet(&self, _cx: &mut JSContext) -> DOMString {
        "UTF-8".into()
    }

    /// <https://dom.spec.whatwg.org/#dom-document-contenttype>
    fn ContentType(&self, _cx: &mut JSContext) -> DOMString {
        "text/html".into()
    }

    /// <https://dom.spec.whatwg.org/#dom-document-documentelement>
    fn DocumentElement(&self, _cx: &mut JSContext) -> Option<DomRoot<Element>> {
        self.document_element()
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-readystate>
    fn ReadyState(&self, _cx: &mut JSContext) -> DOMString {
        match self.ready_state.get() {
            DocumentReadyState::Loading => "loading",
            DocumentReadyState::Interactive => "interactive",
            DocumentReadyState::Complete => "complete",
        }
        .into()
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-head>
    fn Head(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLElement>> {
        self.html_child(&["head"])
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-body>
    fn Body(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLElement>> {
        self.html_child(&["body", "frameset"])
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-currentscript>
    fn CurrentScript(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLScriptElement>> {
        self.current_script.get()
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#document.title>:
    /// the title element's child text content, whitespace stripped and
    /// collapsed.
    fn Title(&self, _cx: &mut JSContext) -> DOMString {
        let title = Element::elements_by_tag_name(&self.node, "title")
            .into_iter()
            .next()
            .map(|t| t.upcast_node().child_text_content())
            .unwrap_or_default();
        title.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn SetTitle(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        let Some(title) = Element::elements_by_tag_name(&self.node, "title")
            .into_iter()
            .next()
        else {
            return Ok(());
        };
        let text = Text::new(cx, self.node.global(), Some(self), &value);
        title.upcast_node().replace_all(Some(text.upcast_node()));
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-cookie>
    fn Cookie(&self, _cx: &mut JSContext) -> Fallible<USVString> {
        let url = self.url();
        // Step 1: If this is a cookie-averse Document object (no browsing
        // context, or a URL whose scheme is not an HTTP(S) scheme), then
        // return the empty string.
        if !matches!(url.scheme(), "http" | "https") {
            return Ok(USVString(String::new()));
        }
        // Step 2: If this's origin is an opaque origin, then throw a
        // "SecurityError" DOMException.
        if self.node.global().origin().is_opaque() {
            return Err(Error::dom(DomExceptionName::SecurityError));
        }
        // Step 3: Return the cookie-string for this's URL for a "non-HTTP"
        // API (RFC 6265bis §5.8.3), isomorphic decoded.
        let jar = crate::navigation::browsing_context::loader().and_then(|l| l.cookie_jar());
        Ok(USVString(
            jar.and_then(|jar| jar.cookie_string(&url, jsprof_net::CookieContext::SCRIPT))
                .unwrap_or_default(),
        ))
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-document-cookie>
    fn SetCookie(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        let url = self.url();
        // Step 1: If this is a cookie-averse Document object, then do
        // nothing.
        if !matches!(url.scheme(), "http" | "https") {
            return Ok(());
        }
        // Step 2: If this's origin is an opaque origin, then throw a
        // "SecurityError" DOMException.
        if self.node.global().origin().is_opaque() {
            return Err(Error::dom(DomExceptionName::SecurityError));
        }
        // Step 3: Otherwise, the user agent must act as it would when
        // receiving a set-cookie-string for this's URL via a "non-HTTP" API,
        // consisting of the new value encoded as UTF-8 (a line the storage
        // model ignores changes nothing).
        if let Some(jar) =
            crate::navigation::browsing_context::loader().and_then(|l| l.cookie_jar())
        {
            let _ = jar.set_cookie(&url, &value.0, jsprof_net::CookieContext::SCRIPT);
        }
        Ok(())
    }

    crate::elements_by_name_methods!(
        "<https://dom.spec.whatwg.org/#dom-document-getelementsbytagname>:",
        "<https://dom.spec.whatwg.org/#dom-document-getelementsbyclassname>:"
    );

    crate::non_element_parent_node_methods!();

    /// <https://dom.spec.whatwg.org/#dom-document-createelement>
    fn CreateElement(
        &self,
        cx: &mut JSContext,
        local_name: DOMString,
    ) -> Fallible<DomRoot<Element>> {
        // Step 1: If localName is not a valid element local name, then throw
        // an "InvalidCharacterError" DOMException.
        if !valid_name(&local_name) {
            return Err(Error::dom(DomExceptionName::InvalidCharacterError));
        }
        // Step 2: If this is an HTML document, then set localName to
        // localName in ASCII lowercase.
        let local_name = local_name.to_ascii_lowercase();
        // Step 5: namespace is the HTML namespace (an HTML document).
        // Step 7: Return the result of creating an element.
        Ok(Element::create(
            cx,
            self,
            Some(HTML_NAMESPACE),
            None,
            &local_name,
            Vec::new(),
        ))
    }

    /// <https://dom.spec.whatwg.org/#dom-document-createelementns>
    fn CreateElementNS(
        &self,
        cx: &mut JSContext,
        namespace: Option<DOMString>,
        qualified_name: DOMString,
    ) -> Fallible<DomRoot<Element>> {
        // "Internal createElementNS steps", Step 1: Let (namespace, prefix,
        // localName) be the result of validating and extracting namespace
        // and qualifiedName given "element".
        let (namespace, prefix, local) = validate_and_extract(namespace, &qualified_name)?;
        // Steps 2-4: (no custom elements) Return the result of creating an
        // element given document, localName, namespace, prefix.
        Ok(Element::create(
            cx,
            self,
            namespace.as_deref(),
            prefix.as_deref(),
            &local,
            Vec::new(),
        ))
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-documentorshadowroot-activeelement>
    fn ActiveElement(&self, _cx: &mut JSContext) -> Option<DomRoot<Element>> {
        // Step 1: Let candidate be this's node document's focused area's
        // DOM anchor (an element, or the document for the viewport).
        // Step 2: (retargeting against this: no shadow trees).
        // Step 3: If candidate's root is not this, then return null.
        // Step 4: If candidate is not a Document object, then return
        // candidate.
        if let Some(focused) = self.focused_element() {
            return Some(focused);
        }
        // Step 5: If candidate has a body element, then return that body
        // element.
        if let Some(body) = self.html_child(&["body", "frameset"]) {
            return Some(body.upcast::<Element>());
        }
        // Step 6: If candidate's document element is non-null, then return
        // that document element.
        // Step 7: Return null.
        self.document_element()
    }

    /// <https://dom.spec.whatwg.org/#dom-document-createtextnode>
    fn CreateTextNode(&self, cx: &mut JSContext, data: DOMString) -> Fallible<DomRoot<Text>> {
        Ok(Text::new(cx, self.node.global(), Some(self), &data))
    }

    /// <https://dom.spec.whatwg.org/#dom-document-createcomment>: a new
    /// Comment node whose data is data and node document is this.
    fn CreateComment(&self, cx: &mut JSContext, data: DOMString) -> Fallible<DomRoot<Comment>> {
        Ok(Comment::new(cx, self, &data))
    }

    /// <https://dom.spec.whatwg.org/#dom-document-createdocumentfragment>:
    /// a new DocumentFragment node whose node document is this.
    fn CreateDocumentFragment(&self, cx: &mut JSContext) -> Fallible<DomRoot<DocumentFragment>> {
        Ok(DocumentFragment::new(cx, self))
    }

    /// <https://dom.spec.whatwg.org/#dom-document-implementation>: return
    /// the DOMImplementation object associated with this (the same one
    /// each time).
    fn Implementation(&self, cx: &mut JSContext) -> DomRoot<DOMImplementation> {
        self.implementation
            .or_init(|| DOMImplementation::new(cx, self))
    }

    crate::parent_node_methods!();
}

/// <https://dom.spec.whatwg.org/#valid-element-local-name>
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    // Step 1: If name's length is 0, then return false.
    let Some(first) = chars.next() else {
        return false;
    };
    // Step 2: If name's 0th code point is an ASCII alpha, then: if name
    // contains ASCII whitespace, U+0000 NULL, U+002F (/), or U+003E (>),
    // then return false; return true.
    if first.is_ascii_alphabetic() {
        return !name
            .chars()
            .any(|c| c.is_ascii_whitespace() || matches!(c, '\0' | '/' | '>'));
    }
    // Step 3: If name's 0th code point is not U+003A (:), U+005F (_), or in
    // the range U+0080 to U+10FFFF, inclusive, then return false.
    if !(first == ':' || first == '_' || first >= '\u{80}') {
        return false;
    }
    // Step 4: If name's subsequent code points, if any, are not ASCII
    // alphas, ASCII digits, U+002D (-), U+002E (.), U+003A (:), U+005F (_),
    // or in the range U+0080 to U+10FFFF, inclusive, then return false.
    // Step 5: Return true.
    chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '_') || c >= '\u{80}')
}

/// <https://dom.spec.whatwg.org/#valid-namespace-prefix>: at least one
/// code point, and none of ASCII whitespace, U+0000 NULL, U+002F (/), or
/// U+003E (>).
fn valid_namespace_prefix(prefix: &str) -> bool {
    !prefix.is_empty()
        && !prefix
            .chars()
            .any(|c| c.is_ascii_whitespace() || matches!(c, '\0' | '/' | '>'))
}

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// <https://dom.spec.whatwg.org/#validate-and-extract> given "element":
/// (namespace, prefix, localName).
fn validate_and_extract(
    namespace: Option<String>,
    qualified_name: &str,
) -> Fallible<(Option<String>, Option<String>, String)> {
    let invalid = || {
        Error::dom_with_message(
            DomExceptionName::InvalidCharacterError,
            format!("'{qualified_name}' is not a valid qualified name"),
        )
    };
    let namespace_error = |why: &str| {
        Error::dom_with_message(
            DomExceptionName::NamespaceError,
            format!("'{qualified_name}': {why}"),
        )
    };
    // Step 1: If namespace is the empty string, then set it to null.
    let namespace = namespace.filter(|n| !n.is_empty());
    // Step 2: Let prefix be null. Step 3: Let localName be qualifiedName.
    let mut prefix = None;
    let mut local_name = qualified_name;
    // Step 4: If qualifiedName contains a U+003A (:):
    if qualified_name.contains(':') {
        // Step 4.1: Let splitResult be the result of running strictly split
        // given qualifiedName and U+003A (:).
        let mut split = qualified_name.split(':');
        // Step 4.2: Set prefix to splitResult[0].
        let first = split.next().unwrap_or_default();
        // Step 4.3: Set localName to splitResult[1].
        local_name = split.next().unwrap_or_default();
        // Step 4.4: If prefix is not a valid namespace prefix, then throw
        // an "InvalidCharacterError" DOMException.
        if !valid_namespace_prefix(first) {
            return Err(invalid());
        }
        prefix = Some(first.to_owned());
    }
    // Step 5: Assert: prefix is either null or a valid namespace prefix.
    // Step 6: If context is "element" and localName is not a valid element
    // local name, then throw an "InvalidCharacterError" DOMException.
    if !valid_name(local_name) {
        return Err(invalid());
    }
    // Step 8: If prefix is non-null and namespace is null, then throw a
    // "NamespaceError" DOMException.
    if prefix.is_some() && namespace.is_none() {
        return Err(namespace_error("a prefix needs a namespace"));
    }
    // Step 9: If prefix is "xml" and namespace is not the XML namespace,
    // then throw a "NamespaceError" DOMException.
    if prefix.as_deref() == Some("xml") && namespace.as_deref() != Some(XML_NAMESPACE) {
        return Err(namespace_error("the xml prefix needs the XML namespace"));
    }
    // Step 10: If either qualifiedName or prefix is "xmlns" and namespace
    // is not the XMLNS namespace, then throw a "NamespaceError"
    // DOMException.
    let xmlns = qualified_name == "xmlns" || prefix.as_deref() == Some("xmlns");
    if xmlns && namespace.as_deref() != Some(XMLNS_NAMESPACE) {
        return Err(namespace_error("xmlns needs the XMLNS namespace"));
    }
    // Step 11: If namespace is the XMLNS namespace and neither
    // qualifiedName nor prefix is "xmlns", then throw a "NamespaceError"
    // DOMException.
    if namespace.as_deref() == Some(XMLNS_NAMESPACE) && !xmlns {
        return Err(namespace_error("the XMLNS namespace needs xmlns"));
    }
    // Step 12: Return (namespace, prefix, localName).
    Ok((namespace, prefix, local_name.to_owned()))
}

/// <https://html.spec.whatwg.org/multipage/semantics.html#set-the-frozen-base-url>
/// of a `base` element whose `href` attribute is `href`, in a document
/// whose fallback base URL is `fallback`.
fn frozen_base_url(fallback: &url::Url, href: &str) -> url::Url {
    // Step 2: Let urlRecord be the result of parsing the value of element's
    // href content attribute with document's fallback base URL.
    // Step 3: If urlRecord is failure, or its scheme is "data" or
    // "javascript", then set element's frozen base URL to document's
    // fallback base URL and return. (Content Security Policy's
    // "Is base allowed for Document?" has no policy to consult here.)
    match fallback.join(href) {
        Ok(url) if !matches!(url.scheme(), "data" | "javascript") => url,
        _ => fallback.clone(),
    }
    // Step 4: Otherwise, set element's frozen base URL to urlRecord.
}
