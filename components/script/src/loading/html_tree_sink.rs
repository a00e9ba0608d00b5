//! The HTML parser's tree sink: html5ever's tree builder calls it to build
//! the DOM of a document out of the generated-binding DOM objects, and
//! [`parse_document`] drives the tokenizer over a whole document (through
//! the depth limiter of [`crate::loading::html_tree_builder`]), handing each
//! parser-inserted script to the caller when the parser pauses for it;
//! [`parse_fragment`] is HTML's fragment parsing algorithm (`innerHTML`,
//! `outerHTML`, `insertAdjacentHTML`).

use std::borrow::Cow;
use std::cell::Cell;
use std::ptr::NonNull;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::State as TokenizerState;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, QualName, TokenizerResult};
use mozjs::context::{JSContext, RawJSContext};

use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::html::htmltemplateelement::HTMLTemplateElement;
use crate::dom::nodes::comment::Comment;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::node::Node;
use crate::dom::nodes::text::Text;
use crate::loading::html_tree_builder::{
    DepthCap, DepthLimiter, ElementNameRef, HasDepthCap, ParserHandle,
};

/// <https://html.spec.whatwg.org/multipage/parsing.html#parsing>: parses
/// `text` (the decoded document) into `document`. When the tree builder
/// pauses at a `</script>`, `on_script` gets the script element (to
/// prepare and run it) before parsing goes on. `cx` is in the document's
/// realm.
pub(crate) fn parse_document(
    cx: &mut JSContext,
    document: &Document,
    text: &str,
    mut on_script: impl FnMut(&mut JSContext, &HTMLScriptElement),
) {
    let sink = Sink {
        // SAFETY: the sink lives only during this call, while `cx` is borrowed.
        cx: unsafe { cx.raw_cx() },
        document: DomRoot::from_ref(document),
        root: ParserHandle::new(DomRoot::from_ref(document.upcast_node())),
        is_fragment: false,
        current_line: Cell::new(1),
        depth_cap: DepthCap::default(),
    };
    let tree_builder = TreeBuilder::new(sink, TreeBuilderOpts::default());
    let tokenizer = Tokenizer::new(DepthLimiter { tree_builder }, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(text));
    loop {
        match tokenizer.feed(&input) {
            TokenizerResult::Done => break,
            TokenizerResult::Script(node) => {
                if let Some(script) = node.downcast::<HTMLScriptElement>() {
                    on_script(cx, &script);
                }
            }
            TokenizerResult::EncodingIndicator(_) => {}
        }
    }
    tokenizer.end();
    document.set_parser_line(None);
    crate::dom::nodes::mutationobserver::queue_pending_microtask(cx);
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-html-fragments>
/// given `context` and `markup`, wrapped as the HTML Standard's "fragment
/// parsing algorithm steps" wrap it: a new `DocumentFragment` in the
/// context's node document holding the nodes parsed. Scripts in it are
/// marked "already started" by the tree builder, so they never run; event
/// handler content attributes are set like any attribute.
pub(crate) fn parse_fragment(
    cx: &mut JSContext,
    context: &Element,
    markup: &str,
) -> DomRoot<DocumentFragment> {
    let document = context
        .upcast_node()
        .owner_doc()
        .expect("an element always has a node document");
    // Step 1: Create a new Document node, and mark it as being an HTML
    // document. (A parentless DocumentFragment stands for it: its nodes
    // are never connected, so no insertion steps run for them, and they
    // are created in the context's node document, where step 14's result
    // is adopted anyway.)
    let root = DocumentFragment::new(cx, &document);
    // Step 2: If context's node document is in quirks mode, then set
    // document's mode to "quirks" (or limited-quirks likewise).
    let quirks_mode = if document.is_quirks() {
        QuirksMode::Quirks
    } else {
        QuirksMode::NoQuirks
    };
    // Step 3: Create a new HTML parser, and associate it with document.
    let sink = Sink {
        // SAFETY: the sink lives only during this call, while `cx` is borrowed.
        cx: unsafe { cx.raw_cx() },
        document: document.clone(),
        root: ParserHandle::new(root.upcast_node().root_ref()),
        is_fragment: true,
        current_line: Cell::new(1),
        depth_cap: DepthCap::default(),
    };
    // Step 9: Set the HTML parser's form element pointer to the nearest
    // node to context that is a form element (going straight up the
    // ancestor chain, and including the element itself), if there is one.
    let mut form = None;
    let mut current = Some(context.upcast_node().root_ref());
    while let Some(node) = current {
        if node
            .downcast::<Element>()
            .is_some_and(|e| e.is_html("form"))
        {
            form = Some(ParserHandle::new(node.clone()));
            break;
        }
        current = node.parent();
    }
    // Steps 5-8 and 10 (the root html element, the stack of open elements,
    // the template insertion modes, resetting the insertion mode) are
    // html5ever's `new_for_fragment`.
    let opts = TreeBuilderOpts {
        quirks_mode,
        ..TreeBuilderOpts::default()
    };
    let context_handle = ParserHandle::new(context.upcast_node().root_ref());
    let tree_builder = TreeBuilder::new_for_fragment(sink, context_handle, form, opts);
    // Step 4: Set the state of the HTML parser's tokenization stage as
    // follows, switching on the context element (title, textarea: RCDATA;
    // style, xmp, iframe, noembed, noframes: RAWTEXT; script: script data;
    // noscript: RAWTEXT, scripting being enabled; plaintext: PLAINTEXT;
    // otherwise data).
    let initial_state: TokenizerState = tree_builder.tokenizer_state_for_context_elem(true);
    let tokenizer = Tokenizer::new(
        DepthLimiter { tree_builder },
        TokenizerOpts {
            initial_state: Some(initial_state),
            last_start_tag_name: Some(context.local_name().to_owned()),
            ..TokenizerOpts::default()
        },
    );
    // Step 12: Start the parser and let it run until it has consumed all
    // the characters just inserted into the input stream.
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(markup));
    // The tree builder never pauses for a script in a fragment (its
    // scripts are already started).
    while let TokenizerResult::Script(_) = tokenizer.feed(&input) {}
    tokenizer.end();
    // Step 14: Return root's children, in tree order (the html element's:
    // step 5's root). The fragment parsing algorithm steps: let fragment be
    // a new DocumentFragment whose node document is context's node
    // document, and append each node to it.
    let fragment = DocumentFragment::new(cx, &document);
    if let Some(html) = root.upcast_node().children().into_iter().next() {
        for child in html.children() {
            fragment.upcast_node().insert(&child, None);
        }
    }
    fragment
}

