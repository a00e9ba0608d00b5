//! Event handlers (<https://html.spec.whatwg.org/#event-handler-attributes>)
//! as IDL attributes: getting and setting an event handler, activating
//! and deactivating its internal listener, and the event handler
//! processing algorithm.

use std::cell::Cell;
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::JS_IsGlobalObject;
use mozjs::jsval::ObjectValue;
use mozjs::rooted;

use super::{EventHandler, EventListenerEntry, EventTarget, HandlerValue, ListenerCallback};
use crate::dom::bindings::callback::ExceptionHandling;
use crate::dom::bindings::codegen::ErrorEventBinding::ErrorEventMethods;
use crate::dom::bindings::codegen::{
    EventHandlerNonNull, EventOrString, OnErrorEventHandlerNonNull,
};
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::errorevent::ErrorEvent;
use crate::dom::events::event::Event;

impl EventTarget {
    /// <https://html.spec.whatwg.org/#the-event-handler-processing-algorithm>
    pub(super) fn process_event_handler(&self, cx: &mut JSContext, type_: &str, event: &Event) {
        // Step 1: Let callback be the result of getting the current value
        // of the event handler.
        // Step 2: If callback is null, then return.
        let Some(callback) = self.get_event_handler(cx, type_) else {
            return;
        };
        let _root = RootedTraceableBox::new(callback.clone());
        // Step 3: Let special error event handling be true if event is an
        // ErrorEvent object, event's type is "error", and event's
        // currentTarget implements the WindowOrWorkerGlobalScope mixin
        // (every global here is a Window or a WorkerGlobalScope).
        let error_event = DomRoot::from_ref(event)
            .downcast::<ErrorEvent>()
            .filter(|_| event.type_() == "error")
            // SAFETY: the reflector of a live EventTarget.
            .filter(|_| unsafe { JS_IsGlobalObject(self.reflector().get_jsobject()) });
        let special = error_event.is_some();
        rooted!(&in(cx) let this = ObjectValue(self.reflector().get_jsobject()));
        // Step 4: Let return value be the callback return value of:
        let value = match error_event {
            // If special error event handling is true: invoke callback
            // with five arguments, the first one having the value of
            // event's message attribute, the second having the value of
            // event's filename attribute, the third having the value of
            // event's lineno attribute, the fourth having the value of
            // event's colno attribute, the fifth having the value of
            // event's error attribute, and with the callback this value
            // set to event's currentTarget. Let return value be the
            // callback's return value.
            Some(error_event) => {
                // SAFETY: the handler's callback object, rooted above.
                let handler = unsafe { OnErrorEventHandlerNonNull::new(cx, callback.callback()) };
                let message = EventOrString::String(error_event.Message(cx));
                let filename = error_event.Filename(cx).0;
                let lineno = error_event.Lineno(cx);
                let colno = error_event.Colno(cx);
                let error = error_event.Error(cx);
                handler.Call_(
                    cx,
                    this.handle(),
                    message,
                    filename,
                    lineno,
                    colno,
                    error,
                    ExceptionHandling::Report,
                )
            }
            // Otherwise: invoke callback with one argument, the value of
            // which is the Event object event, with the callback this
            // value set to event's currentTarget.
            None => callback.Call_(cx, this.handle(), event, ExceptionHandling::Report),
        };
        // If an exception gets thrown by the callback, end these steps and
        // allow the exception to propagate (reported by the call).
        let Ok(value) = value else {
            return;
        };
        // Step 5: Process return value: if special error event handling is
        // true and return value is true, or if it is false and return
        // value is false, then set event's canceled flag.
        let v = value.get();
        if v.is_boolean() && v.to_boolean() == special {
            event.set_canceled_flag();
        }
    }

