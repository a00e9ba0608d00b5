//! `ErrorEvent` (<https://html.spec.whatwg.org/multipage/webappapis.html#errorevent>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::JSVal;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::ErrorEventBinding::ErrorEventMethods;
use crate::dom::bindings::codegen::ErrorEventInit;
use crate::dom::bindings::conversions::{DOMString, RootedJsValue, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::try_reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;
use crate::runtime::ScriptError;

#[derive(JSTraceable)]
pub struct ErrorEvent {
    event: Event,
    message: String,
    filename: String,
    lineno: u32,
    colno: u32,
    error: Box<Heap<JSVal>>,
}

impl AsRef<Event> for ErrorEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl ErrorEvent {
    /// A trusted, cancelable `error` event for a script error (as "report
    /// the exception" fires), with the message, filename, lineno and colno
    /// attributes initialized from `script_error` and the error attribute
    /// to `error`; `None` when the heap is at its ceiling (an
    /// out-of-memory error is being reported).
    pub fn new_error(
        cx: &mut JSContext,
        global: &GlobalScope,
        script_error: &ScriptError,
        error: JSVal,
    ) -> Option<DomRoot<ErrorEvent>> {
        let event = try_reflect_dom_object(
            cx,
            global,
            Box::new(ErrorEvent {
                event: Event::new_inherited(global.now()),
                message: script_error.message.clone(),
                filename: script_error.filename.clone(),
                lineno: script_error.line,
                colno: script_error.column,
                error: Heap::boxed(error),
            }),
            None,
        )?;
        event.event.initialize("error", false, true);
        event.event.set_trusted(true);
        Some(event)
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl ErrorEventMethods for ErrorEvent {
    fn Message(&self, _cx: &mut JSContext) -> DOMString {
        self.message.clone()
    }

    fn Filename(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.filename.clone())
    }

    fn Lineno(&self, _cx: &mut JSContext) -> u32 {
        self.lineno
    }

    fn Colno(&self, _cx: &mut JSContext) -> u32 {
        self.colno
    }

    fn Error(&self, _cx: &mut JSContext) -> RootedJsValue {
        let value = RootedJsValue::new(Heap::default());
        value.set(self.error.get());
        value
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: ErrorEventInit,
    ) -> Fallible<DomRoot<ErrorEvent>> {
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| ErrorEvent {
                event: Event::new_inherited(now),
                message: init.message.clone(),
                filename: init.filename.0.clone(),
                lineno: init.lineno,
                colno: init.colno,
                error: Heap::boxed(init.error.get()),
            },
        ))
    }
}
