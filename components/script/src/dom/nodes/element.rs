//! `Element` (<https://dom.spec.whatwg.org/#interface-element>) and
//! "create an element" (the interface table is in
//! [`crate::dom::nodes::element_interface`], selector matching in
//! [`crate::dom::nodes::selectors`]).

use std::cell::RefCell;

use html5ever::{LocalName, Namespace};
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::ElementBinding::ElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::root::{Dom, DomRoot, MutNullableDom};
use crate::dom::nodes::attr::Attr;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::domrect::DOMRect;
use crate::dom::nodes::domtokenlist::DOMTokenList;
use crate::dom::nodes::namednodemap::NamedNodeMap;
use crate::dom::nodes::node::{Node, NodeKind};
use crate::dom::nodes::nodelist::NodeList;

/// The HTML namespace.
pub const HTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";

#[derive(JSTraceable)]
pub struct Element {
    node: Node,
    /// <https://dom.spec.whatwg.org/#concept-element-namespace> (the
    /// empty atom for null). Atoms, so the parser compares names without
    /// allocating.
    #[no_trace]
    namespace: Namespace,
    /// <https://dom.spec.whatwg.org/#concept-element-namespace-prefix>
    prefix: Option<String>,
    /// <https://dom.spec.whatwg.org/#concept-element-local-name>
    #[no_trace]
    local_name: LocalName,
    /// <https://dom.spec.whatwg.org/#concept-element-attribute> (qualified
    /// name, value), in order.
    attributes: RefCell<Vec<(String, String)>>,
    /// <https://dom.spec.whatwg.org/#dom-element-classlist>'s
    /// `DOMTokenList`, made on first use.
    class_list: MutNullableDom<DOMTokenList>,
    /// The `Attr` nodes handed out for attributes still on this element
    /// (<https://dom.spec.whatwg.org/#interface-attr>), by qualified name.
    attr_nodes: RefCell<Vec<Dom<Attr>>>,
    /// `attributes` (`[SameObject]`), made on first use.
    attribute_map: MutNullableDom<NamedNodeMap>,
}

