//! `Node` (<https://dom.spec.whatwg.org/#interface-node>): the tree. Every
//! node holds traced references to its parent and children, so a document
//! keeps its whole tree alive.
//!
//! The mutation algorithms (insert, remove, replace, replace all) queue
//! the mutation records of `dom::mutationobserver`; the binding methods
//! queue the mutation observer microtask once their mutations are done.

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::AttrBinding::AttrMethods;
use crate::dom::bindings::codegen::NodeBinding::NodeMethods;
use crate::dom::bindings::codegen::NodeOrString;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::{Dom, DomRoot, MutNullableDom};
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::attr::Attr;
use crate::dom::nodes::characterdata::CharacterData;
use crate::dom::nodes::comment::Comment;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::htmlcollection::{CollectionFilter, HTMLCollection};
use crate::dom::nodes::mutationobserver::{
    self, MutationObserver, ObserverOptions, RegisteredObserver,
};
use crate::dom::nodes::nodelist::NodeList;
use crate::dom::nodes::text::Text;
use crate::dom::nodes::virtualmethods;

thread_local! {
    /// Bumped by every change of any tree or attribute on this thread: a
    /// live collection's cached elements are valid while it is unchanged.
    /// Per thread, not per agent: it must only grow (a version a new agent
    /// restarted could match a cache made under the previous one).
    static TREE_VERSION: Cell<u64> = const { Cell::new(0) };
}

/// The current tree version (see `TREE_VERSION`).
pub fn tree_version() -> u64 {
    TREE_VERSION.with(Cell::get)
}

/// Marks a change of a tree or of an attribute.
pub fn bump_tree_version() {
    TREE_VERSION.with(|v| v.set(v.get().wrapping_add(1)));
}

/// What a node is (<https://dom.spec.whatwg.org/#dom-node-nodetype>).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Element,
    Text,
    Comment,
    Document,
    DocumentFragment,
    Attribute,
}

#[derive(JSTraceable)]
pub struct Node {
    eventtarget: EventTarget,
    #[no_trace]
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
    /// <https://dom.spec.whatwg.org/#registered-observer-list>
    registered_observers: RefCell<Vec<RegisteredObserver>>,
    /// The `childNodes` NodeList (`[SameObject]`), made on first use.
    child_nodes: MutNullableDom<NodeList>,
    /// The `children` HTMLCollection (`[SameObject]`), made on first use.
    children_collection: MutNullableDom<HTMLCollection>,
}

impl AsRef<EventTarget> for Node {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
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
            registered_observers: RefCell::new(Vec::new()),
            child_nodes: MutNullableDom::default(),
            children_collection: MutNullableDom::default(),
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-children>: an
    /// HTMLCollection rooted at this matching only element children (the
    /// same object each time).
    pub fn children_collection(&self, cx: &mut JSContext) -> DomRoot<HTMLCollection> {
        self.children_collection
            .or_init(|| HTMLCollection::new(cx, self, CollectionFilter::Children))
    }

