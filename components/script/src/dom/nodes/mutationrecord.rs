//! `MutationRecord` (<https://dom.spec.whatwg.org/#interface-mutationrecord>):
//! the script-visible form of a record a mutation observer queued. The
//! record itself is [`PendingRecord`] (plain data, traced by its
//! observer), made while a mutation algorithm runs without a JS context;
//! it becomes a `MutationRecord` object when delivered or taken.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::MutationRecordBinding::MutationRecordMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot, MutNullableDom};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::node::Node;
use crate::dom::nodes::nodelist::NodeList;

/// A queued record (<https://dom.spec.whatwg.org/#queue-a-mutation-record>
/// step 4.1's fields).
#[derive(JSTraceable)]
pub struct PendingRecord {
    pub kind: &'static str,
    pub target: Dom<Node>,
    pub attribute_name: Option<String>,
    pub attribute_namespace: Option<String>,
    pub old_value: Option<String>,
    pub added: Vec<Dom<Node>>,
    pub removed: Vec<Dom<Node>>,
    pub previous_sibling: Option<Dom<Node>>,
    pub next_sibling: Option<Dom<Node>>,
}

#[derive(JSTraceable)]
pub struct MutationRecord {
    pub(crate) reflector: Reflector,
    kind: &'static str,
    target: Dom<Node>,
    added: Dom<NodeList>,
    removed: Dom<NodeList>,
    previous_sibling: MutNullableDom<Node>,
    next_sibling: MutNullableDom<Node>,
    attribute_name: Option<String>,
    attribute_namespace: Option<String>,
    old_value: Option<String>,
}

impl MutationRecord {
    /// The `MutationRecord` object of `record`, in `global`.
    pub fn from_pending(
        cx: &mut JSContext,
        global: &GlobalScope,
        record: &PendingRecord,
    ) -> DomRoot<MutationRecord> {
        let added: Vec<DomRoot<Node>> = record.added.iter().map(Dom::root).collect();
        let removed: Vec<DomRoot<Node>> = record.removed.iter().map(Dom::root).collect();
        let added = NodeList::new_static(cx, global, &added);
        let removed = NodeList::new_static(cx, global, &removed);
        let previous = record.previous_sibling.as_ref().map(Dom::root);
        let next = record.next_sibling.as_ref().map(Dom::root);
        reflect_dom_object(
            cx,
            global,
            Box::new(MutationRecord {
                reflector: Reflector::new(),
                kind: record.kind,
                target: Dom::from_ref(&*record.target.root()),
                added: Dom::from_ref(&*added),
                removed: Dom::from_ref(&*removed),
                previous_sibling: MutNullableDom::new(previous.as_deref()),
                next_sibling: MutNullableDom::new(next.as_deref()),
                attribute_name: record.attribute_name.clone(),
                attribute_namespace: record.attribute_namespace.clone(),
                old_value: record.old_value.clone(),
            }),
            None,
        )
    }
}

impl MutationRecordMethods for MutationRecord {
    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-type>
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.kind.to_owned()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-target>
    fn Target(&self, _cx: &mut JSContext) -> DomRoot<Node> {
        self.target.root()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-addednodes>
    fn AddedNodes(&self, _cx: &mut JSContext) -> DomRoot<NodeList> {
        self.added.root()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-removednodes>
    fn RemovedNodes(&self, _cx: &mut JSContext) -> DomRoot<NodeList> {
        self.removed.root()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-previoussibling>
    fn PreviousSibling(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.previous_sibling.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-nextsibling>
    fn NextSibling(&self, _cx: &mut JSContext) -> Option<DomRoot<Node>> {
        self.next_sibling.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-attributename>
    fn AttributeName(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.attribute_name.clone()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-attributenamespace>
    fn AttributeNamespace(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.attribute_namespace.clone()
    }

    /// <https://dom.spec.whatwg.org/#dom-mutationrecord-oldvalue>
    fn OldValue(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.old_value.clone()
    }
}