impl AsRef<Node> for Element {
    fn as_ref(&self) -> &Node {
        &self.node
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
            attr_nodes: RefCell::new(Vec::new()),
            attribute_map: MutNullableDom::default(),
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-create-element> (no custom
    /// elements): the interface comes from the table in
    /// [`crate::dom::nodes::element_interface`].
    pub fn create(
        cx: &mut JSContext,
        document: &Document,
        namespace: Option<&str>,
        prefix: Option<&str>,
        local_name: &str,
        attributes: Vec<(String, String)>,
    ) -> DomRoot<Element> {
        let element = crate::dom::nodes::element_interface::create(
            cx, document, namespace, prefix, local_name,
        );
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
    /// HTML's event handler content attributes, and those of the element's
    /// type (`crate::dom::nodes::virtualmethods`).
    fn attribute_changed(&self, name: &str, value: Option<&str>) {
        crate::dom::nodes::node::bump_tree_version();
        crate::dom::events::eventtarget::event_handler_attribute_changed(self, name, value);
        crate::dom::nodes::virtualmethods::attribute_changed(self, name, value);
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
        // https://dom.spec.whatwg.org/#handle-attribute-changes step 1:
        // queue a mutation record of "attributes" with the old value.
        let old = self.get_attribute(&name);
        crate::dom::nodes::mutationobserver::queue_attribute_record(
            &self.node,
            &name,
            old.as_deref(),
        );
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
        let old_value = self.get_attribute(&name);
        // https://dom.spec.whatwg.org/#handle-attribute-changes step 1.
        if let Some(old) = old_value.as_deref() {
            crate::dom::nodes::mutationobserver::queue_attribute_record(
                &self.node,
                &name,
                Some(old),
            );
        }
        let removed = {
            let mut attributes = self.attributes.borrow_mut();
            let before = attributes.len();
            attributes.retain(|(n, _)| *n != name);
            attributes.len() != before
        };
        // "Remove an attribute": handle attribute changes with null; its
        // Attr node (if one was made) keeps the old value, without element.
        if removed {
            let old = self
                .attr_nodes
                .borrow()
                .iter()
                .position(|a| a.root().name() == name);
            if let Some(index) = old {
                let attr = self.attr_nodes.borrow_mut().remove(index).root();
                attr.detach(old_value.as_deref().unwrap_or_default());
            }
            self.attribute_changed(&name, None);
        }
    }

    /// Adds attributes that are not there yet (the parser's "add attrs if
    /// missing").
    pub fn add_attributes_if_missing(&self, attributes: Vec<(String, String)>) {
        for (name, value) in attributes {
            if self.get_attribute(&name).is_none() {
                crate::dom::nodes::mutationobserver::queue_attribute_record(
                    &self.node, &name, None,
                );
                self.attributes
                    .borrow_mut()
                    .push((name.clone(), value.clone()));
                self.attribute_changed(&name, Some(&value));
            }
        }
    }

    /// The `Attr` node of this element's attribute `name` (a qualified
    /// name present in the list, normalised): the same object while the
    /// attribute stays.
    pub fn attr_node(&self, cx: &mut JSContext, name: &str) -> DomRoot<Attr> {
        if let Some(attr) = self
            .attr_nodes
            .borrow()
            .iter()
            .map(Dom::root)
            .find(|a| a.name() == name)
        {
            return attr;
        }
        let document = self
            .node
            .owner_doc()
            .expect("an element always has a node document");
        let attr = Attr::new(cx, &document, Some(self), name, "");
        self.attr_nodes.borrow_mut().push(Dom::from_ref(&*attr));
        attr
    }

    /// The name `get_attribute` and friends look up for `name`.
    pub fn normalized_attribute_name(&self, name: &str) -> String {
        self.normalize_attribute_name(name)
    }

    /// The attribute list (qualified name, value), in order.
    pub fn attribute_list(&self) -> Vec<(String, String)> {
        self.attributes.borrow().clone()
    }

    /// <https://dom.spec.whatwg.org/#concept-element-namespace-prefix>
    pub fn prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
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
    /// [`query_selector_all`](Self::query_selector_all) as the static
    /// `NodeList` that `querySelectorAll()` returns
    /// (<https://dom.spec.whatwg.org/#dom-parentnode-queryselectorall>:
    /// "return the static result of running scope-match a selectors string
    /// selectors against this").
    pub fn query_selector_all_list(
        cx: &mut JSContext,
        root: &Node,
        selectors: &str,
    ) -> Fallible<DomRoot<NodeList>> {
        let nodes: Vec<DomRoot<Node>> = Element::query_selector_all(root, selectors)?
            .iter()
            .map(|e| DomRoot::from_ref(e.upcast_node()))
            .collect();
        Ok(NodeList::new_static(cx, root.global(), &nodes))
    }

    pub fn query_selector_all(root: &Node, selectors: &str) -> Fallible<Vec<DomRoot<Element>>> {
        // Step 1: Let s be the result of parse a selector selectors.
        // Step 2: If s is failure, then throw a "SyntaxError" DOMException.
        let list = crate::dom::nodes::selectors::parse_selector(selectors)?;
        // Step 3: Return the result of match a selector against a tree with
        // s and node's root using scoping root node (the descendants of
        // node that match: :scope is node when it is an element).
        let scope = DomRoot::from_ref(root).downcast::<Element>();
        Ok(root
            .element_descendants()
            .into_iter()
            .filter(|e| crate::dom::nodes::selectors::matches(&list, e, scope.as_deref()))
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
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-removeattribute>
    fn RemoveAttribute(&self, cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        self.remove_attribute(&name);
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-element-hasattribute>
    fn HasAttribute(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<bool> {
        Ok(self.get_attribute(&name).is_some())
    }

    crate::elements_by_name_methods!(
        "<https://dom.spec.whatwg.org/#dom-element-getelementsbytagname>:",
        "<https://dom.spec.whatwg.org/#dom-element-getelementsbyclassname>:"
    );

    /// <https://dom.spec.whatwg.org/#dom-element-attributes>: a
    /// NamedNodeMap whose element is this (the same object each time).
    fn Attributes(&self, cx: &mut JSContext) -> DomRoot<NamedNodeMap> {
        self.attribute_map.or_init(|| NamedNodeMap::new(cx, self))
    }

    /// <https://dom.spec.whatwg.org/#dom-element-toggleattribute>
    fn ToggleAttribute(
        &self,
        cx: &mut JSContext,
        name: DOMString,
        force: Option<bool>,
    ) -> Fallible<bool> {
        // Step 1: If qualifiedName is not a valid attribute local name, then
        // throw an "InvalidCharacterError" DOMException.
        if !valid_attribute_name(&name) {
            return Err(Error::dom(DomExceptionName::InvalidCharacterError));
        }
        // Step 2: lowercase in an HTML element (`get_attribute` and
        // friends normalise). Step 3: Let attribute be the first attribute
        // in this's attribute list whose qualified name is qualifiedName.
        let present = self.get_attribute(&name).is_some();
        let result = if !present {
            // Step 4: If attribute is null: if force is not given or is
            // true, create an attribute whose local name is qualifiedName,
            // value is the empty string, and node document is this's node
            // document, then append this attribute to this, and then return
            // true. Otherwise, return false.
            if force.unwrap_or(true) {
                self.set_attribute_value(&name, "");
                true
            } else {
                false
            }
        } else if !force.unwrap_or(false) {
            // Step 5: Otherwise, if force is not given or is false, remove
            // an attribute given qualifiedName and this, and then return
            // false.
            self.remove_attribute(&name);
            false
        } else {
            // Step 6: Return true.
            true
        };
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(result)
    }

    /// <https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-element-innerhtml>:
    /// the getter returns the result of running fragment serializing
    /// algorithm steps with this and true (the require well-formed flag
    /// only matters for XML documents).
    fn InnerHTML(&self, _cx: &mut JSContext) -> DOMString {
        crate::loading::html_serializer::serialize_children(self.upcast_node())
    }

    /// <https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-element-innerhtml>
    fn SetInnerHTML(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        // Step 1: Let compliantString be the result of invoking the Get
        // Trusted Type compliant string algorithm (no Trusted Types: the
        // string itself).
        // Step 2: Let context be this.
        // Step 3: Let fragment be the result of invoking the fragment
        // parsing algorithm steps with context and compliantString.
        let fragment = crate::loading::html_tree_sink::parse_fragment(cx, self, &value);
        // Step 4: If context is a template element, then set context to the
        // template element's template contents (a DocumentFragment).
        let context = match crate::dom::nodes::virtualmethods::template_contents(self) {
            Some(contents) => contents.upcast::<Node>(),
            None => DomRoot::from_ref(self.upcast_node()),
        };
        // Step 5: Replace all with fragment within context.
        context.replace_all(Some(fragment.upcast_node()));
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-element-outerhtml>:
    /// the getter returns the result of running the HTML fragment
    /// serialization algorithm on a fictional node whose only child is
    /// this.
    fn OuterHTML(&self, _cx: &mut JSContext) -> DOMString {
        crate::loading::html_serializer::serialize_node(self.upcast_node())
    }

    /// <https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-element-outerhtml>
    fn SetOuterHTML(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        // Step 1: compliantString (no Trusted Types).
        // Step 2: Let parent be this's parent.
        // Step 3: If parent is null, return.
        let Some(parent) = self.upcast_node().parent() else {
            return Ok(());
        };
        // Step 4: If parent is a Document, throw a
        // "NoModificationAllowedError" DOMException.
        if parent.kind() == NodeKind::Document {
            return Err(Error::dom(DomExceptionName::NoModificationAllowedError));
        }
        // Step 5: If parent is a DocumentFragment, set parent to the result
        // of creating an element given this's node document, "body", and
        // the HTML namespace.
        let context = match parent.downcast::<Element>() {
            Some(element) => element,
            None => self.new_body_element(cx),
        };
        // Step 6: Let fragment be the result of invoking the fragment
        // parsing algorithm steps given parent and compliantString.
        let fragment = crate::loading::html_tree_sink::parse_fragment(cx, &context, &value);
        // Step 7: Replace this with fragment within this's parent.
        let result = parent
            .replace(self.upcast_node(), fragment.upcast_node())
            .map(|_| ());
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        result
    }

    /// <https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-element-insertadjacenthtml>
    fn InsertAdjacentHTML(
        &self,
        cx: &mut JSContext,
        position: DOMString,
        string: DOMString,
    ) -> Fallible<()> {
        // Step 1: compliantString (no Trusted Types).
        // Step 2: Let context be null.
        // Step 3: Use the first matching item from this list:
        let position = position.to_ascii_lowercase();
        let context: DomRoot<Node> = match position.as_str() {
            // If position is an ASCII case-insensitive match for the string
            // "beforebegin" or "afterend": set context to this's parent; if
            // context is null or a Document, throw a
            // "NoModificationAllowedError" DOMException.
            "beforebegin" | "afterend" => match self.upcast_node().parent() {
                Some(parent) if parent.kind() != NodeKind::Document => parent,
                _ => return Err(Error::dom(DomExceptionName::NoModificationAllowedError)),
            },
            // "afterbegin" or "beforeend": set context to this.
            "afterbegin" | "beforeend" => DomRoot::from_ref(self.upcast_node()),
            // Otherwise: throw a "SyntaxError" DOMException.
            _ => {
                return Err(Error::dom_with_message(
                    DomExceptionName::SyntaxError,
                    format!("'{position}' is not a valid position"),
                ))
            }
        };
        // Step 4: If context is not an Element or all of the following are
        // true (context's node document is an HTML document, context's
        // local name is "html", context's namespace is the HTML
        // namespace), then set context to the result of creating an
        // element given this's node document, "body", and the HTML
        // namespace.
        let context = match context.downcast::<Element>() {
            Some(element) if !element.is_html("html") => element,
            _ => self.new_body_element(cx),
        };
        // Step 5: Let fragment be the result of invoking the fragment
        // parsing algorithm steps with context and compliantString.
        let fragment = crate::loading::html_tree_sink::parse_fragment(cx, &context, &string);
        let fragment = fragment.upcast_node();
        let this = self.upcast_node();
        // Step 6: Use the first matching item from this list:
        let result = match position.as_str() {
            // "beforebegin": insert fragment into this's parent before this.
            "beforebegin" => this
                .parent()
                .map_or(Ok(()), |p| p.pre_insert(fragment, Some(this)).map(|_| ())),
            // "afterbegin": insert fragment into this before its first
            // child.
            "afterbegin" => {
                let first = this.children().into_iter().next();
                this.pre_insert(fragment, first.as_deref()).map(|_| ())
            }
            // "beforeend": append fragment to this.
            "beforeend" => this.append(fragment).map(|_| ()),
            // "afterend": insert fragment into this's parent before this's
            // next sibling.
            _ => {
                let next = this.next_sibling();
                this.parent().map_or(Ok(()), |p| {
                    p.pre_insert(fragment, next.as_deref()).map(|_| ())
                })
            }
        };
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        result
    }

    crate::parent_node_methods!();

    crate::child_node_methods!();

    /// <https://dom.spec.whatwg.org/#dom-element-classlist>: a
    /// `DOMTokenList` whose associated attribute is `class`, the same
    /// object every time.
    fn ClassList(&self, cx: &mut JSContext) -> DomRoot<DOMTokenList> {
        self.class_list
            .or_init(|| DOMTokenList::new(cx, self, "class"))
    }

    /// <https://dom.spec.whatwg.org/#dom-element-matches>
    fn Matches(&self, _cx: &mut JSContext, selectors: DOMString) -> Fallible<bool> {
        // Step 1: Let s be the result of parse a selector from selectors.
        // Step 2: If s is failure, then throw a "SyntaxError" DOMException.
        let list = crate::dom::nodes::selectors::parse_selector(&selectors)?;
        // Step 3: If the result of match a selector against an element,
        // using s, this, and scoping root this, returns success, then
        // return true; otherwise, return false.
        Ok(crate::dom::nodes::selectors::matches(
            &list,
            self,
            Some(self),
        ))
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
        let list = crate::dom::nodes::selectors::parse_selector(&selectors)?;
        // Step 3: Let elements be this's inclusive ancestors that are
        // elements, in reverse tree order.
        // Step 4: For each element in elements, if match a selector against
        // an element, using s, element, and scoping root this, returns
        // success, return element.
        let mut current = Some(DomRoot::from_ref(self.upcast_node()));
        while let Some(node) = current {
            if let Some(element) = node.downcast::<Element>() {
                if crate::dom::nodes::selectors::matches(&list, &element, Some(self)) {
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

impl Element {
    /// The result of creating an element given this's node document,
    /// "body", and the HTML namespace (a context for fragment parsing).
    fn new_body_element(&self, cx: &mut JSContext) -> DomRoot<Element> {
        let document = self
            .node
            .owner_doc()
            .expect("an element always has a node document");
        Element::create(
            cx,
            &document,
            Some(HTML_NAMESPACE),
            None,
            "body",
            Vec::new(),
        )
    }
}

/// <https://dom.spec.whatwg.org/#valid-attribute-local-name>: at least one
/// code point, and none of ASCII whitespace, U+0000 NULL, U+002F (/),
/// U+003D (=), or U+003E (>).
fn valid_attribute_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c.is_ascii_whitespace() || matches!(c, '\0' | '/' | '=' | '>'))
}
