//! `HTMLScriptElement`
//! (<https://html.spec.whatwg.org/multipage/scripting.html#htmlscriptelement>)
//! and its script-element state; "prepare the script element" and
//! "execute the script element" are in `crate::loading::script_element`.

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLScriptElementBinding::HTMLScriptElementMethods;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::html::htmlelement::HTMLElement;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::Element;

#[derive(JSTraceable)]
pub struct HTMLScriptElement {
    htmlelement: HTMLElement,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#already-started>
    already_started: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#parser-document>:
    /// whether the element has a (non-null) parser document (it is always
    /// its node document here: the parser of that document made it).
    parser_inserted: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#script-force-async>:
    /// initially true; the parser sets it to false when it creates the
    /// element, the `async` setter whenever it runs.
    force_async: Cell<bool>,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#preparation-time-document>
    preparation_time_document: MutNullableDom<Document>,
    /// <https://html.spec.whatwg.org/multipage/scripting.html#concept-script-external>
    from_an_external_file: Cell<bool>,
    /// The line of the HTML file the script's text starts on (inline
    /// parser-inserted scripts), 1-origin.
    line: Cell<u32>,
}

impl AsRef<HTMLElement> for HTMLScriptElement {
    fn as_ref(&self) -> &HTMLElement {
        &self.htmlelement
    }
}

impl HTMLScriptElement {
    pub fn new_inherited(element: Element) -> HTMLScriptElement {
        HTMLScriptElement {
            htmlelement: HTMLElement::new_inherited(element),
            already_started: Cell::new(false),
            parser_inserted: Cell::new(false),
            force_async: Cell::new(true),
            preparation_time_document: MutNullableDom::default(),
            from_an_external_file: Cell::new(false),
            line: Cell::new(1),
        }
    }

    pub fn element(&self) -> &Element {
        self.htmlelement.upcast_element()
    }

    pub fn already_started(&self) -> bool {
        self.already_started.get()
    }

    pub fn set_already_started(&self, value: bool) {
        self.already_started.set(value);
    }

    pub fn parser_inserted(&self) -> bool {
        self.parser_inserted.get()
    }

    /// The parser's creation of a script element
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#scriptTag>,
    /// "An start tag whose tag name is "script"": set its parser document
    /// to the Document and its force async to false), with the line its
    /// text starts on.
    pub fn set_parser_inserted(&self, value: bool, line: u32) {
        self.parser_inserted.set(value);
        if value {
            self.force_async.set(false);
        }
        self.line.set(line);
    }

    /// Sets or clears the parser document ("prepare the script element"
    /// steps 3, 6 and 13).
    pub fn set_parser_document(&self, value: bool) {
        self.parser_inserted.set(value);
    }

    pub fn force_async(&self) -> bool {
        self.force_async.get()
    }

    pub fn set_force_async(&self, value: bool) {
        self.force_async.set(value);
    }

    pub fn preparation_time_document(&self) -> Option<DomRoot<Document>> {
        self.preparation_time_document.get()
    }

    pub fn set_preparation_time_document(&self, document: Option<&Document>) {
        self.preparation_time_document.set(document);
    }

    pub fn from_an_external_file(&self) -> bool {
        self.from_an_external_file.get()
    }

    pub fn set_from_an_external_file(&self, value: bool) {
        self.from_an_external_file.set(value);
    }

    pub fn line(&self) -> u32 {
        self.line.get()
    }

    /// The `src` attribute encoding-parsed relative to the element's node
    /// document
    /// (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url>);
    /// `Err` with the raw value when it does not parse.
    pub fn resolved_src(&self) -> Option<Result<url::Url, String>> {
        let src = self.element().get_attribute("src")?;
        Some(parse_relative_to_node_document(self.element(), &src).ok_or(src))
    }

    /// The child text content (<https://dom.spec.whatwg.org/#concept-child-text-content>).
    pub fn source_text(&self) -> String {
        self.element().upcast_node().child_text_content()
    }

    /// A reflected `DOMString` attribute's getter
    /// (<https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes>):
    /// the content attribute's value, or the empty string.
    fn reflected_string(&self, name: &str) -> DOMString {
        self.element().get_attribute(name).unwrap_or_default()
    }