/// The tree sink: builds the DOM of `document`. Holds the raw context
/// because html5ever's sink methods take `&self` only.
pub(crate) struct Sink {
    cx: *mut RawJSContext,
    /// The node document of the nodes created.
    document: DomRoot<Document>,
    /// What html5ever sees as the document: `document` itself, or for
    /// fragment parsing the container standing for the spec's new
    /// Document.
    root: ParserHandle,
    /// Fragment parsing: the quirks mode and parser position of
    /// `document` are not the parser's to change.
    is_fragment: bool,
    current_line: Cell<u64>,
    /// The parser's nesting depth limit (`html_tree_builder`).
    depth_cap: DepthCap,
}

impl HasDepthCap for Sink {
    fn depth_cap(&self) -> &DepthCap {
        &self.depth_cap
    }
}

impl Sink {
    fn cx(&self) -> JSContext {
        // SAFETY: the context outlives the parse, on this thread.
        unsafe { JSContext::from_ptr(NonNull::new(self.cx).expect("a live context")) }
    }

    fn append_text(&self, parent: &Node, text: &str, before: Option<&Node>) {
        // Merge with an adjacent Text node (the parser's "insert a
        // character").
        let previous = match before {
            Some(b) => parent.child_before(b),
            None => parent.last_child(),
        };
        if let Some(t) = previous.and_then(|p| p.downcast::<Text>()) {
            // (The parser's "insert a character" appends to the data
            // directly: no "replace data" and no mutation record for it.)
            t.append_data(text);
            return;
        }
        let mut cx = self.cx();
        let node = Text::new(&mut cx, parent.global(), Some(&self.document), text);
        parent.insert(node.upcast_node(), before);
    }
}

impl TreeSink for Sink {
    type Handle = ParserHandle;
    type Output = ();
    type ElemName<'a> = ElementNameRef<'a>;

    fn finish(self) {}

    fn parse_error(&self, _msg: Cow<'static, str>) {
        // Parse errors are not fatal (the parser recovers as HTML says).
    }

