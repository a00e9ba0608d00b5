//! `PopStateEvent` (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-popstateevent-interface>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::JSVal;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::PopStateEventBinding::PopStateEventMethods;
use crate::dom::bindings::codegen::PopStateEventInit;
use crate::dom::bindings::conversions::{DOMString, RootedJsValue};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::event::Event;
use crate::dom::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct PopStateEvent {
    event: Event,
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-popstateevent-state>
    state: Box<Heap<JSVal>>,
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-popstateevent-hasuavisualtransition>
    has_ua_visual_transition: bool,
}

impl AsRef<Event> for PopStateEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl PopStateEvent {
    /// A trusted `popstate` event (not bubbling, not cancelable) with
    /// `state`, a value of `global`'s realm; the shell makes no visual
    /// transition.
    pub fn new_trusted(
        cx: &mut JSContext,
        global: &GlobalScope,
        state: JSVal,
    ) -> DomRoot<PopStateEvent> {
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(PopStateEvent {
                event: Event::new_inherited(global.now()),
                state: Heap::boxed(state),
                has_ua_visual_transition: false,
            }),
            None,
        );
        event.event.initialize("popstate", false, false);
        event.event.set_trusted(true);
        event
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl PopStateEventMethods for PopStateEvent {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-popstateevent-state>
    fn State(&self, _cx: &mut JSContext) -> RootedJsValue {
        let value = RootedJsValue::new(Heap::default());
        value.set(self.state.get());
        value
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-popstateevent-hasuavisualtransition>
    fn HasUAVisualTransition(&self, _cx: &mut JSContext) -> bool {
        self.has_ua_visual_transition
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: PopStateEventInit,
    ) -> Fallible<DomRoot<PopStateEvent>> {
        // Step 1: Let event be the result of running the inner event
        // creation steps with this interface, null, now, and eventInitDict.
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(PopStateEvent {
                event: Event::new_inherited(global.now()),
                state: Heap::boxed(init.state.get()),
                has_ua_visual_transition: init.has_uavisual_transition,
            }),
            proto,
        );
        // Step 2: Initialize event's type attribute to type.
        event
            .event
            .initialize(&type_, init.parent.bubbles, init.parent.cancelable);
        // Step 3: Return event.
        Ok(event)
    }
}
