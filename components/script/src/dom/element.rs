//! `Element` (<https://dom.spec.whatwg.org/#interface-element>) and
//! "create an element" (the interface table is in
//! [`crate::dom::element_interface`], selector matching in
//! [`crate::dom::selectors`]).

use std::cell::RefCell;

use html5ever::{LocalName, Namespace};
use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::ElementBinding::ElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::document::Document;
use crate::dom::domrect::DOMRect;
use crate::dom::domtokenlist::DOMTokenList;
use crate::dom::htmliframeelement::HTMLIFrameElement;
use crate::dom::node::{Node, NodeKind};

/// The HTML namespace.
pub const HTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";

pub struct Element {
    node: Node,
    /// <https://dom.spec.whatwg.org/#concept-element-namespace> (the
    /// empty atom for null). Atoms, so the parser compares names without
    /// allocating.
    namespace: Namespace,
    /// <https://dom.spec.whatwg.org/#concept-element-namespace-prefix>
    prefix: Option<String>,
    /// <https://dom.spec.whatwg.org/#concept-element-local-name>
    local_name: LocalName,
    /// <https://dom.spec.whatwg.org/#concept-element-attribute> (qualified
    /// name, value), in order.
    attributes: RefCell<Vec<(String, String)>>,
    /// <https://dom.spec.whatwg.org/#dom-element-classlist>'s
    /// `DOMTokenList`, made on first use.
    class_list: MutNullableDom<DOMTokenList>,
}

impl AsRef<Node> for Element {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

unsafe impl Traceable for Element {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe {
            self.node.trace(trc);
            self.class_list.trace(trc);
        }
    }
}

