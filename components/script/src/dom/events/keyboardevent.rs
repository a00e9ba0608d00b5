//! `KeyboardEvent` (<https://w3c.github.io/uievents/#interface-keyboardevent>,
//! with the legacy `charCode` and `keyCode`).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::KeyboardEventBinding::KeyboardEventMethods;
use crate::dom::bindings::codegen::KeyboardEventInit;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::uievent::{modifier_key_methods, ModifierState, UIEvent};
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct KeyboardEvent {
    uievent: UIEvent,
    key: DOMString,
    code: DOMString,
    location: u32,
    #[no_trace]
    modifiers: ModifierState,
    repeat: bool,
    is_composing: bool,
    char_code: u32,
    key_code: u32,
}

impl AsRef<UIEvent> for KeyboardEvent {
    fn as_ref(&self) -> &UIEvent {
        &self.uievent
    }
}

impl KeyboardEventMethods for KeyboardEvent {
    /// <https://w3c.github.io/uievents/#dom-keyboardevent-keyboardevent>:
    /// the event constructor
    /// (<https://dom.spec.whatwg.org/#concept-event-constructor>).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: KeyboardEventInit,
    ) -> Fallible<DomRoot<KeyboardEvent>> {
        Ok(UIEvent::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent.parent,
            |uievent| KeyboardEvent {
                uievent,
                key: init.key.clone(),
                code: init.code.clone(),
                location: init.location,
                modifiers: ModifierState::from_init(&init.parent),
                repeat: init.repeat,
                is_composing: init.is_composing,
                char_code: init.char_code,
                key_code: init.key_code,
            },
        ))
    }

    fn Key(&self, _cx: &mut JSContext) -> DOMString {
        self.key.clone()
    }

    fn Code(&self, _cx: &mut JSContext) -> DOMString {
        self.code.clone()
    }

    fn Location(&self, _cx: &mut JSContext) -> u32 {
        self.location
    }

    fn Repeat(&self, _cx: &mut JSContext) -> bool {
        self.repeat
    }

    fn IsComposing(&self, _cx: &mut JSContext) -> bool {
        self.is_composing
    }

    /// <https://w3c.github.io/uievents/#dom-keyboardevent-charcode>
    fn CharCode(&self, _cx: &mut JSContext) -> u32 {
        self.char_code
    }

    /// <https://w3c.github.io/uievents/#dom-keyboardevent-keycode>
    fn KeyCode(&self, _cx: &mut JSContext) -> u32 {
        self.key_code
    }

    modifier_key_methods!();
}
