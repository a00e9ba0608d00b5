//! `SubmitEvent` (<https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#the-submitevent-interface>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::SubmitEventBinding::SubmitEventMethods;
use crate::dom::bindings::codegen::SubmitEventInit;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::event::Event;
use crate::dom::globalscope::GlobalScope;
use crate::dom::htmlelement::HTMLElement;

#[derive(JSTraceable)]
pub struct SubmitEvent {
    event: Event,
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-submitevent-submitter>
    submitter: MutNullableDom<HTMLElement>,
}

impl AsRef<Event> for SubmitEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl SubmitEvent {
    /// The `submit` event the form submission algorithm fires (Step 6.6:
    /// bubbles and cancelable, trusted, its submitter `submitter`).
    pub fn new_submit(
        cx: &mut JSContext,
        global: &GlobalScope,
        submitter: Option<&HTMLElement>,
    ) -> DomRoot<SubmitEvent> {
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(SubmitEvent {
                event: Event::new_inherited(global.now()),
                submitter: MutNullableDom::new(submitter),
            }),
            None,
        );
        event.event.initialize("submit", true, true);
        event.event.set_trusted(true);
        event
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl SubmitEventMethods for SubmitEvent {
    /// The event constructor (<https://dom.spec.whatwg.org/#concept-event-constructor>).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: SubmitEventInit,
    ) -> Fallible<DomRoot<SubmitEvent>> {
        // Step 1: Let event be the result of running the inner event
        // creation steps with this interface, null, now, and eventInitDict.
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(SubmitEvent {
                event: Event::new_inherited(global.now()),
                submitter: MutNullableDom::new(init.submitter.as_deref()),
            }),
            proto,
        );
        // Step 2: Initialize event's type attribute to type.
        event
            .event
            .initialize(&type_, init.parent.bubbles, init.parent.cancelable);
        event.event.set_composed(init.parent.composed);
        // Step 3: Return event.
        Ok(event)
    }

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-submitevent-submitter>
    fn Submitter(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLElement>> {
        self.submitter.get()
    }
}
