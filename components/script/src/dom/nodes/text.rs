//! `Text` (<https://dom.spec.whatwg.org/#interface-text>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::TextBinding::TextMethods;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::characterdata::CharacterData;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::node::{Node, NodeKind};

#[derive(JSTraceable)]
pub struct Text {
    characterdata: CharacterData,
}

impl AsRef<CharacterData> for Text {
    fn as_ref(&self) -> &CharacterData {
        &self.characterdata
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

    pub fn data(&self) -> String {
        self.characterdata.data()
    }

    /// Appends to the data (the parser's text insertion).
    pub fn append_data(&self, data: &str) {
        self.characterdata.append_data_silently(data);
    }

    pub fn upcast_node(&self) -> &Node {
        self.characterdata.upcast_node()
    }
}

crate::character_data_node!(
    Text,
    TextMethods,
    NodeKind::Text,
    /// <https://dom.spec.whatwg.org/#dom-text-text>: a new Text node whose
    /// data is data and node document is the current global's associated
    /// Document.
);