    /// A reflected boolean attribute's setter: set the content attribute
    /// to the empty string when true, remove it when false.
    fn set_reflected_bool(&self, name: &str, value: bool) {
        if value {
            self.element().set_attribute_value(name, "");
        } else {
            self.element().remove_attribute(name);
        }
    }

    /// A reflected enumerated attribute's getter: the canonical keyword of
    /// the attribute's state (`known`, ASCII case-insensitively), or
    /// `default` (the missing and invalid value default).
    fn reflected_enumerated(&self, name: &str, known: &[&str], default: &str) -> DOMString {
        self.element()
            .get_attribute(name)
            .and_then(|v| {
                known
                    .iter()
                    .find(|k| k.eq_ignore_ascii_case(&v))
                    .map(|k| (*k).to_owned())
            })
            .unwrap_or_else(|| default.to_owned())
    }
}

/// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url>
/// relative to `element`'s node document: against its document base URL.
fn parse_relative_to_node_document(element: &Element, value: &str) -> Option<url::Url> {
    let base = element.upcast_node().owner_doc().map(|d| d.base_url());
    match &base {
        Some(base) => base.join(value).ok(),
        None => url::Url::parse(value).ok(),
    }
}

/// <https://w3c.github.io/webappsec-referrer-policy/#referrer-policies>:
/// the keywords of the `referrerpolicy` attribute.
const REFERRER_POLICIES: &[&str] = &[
    "",
    "no-referrer",
    "no-referrer-when-downgrade",
    "same-origin",
    "origin",
    "strict-origin",
    "origin-when-cross-origin",
    "strict-origin-when-cross-origin",
    "unsafe-url",
];

