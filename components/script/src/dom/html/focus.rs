//! Focus (<https://html.spec.whatwg.org/multipage/interaction.html#focus>):
//! focusable areas, the focusing and unfocusing steps, the focus update
//! steps and `tabIndex`, shared by `HTMLElement` and `SVGElement`.
//!
//! The shell has no layout: every connected element counts as being
//! rendered, and there is no viewport scrolling (`preventScroll` has
//! nothing to prevent). Each document keeps its own focused area; there
//! is no system focus across documents.

use mozjs::context::JSContext;

use crate::dom::bindings::root::DomRoot;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::focusevent::FocusEvent;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};

/// Whether `element` is a focusable area
/// (<https://html.spec.whatwg.org/multipage/interaction.html#focusable-area>):
/// an element whose tabindex value is non-null, or one of the elements the
/// table lists (`a`/`area` with `href`, `input` not in the Hidden state,
/// `button`, `select` and `textarea` that are not disabled, `iframe`,
/// `summary`), connected (being rendered, without layout).
pub fn is_focusable_area(element: &Element) -> bool {
    if !element.upcast_node().is_connected() {
        return false;
    }
    let html = element.namespace() == Some(HTML_NAMESPACE);
    let disabled =
        html && matches!(
            element.local_name(),
            "button" | "input" | "select" | "textarea"
        ) && element.get_attribute("disabled").is_some();
    if disabled {
        return false;
    }
    if tab_index_value(element).is_some() {
        return true;
    }
    if !html {
        return false;
    }
    match element.local_name() {
        "a" | "area" => element.get_attribute("href").is_some(),
        "input" => !element
            .get_attribute("type")
            .is_some_and(|t| t.eq_ignore_ascii_case("hidden")),
        "button" | "select" | "textarea" | "iframe" | "summary" => true,
        _ => false,
    }
}

/// The tabindex value
/// (<https://html.spec.whatwg.org/multipage/interaction.html#tabindex-value>):
/// the `tabindex` attribute parsed with the rules for parsing integers,
/// or null.
fn tab_index_value(element: &Element) -> Option<i32> {
    element
        .get_attribute("tabindex")
        .and_then(|v| crate::dom::nodes::reflection::parse_integer(&v))
        .and_then(|v| i32::try_from(v).ok())
}

/// <https://html.spec.whatwg.org/multipage/interaction.html#dom-tabindex>:
/// the tabindex value if there is one, else 0 for `a`, `area`, `button`,
/// `frame`, `iframe`, `input`, `object`, `select`, `textarea`, SVG `a`,
/// and `summary` elements that are a summary for their parent details, and
/// -1 for every other element.
pub fn tab_index(element: &Element) -> i32 {
    if let Some(value) = tab_index_value(element) {
        return value;
    }
    let zero = if element.namespace() == Some(HTML_NAMESPACE) {
        matches!(
            element.local_name(),
            "a" | "area"
                | "button"
                | "frame"
                | "iframe"
                | "input"
                | "object"
                | "select"
                | "textarea"
                | "summary"
        )
    } else {
        element.namespace() == Some("http://www.w3.org/2000/svg") && element.local_name() == "a"
    };
    if zero {
        0
    } else {
        -1
    }
}

/// <https://html.spec.whatwg.org/multipage/interaction.html#dom-focus>
pub fn focus_method(cx: &mut JSContext, element: &Element) {
    // Step 1: If the allow focus steps given this's node document return
    // false, then return (focus is always allowed: no sandboxing or
    // iframe policies here).
    // Step 2: Run the focusing steps for this.
    focusing_steps(cx, element);
    // Step 3-4: scroll into view (no viewport).
}

/// <https://html.spec.whatwg.org/multipage/interaction.html#focusing-steps>
/// for a new focus target that is an element.
pub fn focusing_steps(cx: &mut JSContext, new_focus_target: &Element) {
    // Step 1: If new focus target is not a focusable area (and not a
    // navigable container, shadow host or area with a shadow-including
    // focusable descendant), then return.
    if !is_focusable_area(new_focus_target) {
        return;
    }
    let Some(document) = new_focus_target.upcast_node().owner_doc() else {
        return;
    };
    // Step 2-4: the target is its own focusable area (no
    // navigables or delegates).
    // Step 5: If new focus target is the currently focused area of a
    // top-level traversable, then return.
    let old = document.focused_element();
    if old
        .as_ref()
        .is_some_and(|o| std::ptr::eq::<Element>(&**o, new_focus_target))
    {
        return;
    }
    // Step 6-7: the old chain is the focused element (then the document,
    // shared with the new chain and so dropped by the focus update steps);
    // the new chain is the new focus target.
    // Step 8: Run the focus update steps with old chain, new chain, and
    // new focus target respectively.
    focus_update_steps(cx, &document, old.as_deref(), Some(new_focus_target));
}

