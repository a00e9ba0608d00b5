//! Cloning a node (<https://dom.spec.whatwg.org/#concept-node-clone>),
//! with each element's cloning steps.

use mozjs::context::JSContext;

use super::{Node, NodeKind};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::root::DomRoot;
use crate::dom::nodes::attr::Attr;
use crate::dom::nodes::comment::Comment;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::text::Text;
use crate::dom::nodes::virtualmethods;

impl Node {
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
}
