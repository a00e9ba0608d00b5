//! `Node` (<https://dom.spec.whatwg.org/#interface-node>): the tree. Every
//! node holds traced references to its parent and children, so a document
//! keeps its whole tree alive.
//!
//! The mutation algorithms (insert, remove, replace, replace all) queue
//! the mutation records of `dom::mutationobserver`; the binding methods
//! queue the mutation observer microtask once their mutations are done.
//!
//! This module holds the `Node` struct, its accessors, its registered
//! observer list and the `NodeMethods` binding; by concern, `mutation`
//! holds the tree mutation algorithms (pre-insert validity, insert,
//! remove, replace, replace all), `mixins` the `ParentNode` and
//! `ChildNode` mixin methods, `clone` cloning a node, and `traversal`
//! the tree walks and queries (descendants, siblings, text content,
//! equality).

mod clone;
mod mixins;
mod mutation;
mod traversal;

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::AttrBinding::AttrMethods;
use crate::dom::bindings::codegen::NodeBinding::NodeMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::{Dom, DomRoot, MutNullableDom};
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::attr::Attr;
use crate::dom::nodes::characterdata::CharacterData;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::htmlcollection::HTMLCollection;
use crate::dom::nodes::mutationobserver::{MutationObserver, ObserverOptions, RegisteredObserver};
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
    /// <https://dom.spec.whatwg.org/#connected>: the root is a document.
    pub fn is_connected(&self) -> bool {
        self.connected.get()
    }
    /// This node as an Attr.
    fn attr(&self) -> Option<DomRoot<Attr>> {
        self.root_ref().downcast::<Attr>()
    }

    /// This node as CharacterData (a Text or Comment node).
    pub fn character_data(&self) -> Option<DomRoot<CharacterData>> {
        self.root_ref().downcast::<CharacterData>()
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