/// <https://html.spec.whatwg.org/multipage/interaction.html#unfocusing-steps>
pub fn unfocusing_steps(cx: &mut JSContext, old_focus_target: &Element) {
    let Some(document) = old_focus_target.upcast_node().owner_doc() else {
        return;
    };
    // Steps 1-4: the old focus target is its own focusable area.
    // Step 5: If old focus target is not the currently focused area, then
    // return.
    let focused = document.focused_element();
    if !focused
        .as_ref()
        .is_some_and(|f| std::ptr::eq::<Element>(&**f, old_focus_target))
    {
        return;
    }
    // Step 6: Let old chain be the current focus chain.
    // Step 7-9: the topmost navigable's viewport gets the focus: run the
    // focus update steps with old chain, the viewport's chain and the
    // viewport.
    focus_update_steps(cx, &document, Some(old_focus_target), None);
}

/// <https://html.spec.whatwg.org/multipage/interaction.html#focus-update-steps>,
/// with UI Events' `focusout` after `blur` and `focusin` after `focus`
/// (<https://w3c.github.io/uievents/#events-focusevent-event-order>, the
/// order Chromium fires them in). `new` None is the document's viewport.
fn focus_update_steps(
    cx: &mut JSContext,
    document: &crate::dom::nodes::document::Document,
    old: Option<&Element>,
    new: Option<&Element>,
) {
    // Step 1: the last entries of both chains (the document) are the same
    // and are removed.
    // Step 2: For each entry in old chain: (an input whose value changed
    // since it got the focus fires change here: the shell has no user
    // editing, so no value changes while focused without script).
    if let Some(old) = old {
        // Step 2.2: If entry is an element, let blur event target be
        // entry.
        // Step 2.4: If blur event target is not null, fire a focus event
        // named blur at blur event target, with related blur target (the
        // new focus target when it is an element in the same tree) as the
        // related target.
        let related = new.map(|n| n.upcast_node().as_ref() as &EventTarget);
        fire_focus_event(cx, old, "blur", false, related);
        fire_focus_event(cx, old, "focusout", true, related);
    }
    // Step 3: Apply any relevant platform-specific conventions for
    // focusing new focus target; set the focused area of the document.
    document.set_focused_element(new);
    // Step 4: For each entry in new chain, in reverse order: if entry is a
    // focusable area, designate it as the focused area of the document;
    // fire a focus event named focus at it, with related focus target.
    if let Some(new) = new {
        let related = old.map(|o| o.upcast_node().as_ref() as &EventTarget);
        fire_focus_event(cx, new, "focus", false, related);
        fire_focus_event(cx, new, "focusin", true, related);
    }
}

/// <https://html.spec.whatwg.org/multipage/interaction.html#fire-a-focus-event>
fn fire_focus_event(
    cx: &mut JSContext,
    target: &Element,
    type_: &str,
    bubbles: bool,
    related: Option<&EventTarget>,
) {
    let node = target.upcast_node();
    let global = node.global();
    let view = global.as_window().map(DomRoot::from_ref);
    let event = FocusEvent::new_for_ua(cx, global, type_, bubbles, view.as_deref(), related);
    node.as_ref().dispatch(cx, event.upcast_event());
}

/// The focus members of the `HTMLOrSVGElement` mixin
/// (<https://html.spec.whatwg.org/multipage/dom.html#htmlorsvgelement>),
/// for `HTMLElement` and `SVGElement`: expanded inside their `…Methods`
/// impls, whose types have an `element: Element` field.
#[macro_export]
macro_rules! html_or_svg_element_focus_methods {
    () => {
        /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-tabindex>
        fn TabIndex(&self, _cx: &mut mozjs::context::JSContext) -> i32 {
            $crate::dom::html::focus::tab_index(&self.element)
        }

        fn SetTabIndex(
            &self,
            _cx: &mut mozjs::context::JSContext,
            value: i32,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.element.set_reflected_long("tabindex", value);
            Ok(())
        }

        /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-focus>
        fn Focus(
            &self,
            cx: &mut mozjs::context::JSContext,
            _options: $crate::dom::bindings::codegen::FocusOptions,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            $crate::dom::html::focus::focus_method(cx, &self.element);
            Ok(())
        }

        /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-blur>
        fn Blur(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            // Step 1: The user agent should run the unfocusing steps given
            // this.
            $crate::dom::html::focus::unfocusing_steps(cx, &self.element);
            Ok(())
        }
    };
}
