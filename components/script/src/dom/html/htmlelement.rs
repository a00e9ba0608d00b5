//! `HTMLElement` (<https://html.spec.whatwg.org/multipage/dom.html#htmlelement>).

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLElementBinding::HTMLElementMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::mouseevent::MouseEvent;
use crate::dom::nodes::cssstyledeclaration::CSSStyleDeclaration;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::documentfragment::DocumentFragment;
use crate::dom::nodes::domstringmap::DOMStringMap;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::text::Text;

#[derive(JSTraceable)]
pub struct HTMLElement {
    element: Element,
    /// <https://html.spec.whatwg.org/multipage/interaction.html#click-in-progress-flag>
    click_in_progress: Cell<bool>,
    /// The element's `CSSStyleDeclaration` for its `style` attribute
    /// (<https://drafts.csswg.org/cssom/#dom-elementcssinlinestyle-style>),
    /// made on first use.
    style: MutNullableDom<CSSStyleDeclaration>,
    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-dataset>'s
    /// `DOMStringMap`, made on first use.
    dataset: MutNullableDom<DOMStringMap>,
}

impl AsRef<Element> for HTMLElement {
    fn as_ref(&self) -> &Element {
        &self.element
    }
}

impl HTMLElement {
    pub fn new_inherited(element: Element) -> HTMLElement {
        HTMLElement {
            element,
            click_in_progress: Cell::new(false),
            style: MutNullableDom::default(),
            dataset: MutNullableDom::default(),
        }
    }

    /// The element's inline style declaration block, if `style` was read.
    pub fn existing_style(&self) -> Option<DomRoot<CSSStyleDeclaration>> {
        self.style.get()
    }

    pub fn upcast_element(&self) -> &Element {
        &self.element
    }
}

/// The elements that are disabled form controls when they have a
/// `disabled` attribute
/// (<https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#concept-fe-disabled>;
/// a `fieldset` ancestor's `disabled` is not taken into account).
const DISABLEABLE: &[&str] = &["button", "input", "select", "textarea"];

