//! `DOMRect` (<https://drafts.fxtf.org/geometry/#domrect>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::DOMRectBinding::DOMRectMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::nodes::domrectreadonly::DOMRectReadOnly;

#[derive(JSTraceable)]
pub struct DOMRect {
    rect: DOMRectReadOnly,
}

impl AsRef<DOMRectReadOnly> for DOMRect {
    fn as_ref(&self) -> &DOMRectReadOnly {
        &self.rect
    }
}

impl DOMRect {
    pub fn new(
        cx: &mut JSContext,
        global: &GlobalScope,
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    ) -> DomRoot<DOMRect> {
        reflect_dom_object(
            cx,
            global,
            Box::new(DOMRect {
                rect: DOMRectReadOnly::new_inherited(x, y, width, height),
            }),
            None,
        )
    }
}

impl DOMRectMethods for DOMRect {
    /// <https://drafts.fxtf.org/geometry/#dom-domrect-domrect>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    ) -> Fallible<DomRoot<DOMRect>> {
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(DOMRect {
                rect: DOMRectReadOnly::new_inherited(x, y, width, height),
            }),
            proto,
        ))
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrect-x>
    fn X(&self, _cx: &mut JSContext) -> f64 {
        self.rect.x()
    }

    fn SetX(&self, _cx: &mut JSContext, value: f64) -> Fallible<()> {
        self.rect.set_x(value);
        Ok(())
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrect-y>
    fn Y(&self, _cx: &mut JSContext) -> f64 {
        self.rect.y()
    }

    fn SetY(&self, _cx: &mut JSContext, value: f64) -> Fallible<()> {
        self.rect.set_y(value);
        Ok(())
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrect-width>
    fn Width(&self, _cx: &mut JSContext) -> f64 {
        self.rect.width()
    }

    fn SetWidth(&self, _cx: &mut JSContext, value: f64) -> Fallible<()> {
        self.rect.set_width(value);
        Ok(())
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrect-height>
    fn Height(&self, _cx: &mut JSContext) -> f64 {
        self.rect.height()
    }

    fn SetHeight(&self, _cx: &mut JSContext, value: f64) -> Fallible<()> {
        self.rect.set_height(value);
        Ok(())
    }
}
