//! `SVGElement` (<https://svgwg.org/svg2-draft/types.html#InterfaceSVGElement>),
//! the interface of every element in the SVG namespace (the shell
//! implements no more specific SVG interface).

use jsprof_script_derive::JSTraceable;

use crate::dom::bindings::codegen::SVGElementBinding::SVGElementMethods;
use crate::dom::nodes::element::Element;

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
    crate::html_or_svg_element_focus_methods!();
}
