//! `DOMImplementation` (<https://dom.spec.whatwg.org/#interface-domimplementation>):
//! `document.implementation`, whose `createHTMLDocument()` libraries use to
//! parse markup in a document that runs nothing (jQuery's support tests and
//! `parseHTML`).
//!
//! Not built: `createDocumentType()` and `createDocument()`, which need
//! DocumentType nodes and XML documents the shell does not have; so a
//! document made here has no doctype child (step 3 below).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::DOMImplementationBinding::DOMImplementationMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::text::Text;

#[derive(JSTraceable)]
pub struct DOMImplementation {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#dom-domimplementation-document>:
    /// the document this object is associated with.
    document: Dom<Document>,
}

impl DOMImplementation {
    /// The `DOMImplementation` of `document` (made once: `implementation`
    /// is `[SameObject]`).
    pub fn new(cx: &mut JSContext, document: &Document) -> DomRoot<DOMImplementation> {
        let global = document.upcast_node().global();
        reflect_dom_object(
            cx,
            global,
            Box::new(DOMImplementation {
                reflector: Reflector::new(),
                document: Dom::from_ref(document),
            }),
            None,
        )
    }
}

impl DOMImplementationMethods for DOMImplementation {
    /// <https://dom.spec.whatwg.org/#dom-domimplementation-createhtmldocument>
    fn CreateHTMLDocument(
        &self,
        cx: &mut JSContext,
        title: Option<DOMString>,
    ) -> Fallible<DomRoot<Document>> {
        let creator = self.document.root();
        let global = creator.upcast_node().global();
        // Step 1: Let doc be a new document that is an HTML document (with
        // no browsing context: nothing in it loads or runs).
        // Step 2: Set doc's content type to "text/html".
        // Step 8: doc's origin is this's associated document's origin (the
        // URL "about:blank" of a document without a browsing context; its
        // origin is its creator's realm's).
        let url = url::Url::parse("about:blank").expect("a valid URL");
        let doc = Document::new(cx, global, url);
        // Step 3: Append a new doctype, with "html" as its name and with
        // its node document set to doc, to doc. (Not done: no DocumentType
        // nodes; see the module comment.)
        // Step 4: Append the result of creating an element given doc,
        // "html", and the HTML namespace, to doc.
        let html = Element::create(cx, &doc, Some(HTML_NAMESPACE), None, "html", Vec::new());
        doc.upcast_node().insert(html.upcast_node(), None);
        // Step 5: Append the result of creating an element given doc,
        // "head", and the HTML namespace, to the html element created
        // earlier.
        let head = Element::create(cx, &doc, Some(HTML_NAMESPACE), None, "head", Vec::new());
        html.upcast_node().insert(head.upcast_node(), None);
        // Step 6: If title is given:
        if let Some(title) = title {
            // Step 6.1: Append the result of creating an element given doc,
            // "title", and the HTML namespace, to the head element.
            let element =
                Element::create(cx, &doc, Some(HTML_NAMESPACE), None, "title", Vec::new());
            head.upcast_node().insert(element.upcast_node(), None);
            // Step 6.2: Append a new Text node, with its data set to title
            // (which could be the empty string) and its node document set to
            // doc, to the title element created earlier.
            let text = Text::new(cx, global, Some(&doc), &title);
            element.upcast_node().insert(text.upcast_node(), None);
        }
        // Step 7: Append the result of creating an element given doc,
        // "body", and the HTML namespace, to the html element created
        // earlier.
        let body = Element::create(cx, &doc, Some(HTML_NAMESPACE), None, "body", Vec::new());
        html.upcast_node().insert(body.upcast_node(), None);
        // Step 9: Return doc.
        Ok(doc)
    }

    /// <https://dom.spec.whatwg.org/#dom-domimplementation-hasfeature>:
    /// return true.
    fn HasFeature(&self, _cx: &mut JSContext) -> Fallible<bool> {
        Ok(true)
    }
}
