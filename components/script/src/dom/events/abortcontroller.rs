//! `AbortController` (<https://dom.spec.whatwg.org/#interface-abortcontroller>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::AbortControllerBinding::AbortControllerMethods;
use crate::dom::bindings::conversions::RootedJsValue;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::events::abortsignal::AbortSignal;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct AbortController {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#abortcontroller-signal>
    signal: Dom<AbortSignal>,
}

impl AbortControllerMethods for AbortController {
    /// <https://dom.spec.whatwg.org/#dom-abortcontroller-abortcontroller>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<AbortController>> {
        // Step 1: Let signal be a new AbortSignal object.
        let signal = AbortSignal::new(cx, global);
        // Step 2: Set this's signal to signal.
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(AbortController {
                reflector: Reflector::new(),
                signal: Dom::from_ref(&signal),
            }),
            proto,
        ))
    }

    /// <https://dom.spec.whatwg.org/#dom-abortcontroller-signal>
    fn Signal(&self, _cx: &mut JSContext) -> DomRoot<AbortSignal> {
        // The signal getter steps are to return this's signal.
        self.signal.root()
    }

    /// <https://dom.spec.whatwg.org/#dom-abortcontroller-abort>
    fn Abort(&self, cx: &mut JSContext, reason: RootedJsValue) -> Fallible<()> {
        // The abort(reason) method steps are to signal abort on this with
        // reason if it is given.
        self.signal.root().signal_abort(cx, reason.get());
        Ok(())
    }
}
