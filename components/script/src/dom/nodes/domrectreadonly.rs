//! `DOMRectReadOnly` (<https://drafts.fxtf.org/geometry/#domrectreadonly>).

use std::cell::Cell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::DOMRectReadOnlyBinding::DOMRectReadOnlyMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct DOMRectReadOnly {
    pub(crate) reflector: Reflector,
    x: Cell<f64>,
    y: Cell<f64>,
    width: Cell<f64>,
    height: Cell<f64>,
}

/// NaN-safe minimum (<https://drafts.fxtf.org/geometry/#dom-domrectreadonly-domrect-top>:
/// "the minimum of", which is NaN when either is NaN).
fn min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

fn max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

impl DOMRectReadOnly {
    pub fn new_inherited(x: f64, y: f64, width: f64, height: f64) -> DOMRectReadOnly {
        DOMRectReadOnly {
            reflector: Reflector::new(),
            x: Cell::new(x),
            y: Cell::new(y),
            width: Cell::new(width),
            height: Cell::new(height),
        }
    }

    pub fn set_x(&self, value: f64) {
        self.x.set(value);
    }

    pub fn set_y(&self, value: f64) {
        self.y.set(value);
    }

    pub fn set_width(&self, value: f64) {
        self.width.set(value);
    }

    pub fn set_height(&self, value: f64) {
        self.height.set(value);
    }

    pub fn x(&self) -> f64 {
        self.x.get()
    }

    pub fn y(&self) -> f64 {
        self.y.get()
    }

    pub fn width(&self) -> f64 {
        self.width.get()
    }

    pub fn height(&self) -> f64 {
        self.height.get()
    }
}

impl DOMRectReadOnlyMethods for DOMRectReadOnly {
    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-domrectreadonly>:
    /// a rectangle with x, y, width and height set to the arguments.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    ) -> Fallible<DomRoot<DOMRectReadOnly>> {
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(DOMRectReadOnly::new_inherited(x, y, width, height)),
            proto,
        ))
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-x>
    fn X(&self, _cx: &mut JSContext) -> f64 {
        self.x.get()
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-y>
    fn Y(&self, _cx: &mut JSContext) -> f64 {
        self.y.get()
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-width>
    fn Width(&self, _cx: &mut JSContext) -> f64 {
        self.width.get()
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-height>
    fn Height(&self, _cx: &mut JSContext) -> f64 {
        self.height.get()
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-top>: the
    /// minimum of y and y + height.
    fn Top(&self, _cx: &mut JSContext) -> f64 {
        min(self.y.get(), self.y.get() + self.height.get())
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-right>: the
    /// maximum of x and x + width.
    fn Right(&self, _cx: &mut JSContext) -> f64 {
        max(self.x.get(), self.x.get() + self.width.get())
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-bottom>: the
    /// maximum of y and y + height.
    fn Bottom(&self, _cx: &mut JSContext) -> f64 {
        max(self.y.get(), self.y.get() + self.height.get())
    }

    /// <https://drafts.fxtf.org/geometry/#dom-domrectreadonly-left>: the
    /// minimum of x and x + width.
    fn Left(&self, _cx: &mut JSContext) -> f64 {
        min(self.x.get(), self.x.get() + self.width.get())
    }
}