impl HTMLElementMethods for HTMLElement {
    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-innertext>
    fn InnerText(&self, _cx: &mut JSContext) -> DOMString {
        // Step 1: If this is not being rendered or if the user agent is a
        // non-CSS user agent, then return this's descendant text content
        // (the shell renders nothing).
        self.element.upcast_node().descendant_text_content()
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#set-the-inner-text-steps>
    fn SetInnerText(&self, cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        let node = self.element.upcast_node();
        let Some(document) = node.owner_doc() else {
            return Ok(());
        };
        // Step 1: Let fragment be the rendered text fragment for value
        // given element's node document.
        let fragment = rendered_text_fragment(cx, &document, &value)?;
        // Step 2: Replace all with fragment within element.
        node.replace_all(Some(fragment.upcast_node()));
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-click>
    fn Click(&self, cx: &mut JSContext) -> Fallible<()> {
        // Step 1: If this element is a form control that is disabled, then
        // return.
        let disabled = DISABLEABLE.iter().any(|name| self.element.is_html(name))
            && self.element.get_attribute("disabled").is_some();
        if disabled {
            return Ok(());
        }
        // Step 2: If this element's click in progress flag is set, then
        // return.
        if self.click_in_progress.get() {
            return Ok(());
        }
        // Step 3: Set this element's click in progress flag.
        self.click_in_progress.set(true);
        // Step 4: Fire a synthetic pointer event named click at this
        // element, with the not trusted flag set.
        let node = self.element.upcast_node();
        let global = node.global();
        let view = node
            .owner_doc()
            .and_then(|d| d.upcast_node().global().as_window().map(DomRoot::from_ref));
        let event = MouseEvent::new_synthetic(cx, global, "click", view.as_deref(), true);
        // "Fire a synthetic pointer event", step 8: Return the result of
        // dispatching event at target.
        node.as_ref().dispatch(cx, event.upcast_event());
        // Step 5: Unset this element's click in progress flag.
        self.click_in_progress.set(false);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-title>: reflects
    /// `title`.
    fn Title(&self, _cx: &mut JSContext) -> DOMString {
        self.element.get_attribute("title").unwrap_or_default()
    }

    fn SetTitle(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element.set_attribute_value("title", &value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-lang>: reflects
    /// `lang`.
    fn Lang(&self, _cx: &mut JSContext) -> DOMString {
        self.element.get_attribute("lang").unwrap_or_default()
    }

    fn SetLang(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.element.set_attribute_value("lang", &value);
        Ok(())
    }

    crate::reflect_bool_attribute!(
        /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-hidden>:
        /// reflects `hidden` (as a boolean).
        |this| this.element, Hidden, SetHidden, "hidden"
    );

    /// <https://html.spec.whatwg.org/multipage/dom.html#dom-dataset>: a
    /// DOMStringMap whose associated element is this, the same object
    /// every time.
    fn Dataset(&self, cx: &mut JSContext) -> DomRoot<DOMStringMap> {
        self.dataset
            .or_init(|| DOMStringMap::new(cx, &self.element))
    }

    crate::html_or_svg_element_focus_methods!();

    /// <https://drafts.csswg.org/cssom-view/#dom-htmlelement-offsetparent>
    /// Step 1: If this element does not have an associated box (no element
    /// has one: the shell has no layout), return null.
    fn OffsetParent(&self, _cx: &mut JSContext) -> Option<DomRoot<Element>> {
        None
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-htmlelement-offsettop>
    /// Step 1: If this element does not have an associated box, return 0.
    fn OffsetTop(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-htmlelement-offsetleft>
    /// Step 1: If this element does not have an associated box, return 0.
    fn OffsetLeft(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-htmlelement-offsetwidth>
    /// Step 1: If this element does not have an associated box, return 0.
    fn OffsetWidth(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom-view/#dom-htmlelement-offsetheight>
    /// Step 1: If this element does not have an associated box, return 0.
    fn OffsetHeight(&self, _cx: &mut JSContext) -> i32 {
        0
    }

    /// <https://drafts.csswg.org/cssom/#dom-elementcssinlinestyle-style>:
    /// the element's CSS declaration block for its `style` attribute, the
    /// same object every time.
    fn Style(&self, cx: &mut JSContext) -> DomRoot<CSSStyleDeclaration> {
        self.style
            .or_init(|| CSSStyleDeclaration::new_for_element(cx, &self.element))
    }
}

/// <https://html.spec.whatwg.org/multipage/dom.html#rendered-text-fragment>
fn rendered_text_fragment(
    cx: &mut JSContext,
    document: &Document,
    input: &str,
) -> Fallible<DomRoot<DocumentFragment>> {
    // Step 1: Let fragment be a new DocumentFragment whose node document is
    // document.
    let fragment = DocumentFragment::new(cx, document);
    let global = document.upcast_node().global();
    // Step 2: Let position be a position variable for input, initially
    // pointing at the start of input.
    let mut rest = input;
    // Step 4: While position is not past the end of input:
    while !rest.is_empty() {
        // Step 4.1: Collect a sequence of code points that are not U+000A
        // LF or U+000D CR from input given position, and set text to the
        // result.
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let (text, after) = rest.split_at(end);
        rest = after;
        // Step 4.2: If text is not the empty string, then append a new Text
        // node whose data is text and node document is document to
        // fragment.
        if !text.is_empty() {
            let node = Text::new(cx, global, Some(document), text);
            fragment.upcast_node().append(node.upcast_node())?;
        }
        // Step 4.3: While position is not past the end of input, and the
        // code point at position is either U+000A LF or U+000D CR:
        while let Some(c) = rest.chars().next().filter(|c| matches!(c, '\n' | '\r')) {
            // Step 4.3.1: If the code point at position is U+000D CR and the
            // next code point is U+000A LF, then advance position to the
            // next code point in input.
            // Step 4.3.2: Advance position to the next code point in input.
            rest = if c == '\r' && rest[1..].starts_with('\n') {
                &rest[2..]
            } else {
                &rest[1..]
            };
            // Step 4.3.3: Append the result of creating an element given
            // document, "br", and the HTML namespace to fragment.
            let br = Element::create(cx, document, Some(HTML_NAMESPACE), None, "br", Vec::new());
            fragment.upcast_node().append(br.upcast_node())?;
        }
    }
    // Step 5: Return fragment.
    Ok(fragment)
}
