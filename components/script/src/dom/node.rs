//! `Node` (<https://dom.spec.whatwg.org/#interface-node>): the tree. Every
//! node holds traced references to its parent and children, so a document
//! keeps its whole tree alive.
//!
//! Comments and processing instructions are plain `Node` platform objects
//! of kind [`NodeKind::Comment`] (no `Comment` interface yet).

use std::cell::RefCell;

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::NodeBinding::NodeMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::{Dom, DomRoot, MutNullableDom};
use crate::dom::document::Document;
use crate::dom::element::Element;
use crate::dom::eventtarget::EventTarget;
use crate::dom::globalscope::GlobalScope;
use crate::dom::text::Text;

/// What a node is (<https://dom.spec.whatwg.org/#dom-node-nodetype>).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Element,
    Text,
    Comment,
    Document,
}

pub struct Node {
    eventtarget: EventTarget,
    kind: NodeKind,
    parent: MutNullableDom<Node>,
    /// <https://dom.spec.whatwg.org/#concept-tree-child>, in tree order.
    children: RefCell<Vec<Dom<Node>>>,
    /// <https://dom.spec.whatwg.org/#concept-node-document> (None for a
    /// document itself).
    owner_document: MutNullableDom<Document>,
}

impl AsRef<EventTarget> for Node {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

unsafe impl Traceable for Node {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe {
            self.eventtarget.trace(trc);
            self.parent.trace(trc);
            self.owner_document.trace(trc);
            // Never mutably borrowed across anything that can GC.
            if let Ok(children) = self.children.try_borrow() {
                for child in children.iter() {
                    child.trace(trc);
                }
            }
        }
    }
}

impl Node {
    pub fn new_inherited(kind: NodeKind, document: Option<&Document>) -> Node {
        Node {
            eventtarget: EventTarget::new_inherited(),
            kind,
            parent: MutNullableDom::default(),
            children: RefCell::new(Vec::new()),
            owner_document: MutNullableDom::new(document),
        }
    }

    /// A comment node (a bare `Node`).
    pub fn new_comment(cx: &mut JSContext, document: &Document) -> DomRoot<Node> {
        let global = document.upcast_node().global();
        reflect_dom_object(
            cx,
            global,
            Box::new(Node::new_inherited(NodeKind::Comment, Some(document))),
            None,
        )
    }

    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    pub fn parent(&self) -> Option<DomRoot<Node>> {
        self.parent.get()
    }

    /// The children, rooted (a snapshot: safe to iterate while mutating).
    pub fn children(&self) -> Vec<DomRoot<Node>> {
        self.children.borrow().iter().map(Dom::root).collect()
    }

    pub fn owner_doc(&self) -> Option<DomRoot<Document>> {
        self.owner_document.get()
    }

    pub fn root_ref(&self) -> DomRoot<Node> {
        DomRoot::from_ref(self)
    }

    /// <https://dom.spec.whatwg.org/#concept-tree-inclusive-ancestor>
    pub fn is_inclusive_ancestor_of(&self, other: &Node) -> bool {
        let mut current = Some(DomRoot::from_ref(other));
        while let Some(node) = current {
            if std::ptr::eq(&*node, self) {
                return true;
            }
            current = node.parent();
        }
        false
    }

    /// The descendants in tree order
    /// (<https://dom.spec.whatwg.org/#concept-tree-order>), not including
    /// `self`.
    pub fn descendants(&self) -> Vec<DomRoot<Node>> {
        let mut out = Vec::new();
        fn walk(node: &Node, out: &mut Vec<DomRoot<Node>>) {
            for child in node.children() {
                out.push(child.clone());
                walk(&child, out);
            }
        }
        walk(self, &mut out);
        out
    }

    /// The element descendants in tree order.
    pub fn element_descendants(&self) -> Vec<DomRoot<Element>> {
        self.descendants()
            .iter()
            .filter_map(|n| n.downcast::<Element>())
            .collect()
    }

    /// <https://dom.spec.whatwg.org/#concept-child-text-content> of every
    /// Text descendant (the descendant text content).
    pub fn descendant_text_content(&self) -> String {
        let mut s = String::new();
        for node in self.descendants() {
            if let Some(text) = node.downcast::<Text>() {
                s.push_str(&text.data());
            }
        }
        s
    }

