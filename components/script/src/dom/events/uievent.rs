//! `UIEvent` (<https://w3c.github.io/uievents/#interface-uievent>), and the
//! modifier key state of `EventModifierInit`
//! (<https://w3c.github.io/uievents/#dictdef-eventmodifierinit>) that
//! `MouseEvent` and `KeyboardEvent` share.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::UIEventBinding::UIEventMethods;
use crate::dom::bindings::codegen::{EventModifierInit, UIEventInit};
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObjectIface};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;

#[derive(JSTraceable)]
pub struct UIEvent {
    event: Event,
    /// <https://w3c.github.io/uievents/#dom-uievent-view>
    view: MutNullableDom<Window>,
    /// <https://w3c.github.io/uievents/#dom-uievent-detail>
    detail: i32,
}

impl AsRef<Event> for UIEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl UIEvent {
    /// A `UIEvent` part with `UIEventInit`'s members (for the derived
    /// interfaces' constructors).
    pub fn new_inherited(time_stamp: f64, init: &UIEventInit) -> UIEvent {
        UIEvent {
            event: Event::new_inherited(time_stamp),
            view: MutNullableDom::new(init.view.as_deref()),
            detail: init.detail,
        }
    }

    /// A `UIEvent` part for an event the user agent creates (`view` the
    /// window it is fired in).
    pub fn new_for_window(time_stamp: f64, view: Option<&Window>, detail: i32) -> UIEvent {
        UIEvent {
            event: Event::new_inherited(time_stamp),
            view: MutNullableDom::new(view),
            detail,
        }
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor> for an
    /// interface that inherits from `UIEvent` ([`Event::construct`]):
    /// `make` builds the object from its `UIEvent` part, which `init`
    /// initializes.
    pub fn construct<T: DomObjectIface + AsRef<UIEvent>>(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: &str,
        init: &UIEventInit,
        make: impl FnOnce(UIEvent) -> T,
    ) -> DomRoot<T> {
        // Step 1: Let event be the result of running the inner event
        // creation steps with this interface, null, now, and eventInitDict.
        let ui_event = UIEvent::new_inherited(global.now(), init);
        let event = reflect_dom_object(cx, global, Box::new(make(ui_event)), proto);
        // Step 2: Initialize event's type attribute to type.
        let base = AsRef::<UIEvent>::as_ref(&*event).upcast_event();
        base.initialize_from(type_, &init.parent);
        // Step 3: Return event.
        event
    }
}

impl UIEventMethods for UIEvent {
    /// <https://w3c.github.io/uievents/#dom-uievent-uievent>: the event
    /// constructor (<https://dom.spec.whatwg.org/#concept-event-constructor>).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: UIEventInit,
    ) -> Fallible<DomRoot<UIEvent>> {
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| UIEvent::new_inherited(now, &init),
        ))
    }

    /// <https://w3c.github.io/uievents/#dom-uievent-view>
    fn View(&self, _cx: &mut JSContext) -> Option<DomRoot<Window>> {
        self.view.get()
    }

    /// <https://w3c.github.io/uievents/#dom-uievent-detail>
    fn Detail(&self, _cx: &mut JSContext) -> i32 {
        self.detail
    }
}

/// The state of the modifier keys an event was initialized with
/// (`EventModifierInit`), read by `getModifierState()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModifierState {
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
    pub meta: bool,
    alt_graph: bool,
    caps_lock: bool,
    fn_: bool,
    fn_lock: bool,
    hyper: bool,
    num_lock: bool,
    scroll_lock: bool,
    super_: bool,
    symbol: bool,
    symbol_lock: bool,
}

impl ModifierState {
    pub fn from_init(init: &EventModifierInit) -> ModifierState {
        ModifierState {
            ctrl: init.ctrl_key,
            shift: init.shift_key,
            alt: init.alt_key,
            meta: init.meta_key,
            alt_graph: init.modifier_alt_graph,
            caps_lock: init.modifier_caps_lock,
            fn_: init.modifier_fn,
            fn_lock: init.modifier_fn_lock,
            hyper: init.modifier_hyper,
            num_lock: init.modifier_num_lock,
            scroll_lock: init.modifier_scroll_lock,
            super_: init.modifier_super,
            symbol: init.modifier_symbol,
            symbol_lock: init.modifier_symbol_lock,
        }
    }

    /// <https://w3c.github.io/uievents/#dom-mouseevent-getmodifierstate>
    /// and <https://w3c.github.io/uievents/#dom-keyboardevent-getmodifierstate>:
    /// whether the modifier key named `key` (a key value, case-sensitive)
    /// was active; false for any other string.
    pub fn get(&self, key: &str) -> bool {
        match key {
            "Alt" => self.alt,
            "AltGraph" => self.alt_graph,
            "CapsLock" => self.caps_lock,
            "Control" => self.ctrl,
            "Fn" => self.fn_,
            "FnLock" => self.fn_lock,
            "Hyper" => self.hyper,
            "Meta" => self.meta,
            "NumLock" => self.num_lock,
            "ScrollLock" => self.scroll_lock,
            "Shift" => self.shift,
            "Super" => self.super_,
            "Symbol" => self.symbol,
            "SymbolLock" => self.symbol_lock,
            _ => false,
        }
    }
}

/// The members `MouseEvent` and `KeyboardEvent` both have over their
/// `EventModifierInit` state (a struct field `modifiers: ModifierState`):
/// the `ctrlKey`, `shiftKey`, `altKey` and `metaKey` getters, and
/// `getModifierState()`
/// (<https://w3c.github.io/uievents/#dom-mouseevent-getmodifierstate>,
/// <https://w3c.github.io/uievents/#dom-keyboardevent-getmodifierstate>).
macro_rules! modifier_key_methods {
    () => {
        fn CtrlKey(&self, _cx: &mut JSContext) -> bool {
            self.modifiers.ctrl
        }

        fn ShiftKey(&self, _cx: &mut JSContext) -> bool {
            self.modifiers.shift
        }

        fn AltKey(&self, _cx: &mut JSContext) -> bool {
            self.modifiers.alt
        }

        fn MetaKey(&self, _cx: &mut JSContext) -> bool {
            self.modifiers.meta
        }

        fn GetModifierState(&self, _cx: &mut JSContext, key: DOMString) -> Fallible<bool> {
            Ok(self.modifiers.get(&key))
        }
    };
}
pub(crate) use modifier_key_methods;
