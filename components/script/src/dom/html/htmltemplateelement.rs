//! `HTMLTemplateElement`
//! (<https://html.spec.whatwg.org/multipage/scripting.html#the-template-element>):
//! its template contents, a `DocumentFragment` in the document's
//! appropriate template contents owner document, hold what the parser
//! puts inside `<template>`.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLTemplateElementBinding::HTMLTemplateElementMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::element::Element;
use crate::dom::nodes::node::Node;

#[derive(JSTraceable)]
pub struct HTMLTemplateElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#template-contents>
    /// (set once, right after the element is created).
    contents: MutNullableDom<DocumentFragment>,
}

impl AsRef<HTMLElement> for HTMLTemplateElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLTemplateElement {
    pub fn new_inherited(element: Element) -> HTMLTemplateElement {
        HTMLTemplateElement {
            htmlelement: HTMLElement::new_inherited(element),
            contents: MutNullableDom::default(),
        }
    }

    /// "When a template element is created, the user agent must run the
    /// following steps to establish the template contents": let doc be
    /// the template element's node document's appropriate template
    /// contents owner document; create a DocumentFragment object whose
    /// node document is doc and host is the template element; set the
    /// template element's template contents to the newly created
    /// DocumentFragment object.
    pub fn establish_template_contents(&self, cx: &mut JSContext, document: &Document) {
        let owner = document.appropriate_template_contents_owner_document(cx);
        let fragment = DocumentFragment::new(cx, &owner);
        self.contents.set(Some(&fragment));
    }

    /// <https://html.spec.whatwg.org/multipage/scripting.html#template-contents>
    pub fn contents(&self) -> DomRoot<DocumentFragment> {
        self.contents
            .get()
            .expect("template contents are established at creation")
    }
}

impl HTMLTemplateElementMethods for HTMLTemplateElement {
    /// <https://html.spec.whatwg.org/multipage/scripting.html#dom-template-content>:
    /// return this's template contents (no declarative shadow roots).
    fn Content(&self, _cx: &mut JSContext) -> DomRoot<DocumentFragment> {
        self.contents()
    }
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#the-template-element>:
/// the template element's steps in the DOM's tree algorithms.
impl crate::dom::nodes::virtualmethods::VirtualMethods for HTMLTemplateElement {
    /// The cloning steps for template elements given node, copy, and
    /// subtree.
    fn cloning_steps(&self, cx: &mut JSContext, copy: &Node, subtree: bool) -> Fallible<()> {
        let Some(copy) = copy.root_ref().downcast::<HTMLTemplateElement>() else {
            return Ok(());
        };
        // Step 1: If subtree is false, then return.
        if !subtree {
            return Ok(());
        }
        // Step 2: For each child of node's template contents's children, in
        // tree order: clone a node given child with document set to copy's
        // template contents's node document, subtree set to true, and parent
        // set to copy's template contents.
        let contents = copy.contents();
        let document = contents.upcast_node().owner_doc();
        for child in self.contents().upcast_node().children() {
            let clone = child.clone_node(cx, document.as_deref(), true)?;
            contents.upcast_node().insert(&clone, None);
        }
        Ok(())
    }

    fn template_contents(&self) -> Option<DomRoot<DocumentFragment>> {
        Some(self.contents())
    }
}
