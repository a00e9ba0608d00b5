//! `MouseEvent` (<https://w3c.github.io/uievents/#interface-mouseevent>,
//! coordinates as CSSOM View's doubles); also the event `click()` fires.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::MouseEventBinding::MouseEventMethods;
use crate::dom::bindings::codegen::MouseEventInit;
use crate::dom::bindings::conversions::{DOMString, Finite};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::uievent::{modifier_key_methods, ModifierState, UIEvent};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;

#[derive(JSTraceable)]
pub struct MouseEvent {
    uievent: UIEvent,
    screen_x: f64,
    screen_y: f64,
    client_x: f64,
    client_y: f64,
    #[no_trace]
    modifiers: ModifierState,
    button: i16,
    buttons: u16,
    related_target: MutNullableDom<EventTarget>,
}

impl AsRef<UIEvent> for MouseEvent {
    fn as_ref(&self) -> &UIEvent {
        &self.uievent
    }
}

impl MouseEvent {
    /// "Fire a synthetic pointer event"
    /// (<https://html.spec.whatwg.org/multipage/webappapis.html#fire-a-synthetic-pointer-event>)
    /// steps 1-5: a `MouseEvent` named `type_` (bubbles, cancelable,
    /// composed; isTrusted false when `not_trusted`), its view the
    /// target's node document's Window, every modifier key up and all
    /// coordinates 0 (no input device). HTML makes it a `PointerEvent`;
    /// that interface does not exist here, so it is its base interface.
    pub fn new_synthetic(
        cx: &mut JSContext,
        global: &GlobalScope,
        type_: &str,
        view: Option<&Window>,
        not_trusted: bool,
    ) -> DomRoot<MouseEvent> {
        // Step 1: Let event be the result of creating an event using
        // PointerEvent.
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(MouseEvent {
                uievent: UIEvent::new_for_window(global.now(), view, 0),
                screen_x: 0.0,
                screen_y: 0.0,
                client_x: 0.0,
                client_y: 0.0,
                modifiers: ModifierState::default(),
                button: 0,
                buttons: 0,
                related_target: MutNullableDom::default(),
            }),
            None,
        );
        // Step 2: Initialize event's type attribute to e.
        // Step 3: Initialize event's bubbles and cancelable attributes to
        // true.
        let base: &Event = event.uievent.upcast_event();
        base.initialize(type_, true, true);
        // Step 4: Set event's composed flag.
        base.set_composed(true);
        // Step 5: If the not trusted flag is set, initialize event's
        // isTrusted attribute to false.
        base.set_trusted(!not_trusted);
        // Steps 6-7: the key state (all up) and view (above).
        event
    }

    pub fn upcast_event(&self) -> &Event {
        self.uievent.upcast_event()
    }
}

impl MouseEventMethods for MouseEvent {
    /// <https://w3c.github.io/uievents/#dom-mouseevent-mouseevent>: the
    /// event constructor (<https://dom.spec.whatwg.org/#concept-event-constructor>).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: MouseEventInit,
    ) -> Fallible<DomRoot<MouseEvent>> {
        Ok(UIEvent::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent.parent,
            |uievent| MouseEvent {
                uievent,
                screen_x: *init.screen_x,
                screen_y: *init.screen_y,
                client_x: *init.client_x,
                client_y: *init.client_y,
                modifiers: ModifierState::from_init(&init.parent),
                button: init.button,
                buttons: init.buttons,
                related_target: MutNullableDom::new(init.related_target.as_deref()),
            },
        ))
    }

    fn ScreenX(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.screen_x)
    }

    fn ScreenY(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.screen_y)
    }

    fn ClientX(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.client_x)
    }

    fn ClientY(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.client_y)
    }

    fn Button(&self, _cx: &mut JSContext) -> i16 {
        self.button
    }

    fn Buttons(&self, _cx: &mut JSContext) -> u16 {
        self.buttons
    }

    fn RelatedTarget(&self, _cx: &mut JSContext) -> Option<DomRoot<EventTarget>> {
        self.related_target.get()
    }

    modifier_key_methods!();
}
