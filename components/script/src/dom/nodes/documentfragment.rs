//! `DocumentFragment` (<https://dom.spec.whatwg.org/#interface-documentfragment>):
//! a parentless container whose children move, not itself, when it is
//! inserted (see `Node::insert`). Also the template contents of
//! `<template>` and the result of HTML fragment parsing.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::DocumentFragmentBinding::DocumentFragmentMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::node::{Node, NodeKind};

#[derive(JSTraceable)]
pub struct DocumentFragment {
    node: Node,
}

impl AsRef<Node> for DocumentFragment {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

impl DocumentFragment {
    /// A new, empty fragment whose node document is `document`.
    pub fn new(cx: &mut JSContext, document: &Document) -> DomRoot<DocumentFragment> {
        let global = document.upcast_node().global();
        Self::new_with_proto(cx, global, Some(document), None)
    }

    fn new_with_proto(
        cx: &mut JSContext,
        global: &GlobalScope,
        document: Option<&Document>,
        proto: Option<HandleObject>,
    ) -> DomRoot<DocumentFragment> {
        reflect_dom_object(
            cx,
            global,
            Box::new(DocumentFragment {
                node: Node::new_inherited(NodeKind::DocumentFragment, document),
            }),
            proto,
        )
    }

    pub fn upcast_node(&self) -> &Node {
        &self.node
    }
}

impl DocumentFragmentMethods for DocumentFragment {
    /// <https://dom.spec.whatwg.org/#dom-documentfragment-documentfragment>:
    /// set this's node document to current global object's associated
    /// Document.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<DocumentFragment>> {
        let document = global.as_window().map(|w| w.document(cx));
        Ok(Self::new_with_proto(cx, global, document.as_deref(), proto))
    }

    crate::non_element_parent_node_methods!();

    crate::parent_node_methods!();
}
