//! `Element` (<https://dom.spec.whatwg.org/#interface-element>), the
//! element factory ("create an element") and a small selector matcher for
//! `querySelector` (type, `#id`, `.class`, `[attr]`, `[attr=value]`,
//! compound selectors, the descendant combinator and selector lists).

use std::cell::RefCell;

use html5ever::{LocalName, Namespace};
use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::ElementBinding::ElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::document::Document;
use crate::dom::htmlbodyelement::HTMLBodyElement;
use crate::dom::htmlelement::HTMLElement;
use crate::dom::htmliframeelement::HTMLIFrameElement;
use crate::dom::htmlscriptelement::HTMLScriptElement;
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
}

impl AsRef<Node> for Element {
    fn as_ref(&self) -> &Node {
        &self.node
    }
}

unsafe impl Traceable for Element {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.node.trace(trc) }
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
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-create-element> (no custom
    /// elements): the interface is HTMLScriptElement for `script`,
    /// HTMLBodyElement for `body`, HTMLIFrameElement for `iframe`, and
    /// HTMLElement for other HTML elements, else Element.
    pub fn create(
        cx: &mut JSContext,
        document: &Document,
        namespace: Option<&str>,
        prefix: Option<&str>,
        local_name: &str,
        attributes: Vec<(String, String)>,
    ) -> DomRoot<Element> {
        let global = document.upcast_node().global();
        let element = if namespace == Some(HTML_NAMESPACE) {
            if local_name == "script" {
                let script = HTMLScriptElement::new_inherited(Element::new_inherited(
                    document, namespace, prefix, local_name,
                ));
                reflect_dom_object(cx, global, Box::new(script), None).upcast::<Element>()
            } else if local_name == "body" {
                let body = HTMLBodyElement::new_inherited(Element::new_inherited(
                    document, namespace, prefix, local_name,
                ));
                reflect_dom_object(cx, global, Box::new(body), None).upcast::<Element>()
            } else if local_name == "iframe" {
                let iframe = HTMLIFrameElement::new_inherited(Element::new_inherited(
                    document, namespace, prefix, local_name,
                ));
                reflect_dom_object(cx, global, Box::new(iframe), None).upcast::<Element>()
            } else {
                let html = HTMLElement::new_inherited(Element::new_inherited(
                    document, namespace, prefix, local_name,
                ));
                reflect_dom_object(cx, global, Box::new(html), None).upcast::<Element>()
            }
        } else {
            let element = Element::new_inherited(document, namespace, prefix, local_name);
            reflect_dom_object(cx, global, Box::new(element), None)
        };
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
        let list = parse_selector_list(selectors).ok_or_else(|| {
            Error::dom_with_message(
                DomExceptionName::SyntaxError,
                format!("'{selectors}' is not a valid selector"),
            )
        })?;
        // Step 3: match s against node's root, with :scope = node.
        Ok(root
            .element_descendants()
            .into_iter()
            .filter(|e| list.iter().any(|complex| matches_complex(e, complex)))
            .collect())
    }
}

/// One compound selector: `div#a.b[c=d]`.
#[derive(Debug, Default)]
struct Compound {
    tag: Option<String>,
    id: Option<String>,
    classes: Vec<String>,
    /// (name, optional exact value)
    attributes: Vec<(String, Option<String>)>,
}

/// Compound selectors joined by descendant combinators, leftmost first.
type Complex = Vec<Compound>;

fn parse_selector_list(input: &str) -> Option<Vec<Complex>> {
    input.split(',').map(parse_complex).collect()
}

fn parse_complex(input: &str) -> Option<Complex> {
    let parts: Vec<&str> = input.split_ascii_whitespace().collect();
    if parts.is_empty() {
        return None;
    }
    parts.into_iter().map(parse_compound).collect()
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_' || !c.is_ascii()
}

fn parse_compound(input: &str) -> Option<Compound> {
    let mut compound = Compound::default();
    let chars: Vec<char> = input.chars().collect();
    let mut i = 0;
    let ident = |i: &mut usize| -> Option<String> {
        let start = *i;
        while *i < chars.len() && is_ident_char(chars[*i]) {
            *i += 1;
        }
        (*i > start).then(|| chars[start..*i].iter().collect())
    };
    if i < chars.len() && chars[i] == '*' {
        i += 1;
    } else if i < chars.len() && is_ident_char(chars[i]) {
        compound.tag = Some(ident(&mut i)?.to_ascii_lowercase());
    }
    while i < chars.len() {
        match chars[i] {
            '#' => {
                i += 1;
                compound.id = Some(ident(&mut i)?);
            }
            '.' => {
                i += 1;
                compound.classes.push(ident(&mut i)?);
            }
            '[' => {
                i += 1;
                let name = ident(&mut i)?.to_ascii_lowercase();
                let value = if i < chars.len() && chars[i] == '=' {
                    i += 1;
                    let quote = chars.get(i).copied().filter(|c| *c == '"' || *c == '\'');
                    let value = if let Some(q) = quote {
                        i += 1;
                        let start = i;
                        while i < chars.len() && chars[i] != q {
                            i += 1;
                        }
                        let v: String = chars[start..i].iter().collect();
                        if i >= chars.len() {
                            return None;
                        }
                        i += 1;
                        v
                    } else {
                        ident(&mut i)?
                    };
                    Some(value)
                } else {
                    None
                };
                if i >= chars.len() || chars[i] != ']' {
                    return None;
                }
                i += 1;
                compound.attributes.push((name, value));
            }
            _ => return None,
        }
    }
    Some(compound)
}

fn matches_compound(element: &Element, compound: &Compound) -> bool {
    if let Some(tag) = &compound.tag {
        let name = if &*element.namespace == HTML_NAMESPACE {
            (*element.local_name).to_ascii_lowercase()
        } else {
            element.local_name.to_string()
        };
        if *tag != name {
            return false;
        }
    }
    if let Some(id) = &compound.id {
        if element.get_attribute("id").as_deref() != Some(id.as_str()) {
            return false;
        }
    }
    if !compound.classes.is_empty() {
        let class = element.get_attribute("class").unwrap_or_default();
        let names: Vec<&str> = class.split_ascii_whitespace().collect();
        if !compound.classes.iter().all(|c| names.contains(&c.as_str())) {
            return false;
        }
    }
    compound
        .attributes
        .iter()
        .all(|(name, value)| match (element.get_attribute(name), value) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(actual), Some(expected)) => actual == *expected,
        })
}

fn matches_complex(element: &Element, complex: &Complex) -> bool {
    let Some((last, ancestors)) = complex.split_last() else {
        return false;
    };
    if !matches_compound(element, last) {
        return false;
    }
    // Descendant combinators: match the remaining compounds against
    // ancestors, right to left (greedy is correct for descendant-only).
    let mut remaining = ancestors.iter().rev().peekable();
    let mut current = element.upcast_node().parent();
    while let Some(compound) = remaining.peek() {
        let Some(node) = current else {
            return false;
        };
        if let Some(ancestor) = node.downcast::<Element>() {
            if matches_compound(&ancestor, compound) {
                remaining.next();
            }
        }
        current = node.parent();
    }
    true
}

impl ElementMethods for Element {
    /// <https://dom.spec.whatwg.org/#dom-element-namespaceuri>
    fn NamespaceURI(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.namespace().map(str::to_owned)
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
}
