//! The tree mutation algorithms of `Node`
//! (<https://dom.spec.whatwg.org/#mutation-algorithms>): ensure
//! pre-insert validity, pre-insert, insert, append, pre-remove, remove,
//! replace and replace all, with the mutation records, the connected and
//! depth bookkeeping, and the insertion, removing and post-connection
//! steps they run.

use super::{bump_tree_version, Node, NodeKind};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::nodes::document::Document;
use crate::dom::nodes::mutationobserver::{self};
use crate::dom::nodes::virtualmethods;

impl Node {
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
    pub(super) fn ensure_pre_insert_validity(
        &self,
        node: &Node,
        child: Option<&Node>,
    ) -> Fallible<()> {
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
}