    /// <https://dom.spec.whatwg.org/#concept-child-text-content>
    pub fn child_text_content(&self) -> String {
        let mut s = String::new();
        for node in self.children() {
            if let Some(text) = node.downcast::<Text>() {
                s.push_str(&text.data());
            }
        }
        s
    }

    /// <https://dom.spec.whatwg.org/#concept-node-pre-insert>
    pub fn pre_insert(&self, node: &Node, child: Option<&Node>) -> Fallible<DomRoot<Node>> {
        // Step 1: Ensure pre-insert validity of node into parent before child.
        self.ensure_pre_insert_validity(node, child)?;
        // Step 2: Let referenceChild be child.
        // Step 3: If referenceChild is node, then set referenceChild to
        // node's next sibling.
        let reference = match child {
            Some(c) if std::ptr::eq(c, node) => node.next_sibling(),
            Some(c) => Some(DomRoot::from_ref(c)),
            None => None,
        };
        // Step 4: Insert node into parent before referenceChild.
        self.insert(node, reference.as_deref());
        // Step 5: Return node.
        Ok(DomRoot::from_ref(node))
    }

    /// <https://dom.spec.whatwg.org/#concept-node-ensure-pre-insertion-validity>
    fn ensure_pre_insert_validity(&self, node: &Node, child: Option<&Node>) -> Fallible<()> {
        // Step 1: If parent is not a Document, DocumentFragment, or Element
        // node, then throw a "HierarchyRequestError" DOMException.
        if !matches!(self.kind, NodeKind::Document | NodeKind::Element) {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        // Step 2: If node is a host-including inclusive ancestor of parent,
        // then throw a "HierarchyRequestError" DOMException.
        if node.is_inclusive_ancestor_of(self) {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        // Step 3: If child is non-null and its parent is not parent, then
        // throw a "NotFoundError" DOMException.
        if let Some(child) = child {
            let is_child = child.parent().is_some_and(|p| std::ptr::eq(&*p, self));
            if !is_child {
                return Err(Error::dom(DomExceptionName::NotFoundError));
            }
        }
        // Step 4: If node is not a DocumentFragment, DocumentType, Element,
        // or CharacterData node, then throw a "HierarchyRequestError".
        if node.kind == NodeKind::Document {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        // Step 5: If either node is a Text node and parent is a document
        // ... then throw a "HierarchyRequestError" DOMException.
        if node.kind == NodeKind::Text && self.kind == NodeKind::Document {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        // Step 6: If parent is a document, and node is an element and
        // parent has an element child: "HierarchyRequestError".
        if self.kind == NodeKind::Document
            && node.kind == NodeKind::Element
            && self
                .children()
                .iter()
                .any(|c| c.kind == NodeKind::Element && !std::ptr::eq(&**c, node))
        {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#concept-node-insert> (one node: no
    /// DocumentFragment; no mutation observers or custom elements).
    pub fn insert(&self, node: &Node, child: Option<&Node>) {
        // Step 4-5 of "insert": remove node from its old parent ("adopt").
        if let Some(old) = node.parent() {
            old.remove(node);
        }
        // Step 7.1-7.2: adopt node into parent's node document.
        let document = match self.kind {
            NodeKind::Document => self.root_ref().downcast::<Document>(),
            _ => self.owner_doc(),
        };
        if let Some(document) = document.as_deref() {
            node.set_owner_document_recursively(document);
        }
        // Step 7.4: If child is null, then append node to parent's
        // children; otherwise insert node into parent's children before
        // child's index.
        {
            let mut children = self.children.borrow_mut();
            let index = child
                .and_then(|c| {
                    children
                        .iter()
                        .position(|d| d.reflector_object() == c.reflector().get_jsobject())
                })
                .unwrap_or(children.len());
            children.insert(index, Dom::from_ref(node));
        }
        node.parent.set(Some(self));
        // Step 7.7: For each shadow-including inclusive descendant
        // inclusiveDescendant of node, in shadow-including tree order: run
        // the insertion steps with inclusiveDescendant (only `<iframe>` has
        // any here; they apply when it becomes connected).
        if self.is_connected() {
            node.run_insertion_steps();
        }
    }

    /// <https://dom.spec.whatwg.org/#connected>: the root is a document.
    pub fn is_connected(&self) -> bool {
        let mut current = DomRoot::from_ref(self);
        while let Some(parent) = current.parent() {
            current = parent;
        }
        current.kind == NodeKind::Document
    }

    fn run_insertion_steps(&self) {
        if let Some(iframe) = self
            .root_ref()
            .downcast::<crate::dom::htmliframeelement::HTMLIFrameElement>()
        {
            iframe.insertion_steps();
        }
        for child in self.children() {
            child.run_insertion_steps();
        }
    }

    fn set_owner_document_recursively(&self, document: &Document) {
        if self.kind != NodeKind::Document {
            self.owner_document.set(Some(document));
        }
        for child in self.children() {
            child.set_owner_document_recursively(document);
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-node-append>
    pub fn append(&self, node: &Node) -> Fallible<DomRoot<Node>> {
        // To append a node to a parent, pre-insert node into parent before
        // null.
        self.pre_insert(node, None)
    }

    /// <https://dom.spec.whatwg.org/#concept-node-pre-remove>
    pub fn pre_remove(&self, child: &Node) -> Fallible<DomRoot<Node>> {
        // Step 1: If child's parent is not parent, then throw a
        // "NotFoundError" DOMException.
        let is_child = child.parent().is_some_and(|p| std::ptr::eq(&*p, self));
        if !is_child {
            return Err(Error::dom(DomExceptionName::NotFoundError));
        }
        // Step 2: Remove child.
        self.remove(child);
        // Step 3: Return child.
        Ok(DomRoot::from_ref(child))
    }

    /// <https://dom.spec.whatwg.org/#concept-node-remove> (no ranges,
    /// iterators or observers).
    pub fn remove(&self, node: &Node) {
        // Step 1: Let parent be node's parent. Step 2: Assert: parent is
        // non-null (the caller is the parent).
        let was_connected = self.is_connected();
        // Step 12: Remove node from its parent's children.
        self.children
            .borrow_mut()
            .retain(|d| d.reflector_object() != node.reflector().get_jsobject());
        node.parent.set(None);
        // Steps 15-16: run the removing steps for node and each of its
        // shadow-including descendants (only `<iframe>` has any here).
        if was_connected {
            node.run_removing_steps();
        }
    }

    /// The removing steps of `node` and its descendants: only `<iframe>`
    /// has any here ("destroy a child navigable",
    /// <https://html.spec.whatwg.org/multipage/iframe-embed-object.html#the-iframe-element>).
    fn run_removing_steps(&self) {
        if let Some(iframe) = self
            .root_ref()
            .downcast::<crate::dom::htmliframeelement::HTMLIFrameElement>()
        {
            iframe.removing_steps();
        }
        for child in self.children() {
            child.run_removing_steps();
        }
    }

    /// Replaces all children with `node`
    /// (<https://dom.spec.whatwg.org/#concept-node-replace-all>).
    pub fn replace_all(&self, node: Option<&Node>) {
        // Step 2: Let removedNodes be parent's children.
        // Step 6: Remove all parent's children, in tree order.
        for child in self.children() {
            self.remove(&child);
        }
        // Step 7: If node is non-null, then insert node into parent before
        // null.
        if let Some(node) = node {
            self.insert(node, None);
        }
    }

    fn sibling(&self, offset: isize) -> Option<DomRoot<Node>> {
        let parent = self.parent()?;
        let children = parent.children();
        let me = self.reflector().get_jsobject();
        let index = children.iter().position(|c| c.reflector_object() == me)? as isize;
        let target = index + offset;
        if target < 0 {
            return None;
        }
        children.get(target as usize).cloned()
    }

    pub fn next_sibling(&self) -> Option<DomRoot<Node>> {
        self.sibling(1)
    }

    /// The global this node's reflector lives in.
    pub fn global(&self) -> &GlobalScope {
        // SAFETY: a reflected node's reflector is alive while `self` is.
        unsafe {
            GlobalScope::from_global(mozjs::jsapi::GetNonCCWObjectGlobal(
                self.reflector().get_jsobject(),
            ))
        }
    }
}

impl NodeMethods for Node {
    /// <https://dom.spec.whatwg.org/#dom-node-nodetype>
    fn NodeType(&self, _cx: &mut JSContext) -> u16 {
        match self.kind {
            NodeKind::Element => 1,
            NodeKind::Text => 3,
            NodeKind::Comment => 8,
            NodeKind::Document => 9,
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-node-nodename>
    fn NodeName(&self, _cx: &mut JSContext) -> DOMString {
        match self.kind {
            NodeKind::Element => self
                .root_ref()
                .downcast::<Element>()
                .map(|e| e.tag_name())
                .unwrap_or_default(),
            NodeKind::Text => "#text".into(),
            NodeKind::Comment => "#comment".into(),
            NodeKind::Document => "#document".into(),
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-node-ownerdocument>
    fn OwnerDocument(&self, _cx: &mut JSContext) -> Option<DomRoot<Document>> {
        self.owner_doc()
    }

    /// <https://dom.spec.whatwg.org/#dom-node-parentnode>
    fn ParentNode(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.parent()
    }

    /// <https://dom.spec.whatwg.org/#dom-node-parentelement>
    fn ParentElement(&self, _cx: &mut JSContext) -> Option<DomRoot<Element>> {
        self.parent().and_then(|p| p.downcast::<Element>())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-firstchild>
    fn FirstChild(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.children.borrow().first().map(Dom::root)
    }

    /// <https://dom.spec.whatwg.org/#dom-node-lastchild>
    fn LastChild(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.children.borrow().last().map(Dom::root)
    }

    /// <https://dom.spec.whatwg.org/#dom-node-previoussibling>
    fn PreviousSibling(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.sibling(-1)
    }

    /// <https://dom.spec.whatwg.org/#dom-node-nextsibling>
    fn NextSibling(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.sibling(1)
    }

    /// <https://dom.spec.whatwg.org/#dom-node-textcontent>
    fn TextContent(&self, _cx: &mut JSContext) -> Option<DOMString> {
        match self.kind {
            NodeKind::Element => Some(self.descendant_text_content()),
            NodeKind::Text => self.root_ref().downcast::<Text>().map(|t| t.data()),
            NodeKind::Comment | NodeKind::Document => None,
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-node-textcontent>: string replace
    /// all for elements, replace data for text.
    fn SetTextContent(&self, cx: &mut JSContext, value: Option<DOMString>) -> Fallible<()> {
        let value = value.unwrap_or_default();
        match self.kind {
            NodeKind::Element => {
                // https://dom.spec.whatwg.org/#string-replace-all
                // Step 1: Let node be null.
                // Step 2: If string is not the empty string, then set node
                // to a new Text node whose data is string.
                let node = if value.is_empty() {
                    None
                } else {
                    let document = self.owner_doc();
                    Some(Text::new(cx, self.global(), document.as_deref(), &value))
                };
                // Step 3: Replace all with node within parent.
                self.replace_all(node.as_deref().map(|t| t.upcast_node()));
            }
            NodeKind::Text => {
                if let Some(text) = self.root_ref().downcast::<Text>() {
                    text.set_data(&value);
                }
            }
            NodeKind::Comment | NodeKind::Document => {}
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-haschildnodes>
    fn HasChildNodes(&self, _cx: &mut JSContext) -> Fallible<bool> {
        Ok(!self.children.borrow().is_empty())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-childnodes>
    fn ChildNodes(&self, _cx: &mut JSContext) -> Fallible<Vec<DomRoot<Node>>> {
        Ok(self.children())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-contains>
    fn Contains(&self, _cx: &mut JSContext, other: Option<DomRoot<Node>>) -> Fallible<bool> {
        Ok(other.is_some_and(|o| self.is_inclusive_ancestor_of(&o)))
    }

    /// <https://dom.spec.whatwg.org/#dom-node-insertbefore>
    fn InsertBefore(
        &self,
        _cx: &mut JSContext,
        node: DomRoot<Node>,
        child: Option<DomRoot<Node>>,
    ) -> Fallible<DomRoot<Node>> {
        self.pre_insert(&node, child.as_deref())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-appendchild>
    fn AppendChild(&self, _cx: &mut JSContext, node: DomRoot<Node>) -> Fallible<DomRoot<Node>> {
        self.append(&node)
    }

    /// <https://dom.spec.whatwg.org/#dom-node-removechild>
    fn RemoveChild(&self, _cx: &mut JSContext, child: DomRoot<Node>) -> Fallible<DomRoot<Node>> {
        self.pre_remove(&child)
    }
}
