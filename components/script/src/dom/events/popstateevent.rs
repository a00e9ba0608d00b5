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
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

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
        Event::new_trusted(cx, global, "popstate", false, false, |now| PopStateEvent {
            event: Event::new_inherited(now),
            state: Heap::boxed(state),
            has_ua_visual_transition: false,
        })
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
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| PopStateEvent {
                event: Event::new_inherited(now),
                state: Heap::boxed(init.state.get()),
                has_ua_visual_transition: init.has_uavisual_transition,
            },
        ))
    }
}
