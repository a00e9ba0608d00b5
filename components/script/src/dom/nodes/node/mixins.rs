//! The `ParentNode` (<https://dom.spec.whatwg.org/#interface-parentnode>)
//! and `ChildNode` (<https://dom.spec.whatwg.org/#interface-childnode>)
//! mixin methods on `Node`: `children`, `prepend`, `append`,
//! `replaceChildren`, `before`, `after`, `replaceWith`, and the element
//! children and siblings.

use mozjs::context::JSContext;

use super::{Node, NodeKind};
use crate::dom::bindings::codegen::NodeOrString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::htmlcollection::{CollectionFilter, HTMLCollection};
use crate::dom::nodes::text::Text;
use crate::dom::nodes::virtualmethods;

impl Node {
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
}
