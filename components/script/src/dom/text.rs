//! `Text` (<https://dom.spec.whatwg.org/#interface-text>).

use std::cell::RefCell;

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TextBinding::TextMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::document::Document;
use crate::dom::globalscope::GlobalScope;
use crate::dom::node::{Node, NodeKind};

pub struct Text {
    node: Node,
    /// <https://dom.spec.whatwg.org/#concept-cd-data>
    data: RefCell<String>,
}

impl AsRef<Node> for Text {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

unsafe impl Traceable for Text {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.node.trace(trc) }
    }
}

impl Text {
    pub fn new(
        cx: &mut JSContext,
        global: &GlobalScope,
        document: Option<&Document>,
        data: &str,
    ) -> DomRoot<Text> {
        Self::new_with_proto(cx, global, document, data, None)
    }

    fn new_with_proto(
        cx: &mut JSContext,
        global: &GlobalScope,
        document: Option<&Document>,
        data: &str,
        proto: Option<HandleObject>,
    ) -> DomRoot<Text> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Text {
                node: Node::new_inherited(NodeKind::Text, document),
                data: RefCell::new(data.to_owned()),
            }),
            proto,
        )
    }

    pub fn data(&self) -> String {
        self.data.borrow().clone()
    }

    pub fn set_data(&self, data: &str) {
        *self.data.borrow_mut() = data.to_owned();
    }

    /// Appends to the data (the parser's text insertion).
    pub fn append_data(&self, data: &str) {
        self.data.borrow_mut().push_str(data);
    }

    pub fn upcast_node(&self) -> &Node {
        &self.node
    }
}

impl TextMethods for Text {
    /// <https://dom.spec.whatwg.org/#dom-characterdata-data>
    fn Data(&self, _cx: &mut JSContext) -> DOMString {
        self.data()
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-data>: replace data
    /// with node this, offset 0, count this's length, and data the new value.
    fn SetData(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.set_data(&value);
        // https://dom.spec.whatwg.org/#concept-cd-replace step 12: If
        // node's parent is non-null, then run the children changed steps
        // for node's parent.
        if let Some(parent) = self.node.parent() {
            crate::script_element::children_changed(&parent);
            crate::script_element::run_post_connection_steps(cx);
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-characterdata-length>: the length
    /// in UTF-16 code units.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.data.borrow().encode_utf16().count() as u32
    }

    /// <https://dom.spec.whatwg.org/#dom-text-text>: a new Text node whose
    /// data is data and node document is the current global's associated
    /// Document.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        data: DOMString,
    ) -> Fallible<DomRoot<Text>> {
        let document = global.as_window().map(|w| w.document(cx));
        Ok(Self::new_with_proto(
            cx,
            global,
            document.as_deref(),
            &data,
            proto,
        ))
    }
}