impl HTMLScriptElementMethods for HTMLScriptElement {
    /// `type`: reflects the `type` content attribute.
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_string("type")
    }

    fn SetType(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("type", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes>
    /// for a `USVString` attribute with `[ReflectURL]`: the getter steps.
    fn Src(&self, _cx: &mut JSContext) -> USVString {
        // Step 1: Let contentAttributeValue be the result of running
        // this's get the content attribute.
        // Step 2: If contentAttributeValue is null, then return the empty
        // string.
        // Step 3: Let urlString be the result of encoding-parsing-and-
        // serializing a URL given contentAttributeValue, relative to the
        // element's node document.
        // Step 4: If urlString is not failure, then return urlString.
        // Step 5: Return contentAttributeValue, converted to a scalar
        // value string.
        match self.resolved_src() {
            None => USVString(String::new()),
            Some(Ok(url)) => USVString(url.into()),
            Some(Err(raw)) => USVString(raw),
        }
    }

    /// The setter: set the content attribute (whose attribute change
    /// steps prepare a connected script element that had no `src`).
    fn SetSrc(&self, cx: &mut JSContext, value: USVString) -> Fallible<()> {
        self.element().set_attribute_value("src", &value.0);
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// `noModule`: reflects the `nomodule` boolean attribute.
    fn NoModule(&self, _cx: &mut JSContext) -> bool {
        self.element().get_attribute("nomodule").is_some()
    }

    fn SetNoModule(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.set_reflected_bool("nomodule", value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/scripting.html#dom-script-async>:
    /// the getter steps.
    fn Async(&self, _cx: &mut JSContext) -> bool {
        // Step 1: If this's force async is true, then return true.
        if self.force_async.get() {
            return true;
        }
        // Step 2: If this's async content attribute is present, then
        // return true.
        // Step 3: Return false.
        self.element().get_attribute("async").is_some()
    }

    /// The setter steps.
    fn SetAsync(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        // Step 1: Set this's force async to false.
        self.force_async.set(false);
        // Step 2: If the given value is true, then set this's async
        // content attribute to the empty string.
        // Step 3: Otherwise, remove this's async content attribute.
        self.set_reflected_bool("async", value);
        Ok(())
    }

    /// `defer`: reflects the `defer` boolean attribute.
    fn Defer(&self, _cx: &mut JSContext) -> bool {
        self.element().get_attribute("defer").is_some()
    }

    fn SetDefer(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.set_reflected_bool("defer", value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/urls-and-fetching.html#cors-settings-attribute>:
    /// reflects `crossorigin`, limited to only known values (missing value
    /// default: null; invalid value default: "anonymous").
    fn CrossOrigin(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.element().get_attribute("crossorigin").map(|v| {
            if v.eq_ignore_ascii_case("use-credentials") {
                "use-credentials".to_owned()
            } else {
                "anonymous".to_owned()
            }
        })
    }

    fn SetCrossOrigin(&self, _cx: &mut JSContext, value: Option<DOMString>) -> Fallible<()> {
        match value {
            Some(v) => self.element().set_attribute_value("crossorigin", &v),
            None => self.element().remove_attribute("crossorigin"),
        }
        Ok(())
    }

    /// `referrerPolicy`: reflects `referrerpolicy`, limited to only known
    /// values (missing and invalid value default: the empty string).
    fn ReferrerPolicy(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_enumerated("referrerpolicy", REFERRER_POLICIES, "")
    }

    fn SetReferrerPolicy(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("referrerpolicy", &value);
        Ok(())
    }

    /// `integrity`: reflects the `integrity` content attribute.
    fn Integrity(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_string("integrity")
    }

    fn SetIntegrity(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("integrity", &value);
        Ok(())
    }

    /// `fetchPriority`: reflects `fetchpriority`, limited to only known
    /// values (missing and invalid value default: "auto").
    fn FetchPriority(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_enumerated("fetchpriority", &["high", "low", "auto"], "auto")
    }

    fn SetFetchPriority(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("fetchpriority", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/scripting.html#dom-script-text>:
    /// the child text content.
    fn Text(&self, _cx: &mut JSContext) -> DOMString {
        self.source_text()
    }

    /// The setter: string replace all with the given value within this
    /// (whose children changed steps may prepare the script).
    fn SetText(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        let node = self.element().upcast_node();
        let text = (!value.is_empty()).then(|| {
            let document = node.owner_doc();
            crate::dom::nodes::text::Text::new(cx, node.global(), document.as_deref(), &value)
        });
        node.replace_all(text.as_deref().map(|t| t.upcast_node()));
        crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/scripting.html#dom-script-supports>
    fn Supports(_cx: &mut JSContext, _global: &GlobalScope, type_: DOMString) -> Fallible<bool> {
        // Step 1: If type is "classic", then return true.
        // Step 2: If type is "module", then return true.
        // Step 3: If type is "importmap", then return true.
        // Step 4: ("speculationrules": not supported.)
        // Step 5: Return false.
        // (Exact matches: "Importmap" or " importmap" is not supported.)
        Ok(["classic", "module", "importmap"].contains(&type_.as_str()))
    }

    /// `charset` (obsolete): reflects the `charset` content attribute.
    fn Charset(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_string("charset")
    }

    fn SetCharset(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("charset", &value);
        Ok(())
    }

    /// `event` (obsolete): reflects the `event` content attribute.
    fn Event(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_string("event")
    }

    fn SetEvent(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("event", &value);
        Ok(())
    }

    /// `htmlFor` (obsolete): reflects the `for` content attribute.
    fn HtmlFor(&self, _cx: &mut JSContext) -> DOMString {
        self.reflected_string("for")
    }

    fn SetHtmlFor(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element().set_attribute_value("for", &value);
        Ok(())
    }
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#script-processing-model>:
/// the script element's steps in the DOM's tree algorithms. Its
/// post-connection steps run script, so they are queued
/// (`crate::loading::script_element`) until the calling DOM method's
/// mutations are done.
impl crate::dom::nodes::virtualmethods::VirtualMethods for HTMLScriptElement {
    /// "The script HTML element post-connection steps, given insertedNode."
    fn post_connection_steps(&self) {
        crate::loading::script_element::queue_post_connection_steps(self);
    }

    /// "The script children changed steps are: run the script HTML element
    /// post-connection steps, given the script element."
    fn children_changed(&self) {
        crate::loading::script_element::queue_post_connection_steps(self);
    }

    /// The script HTML element attribute change steps.
    fn attribute_changed(&self, name: &str, _value: Option<&str>) {
        crate::loading::script_element::attribute_changed(self, name);
    }

    /// "The cloning steps for script elements given node, copy, and
    /// subtree are to set copy's already started to node's already
    /// started."
    fn cloning_steps(
        &self,
        _cx: &mut JSContext,
        copy: &crate::dom::nodes::node::Node,
        _subtree: bool,
    ) -> Fallible<()> {
        if let Some(copy) = copy.root_ref().downcast::<HTMLScriptElement>() {
            copy.set_already_started(self.already_started());
        }
        Ok(())
    }
}
