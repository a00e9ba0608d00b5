//! The HTML parser's tree sink: html5ever's tree builder calls it to build
//! the DOM of a document out of the generated-binding DOM objects, and
//! [`parse_document`] drives the tokenizer over a whole document (through
//! the depth limiter of [`crate::html_tree_builder`]), handing each
//! parser-inserted script to the caller when the parser pauses for it.

use std::borrow::Cow;
use std::cell::Cell;
use std::ptr::NonNull;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, QualName, TokenizerResult};
use mozjs::context::{JSContext, RawJSContext};

use crate::dom::bindings::root::DomRoot;
use crate::dom::document::Document;
use crate::dom::element::Element;
use crate::dom::htmlscriptelement::HTMLScriptElement;
use crate::dom::node::Node;
use crate::dom::text::Text;
use crate::html_tree_builder::{DepthCap, DepthLimiter, ElementNameRef, HasDepthCap, ParserHandle};

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
        cx: unsafe { cx.raw_cx() },
        document: DomRoot::from_ref(document),
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
}

/// The tree sink: builds the DOM of `document`. Holds the raw context
/// because html5ever's sink methods take `&self` only.
pub(crate) struct Sink {
    cx: *mut RawJSContext,
    document: DomRoot<Document>,
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
        ParserHandle::new(self.document.clone().upcast::<Node>())
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

    fn create_comment(&self, _text: StrTendril) -> ParserHandle {
        let mut cx = self.cx();
        ParserHandle::new(Node::new_comment(&mut cx, &self.document))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> ParserHandle {
        let mut cx = self.cx();
        ParserHandle::new(Node::new_comment(&mut cx, &self.document))
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
        // No DocumentFragment: template contents are the template itself.
        target.clone()
    }

    fn same_node(&self, x: &ParserHandle, y: &ParserHandle) -> bool {
        x.same(y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
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
        self.document
            .set_parser_line(Some(u32::try_from(line).unwrap_or(u32::MAX)));
    }
}
