//! `PromiseRejectionEvent`
//! (<https://html.spec.whatwg.org/multipage/webappapis.html#promiserejectionevent>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::JSVal;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::PromiseRejectionEventBinding::PromiseRejectionEventMethods;
use crate::dom::bindings::codegen::PromiseRejectionEventInit;
use crate::dom::bindings::conversions::{DOMString, RootedJsObject, RootedJsValue};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct PromiseRejectionEvent {
    event: Event,
    promise: Box<Heap<*mut JSObject>>,
    reason: Box<Heap<JSVal>>,
}

impl AsRef<Event> for PromiseRejectionEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl PromiseRejectionEvent {
    /// A trusted event named `type_` (`unhandledrejection`, cancelable, or
    /// `rejectionhandled`) for `promise` of `global`'s realm.
    pub fn new_trusted(
        cx: &mut JSContext,
        global: &GlobalScope,
        type_: &str,
        cancelable: bool,
        promise: *mut JSObject,
        reason: JSVal,
    ) -> DomRoot<PromiseRejectionEvent> {
        Event::new_trusted(cx, global, type_, false, cancelable, |now| {
            PromiseRejectionEvent {
                event: Event::new_inherited(now),
                promise: Heap::boxed(promise),
                reason: Heap::boxed(reason),
            }
        })
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl PromiseRejectionEventMethods for PromiseRejectionEvent {
    fn Promise(&self, _cx: &mut JSContext) -> RootedJsObject {
        let root = RootedTraceableBox::new(Heap::default());
        root.set(self.promise.get());
        root
    }

    fn Reason(&self, _cx: &mut JSContext) -> RootedJsValue {
        let value = RootedJsValue::new(Heap::default());
        value.set(self.reason.get());
        value
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: PromiseRejectionEventInit,
    ) -> Fallible<DomRoot<PromiseRejectionEvent>> {
        let reason = init
            .reason
            .as_ref()
            .map_or(mozjs::jsval::UndefinedValue(), |r| r.get());
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| PromiseRejectionEvent {
                event: Event::new_inherited(now),
                promise: Heap::boxed(init.promise.get()),
                reason: Heap::boxed(reason),
            },
        ))
    }
}
