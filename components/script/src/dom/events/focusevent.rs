//! `FocusEvent` (<https://w3c.github.io/uievents/#interface-focusevent>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::FocusEventBinding::FocusEventMethods;
use crate::dom::bindings::codegen::FocusEventInit;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::uievent::UIEvent;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct FocusEvent {
    uievent: UIEvent,
    related_target: MutNullableDom<EventTarget>,
}

impl AsRef<UIEvent> for FocusEvent {
    fn as_ref(&self) -> &UIEvent {
        &self.uievent
    }
}

impl FocusEvent {
    /// <https://html.spec.whatwg.org/multipage/interaction.html#fire-a-focus-event>:
    /// a `FocusEvent` named `type_` the user agent fires (trusted, not
    /// cancelable, composed; `bubbles` for UI Events' `focusin` and
    /// `focusout`), its view `view` and its relatedTarget `related`.
    pub fn new_for_ua(
        cx: &mut JSContext,
        global: &GlobalScope,
        type_: &str,
        bubbles: bool,
        view: Option<&crate::dom::globals::window::Window>,
        related: Option<&EventTarget>,
    ) -> DomRoot<FocusEvent> {
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(FocusEvent {
                uievent: UIEvent::new_for_window(global.now(), view, 0),
                related_target: MutNullableDom::new(related),
            }),
            None,
        );
        let base = event.uievent.upcast_event();
        base.initialize(type_, bubbles, false);
        base.set_composed(true);
        base.set_trusted(true);
        event
    }

    pub fn upcast_event(&self) -> &Event {
        self.uievent.upcast_event()
    }
}

impl FocusEventMethods for FocusEvent {
    /// <https://w3c.github.io/uievents/#dom-focusevent-focusevent>: the
    /// event constructor (<https://dom.spec.whatwg.org/#concept-event-constructor>).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: FocusEventInit,
    ) -> Fallible<DomRoot<FocusEvent>> {
        Ok(UIEvent::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |uievent| FocusEvent {
                uievent,
                related_target: MutNullableDom::new(init.related_target.as_deref()),
            },
        ))
    }

    fn RelatedTarget(&self, _cx: &mut JSContext) -> Option<DomRoot<EventTarget>> {
        self.related_target.get()
    }
}