impl Element {
    pub fn new_inherited(
        document: &Document,
        namespace: Option<&str>,
        prefix: Option<&str>,
        local_name: &str,
    ) -> Element {
        Element {
            node: Node::new_inherited(NodeKind::Element, Some(document)),
            namespace: Namespace::from(namespace.unwrap_or_default()),
            prefix: prefix.map(str::to_owned),
            local_name: LocalName::from(local_name),
            attributes: RefCell::new(Vec::new()),
            class_list: MutNullableDom::default(),
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-create-element> (no custom
    /// elements): the interface comes from the table in
    /// [`crate::dom::element_interface`].
    pub fn create(
        cx: &mut JSContext,
        document: &Document,
        namespace: Option<&str>,
        prefix: Option<&str>,
        local_name: &str,
        attributes: Vec<(String, String)>,
    ) -> DomRoot<Element> {
        let element =
            crate::dom::element_interface::create(cx, document, namespace, prefix, local_name);
        // "Create an element" leaves attributes to its caller (the
        // parser's "create an element for a token" appends each, which
        // runs their change steps).
        let names: Vec<(String, String)> = attributes.clone();
        *element.attributes.borrow_mut() = attributes;
        for (name, value) in names {
            element.attribute_changed(&name, Some(&value));
        }
        element
    }

    /// The attribute change steps
    /// (<https://dom.spec.whatwg.org/#concept-element-attributes-change-ext>)
    /// of the specifications that define any for `name` (no namespace):
    /// HTML's event handler content attributes and `<iframe>`'s `src` and
    /// `srcdoc`.
    fn attribute_changed(&self, name: &str, value: Option<&str>) {
        crate::dom::eventtarget::event_handler_attribute_changed(self, name, value);
        crate::script_element::attribute_changed(self, name);
        if let Some(iframe) = DomRoot::from_ref(self).downcast::<HTMLIFrameElement>() {
            iframe.attribute_changed(name, value);
        }
        crate::dom::forms::attribute_changed(self, name, value);
    }

    pub fn upcast_node(&self) -> &Node {
        &self.node
    }

    pub fn local_name(&self) -> &str {
        &self.local_name
    }

    pub fn namespace(&self) -> Option<&str> {
        (!self.namespace.is_empty()).then_some(&*self.namespace)
    }

    pub fn namespace_atom(&self) -> &Namespace {
        &self.namespace
    }

    pub fn local_name_atom(&self) -> &LocalName {
        &self.local_name
    }

    pub fn is_html(&self, local_name: &str) -> bool {
        &*self.namespace == HTML_NAMESPACE && &*self.local_name == local_name
    }

    /// <https://dom.spec.whatwg.org/#concept-element-qualified-name>
    pub fn qualified_name(&self) -> String {
        match &self.prefix {
            Some(p) => format!("{p}:{}", self.local_name),
            None => self.local_name.to_string(),
        }
    }

    /// <https://dom.spec.whatwg.org/#element-html-uppercased-qualified-name>
    pub fn tag_name(&self) -> String {
        let name = self.qualified_name();
        if &*self.namespace == HTML_NAMESPACE {
            name.to_ascii_uppercase()
        } else {
            name
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-element-attributes-get-by-name>
    pub fn get_attribute(&self, name: &str) -> Option<String> {
        let name = self.normalize_attribute_name(name);
        self.attributes
            .borrow()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }

    /// <https://dom.spec.whatwg.org/#concept-element-attributes-set-value>
    pub fn set_attribute_value(&self, name: &str, value: &str) {
        let name = self.normalize_attribute_name(name);
        {
            let mut attributes = self.attributes.borrow_mut();
            match attributes.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => *v = value.to_owned(),
                None => attributes.push((name.clone(), value.to_owned())),
            }
        }
        // "Change an attribute" / "append an attribute": handle attribute
        // changes (the attribute change steps).
        self.attribute_changed(&name, Some(value));
    }

    /// <https://dom.spec.whatwg.org/#concept-element-attributes-remove-by-name>
    pub fn remove_attribute(&self, name: &str) {
        let name = self.normalize_attribute_name(name);
        let removed = {
            let mut attributes = self.attributes.borrow_mut();
            let before = attributes.len();
            attributes.retain(|(n, _)| *n != name);
            attributes.len() != before
        };
        // "Remove an attribute": handle attribute changes with null.
        if removed {
            self.attribute_changed(&name, None);
        }
    }

    /// Adds attributes that are not there yet (the parser's "add attrs if
    /// missing").
    pub fn add_attributes_if_missing(&self, attributes: Vec<(String, String)>) {
        for (name, value) in attributes {
            if self.get_attribute(&name).is_none() {
                self.attributes
                    .borrow_mut()
                    .push((name.clone(), value.clone()));
                self.attribute_changed(&name, Some(&value));
            }
        }
    }

    /// "If this is in the HTML namespace and its node document is an HTML
    /// document, then set qualifiedName to qualifiedName in ASCII
    /// lowercase."
    fn normalize_attribute_name(&self, name: &str) -> String {
        if &*self.namespace == HTML_NAMESPACE {
            name.to_ascii_lowercase()
        } else {
            name.to_owned()
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-getelementsbytagname>
    pub fn elements_by_tag_name(root: &Node, name: &str) -> Vec<DomRoot<Element>> {
        let lower = name.to_ascii_lowercase();
        root.element_descendants()
            .into_iter()
            .filter(|e| {
                // Step 1: If qualifiedName is "*", all descendant elements.
                name == "*"
                    // Step 2: HTML elements match the lowercased name,
                    // others the name as given.
                    || if &*e.namespace == HTML_NAMESPACE {
                        e.qualified_name() == lower
                    } else {
                        e.qualified_name() == name
                    }
            })
            .collect()
    }

    /// <https://dom.spec.whatwg.org/#scope-match-a-selectors-string>: the
    /// element descendants of `root` matching `selectors`, in tree order.
    pub fn query_selector_all(root: &Node, selectors: &str) -> Fallible<Vec<DomRoot<Element>>> {
        // Step 1: Let s be the result of parse a selector selectors.
        // Step 2: If s is failure, then throw a "SyntaxError" DOMException.
        let list = crate::dom::selectors::parse_selector(selectors)?;
        // Step 3: Return the result of match a selector against a tree with
        // s and node's root using scoping root node (the descendants of
        // node that match: :scope is node when it is an element).
        let scope = DomRoot::from_ref(root).downcast::<Element>();
        Ok(root
            .element_descendants()
            .into_iter()
            .filter(|e| crate::dom::selectors::matches(&list, e, scope.as_deref()))
            .collect())
    }
}

impl ElementMethods for Element {
    /// <https://dom.spec.whatwg.org/#dom-element-namespaceuri>
    fn NamespaceURI(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.namespace().map(str::to_owned)
    }

    /// <https://dom.spec.whatwg.org/#dom-element-prefix>
    fn Prefix(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.prefix.clone()
    }

    /// <https://dom.spec.whatwg.org/#dom-element-localname>
    fn LocalName(&self, _cx: &mut JSContext) -> DOMString {
        self.local_name.to_string()
    }

    /// <https://dom.spec.whatwg.org/#dom-element-tagname>
    fn TagName(&self, _cx: &mut JSContext) -> DOMString {
        self.tag_name()
    }

    /// <https://dom.spec.whatwg.org/#dom-element-id>: reflects `id`.
    fn Id(&self, _cx: &mut JSContext) -> DOMString {
        self.get_attribute("id").unwrap_or_default()
    }

    fn SetId(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.set_attribute_value("id", &value);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-classname>: reflects
    /// `class`.
    fn ClassName(&self, _cx: &mut JSContext) -> DOMString {
        self.get_attribute("class").unwrap_or_default()
    }

    fn SetClassName(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.set_attribute_value("class", &value);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-hasattributes>
    fn HasAttributes(&self, _cx: &mut JSContext) -> Fallible<bool> {
        Ok(!self.attributes.borrow().is_empty())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-getattributenames>
    fn GetAttributeNames(&self, _cx: &mut JSContext) -> Fallible<Vec<DOMString>> {
        Ok(self
            .attributes
            .borrow()
            .iter()
            .map(|(n, _)| n.clone())
            .collect())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-getattribute>
    fn GetAttribute(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<Option<DOMString>> {
        Ok(self.get_attribute(&name))
    }

    /// <https://dom.spec.whatwg.org/#dom-element-setattribute>
    fn SetAttribute(&self, cx: &mut JSContext, name: DOMString, value: DOMString) -> Fallible<()> {
        // Step 1: If qualifiedName is not a valid attribute local name,
        // then throw an "InvalidCharacterError" DOMException.
        if name.is_empty()
            || name
                .chars()
                .any(|c| c.is_ascii_whitespace() || matches!(c, '\0' | '/' | '=' | '>'))
        {
            return Err(Error::dom(DomExceptionName::InvalidCharacterError));
        }
        // Steps 2-5: lowercase for HTML; change or append.
        self.set_attribute_value(&name, &value);
        crate::script_element::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-removeattribute>
    fn RemoveAttribute(&self, cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        self.remove_attribute(&name);
        crate::script_element::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-childnode-remove>
    fn Remove(&self, cx: &mut JSContext) -> Fallible<()> {
        // Step 1: If this's parent is null, then return.
        // Step 2: Remove this.
        if let Some(parent) = self.upcast_node().parent() {
            parent.remove(self.upcast_node());
            crate::script_element::run_post_connection_steps(cx);
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-hasattribute>
    fn HasAttribute(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<bool> {
        Ok(self.get_attribute(&name).is_some())
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-queryselector>
    fn QuerySelector(
        &self,
        _cx: &mut JSContext,
        selectors: DOMString,
    ) -> Fallible<Option<DomRoot<Element>>> {
        Ok(Element::query_selector_all(&self.node, &selectors)?
            .into_iter()
            .next())
    }

    /// <https://dom.spec.whatwg.org/#dom-parentnode-queryselectorall>
    fn QuerySelectorAll(
        &self,
        _cx: &mut JSContext,
        selectors: DOMString,
    ) -> Fallible<Vec<DomRoot<Element>>> {
        Element::query_selector_all(&self.node, &selectors)
    }

    /// <https://dom.spec.whatwg.org/#dom-element-getelementsbytagname>
    fn GetElementsByTagName(
        &self,
        _cx: &mut JSContext,
        name: DOMString,
    ) -> Fallible<Vec<DomRoot<Element>>> {
        Ok(Element::elements_by_tag_name(&self.node, &name))
    }

    /// <https://dom.spec.whatwg.org/#dom-element-classlist>: a
    /// `DOMTokenList` whose associated attribute is `class`, the same
    /// object every time.
    fn ClassList(&self, cx: &mut JSContext) -> DomRoot<DOMTokenList> {
        if let Some(list) = self.class_list.get() {
            return list;
        }
        let list = DOMTokenList::new(cx, self, "class");
        self.class_list.set(Some(&list));
        list
    }

    /// <https://dom.spec.whatwg.org/#dom-element-matches>
    fn Matches(&self, _cx: &mut JSContext, selectors: DOMString) -> Fallible<bool> {
        // Step 1: Let s be the result of parse a selector from selectors.
        // Step 2: If s is failure, then throw a "SyntaxError" DOMException.
        let list = crate::dom::selectors::parse_selector(&selectors)?;
        // Step 3: If the result of match a selector against an element,
        // using s, this, and scoping root this, returns success, then
        // return true; otherwise, return false.
        Ok(crate::dom::selectors::matches(&list, self, Some(self)))
    }

    /// <https://dom.spec.whatwg.org/#dom-element-webkitmatchesselector>:
    /// must run the matches() method steps.
    fn WebkitMatchesSelector(&self, cx: &mut JSContext, selectors: DOMString) -> Fallible<bool> {
        self.Matches(cx, selectors)
    }

    /// <https://dom.spec.whatwg.org/#dom-element-closest>
    fn Closest(
        &self,
        _cx: &mut JSContext,
        selectors: DOMString,
    ) -> Fallible<Option<DomRoot<Element>>> {
        // Step 1: Let s be the result of parse a selector from selectors.
        // Step 2: If s is failure, then throw a "SyntaxError" DOMException.
        let list = crate::dom::selectors::parse_selector(&selectors)?;
        // Step 3: Let elements be this's inclusive ancestors that are
        // elements, in reverse tree order.
        // Step 4: For each element in elements, if match a selector against
        // an element, using s, element, and scoping root this, returns
        // success, return element.
        let mut current = Some(DomRoot::from_ref(self.upcast_node()));
        while let Some(node) = current {
            if let Some(element) = node.downcast::<Element>() {
                if crate::dom::selectors::matches(&list, &element, Some(self)) {
                    return Ok(Some(element));
                }
            }
            current = node.parent();
        }
        // Step 5: Return null.
        Ok(None)
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-getboundingclientrect>
    fn GetBoundingClientRect(&self, cx: &mut JSContext) -> Fallible<DomRoot<DOMRect>> {
        // Step 1: Let list be the result of invoking getClientRects() on
        // element: empty, as the element has no associated layout box (the
        // shell has no layout).
        // Step 2: If the list is empty return a DOMRect object whose x, y,
        // width and height members are zero.
        Ok(DOMRect::new(cx, self.node.global(), 0.0, 0.0, 0.0, 0.0))
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-scrollintoview>
    fn ScrollIntoView(&self, _cx: &mut JSContext, _arg: Option<bool>) -> Fallible<()> {
        // Steps 1-4: options. Step 5: If the element does not have any
        // associated box, or is not available to user-agent features, then
        // return (no element has a box: no layout).
        Ok(())
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-scrolltop>
    /// Step 9 (no associated box, no overflow): return zero.
    fn ScrollTop(&self, _cx: &mut JSContext) -> f64 {
        0.0
    }

    /// Steps 1-10: without a box the element cannot scroll; the value is
    /// dropped.
    fn SetScrollTop(&self, _cx: &mut JSContext, _value: f64) -> Fallible<()> {
        Ok(())
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-scrollleft>
    /// Step 9 (no associated box, no overflow): return zero.
    fn ScrollLeft(&self, _cx: &mut JSContext) -> f64 {
        0.0
    }

    fn SetScrollLeft(&self, _cx: &mut JSContext, _value: f64) -> Fallible<()> {
        Ok(())
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-scrollwidth>
    /// Step 3: If there is no viewport (no layout), return zero.
    fn ScrollWidth(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-scrollheight>
    /// Step 3: If there is no viewport (no layout), return zero.
    fn ScrollHeight(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-clienttop>
    /// Step 1: If the element has no associated CSS layout box, return
    /// zero.
    fn ClientTop(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-clientleft>
    /// Step 1: no CSS layout box: zero.
    fn ClientLeft(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-clientwidth>
    /// Step 1: no CSS layout box: zero.
    fn ClientWidth(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-element-clientheight>
    /// Step 1: no CSS layout box: zero.
    fn ClientHeight(&self, _cx: &mut JSContext) -> i32 {
        0
    }
}
