//! `Comment` (<https://dom.spec.whatwg.org/#interface-comment>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::CommentBinding::CommentMethods;
use crate::dom::bindings::root::DomRoot;
use crate::dom::nodes::characterdata::CharacterData;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::node::{Node, NodeKind};

#[derive(JSTraceable)]
pub struct Comment {
    characterdata: CharacterData,
}

impl AsRef<CharacterData> for Comment {
    fn as_ref(&self) -> &CharacterData {
        &self.characterdata
    }
}

impl Comment {
    /// A new comment node whose data is `data` and node document is
    /// `document` (<https://dom.spec.whatwg.org/#dom-document-createcomment>,
    /// the parser's comments).
    pub fn new(cx: &mut JSContext, document: &Document, data: &str) -> DomRoot<Comment> {
        let global = document.upcast_node().global();
        Self::new_with_proto(cx, global, Some(document), data, None)
    }

    pub fn upcast_node(&self) -> &Node {
        self.characterdata.upcast_node()
    }
}

crate::character_data_node!(
    Comment,
    CommentMethods,
    NodeKind::Comment,
    /// <https://dom.spec.whatwg.org/#dom-comment-comment>: a new Comment
    /// node whose data is data and node document is the current global
    /// object's associated Document.
);
