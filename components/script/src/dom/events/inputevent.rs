//! `InputEvent` (<https://w3c.github.io/uievents/#interface-inputevent>,
//! with Input Events' `inputType`).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::InputEventBinding::InputEventMethods;
use crate::dom::bindings::codegen::InputEventInit;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::uievent::UIEvent;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct InputEvent {
    uievent: UIEvent,
    data: Option<DOMString>,
    is_composing: bool,
    input_type: DOMString,
}

impl AsRef<UIEvent> for InputEvent {
    fn as_ref(&self) -> &UIEvent {
        &self.uievent
    }
}

impl InputEventMethods for InputEvent {
    /// <https://w3c.github.io/uievents/#dom-inputevent-inputevent>: the
    /// event constructor (<https://dom.spec.whatwg.org/#concept-event-constructor>).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: InputEventInit,
    ) -> Fallible<DomRoot<InputEvent>> {
        Ok(UIEvent::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |uievent| InputEvent {
                uievent,
                data: init.data.clone(),
                is_composing: init.is_composing,
                input_type: init.input_type.clone(),
            },
        ))
    }

    fn Data(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.data.clone()
    }

    fn IsComposing(&self, _cx: &mut JSContext) -> bool {
        self.is_composing
    }

    fn InputType(&self, _cx: &mut JSContext) -> DOMString {
        self.input_type.clone()
    }
}