    fn get_document(&self) -> ParserHandle {
        self.root.clone()
    }

    fn elem_name<'a>(&'a self, target: &'a ParserHandle) -> ElementNameRef<'a> {
        ElementNameRef::of(target)
    }

    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<Attribute>,
        _flags: ElementFlags,
    ) -> ParserHandle {
        let mut cx = self.cx();
        let attributes = attrs
            .into_iter()
            .map(|a| (a.name.local.to_string(), a.value.to_string()))
            .collect();
        let ns = name.ns.to_string();
        let namespace = (!ns.is_empty()).then_some(ns.as_str());
        let prefix = name.prefix.as_ref().map(|p| p.to_string());
        let element = Element::create(
            &mut cx,
            &self.document,
            namespace,
            prefix.as_deref(),
            &name.local,
            attributes,
        );
        if let Some(script) = element.downcast::<HTMLScriptElement>() {
            // The script's text starts on the line its start tag ends on.
            script.set_parser_inserted(true, self.current_line.get() as u32);
        }
        ParserHandle::new(element.upcast::<Node>())
    }

    fn create_comment(&self, text: StrTendril) -> ParserHandle {
        let mut cx = self.cx();
        ParserHandle::new(Comment::new(&mut cx, &self.document, &text).upcast::<Node>())
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> ParserHandle {
        // The HTML parser makes no processing instructions (a `<?...>` is
        // a bogus comment); html5ever's XML-only hook gets a comment.
        let mut cx = self.cx();
        ParserHandle::new(Comment::new(&mut cx, &self.document, &data).upcast::<Node>())
    }

    fn append(&self, parent: &ParserHandle, child: NodeOrText<ParserHandle>) {
        match child {
            NodeOrText::AppendNode(node) => {
                // Past the depth limit the node goes next to its parent.
                let parent = self.depth_cap.parent_for(parent, &node);
                parent.insert(&node, None)
            }
            NodeOrText::AppendText(text) => self.append_text(parent, &text, None),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &ParserHandle,
        prev_element: &ParserHandle,
        child: NodeOrText<ParserHandle>,
    ) {
        if element.parent().is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        _name: StrTendril,
        _public: StrTendril,
        _system: StrTendril,
    ) {
        // DocumentType nodes are not represented.
    }

    fn mark_script_already_started(&self, node: &ParserHandle) {
        if let Some(script) = node.downcast::<HTMLScriptElement>() {
            script.set_already_started(true);
        }
    }

    fn get_template_contents(&self, target: &ParserHandle) -> ParserHandle {
        // <https://html.spec.whatwg.org/multipage/scripting.html#template-contents>:
        // the parser inserts a template's children into its contents.
        match target.downcast::<HTMLTemplateElement>() {
            Some(template) => ParserHandle::new(template.contents().upcast::<Node>()),
            None => target.clone(),
        }
    }

    fn same_node(&self, x: &ParserHandle, y: &ParserHandle) -> bool {
        x.same(y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        if self.is_fragment {
            return;
        }
        self.document.set_quirks(mode == QuirksMode::Quirks);
    }

    fn append_before_sibling(&self, sibling: &ParserHandle, new_node: NodeOrText<ParserHandle>) {
        let Some(parent) = sibling.parent() else {
            return;
        };
        match new_node {
            NodeOrText::AppendNode(node) => parent.insert(&node, Some(sibling)),
            NodeOrText::AppendText(text) => self.append_text(&parent, &text, Some(sibling)),
        }
    }

    fn add_attrs_if_missing(&self, target: &ParserHandle, attrs: Vec<Attribute>) {
        if let Some(element) = target.downcast::<Element>() {
            element.add_attributes_if_missing(
                attrs
                    .into_iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect(),
            );
        }
    }

    fn remove_from_parent(&self, target: &ParserHandle) {
        if let Some(parent) = target.parent() {
            parent.remove(target);
        }
    }

    fn reparent_children(&self, node: &ParserHandle, new_parent: &ParserHandle) {
        for child in node.children() {
            new_parent.insert(&child, None);
        }
    }

    fn set_current_line(&self, line: u64) {
        self.current_line.set(line);
        if self.is_fragment {
            return;
        }
        self.document
            .set_parser_line(Some(u32::try_from(line).unwrap_or(u32::MAX)));
    }
}
