//! `Node` (<https://dom.spec.whatwg.org/#interface-node>): the tree. Every
//! node holds traced references to its parent and children, so a document
//! keeps its whole tree alive.
//!
//! Comments and processing instructions are plain `Node` platform objects
//! of kind [`NodeKind::Comment`] (no `Comment` interface yet).

use std::cell::{Cell, RefCell};

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
    /// <https://dom.spec.whatwg.org/#connected>: whether the root is a
    /// document. Kept by `insert` and `remove` for the whole moved subtree
    /// (as Servo's `IS_CONNECTED` flag), so asking costs nothing whatever
    /// the node's depth.
    connected: Cell<bool>,
    /// The number of ancestors (0 for a root). Kept by `insert` and
    /// `remove` like `connected`; the parser's depth limit reads it.
    depth: Cell<usize>,
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
            // A document is its own root.
            connected: Cell::new(kind == NodeKind::Document),
            depth: Cell::new(0),
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

    /// <https://dom.spec.whatwg.org/#concept-tree-last-child>, rooting
    /// only that child.
    pub fn last_child(&self) -> Option<DomRoot<Node>> {
        self.children.borrow().last().map(Dom::root)
    }

    /// The child before `child` (a child of `self`), rooting only that one.
    pub fn child_before(&self, child: &Node) -> Option<DomRoot<Node>> {
        let children = self.children.borrow();
        let index = children
            .iter()
            .position(|c| c.reflector_object() == child.reflector().get_jsobject())?;
        index.checked_sub(1).map(|i| children[i].root())
    }

    /// How many ancestors this node has (0: it is a root).
    pub fn depth(&self) -> usize {
        self.depth.get()
    }

    pub fn owner_doc(&self) -> Option<DomRoot<Document>> {
        self.owner_document.get()
    }

    pub fn root_ref(&self) -> DomRoot<Node> {
        DomRoot::from_ref(self)
    }

    /// <https://dom.spec.whatwg.org/#concept-tree-inclusive-ancestor>
    ///
    /// Decided without a walk in the common cases (a leaf, a node outside
    /// `other`'s tree, a node deeper than `other`); otherwise by climbing
    /// from `other` only to `self`'s depth.
    pub fn is_inclusive_ancestor_of(&self, other: &Node) -> bool {
        if std::ptr::eq(self, other) {
            return true;
        }
        let unrelated = self.children.borrow().is_empty()
            || self.depth() >= other.depth()
            || (other.is_connected() && !self.is_connected());
        if unrelated {
            return false;
        }
        let mut current = DomRoot::from_ref(other);
        for _ in self.depth()..other.depth() {
            match current.parent() {
                Some(parent) => current = parent,
                None => return false,
            }
        }
        std::ptr::eq(&*current, self)
    }

    /// The descendants in tree order
    /// (<https://dom.spec.whatwg.org/#concept-tree-order>), not including
    /// `self`: a rooted snapshot, safe to iterate while the tree changes.
    /// Iterative, so a tree of any depth (scripts can build one far deeper
    /// than the parser's limit) cannot exhaust the thread's stack.
    pub fn descendants(&self) -> Vec<DomRoot<Node>> {
        let mut out = Vec::new();
        // Children pushed in reverse so they pop in tree order.
        let mut pending: Vec<DomRoot<Node>> = self.children().into_iter().rev().collect();
        while let Some(node) = pending.pop() {
            pending.extend(node.children().into_iter().rev());
            out.push(node);
        }
        out
    }

    /// `self` followed by its descendants, in tree order
    /// (<https://dom.spec.whatwg.org/#concept-tree-inclusive-descendant>).
    pub fn inclusive_descendants(&self) -> Vec<DomRoot<Node>> {
        let mut out = vec![self.root_ref()];
        out.extend(self.descendants());
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
        // Steps 1-5 (the same as "replace" steps 1-5).
        self.ensure_insertion_steps_1_to_5(node, child)?;
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

    /// Steps 1-5 of
    /// <https://dom.spec.whatwg.org/#concept-node-ensure-pre-insertion-validity>,
    /// which <https://dom.spec.whatwg.org/#concept-node-replace> repeats as
    /// its steps 1-5 (with a non-null child).
    fn ensure_insertion_steps_1_to_5(&self, node: &Node, child: Option<&Node>) -> Fallible<()> {
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
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#concept-node-insert> (one node: no
    /// DocumentFragment; no mutation observers or custom elements).
    pub fn insert(&self, node: &Node, child: Option<&Node>) {
        // Step 4-5 of "insert": remove node from its old parent ("adopt").
        if let Some(old) = node.parent() {
            old.remove(node);
        }
        // Step 7.1-7.2: adopt node into parent's node document. (The same
        // walk keeps the subtree's depths: node was a root until now.)
        let document = match self.kind {
            NodeKind::Document => self.root_ref().downcast::<Document>(),
            _ => self.owner_doc(),
        };
        let depth_below_parent = self.depth.get() + 1;
        let subtree = node.inclusive_descendants();
        for inclusive_descendant in &subtree {
            let descendant = &**inclusive_descendant;
            descendant
                .depth
                .set(descendant.depth.get() + depth_below_parent);
            if let Some(document) = document.as_deref() {
                if descendant.kind != NodeKind::Document {
                    descendant.owner_document.set(Some(document));
                }
            }
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
        // Step 9: Run the children changed steps for parent (a script
        // element's; run with the post-connection steps, see below).
        crate::script_element::children_changed(self);
        // Step 7.7: For each shadow-including inclusive descendant
        // inclusiveDescendant of node, in shadow-including tree order: run
        // the insertion steps with inclusiveDescendant (only `<iframe>` has
        // any here; they apply when it becomes connected). The subtree is
        // connected as a whole before any of them runs.
        if self.is_connected() {
            for inclusive_descendant in &subtree {
                inclusive_descendant.connected.set(true);
            }
            for inclusive_descendant in &subtree {
                inclusive_descendant.run_insertion_steps();
            }
            // Step 11: For each shadow-including inclusive descendant of
            // node that is connected, in shadow-including tree order, run
            // the post-connection steps (script elements': queued here,
            // run by `script_element::run_post_connection_steps` once the
            // calling DOM method's mutations are done).
            for inclusive_descendant in &subtree {
                crate::script_element::node_connected(inclusive_descendant);
            }
        }
    }

    /// <https://dom.spec.whatwg.org/#connected>: the root is a document.
    pub fn is_connected(&self) -> bool {
        self.connected.get()
    }

    /// The insertion steps of this one node.
    fn run_insertion_steps(&self) {
        if let Some(iframe) = self
            .root_ref()
            .downcast::<crate::dom::htmliframeelement::HTMLIFrameElement>()
        {
            iframe.insertion_steps();
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
        // node is a root now: its subtree's depths count from it.
        let subtree = node.inclusive_descendants();
        let old_depth = node.depth.get();
        for inclusive_descendant in &subtree {
            let descendant = &**inclusive_descendant;
            descendant.depth.set(descendant.depth.get() - old_depth);
        }
        // Step 21: Run the children changed steps for parent.
        crate::script_element::children_changed(self);
        // Steps 15-16: run the removing steps for node and each of its
        // shadow-including descendants (only `<iframe>` has any here),
        // once the whole subtree is disconnected.
        if was_connected {
            for inclusive_descendant in &subtree {
                inclusive_descendant.connected.set(false);
            }
            for inclusive_descendant in &subtree {
                inclusive_descendant.run_removing_steps();
            }
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
    }

    /// <https://dom.spec.whatwg.org/#concept-node-replace> (one node: no
    /// DocumentFragment or DocumentType; no mutation observers).
    pub fn replace(&self, child: &Node, node: &Node) -> Fallible<DomRoot<Node>> {
        // Step 1-5: as "ensure pre-insertion validity" steps 1-5: the
        // parent's type, node not an inclusive ancestor of parent, child's
        // parent is parent ("NotFoundError"), node's type, no Text under a
        // document.
        self.ensure_insertion_steps_1_to_5(node, Some(child))?;
        // Step 6: If parent is a document, node is an element, and parent
        // has an element child that is not child: "HierarchyRequestError".
        if self.kind == NodeKind::Document
            && node.kind == NodeKind::Element
            && self.children().iter().any(|c| {
                c.kind == NodeKind::Element
                    && !std::ptr::eq(&**c, child)
                    && !std::ptr::eq(&**c, node)
            })
        {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        // Step 7: Let referenceChild be child's next sibling.
        // Step 8: If referenceChild is node, then set referenceChild to
        // node's next sibling.
        let mut reference = child.next_sibling();
        if reference.as_deref().is_some_and(|r| std::ptr::eq(r, node)) {
            reference = node.next_sibling();
        }
        // Step 9: Let previousSibling be child's previous sibling (for
        // mutation records: none here).
        // Step 10: Let removedNodes be the empty set.
        // Step 11: If child's parent is non-null: remove child (with the
        // suppress observers flag set).
        if !std::ptr::eq(child, node) {
            self.remove(child);
        }
        // Step 12: Let nodes be node's children if node is a
        // DocumentFragment node; otherwise « node ».
        // Step 13: Insert node into parent before referenceChild with the
        // suppress observers flag set.
        self.insert(node, reference.as_deref());
        // Step 14: Queue a tree mutation record (no observers).
        // Step 15: Return child.
        Ok(DomRoot::from_ref(child))
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
        let children = parent.children.borrow();
        let me = self.reflector().get_jsobject();
        let index = children.iter().position(|c| c.reflector_object() == me)?;
        let target = index.checked_add_signed(offset)?;
        children.get(target).map(Dom::root)
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
                crate::script_element::run_post_connection_steps(cx);
            }
            NodeKind::Text => {
                if let Some(text) = self.root_ref().downcast::<Text>() {
                    text.set_data(&value);
                    // Replace data, step 12: the children changed steps
                    // for node's parent.
                    if let Some(parent) = self.parent() {
                        crate::script_element::children_changed(&parent);
                    }
                    crate::script_element::run_post_connection_steps(cx);
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
        cx: &mut JSContext,
        node: DomRoot<Node>,
        child: Option<DomRoot<Node>>,
    ) -> Fallible<DomRoot<Node>> {
        let result = self.pre_insert(&node, child.as_deref());
        crate::script_element::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-node-appendchild>
    fn AppendChild(&self, cx: &mut JSContext, node: DomRoot<Node>) -> Fallible<DomRoot<Node>> {
        let result = self.append(&node);
        crate::script_element::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-node-replacechild>
    fn ReplaceChild(
        &self,
        cx: &mut JSContext,
        node: DomRoot<Node>,
        child: DomRoot<Node>,
    ) -> Fallible<DomRoot<Node>> {
        let result = self.replace(&child, &node);
        crate::script_element::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-node-removechild>
    fn RemoveChild(&self, cx: &mut JSContext, child: DomRoot<Node>) -> Fallible<DomRoot<Node>> {
        let result = self.pre_remove(&child);
        crate::script_element::run_post_connection_steps(cx);
        result
    }
}
