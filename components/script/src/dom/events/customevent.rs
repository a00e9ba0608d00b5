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
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

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
        let detail = Heap::boxed(init.detail.get());
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| CustomEvent {
                event: Event::new_inherited(now),
                detail,
            },
        ))
    }
}
