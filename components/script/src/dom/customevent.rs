//! `CustomEvent` (<https://dom.spec.whatwg.org/#interface-customevent>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::JSVal;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::CustomEventBinding::CustomEventMethods;
use crate::dom::bindings::codegen::CustomEventInit;
use crate::dom::bindings::conversions::{DOMString, RootedJsValue};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::event::Event;
use crate::dom::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct CustomEvent {
    event: Event,
    /// <https://dom.spec.whatwg.org/#dom-customevent-detail>
    detail: Box<Heap<JSVal>>,
}

impl AsRef<Event> for CustomEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl CustomEventMethods for CustomEvent {
    fn Detail(&self, _cx: &mut JSContext) -> RootedJsValue {
        let value = RootedJsValue::new(Heap::default());
        value.set(self.detail.get());
        value
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: CustomEventInit,
    ) -> Fallible<DomRoot<CustomEvent>> {
        // Step 1: Let event be the result of running the inner event
        // creation steps with this interface, null, now, and eventInitDict.
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(CustomEvent {
                event: Event::new_inherited(global.now()),
                detail: Heap::boxed(init.detail.get()),
            }),
            proto,
        );
        // Step 2: Initialize event's type attribute to type (and the
        // dictionary members; the initialized flag).
        event
            .event
            .initialize(&type_, init.parent.bubbles, init.parent.cancelable);
        // Step 3: Return event.
        Ok(event)
    }
}
