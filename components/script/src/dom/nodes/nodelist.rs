//! `NodeList` (<https://dom.spec.whatwg.org/#interface-nodelist>): a static
//! list (a mutation record's added and removed nodes) or a live view of a
//! node's children (<https://dom.spec.whatwg.org/#dom-node-childnodes>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::NodeListBinding::NodeListMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::node::Node;

/// What a list holds.
#[derive(JSTraceable)]
enum NodeListKind {
    /// A snapshot, fixed at creation.
    Static(Vec<Dom<Node>>),
    /// The children of a node, read at each access.
    Children(Dom<Node>),
}

#[derive(JSTraceable)]
pub struct NodeList {
    pub(crate) reflector: Reflector,
    kind: NodeListKind,
}

impl NodeList {
    /// A static list of `nodes`.
    pub fn new_static(
        cx: &mut JSContext,
        global: &GlobalScope,
        nodes: &[DomRoot<Node>],
    ) -> DomRoot<NodeList> {
        let kind = NodeListKind::Static(nodes.iter().map(|n| Dom::from_ref(&**n)).collect());
        Self::new(cx, global, kind)
    }

    /// The live list of `node`'s children.
    pub fn new_children(cx: &mut JSContext, node: &Node) -> DomRoot<NodeList> {
        Self::new(
            cx,
            node.global(),
            NodeListKind::Children(Dom::from_ref(node)),
        )
    }

    fn new(cx: &mut JSContext, global: &GlobalScope, kind: NodeListKind) -> DomRoot<NodeList> {
        reflect_dom_object(
            cx,
            global,
            Box::new(NodeList {
                reflector: Reflector::new(),
                kind,
            }),
            None,
        )
    }

    /// The nodes now in the list, rooted.
    pub fn nodes(&self) -> Vec<DomRoot<Node>> {
        match &self.kind {
            NodeListKind::Static(nodes) => nodes.iter().map(Dom::root).collect(),
            NodeListKind::Children(node) => node.root().children(),
        }
    }
}

impl NodeListMethods for NodeList {
    /// <https://dom.spec.whatwg.org/#dom-nodelist-item>: the indexth node
    /// in the collection, or null if there is none.
    fn Item(&self, cx: &mut JSContext, index: u32) -> Fallible<Option<DomRoot<Node>>> {
        Ok(self.IndexedGetter(cx, index))
    }

    fn IndexedGetter(&self, _cx: &mut JSContext, index: u32) -> Option<DomRoot<Node>> {
        match &self.kind {
            NodeListKind::Static(nodes) => nodes.get(index as usize).map(Dom::root),
            NodeListKind::Children(node) => node.root().child_at(index as usize),
        }
    }

    /// The supported property indices: the numbers in the range zero to
    /// one less than the number of nodes represented by the collection.
    fn SupportedIndexCount(&self, cx: &mut JSContext) -> u32 {
        self.Length(cx)
    }

    /// <https://dom.spec.whatwg.org/#dom-nodelist-length>: the number of
    /// nodes in the collection.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        match &self.kind {
            NodeListKind::Static(nodes) => nodes.len() as u32,
            NodeListKind::Children(node) => node.root().child_count() as u32,
        }
    }
}