    /// <https://html.spec.whatwg.org/#getting-the-current-value-of-the-event-handler>
    /// for the event `type_` (the handler's name without "on"); also the
    /// getter of an event handler IDL attribute.
    pub fn get_event_handler(
        &self,
        cx: &mut JSContext,
        type_: &str,
    ) -> Option<Rc<EventHandlerNonNull>> {
        // Step 1: If eventHandler's value is an internal raw uncompiled
        // handler, then compile it (below).
        let value = self
            .handlers
            .borrow()
            .iter()
            .find(|h| h.type_ == type_)
            .and_then(|h| h.value.clone());
        let uncompiled = match value? {
            HandlerValue::Callback(callback) => return Some(callback),
            HandlerValue::Uncompiled(uncompiled) => uncompiled,
        };
        let compiled = self.compile_event_handler(cx, type_, &uncompiled);
        // Steps 1.7.1 and 1.12: set eventHandler's value to null (a syntax
        // error; done before it is reported, so a listener of the error
        // event reads null) or to the compiled callback, unless the
        // handler was changed meanwhile.
        if let Some(handler) = self
            .handlers
            .borrow_mut()
            .iter_mut()
            .find(|h| h.type_ == type_)
        {
            if matches!(&handler.value, Some(HandlerValue::Uncompiled(u)) if *u == uncompiled) {
                handler.value = compiled.as_ref().ok().cloned().map(HandlerValue::Callback);
            }
        }
        match compiled {
            Ok(callback) => Some(callback),
            Err(report) => {
                // Step 1.7.3: Report an exception with syntaxError for
                // settings object's global object. Step 1.7.4: Return null.
                report(cx);
                None
            }
        }
    }
    /// The setter of an event handler IDL attribute
    /// (<https://html.spec.whatwg.org/#event-handler-idl-attributes>).
    pub fn set_event_handler(&self, type_: &str, value: Option<Rc<EventHandlerNonNull>>) {
        match value {
            // Step 2: If the given value is null, then deactivate an event
            // handler.
            None => self.deactivate_event_handler(type_),
            // Step 3.1: Set handler's value to the given value.
            // Step 3.2: Activate an event handler.
            Some(value) => self.set_and_activate(type_, HandlerValue::Callback(value)),
        }
    }
    pub(super) fn set_and_activate(&self, type_: &str, value: HandlerValue) {
        {
            let mut handlers = self.handlers.borrow_mut();
            match handlers.iter_mut().find(|h| h.type_ == type_) {
                Some(handler) => handler.value = Some(value),
                None => handlers.push(EventHandler {
                    type_: type_.to_owned(),
                    value: Some(value),
                    listener: None,
                }),
            }
        }
        self.activate_event_handler(type_);
    }

    /// <https://html.spec.whatwg.org/#activate-an-event-handler>
    fn activate_event_handler(&self, type_: &str) {
        // Step 2: If handler's listener is not null, then return.
        let active = self
            .handlers
            .borrow()
            .iter()
            .any(|h| h.type_ == type_ && h.listener.is_some());
        if active {
            return;
        }
        // Steps 3-5: an event listener whose callback runs the event handler
        // processing algorithm, added with "add an event listener".
        let listener = self.add_event_listener(EventListenerEntry {
            type_: type_.to_owned(),
            callback: ListenerCallback::EventHandler,
            capture: false,
            passive: false,
            once: false,
            removed: Cell::new(false),
        });
        // Step 6: Set handler's listener to listener.
        if let Some(handler) = self
            .handlers
            .borrow_mut()
            .iter_mut()
            .find(|h| h.type_ == type_)
        {
            handler.listener = listener;
        }
    }

    /// <https://html.spec.whatwg.org/#deactivate-an-event-handler>
    pub(super) fn deactivate_event_handler(&self, type_: &str) {
        let listener = {
            let mut handlers = self.handlers.borrow_mut();
            let Some(handler) = handlers.iter_mut().find(|h| h.type_ == type_) else {
                return;
            };
            // Step 3: Set handler's value to null.
            handler.value = None;
            // Step 5: Set handler's listener to null.
            handler.listener.take()
        };
        // Step 4: If listener is not null, remove an event listener.
        if let Some(listener) = listener {
            self.remove_event_listener(&listener);
        }
    }
}
