//! `Performance` (<https://w3c.github.io/hr-time/#sec-performance>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::PerformanceBinding::PerformanceMethods;
use crate::dom::bindings::conversions::Finite;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct Performance {
    eventtarget: EventTarget,
}

impl AsRef<EventTarget> for Performance {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl Performance {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<Performance> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Performance {
                eventtarget: EventTarget::new_inherited(),
            }),
            None,
        )
    }
}

impl PerformanceMethods for Performance {
    /// <https://w3c.github.io/hr-time/#dom-performance-now>: the current
    /// high resolution time given this's relevant global object (coarsened
    /// to 100 µs, or 5 µs when cross-origin isolated).
    fn Now(&self, _cx: &mut JSContext) -> Fallible<Finite<f64>> {
        Ok(Finite::<f64>::wrap(self.global_scope().coarsened_now()))
    }

    /// <https://w3c.github.io/hr-time/#dom-performance-timeorigin>: this's
    /// relevant global object's time origin as a timestamp from the Unix
    /// epoch (the coarsened "unsafe shared current time" at the origin).
    fn TimeOrigin(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.global_scope().time_origin_epoch_ms())
    }
}
