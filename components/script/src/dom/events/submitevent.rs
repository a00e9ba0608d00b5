//! `SubmitEvent` (<https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#the-submitevent-interface>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::SubmitEventBinding::SubmitEventMethods;
use crate::dom::bindings::codegen::SubmitEventInit;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::html::htmlelement::HTMLElement;

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
        Event::new_trusted(cx, global, "submit", true, true, |now| SubmitEvent {
            event: Event::new_inherited(now),
            submitter: MutNullableDom::new(submitter),
        })
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
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| SubmitEvent {
                event: Event::new_inherited(now),
                submitter: MutNullableDom::new(init.submitter.as_deref()),
            },
        ))
    }

    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#dom-submitevent-submitter>
    fn Submitter(&self, _cx: &mut JSContext) -> Option<DomRoot<HTMLElement>> {
        self.submitter.get()
    }
}
