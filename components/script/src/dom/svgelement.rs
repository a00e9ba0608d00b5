//! `SVGElement` (<https://svgwg.org/svg2-draft/types.html#InterfaceSVGElement>),
//! the interface of every element in the SVG namespace (the shell
//! implements no more specific SVG interface).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::FocusOptions;
use crate::dom::bindings::codegen::SVGElementBinding::SVGElementMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::element::Element;

#[derive(JSTraceable)]
pub struct SVGElement {
    element: Element,
}

impl AsRef<Element> for SVGElement {
    fn as_ref(&self) -> &Element {
        &self.element
    }
}

impl SVGElement {
    pub fn new_inherited(element: Element) -> SVGElement {
        SVGElement { element }
    }
}

impl SVGElementMethods for SVGElement {
    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-tabindex>
    fn TabIndex(&self, _cx: &mut JSContext) -> i32 {
        crate::dom::focus::tab_index(&self.element)
    }

    fn SetTabIndex(&self, _cx: &mut JSContext, value: i32) -> Fallible<()> {
        self.element.set_reflected_long("tabindex", value);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-focus>
    fn Focus(&self, cx: &mut JSContext, _options: FocusOptions) -> Fallible<()> {
        crate::dom::focus::focus_method(cx, &self.element);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/interaction.html#dom-blur>
    fn Blur(&self, cx: &mut JSContext) -> Fallible<()> {
        crate::dom::focus::unfocusing_steps(cx, &self.element);
        Ok(())
    }
}
