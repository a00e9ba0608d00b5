//! Tree walks and queries on `Node`: children by index, siblings,
//! ancestors, descendants in tree order, text content of descendants and
//! children, and node equality.

use super::{Node, NodeKind};
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::nodes::element::Element;
use crate::dom::nodes::text::Text;

impl Node {
    /// The child at `index`, if any.
    pub fn child_at(&self, index: usize) -> Option<DomRoot<Node>> {
        self.children.borrow().get(index).map(Dom::root)
    }

    /// The number of children.
    pub fn child_count(&self) -> usize {
        self.children.borrow().len()
    }
    /// The child before `child` (a child of `self`), rooting only that one.
    pub fn child_before(&self, child: &Node) -> Option<DomRoot<Node>> {
        let children = self.children.borrow();
        let index = children
            .iter()
            .position(|c| c.reflector_object() == child.reflector().get_jsobject())?;
        index.checked_sub(1).map(|i| children[i].root())
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
    pub(super) fn sibling(&self, offset: isize) -> Option<DomRoot<Node>> {
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
}