    /// <https://dom.spec.whatwg.org/#converting-nodes-into-a-node>
    fn convert_nodes_into_node(
        &self,
        cx: &mut JSContext,
        nodes: Vec<NodeOrString>,
    ) -> Fallible<DomRoot<Node>> {
        let document = match self.kind {
            NodeKind::Document => self.root_ref().downcast::<Document>(),
            _ => self.owner_doc(),
        }
        .expect("a node has a node document");
        // Step 1: Replace each string of nodes with a new Text node whose
        // data is the string and node document is document.
        let mut converted: Vec<DomRoot<Node>> = nodes
            .into_iter()
            .map(|n| match n {
                NodeOrString::Node(node) => node,
                NodeOrString::String(s) => {
                    Text::new(cx, self.global(), Some(&document), &s).upcast::<Node>()
                }
            })
            .collect();
        // Step 2: If nodes contains one node, then return node.
        if converted.len() == 1 {
            return Ok(converted.remove(0));
        }
        // Step 3: Let node be a new DocumentFragment node whose node
        // document is document.
        let fragment = DocumentFragment::new(cx, &document);
        // Step 4: Append each node in nodes, if any, to node.
        for node in &converted {
            fragment.upcast_node().append(node)?;
        }
        // Step 5: Return node.
        Ok(fragment.upcast::<Node>())
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-prepend>
    pub fn prepend_nodes(&self, cx: &mut JSContext, nodes: Vec<NodeOrString>) -> Fallible<()> {
        // Step 1: Let node be the result of converting nodes into a node
        // given nodes and this's node document.
        let node = self.convert_nodes_into_node(cx, nodes)?;
        // Step 2: Pre-insert node into this before this's first child.
        let first = self.child_at(0);
        let result = self.pre_insert(&node, first.as_deref()).map(|_| ());
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-append>
    pub fn append_nodes(&self, cx: &mut JSContext, nodes: Vec<NodeOrString>) -> Fallible<()> {
        // Step 1: Let node be the result of converting nodes into a node
        // given nodes and this's node document.
        let node = self.convert_nodes_into_node(cx, nodes)?;
        // Step 2: Append node to this.
        let result = self.append(&node).map(|_| ());
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-replacechildren>
    pub fn replace_children_nodes(
        &self,
        cx: &mut JSContext,
        nodes: Vec<NodeOrString>,
    ) -> Fallible<()> {
        // Step 1: Let node be the result of converting nodes into a node
        // given nodes and this's node document.
        let node = self.convert_nodes_into_node(cx, nodes)?;
        // Step 2: Ensure pre-insertion validity of node into this before
        // null.
        self.ensure_pre_insert_validity(&node, None)?;
        // Step 3: Replace all with node within this.
        self.replace_all(Some(&node));
        virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// Whether `node` is one of the Node members of `nodes`.
    fn is_in(node: &Node, nodes: &[NodeOrString]) -> bool {
        nodes
            .iter()
            .any(|n| matches!(n, NodeOrString::Node(m) if std::ptr::eq(&**m, node)))
    }

    /// <https://dom.spec.whatwg.org/#dom-childnode-before>
    pub fn before_nodes(&self, cx: &mut JSContext, nodes: Vec<NodeOrString>) -> Fallible<()> {
        // Step 1: Let parent be this's parent.
        // Step 2: If parent is null, then return.
        let Some(parent) = self.parent() else {
            return Ok(());
        };
        // Step 3: Let viablePreviousSibling be this's first preceding
        // sibling not in nodes; otherwise null.
        let siblings = parent.children();
        let index = siblings
            .iter()
            .position(|c| std::ptr::eq(&**c, self))
            .unwrap_or(0);
        let viable_previous = siblings[..index]
            .iter()
            .rev()
            .find(|s| !Self::is_in(s, &nodes))
            .cloned();
        // Step 4: Let node be the result of converting nodes into a node,
        // given nodes and this's node document.
        let node = self.convert_nodes_into_node(cx, nodes)?;
        // Step 5: If viablePreviousSibling is null, then set it to parent's
        // first child; otherwise to viablePreviousSibling's next sibling.
        let reference = match viable_previous {
            None => parent.child_at(0),
            Some(previous) => previous.next_sibling(),
        };
        // Step 6: Pre-insert node into parent before viablePreviousSibling.
        let result = parent.pre_insert(&node, reference.as_deref()).map(|_| ());
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// The first following sibling of this not in `nodes`, or null
    /// (`after()` and `replaceWith()` step 3).
    fn viable_next_sibling(&self, parent: &Node, nodes: &[NodeOrString]) -> Option<DomRoot<Node>> {
        let siblings = parent.children();
        let index = siblings.iter().position(|c| std::ptr::eq(&**c, self))?;
        siblings[index + 1..]
            .iter()
            .find(|s| !Self::is_in(s, nodes))
            .cloned()
    }

    /// <https://dom.spec.whatwg.org/#dom-childnode-after>
    pub fn after_nodes(&self, cx: &mut JSContext, nodes: Vec<NodeOrString>) -> Fallible<()> {
        // Step 1: Let parent be this's parent.
        // Step 2: If parent is null, then return.
        let Some(parent) = self.parent() else {
            return Ok(());
        };
        // Step 3: Let viableNextSibling be this's first following sibling
        // not in nodes; otherwise null.
        let viable_next = self.viable_next_sibling(&parent, &nodes);
        // Step 4: Let node be the result of converting nodes into a node,
        // given nodes and this's node document.
        let node = self.convert_nodes_into_node(cx, nodes)?;
        // Step 5: Pre-insert node into parent before viableNextSibling.
        let result = parent.pre_insert(&node, viable_next.as_deref()).map(|_| ());
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-childnode-replacewith>
    pub fn replace_with_nodes(&self, cx: &mut JSContext, nodes: Vec<NodeOrString>) -> Fallible<()> {
        // Step 1: Let parent be this's parent.
        // Step 2: If parent is null, then return.
        let Some(parent) = self.parent() else {
            return Ok(());
        };
        // Step 3: Let viableNextSibling be this's first following sibling
        // not in nodes; otherwise null.
        let viable_next = self.viable_next_sibling(&parent, &nodes);
        // Step 4: Let node be the result of converting nodes into a node,
        // given nodes and this's node document.
        let node = self.convert_nodes_into_node(cx, nodes)?;
        // Step 5: If this's parent is parent, replace this with node within
        // parent. (This could have been inserted into node.)
        let result = if self.parent().is_some_and(|p| std::ptr::eq(&*p, &*parent)) {
            parent.replace(self, &node).map(|_| ())
        } else {
            // Step 6: Otherwise, pre-insert node into parent before
            // viableNextSibling.
            parent.pre_insert(&node, viable_next.as_deref()).map(|_| ())
        };
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// Calls `f` with each registered observer of this node
    /// (<https://dom.spec.whatwg.org/#registered-observer-list>).
    pub fn for_each_registered_observer(&self, mut f: impl FnMut(&RegisteredObserver)) {
        for registered in self.registered_observers.borrow().iter() {
            f(registered);
        }
    }

    /// Sets the options of `observer`'s registered observer on this node;
    /// false if it has none here.
    pub fn set_registered_observer_options(
        &self,
        observer: &MutationObserver,
        options: &ObserverOptions,
    ) -> bool {
        let me = observer.reflector().get_jsobject();
        let mut found = false;
        for registered in self.registered_observers.borrow_mut().iter_mut() {
            if registered.observer.reflector_object() == me && registered.source.is_none() {
                registered.options = options.clone();
                found = true;
            }
        }
        found
    }

    pub fn add_registered_observer(&self, registered: RegisteredObserver) {
        self.registered_observers.borrow_mut().push(registered);
    }

    /// Removes `observer`'s transient registered observers from this node
    /// (only those whose source is on `source`, when given); returns how
    /// many there were.
    pub fn remove_transient_observers(
        &self,
        observer: &MutationObserver,
        source: Option<&Node>,
    ) -> usize {
        let me = observer.reflector().get_jsobject();
        let mut observers = self.registered_observers.borrow_mut();
        let before = observers.len();
        observers.retain(|r| {
            let transient_of_me = r.observer.reflector_object() == me
                && r.source.as_ref().is_some_and(|s| {
                    source.is_none_or(|n| s.reflector_object() == n.reflector().get_jsobject())
                });
            !transient_of_me
        });
        before - observers.len()
    }

    /// Whether `observer` has a registered observer (of any kind) here.
    pub fn has_registered_observer(&self, observer: &MutationObserver) -> bool {
        let me = observer.reflector().get_jsobject();
        self.registered_observers
            .borrow()
            .iter()
            .any(|r| r.observer.reflector_object() == me)
    }

    /// Removes `observer`'s registered observers from this node; returns
    /// how many there were.
    pub fn remove_registered_observers(&self, observer: &MutationObserver) -> usize {
        let me = observer.reflector().get_jsobject();
        let mut observers = self.registered_observers.borrow_mut();
        let before = observers.len();
        observers.retain(|r| r.observer.reflector_object() != me);
        before - observers.len()
    }

    /// The child at `index`, if any.
    pub fn child_at(&self, index: usize) -> Option<DomRoot<Node>> {
        self.children.borrow().get(index).map(Dom::root)
    }

    /// The number of children.
    pub fn child_count(&self) -> usize {
        self.children.borrow().len()
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-firstelementchild>:
    /// the first child that is an element; otherwise null.
    pub fn first_element_child(&self) -> Option<DomRoot<Element>> {
        self.children().iter().find_map(|c| c.downcast::<Element>())
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-lastelementchild>:
    /// the last child that is an element; otherwise null.
    pub fn last_element_child(&self) -> Option<DomRoot<Element>> {
        self.children()
            .iter()
            .rev()
            .find_map(|c| c.downcast::<Element>())
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-childelementcount>:
    /// the number of children of this that are elements.
    pub fn child_element_count(&self) -> u32 {
        self.children
            .borrow()
            .iter()
            .filter(|c| c.root().kind == NodeKind::Element)
            .count() as u32
    }

    /// <https://dom.spec.whatwg.org/#dom-nondocumenttypechildnode-previouselementsibling>:
    /// the first preceding sibling that is an element; otherwise null.
    pub fn previous_element_sibling(&self) -> Option<DomRoot<Element>> {
        let parent = self.parent()?;
        let siblings = parent.children();
        let index = siblings.iter().position(|c| std::ptr::eq(&**c, self))?;
        siblings[..index]
            .iter()
            .rev()
            .find_map(|c| c.downcast::<Element>())
    }

    /// <https://dom.spec.whatwg.org/#dom-nondocumenttypechildnode-nextelementsibling>:
    /// the first following sibling that is an element; otherwise null.
    pub fn next_element_sibling(&self) -> Option<DomRoot<Element>> {
        let parent = self.parent()?;
        let siblings = parent.children();
        let index = siblings.iter().position(|c| std::ptr::eq(&**c, self))?;
        siblings[index + 1..]
            .iter()
            .find_map(|c| c.downcast::<Element>())
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
        // Step 6: If parent is a document, and any of the statements
        // below, switched on the interface node implements, are true, then
        // throw a "HierarchyRequestError" DOMException.
        if self.kind == NodeKind::Document {
            let parent_has_element_child = self
                .children()
                .iter()
                .any(|c| c.kind == NodeKind::Element && !std::ptr::eq(&**c, node));
            match node.kind {
                // DocumentFragment: if node has more than one element child
                // or has a Text node child; otherwise, if node has one
                // element child and parent has an element child (no
                // doctypes here).
                NodeKind::DocumentFragment => {
                    node.check_fragment_for_document(parent_has_element_child)?
                }
                // Element: parent has an element child (no doctypes here).
                NodeKind::Element if parent_has_element_child => {
                    return Err(Error::dom(DomExceptionName::HierarchyRequestError));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The DocumentFragment case of "ensure pre-insertion validity" step 6
    /// and "replace" step 6, for this fragment going into a document
    /// (`parent_has_element_child`: one other than the one replaced).
    fn check_fragment_for_document(&self, parent_has_element_child: bool) -> Fallible<()> {
        let children = self.children();
        let elements = children
            .iter()
            .filter(|c| c.kind == NodeKind::Element)
            .count();
        let has_text = children.iter().any(|c| c.kind == NodeKind::Text);
        if elements > 1 || has_text || (elements == 1 && parent_has_element_child) {
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
        if !matches!(
            self.kind,
            NodeKind::Document | NodeKind::Element | NodeKind::DocumentFragment
        ) {
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
        if matches!(node.kind, NodeKind::Document | NodeKind::Attribute) {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        // Step 5: If either node is a Text node and parent is a document
        // ... then throw a "HierarchyRequestError" DOMException.
        if node.kind == NodeKind::Text && self.kind == NodeKind::Document {
            return Err(Error::dom(DomExceptionName::HierarchyRequestError));
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#concept-node-insert> (no custom
    /// elements or live ranges).
    pub fn insert(&self, node: &Node, child: Option<&Node>) {
        self.insert_with(node, child, false)
    }

    /// <https://dom.spec.whatwg.org/#concept-node-insert>, with the
    /// suppress observers flag.
    fn insert_with(&self, node: &Node, child: Option<&Node>, suppress_observers: bool) {
        // Step 1: Let nodes be node's children, if node is a
        // DocumentFragment node; otherwise « node ».
        let is_fragment = node.kind == NodeKind::DocumentFragment;
        let nodes = if is_fragment {
            node.children()
        } else {
            vec![DomRoot::from_ref(node)]
        };
        // Step 2: Let count be nodes's size. Step 3: If count is 0, return.
        if nodes.is_empty() {
            return;
        }
        // Step 4: If node is a DocumentFragment node, then:
        if is_fragment {
            // Step 4.1: Remove its children with the suppress observers
            // flag set.
            for n in &nodes {
                node.remove_with(n, true);
            }
            // Step 4.2: Queue a tree mutation record for node with « »,
            // nodes, null, and null.
            mutationobserver::queue_tree_mutation_record(node, &[], &nodes, None, None);
        }
        // Step 5: live ranges (none here).
        // Step 6: Let previousSibling be child's previous sibling or
        // parent's last child if child is null.
        // (Only looked up when a record can be queued: no observer, no
        // record, and no scan of the children for it.)
        let previous_sibling = if !suppress_observers && mutationobserver::any_registered() {
            match child {
                Some(c) => self.child_before(c),
                None => self.last_child(),
            }
        } else {
            None
        };
        // Step 7: For each node in nodes, in tree order:
        for n in &nodes {
            self.insert_one(n, child);
        }
        // Step 8: If suppress observers flag is unset, then queue a tree
        // mutation record for parent with nodes, « », previousSibling, and
        // child.
        if !suppress_observers {
            mutationobserver::queue_tree_mutation_record(
                self,
                &nodes,
                &[],
                previous_sibling.as_deref(),
                child,
            );
        }
    }

    /// Step 7 of <https://dom.spec.whatwg.org/#concept-node-insert> for one
    /// node of nodes.
    fn insert_one(&self, node: &Node, child: Option<&Node>) {
        bump_tree_version();
        // Step 7.1: Adopt node into parent's node document (its step 2: if
        // node's parent is non-null, then remove node).
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
        // Step 9: Run the children changed steps for parent.
        virtualmethods::children_changed(self);
        // Step 7.7: For each shadow-including inclusive descendant
        // inclusiveDescendant of node, in shadow-including tree order: run
        // the insertion steps with inclusiveDescendant (they apply when it
        // becomes connected). The subtree is connected as a whole before
        // any of them runs.
        if self.is_connected() {
            for inclusive_descendant in &subtree {
                inclusive_descendant.connected.set(true);
            }
            for inclusive_descendant in &subtree {
                virtualmethods::insertion_steps(inclusive_descendant);
            }
            // Step 11: For each shadow-including inclusive descendant of
            // node that is connected, in shadow-including tree order, run
            // the post-connection steps (those that run script are queued
            // here and run by `virtualmethods::run_post_connection_steps`
            // once the calling DOM method's mutations are done).
            for inclusive_descendant in &subtree {
                virtualmethods::post_connection_steps(inclusive_descendant);
            }
        }
    }

    /// <https://dom.spec.whatwg.org/#connected>: the root is a document.
    pub fn is_connected(&self) -> bool {
        self.connected.get()
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

    /// <https://dom.spec.whatwg.org/#concept-node-remove> (no ranges or
    /// node iterators).
    pub fn remove(&self, node: &Node) {
        self.remove_with(node, false)
    }

    /// <https://dom.spec.whatwg.org/#concept-node-remove>, with the
    /// suppress observers flag.
    fn remove_with(&self, node: &Node, suppress_observers: bool) {
        bump_tree_version();
        // Step 1: Let parent be node's parent. Step 2: Assert: parent is
        // non-null (the caller is the parent).
        let was_connected = self.is_connected();
        // "Let oldPreviousSibling be node's previous sibling. Let
        // oldNextSibling be node's next sibling."
        let observed = mutationobserver::any_registered() && !suppress_observers;
        let (old_previous, old_next) = if observed {
            (node.sibling(-1), node.sibling(1))
        } else {
            (None, None)
        };
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
        // "If suppress observers flag is unset, then queue a tree mutation
        // record for parent with « », « node », oldPreviousSibling, and
        // oldNextSibling."
        if observed {
            mutationobserver::queue_tree_mutation_record(
                self,
                &[],
                &[DomRoot::from_ref(node)],
                old_previous.as_deref(),
                old_next.as_deref(),
            );
        }
        // Step 14: add the transient registered observers of parent's
        // inclusive ancestors' subtree registrations to node.
        mutationobserver::add_transient_observers(self, node);
        // Step 21: Run the children changed steps for parent.
        virtualmethods::children_changed(self);
        // Steps 15-16: run the removing steps for node and each of its
        // shadow-including descendants, once the whole subtree is
        // disconnected.
        if was_connected {
            for inclusive_descendant in &subtree {
                inclusive_descendant.connected.set(false);
            }
            for inclusive_descendant in &subtree {
                virtualmethods::removing_steps(inclusive_descendant);
            }
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-node-replace> (no
    /// DocumentType).
    pub fn replace(&self, child: &Node, node: &Node) -> Fallible<DomRoot<Node>> {
        // Step 1-5: as "ensure pre-insertion validity" steps 1-5: the
        // parent's type, node not an inclusive ancestor of parent, child's
        // parent is parent ("NotFoundError"), node's type, no Text under a
        // document.
        self.ensure_insertion_steps_1_to_5(node, Some(child))?;
        // Step 6: If parent is a document, node is an element, and parent
        // has an element child that is not child: "HierarchyRequestError".
        if self.kind == NodeKind::Document {
            let other_element_child = self.children().iter().any(|c| {
                c.kind == NodeKind::Element
                    && !std::ptr::eq(&**c, child)
                    && !std::ptr::eq(&**c, node)
            });
            match node.kind {
                // DocumentFragment: more than one element child or a Text
                // child; or one element child and parent has an element
                // child that is not child.
                NodeKind::DocumentFragment => {
                    node.check_fragment_for_document(other_element_child)?
                }
                NodeKind::Element if other_element_child => {
                    return Err(Error::dom(DomExceptionName::HierarchyRequestError));
                }
                _ => {}
            }
        }
        // Step 7: Let referenceChild be child's next sibling.
        // Step 8: If referenceChild is node, then set referenceChild to
        // node's next sibling.
        let mut reference = child.next_sibling();
        if reference.as_deref().is_some_and(|r| std::ptr::eq(r, node)) {
            reference = node.next_sibling();
        }
        // Step 9: Let previousSibling be child's previous sibling.
        let previous_sibling = child.sibling(-1);
        // Step 10: Let removedNodes be the empty set.
        // Step 11: If child's parent is non-null: set removedNodes to
        // « child » and remove child with the suppress observers flag set.
        let removed = vec![DomRoot::from_ref(child)];
        self.remove_with(child, true);
        // Step 12: Let nodes be node's children if node is a
        // DocumentFragment node; otherwise « node ».
        let nodes = if node.kind == NodeKind::DocumentFragment {
            node.children()
        } else {
            vec![DomRoot::from_ref(node)]
        };
        // Step 13: Insert node into parent before referenceChild with the
        // suppress observers flag set.
        self.insert_with(node, reference.as_deref(), true);
        // Step 14: Queue a tree mutation record for parent with nodes,
        // removedNodes, previousSibling, and referenceChild.
        mutationobserver::queue_tree_mutation_record(
            self,
            &nodes,
            &removed,
            previous_sibling.as_deref(),
            reference.as_deref(),
        );
        // Step 15: Return child.
        Ok(DomRoot::from_ref(child))
    }

    /// Replaces all children with `node`
    /// (<https://dom.spec.whatwg.org/#concept-node-replace-all>).
    pub fn replace_all(&self, node: Option<&Node>) {
        // Step 1: live ranges (none here).
        // Step 2: Let removedNodes be parent's children.
        let removed = self.children();
        // Step 3: Let addedNodes be the empty set.
        // Step 4: If node is a DocumentFragment node, then set addedNodes
        // to node's children.
        // Step 5: Otherwise, if node is non-null, set addedNodes to « node ».
        let added = match node {
            Some(n) if n.kind == NodeKind::DocumentFragment => n.children(),
            Some(n) => vec![DomRoot::from_ref(n)],
            None => Vec::new(),
        };
        // Step 6: Remove all parent's children, in tree order, with the
        // suppress observers flag set.
        for child in &removed {
            self.remove_with(child, true);
        }
        // Step 7: If node is non-null, then insert node into parent before
        // null with the suppress observers flag set.
        if let Some(node) = node {
            self.insert_with(node, None, true);
        }
        // Step 8: If either addedNodes or removedNodes is not empty, then
        // queue a tree mutation record for parent with addedNodes,
        // removedNodes, null, and null.
        mutationobserver::queue_tree_mutation_record(self, &added, &removed, None, None);
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

    /// This node as an Attr.
    fn attr(&self) -> Option<DomRoot<Attr>> {
        self.root_ref().downcast::<Attr>()
    }

    /// This node as CharacterData (a Text or Comment node).
    pub fn character_data(&self) -> Option<DomRoot<CharacterData>> {
        self.root_ref().downcast::<CharacterData>()
    }

    /// <https://dom.spec.whatwg.org/#concept-node-clone> given this,
    /// `document` (this's node document when `None`) and `subtree`.
    /// Iterative over the subtree, so any depth clones without exhausting
    /// the stack.
    pub fn clone_node(
        &self,
        cx: &mut JSContext,
        document: Option<&Document>,
        subtree: bool,
    ) -> Fallible<DomRoot<Node>> {
        let root = self.clone_single_with_steps(cx, document, subtree)?;
        if subtree {
            // Step 5: If subtree is true, then for each child of node's
            // children, in tree order: clone a node given child with
            // document set to document, subtree set to subtree, and parent
            // set to copy (step 4: append copy to parent).
            let mut pending: Vec<(DomRoot<Node>, DomRoot<Node>)> = self
                .children()
                .into_iter()
                .rev()
                .map(|c| (c, root.clone()))
                .collect();
            while let Some((node, parent)) = pending.pop() {
                let copy = node.clone_single_with_steps(cx, document, subtree)?;
                parent.insert(&copy, None);
                pending.extend(node.children().into_iter().rev().map(|c| (c, copy.clone())));
            }
        }
        // Step 7: Return copy.
        Ok(root)
    }

    /// Steps 2-3 of <https://dom.spec.whatwg.org/#concept-node-clone>:
    /// clone a single node, then run the cloning steps of other
    /// specifications.
    fn clone_single_with_steps(
        &self,
        cx: &mut JSContext,
        document: Option<&Document>,
        subtree: bool,
    ) -> Fallible<DomRoot<Node>> {
        // Step 2: Let copy be the result of cloning a single node given
        // node and document.
        let copy = self.clone_single(cx, document)?;
        // Step 3: Run any cloning steps defined for node in other
        // applicable specifications and pass node, copy, and subtree.
        virtualmethods::cloning_steps(cx, self, &copy, subtree)?;
        Ok(copy)
    }

    /// <https://dom.spec.whatwg.org/#clone-a-single-node>
    fn clone_single(
        &self,
        cx: &mut JSContext,
        document: Option<&Document>,
    ) -> Fallible<DomRoot<Node>> {
        let document = match document {
            Some(d) => DomRoot::from_ref(d),
            None => match self.owner_doc() {
                Some(d) => d,
                None => {
                    // Cloning a Document (its own node document) is not
                    // supported here yet.
                    return Err(Error::dom_with_message(
                        DomExceptionName::NotSupportedError,
                        "cloning a Document is not supported",
                    ));
                }
            },
        };
        // Step 1: Let copy be null.
        let copy = match self.kind {
            // Step 2: If node is an element: set copy to the result of
            // creating an element, given document, node's local name,
            // node's namespace, node's namespace prefix, and node's is
            // value; for each attribute of node's attribute list, append a
            // clone of it to copy.
            NodeKind::Element => {
                let element = self.root_ref().downcast::<Element>().expect("an element");
                Element::create(
                    cx,
                    &document,
                    element.namespace(),
                    element.prefix(),
                    element.local_name(),
                    element.attribute_list(),
                )
                .upcast::<Node>()
            }
            // Step 3: Otherwise, set copy to a node that implements the
            // same interfaces as node: Text and Comment with node's data;
            // DocumentFragment with nothing more.
            NodeKind::Text => {
                let data = self.character_data().map(|c| c.data()).unwrap_or_default();
                Text::new(cx, self.global(), Some(&document), &data).upcast::<Node>()
            }
            NodeKind::Comment => {
                let data = self.character_data().map(|c| c.data()).unwrap_or_default();
                Comment::new(cx, &document, &data).upcast::<Node>()
            }
            NodeKind::DocumentFragment => DocumentFragment::new(cx, &document).upcast::<Node>(),
            // Attr: its namespace, prefix, local name, and value.
            NodeKind::Attribute => {
                let attr = self.attr().expect("an Attr");
                Attr::new(cx, &document, None, attr.name(), &attr.value()).upcast::<Node>()
            }
            NodeKind::Document => {
                return Err(Error::dom_with_message(
                    DomExceptionName::NotSupportedError,
                    "cloning a Document is not supported",
                ))
            }
        };
        // Step 6: Set copy's node document to document (done at creation).
        // Step 7: Return copy.
        Ok(copy)
    }

    /// <https://dom.spec.whatwg.org/#concept-node-equals> (iterative over
    /// both subtrees).
    pub fn equals(&self, other: &Node) -> bool {
        let mut pending = vec![(self.root_ref(), DomRoot::from_ref(other))];
        while let Some((a, b)) = pending.pop() {
            // A and B implement the same interfaces.
            if a.kind != b.kind {
                return false;
            }
            match a.kind {
                NodeKind::Element => {
                    let (Some(a), Some(b)) = (a.downcast::<Element>(), b.downcast::<Element>())
                    else {
                        return false;
                    };
                    // Element: namespace, namespace prefix, local name, and
                    // its attribute list's size; and each attribute in A's
                    // list has an attribute that equals an attribute in B's.
                    let (list_a, list_b) = (a.attribute_list(), b.attribute_list());
                    if a.namespace() != b.namespace()
                        || a.prefix() != b.prefix()
                        || a.local_name() != b.local_name()
                        || list_a.len() != list_b.len()
                        || !list_a.iter().all(|attr| list_b.contains(attr))
                    {
                        return false;
                    }
                }
                // Text, Comment: its data.
                NodeKind::Text | NodeKind::Comment => {
                    let data = |n: &Node| n.character_data().map(|c| c.data());
                    if data(&a) != data(&b) {
                        return false;
                    }
                }
                // Attr: its namespace, local name, and value.
                NodeKind::Attribute => {
                    let attr = |n: &Node| n.attr().map(|a| (a.name().to_owned(), a.value()));
                    if attr(&a) != attr(&b) {
                        return false;
                    }
                }
                NodeKind::Document | NodeKind::DocumentFragment => {}
            }
            // A and B have the same number of children, and each child of
            // A equals the child of B at the identical index.
            let (children_a, children_b) = (a.children(), b.children());
            if children_a.len() != children_b.len() {
                return false;
            }
            pending.extend(children_a.into_iter().zip(children_b));
        }
        true
    }

    /// The global this node's reflector lives in.
    pub fn global(&self) -> &GlobalScope {
        self.global_scope()
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
            NodeKind::DocumentFragment => 11,
            NodeKind::Attribute => 2,
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
            NodeKind::DocumentFragment => "#document-fragment".into(),
            // Attr: its qualified name.
            NodeKind::Attribute => self.attr().map(|a| a.name().to_owned()).unwrap_or_default(),
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
        // https://dom.spec.whatwg.org/#get-text-content
        match self.kind {
            // DocumentFragment, Element: the descendant text content of node.
            NodeKind::Element | NodeKind::DocumentFragment => Some(self.descendant_text_content()),
            // CharacterData: node's data.
            NodeKind::Text | NodeKind::Comment => self.character_data().map(|c| c.data()),
            // Attr: node's value.
            NodeKind::Attribute => self.attr().map(|a| a.value()),
            // Otherwise: null.
            NodeKind::Document => None,
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-node-textcontent>: string replace
    /// all for elements, replace data for text.
    fn SetTextContent(&self, cx: &mut JSContext, value: Option<DOMString>) -> Fallible<()> {
        // https://dom.spec.whatwg.org/#set-text-content (null is the empty
        // string).
        let value = value.unwrap_or_default();
        match self.kind {
            // DocumentFragment, Element: string replace all with value
            // within node.
            NodeKind::Element | NodeKind::DocumentFragment => {
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
            // CharacterData: replace data with node node, offset 0, count
            // node's length, and data value.
            NodeKind::Text | NodeKind::Comment => {
                if let Some(data) = self.character_data() {
                    data.replace_data(0, data.length(), &value)?;
                }
            }
            // Attr: set an existing attribute value with node and value.
            NodeKind::Attribute => {
                if let Some(attr) = self.attr() {
                    attr.SetValue(cx, value)?;
                }
            }
            // Otherwise: do nothing.
            NodeKind::Document => {}
        }
        virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-nodevalue>: a CharacterData
    /// node's data; otherwise null (no Attr nodes here).
    fn NodeValue(&self, _cx: &mut JSContext) -> Option<DOMString> {
        // Attr: this's value.
        if let Some(attr) = self.attr() {
            return Some(attr.value());
        }
        // CharacterData: this's data. Otherwise: null.
        self.character_data().map(|c| c.data())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-nodevalue>
    fn SetNodeValue(&self, cx: &mut JSContext, value: Option<DOMString>) -> Fallible<()> {
        // If the given value is null, act as if it was the empty string
        // instead, and then do as described below, switching on the
        // interface this implements: CharacterData: replace data with node
        // this, offset 0, count this's length, and data the given value.
        // Otherwise: do nothing. (Attr: set an existing attribute value
        // with this and the given value.)
        if let Some(attr) = self.attr() {
            attr.SetValue(cx, value.unwrap_or_default())?;
            return Ok(());
        }
        if let Some(data) = self.character_data() {
            data.replace_data(0, data.length(), &value.unwrap_or_default())?;
            virtualmethods::run_post_connection_steps(cx);
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-isconnected>: whether this
    /// is connected (its shadow-including root is a document).
    fn IsConnected(&self, _cx: &mut JSContext) -> bool {
        self.is_connected()
    }

    /// <https://dom.spec.whatwg.org/#dom-node-baseuri>
    fn BaseURI(&self, _cx: &mut JSContext) -> USVString {
        // Return this's node document's document base URL, serialized
        // (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url>:
        // its first `base` element's, else the document's URL).
        let document = match self.kind {
            NodeKind::Document => self.root_ref().downcast::<Document>(),
            _ => self.owner_doc(),
        };
        USVString(
            document
                .map(|d| d.base_url().to_string())
                .unwrap_or_default(),
        )
    }

    /// <https://dom.spec.whatwg.org/#dom-node-clonenode>
    fn CloneNode(&self, cx: &mut JSContext, deep: bool) -> Fallible<DomRoot<Node>> {
        // Step 1: If this is a shadow root, then throw a
        // "NotSupportedError" DOMException (no shadow roots here).
        // Step 2: Return the result of cloning a node given this with
        // subtree set to subtree.
        self.clone_node(cx, None, deep)
    }

    /// <https://dom.spec.whatwg.org/#dom-node-isequalnode>: true if
    /// otherNode is non-null and this equals otherNode; otherwise false.
    fn IsEqualNode(&self, _cx: &mut JSContext, other: Option<DomRoot<Node>>) -> Fallible<bool> {
        Ok(other.is_some_and(|o| self.equals(&o)))
    }

    /// <https://dom.spec.whatwg.org/#dom-node-issamenode>: true if
    /// otherNode is this; otherwise false.
    fn IsSameNode(&self, _cx: &mut JSContext, other: Option<DomRoot<Node>>) -> Fallible<bool> {
        Ok(other.is_some_and(|o| std::ptr::eq(&*o, self)))
    }

    /// <https://dom.spec.whatwg.org/#dom-node-haschildnodes>
    fn HasChildNodes(&self, _cx: &mut JSContext) -> Fallible<bool> {
        Ok(!self.children.borrow().is_empty())
    }

    /// <https://dom.spec.whatwg.org/#dom-node-childnodes>: a NodeList
    /// rooted at this matching only children (the same object each time).
    fn ChildNodes(&self, cx: &mut JSContext) -> DomRoot<NodeList> {
        self.child_nodes
            .or_init(|| NodeList::new_children(cx, self))
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
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-node-appendchild>
    fn AppendChild(&self, cx: &mut JSContext, node: DomRoot<Node>) -> Fallible<DomRoot<Node>> {
        let result = self.append(&node);
        virtualmethods::run_post_connection_steps(cx);
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
        virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// <https://dom.spec.whatwg.org/#dom-node-removechild>
    fn RemoveChild(&self, cx: &mut JSContext, child: DomRoot<Node>) -> Fallible<DomRoot<Node>> {
        let result = self.pre_remove(&child);
        virtualmethods::run_post_connection_steps(cx);
        result
    }
}
