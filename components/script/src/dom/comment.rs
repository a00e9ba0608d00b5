//! `Comment` (<https://dom.spec.whatwg.org/#interface-comment>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::CommentBinding::CommentMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::characterdata::CharacterData;
use crate::dom::document::Document;
use crate::dom::globalscope::GlobalScope;
use crate::dom::node::{Node, NodeKind};

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

    fn new_with_proto(
        cx: &mut JSContext,
        global: &GlobalScope,
        document: Option<&Document>,
        data: &str,
        proto: Option<HandleObject>,
    ) -> DomRoot<Comment> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Comment {
                characterdata: CharacterData::new_inherited(NodeKind::Comment, document, data),
            }),
            proto,
        )
    }

    pub fn upcast_node(&self) -> &Node {
        self.characterdata.upcast_node()
    }
}

impl CommentMethods for Comment {
    /// <https://dom.spec.whatwg.org/#dom-comment-comment>: a new Comment
    /// node whose data is data and node document is the current global
    /// object's associated Document.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        data: DOMString,
    ) -> Fallible<DomRoot<Comment>> {
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
