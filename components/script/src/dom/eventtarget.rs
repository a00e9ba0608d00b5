//! `EventTarget` (<https://dom.spec.whatwg.org/#interface-eventtarget>) and
//! event handlers (<https://html.spec.whatwg.org/#event-handler-attributes>).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::gc::{RootedTraceableBox, Traceable};
use mozjs::jsapi::{JSTracer, JS_IsGlobalObject};
use mozjs::jsval::ObjectValue;
use mozjs::rooted;
use mozjs::rust::HandleObject;

use crate::dom::bindings::callback::ExceptionHandling;
use crate::dom::bindings::codegen::ErrorEventBinding::ErrorEventMethods;
use crate::dom::bindings::codegen::EventTargetBinding::EventTargetMethods;
use crate::dom::bindings::codegen::{
    AddEventListenerOptionsOrBoolean, EventHandlerNonNull, EventListener,
    EventListenerOptionsOrBoolean, EventOrString, OnErrorEventHandlerNonNull,
};
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::errorevent::ErrorEvent;
use crate::dom::event::{Event, EventPhase};
use crate::dom::globalscope::GlobalScope;

/// What an event listener calls.
#[derive(Clone)]
enum ListenerCallback {
    /// A listener added with `addEventListener`.
    Listener(Rc<EventListener>),
    /// The internal listener of the event handler named `on<type>`
    /// (<https://html.spec.whatwg.org/#activate-an-event-handler>).
    EventHandler,
}

impl ListenerCallback {
    fn same(&self, other: &ListenerCallback) -> bool {
        match (self, other) {
            (ListenerCallback::Listener(a), ListenerCallback::Listener(b)) => {
                a.callback() == b.callback()
            }
            _ => false,
        }
    }
}

/// <https://dom.spec.whatwg.org/#concept-event-listener>
struct EventListenerEntry {
    type_: DOMString,
    callback: ListenerCallback,
    capture: bool,
    passive: bool,
    once: bool,
    removed: Cell<bool>,
}

/// <https://html.spec.whatwg.org/#event-handlers>
struct EventHandler {
    /// The event type (the handler's name without "on").
    type_: DOMString,
    value: Option<Rc<EventHandlerNonNull>>,
    /// The listener added when the handler was activated.
    listener: Option<Rc<EventListenerEntry>>,
}

pub struct EventTarget {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#eventtarget-event-listener-list>
    listeners: RefCell<Vec<Rc<EventListenerEntry>>>,
    /// <https://html.spec.whatwg.org/#event-handler-map>
    handlers: RefCell<Vec<EventHandler>>,
}

impl EventTarget {
    pub fn new_inherited() -> EventTarget {
        EventTarget {
            reflector: Reflector::new(),
            listeners: RefCell::new(Vec::new()),
            handlers: RefCell::new(Vec::new()),
        }
    }

    /// <https://dom.spec.whatwg.org/#add-an-event-listener>
    fn add_event_listener(&self, listener: EventListenerEntry) -> Option<Rc<EventListenerEntry>> {
        // Step 1: (service workers) n/a.
        // Step 2: (signal) AbortSignal is not supported yet.
        // Step 3: If listener's callback is null, then return (the caller
        // does not get here with null).
        // Step 4: If listener's passive is null, set it to the default
        // passive value (false: no Window/Node targets yet; done by the
        // caller).
        // Step 5: If eventTarget's event listener list does not contain an
        // event listener whose type is listener's type, callback is
        // listener's callback, and capture is listener's capture, then
        // append listener to eventTarget's event listener list.
        let mut listeners = self.listeners.borrow_mut();
        let duplicate = listeners.iter().any(|l| {
            l.type_ == listener.type_
                && l.capture == listener.capture
                && l.callback.same(&listener.callback)
        });
        if duplicate {
            return None;
        }
        let listener = Rc::new(listener);
        listeners.push(listener.clone());
        Some(listener)
    }

    /// <https://dom.spec.whatwg.org/#remove-an-event-listener>
    fn remove_event_listener(&self, listener: &Rc<EventListenerEntry>) {
        // Step 1: (service workers) n/a.
        // Step 2: Set listener's removed to true and remove listener from
        // eventTarget's event listener list.
        listener.removed.set(true);
        self.listeners
            .borrow_mut()
            .retain(|l| !Rc::ptr_eq(l, listener));
    }

    /// <https://dom.spec.whatwg.org/#concept-event-dispatch> for targets
    /// without parents (no nodes or shadow trees yet): the event path is
    /// the target alone. Returns false if the event was canceled.
    pub fn dispatch(&self, cx: &mut JSContext, event: &Event) -> bool {
        // Step 1: Set event's dispatch flag.
        event.set_dispatching(true);
        // Step 2: Let targetOverride be target (no legacy target override).
        // Steps 3-4: no activation target or related target.
        // Step 5.1-5.2: Append to an event path with event, target,
        // targetOverride: the path is «target».
        // Step 5.3-5.9: target has no parent, so the path ends there.
        // Step 5.10-5.12: clearTargets is false (no shadow trees).
        // Step 5.13: For each struct in event's path, in reverse order
        // (capturing):
        //   Step 5.13.1: the struct's shadow-adjusted target is non-null,
        //   so set event's eventPhase to AT_TARGET.
        event.set_target(Some(self));
        event.set_phase(EventPhase::AtTarget);
        //   Step 5.13.3: Invoke with struct, event, "capturing".
        self.invoke(cx, event, Phase::Capturing);
        // Step 5.14: For each struct in event's path (bubbling):
        //   Step 5.14.1: AT_TARGET again (shadow-adjusted target non-null).
        event.set_phase(EventPhase::AtTarget);
        //   Step 5.14.3: Invoke with struct, event, "bubbling".
        self.invoke(cx, event, Phase::Bubbling);
        // Step 6: Set event's eventPhase attribute to NONE.
        event.set_phase(EventPhase::None);
        // Step 7: Set event's currentTarget attribute to null.
        event.set_current_target(None);
        // Step 8: Set event's path to the empty list.
        // Step 9: Unset event's dispatch flag, stop propagation flag, and
        // stop immediate propagation flag.
        event.set_dispatching(false);
        event.clear_propagation_flags();
        // Steps 10-11: clearTargets is false; target stays set.
        // Step 12: no activation behavior.
        // Step 13: Return false if event's canceled flag is set; otherwise
        // true.
        !event.canceled_flag()
    }

    /// <https://dom.spec.whatwg.org/#concept-event-listener-invoke>
    fn invoke(&self, cx: &mut JSContext, event: &Event, phase: Phase) {
        // Steps 1-3: target, relatedTarget and touch targets are unchanged
        // (a single-struct path).
        // Step 4: If event's stop propagation flag is set, then return.
        if event.stop_propagation_flag() {
            return;
        }
        // Step 5: Initialize event's currentTarget attribute to struct's
        // invocation target.
        event.set_current_target(Some(self));
        // Step 6: Let listeners be a clone of event's currentTarget
        // attribute value's event listener list.
        let listeners: Vec<Rc<EventListenerEntry>> = self.listeners.borrow().clone();
        // Step 7: Let found be the result of running inner invoke.
        let _found = self.inner_invoke(cx, event, &listeners, phase);
        // Step 8: (legacy webkit-prefixed event types) n/a.
    }

    /// <https://dom.spec.whatwg.org/#concept-event-listener-inner-invoke>
    fn inner_invoke(
        &self,
        cx: &mut JSContext,
        event: &Event,
        listeners: &[Rc<EventListenerEntry>],
        phase: Phase,
    ) -> bool {
        // Step 1: Let found be false.
        let mut found = false;
        let event_type = event.type_();
        // Step 2: For each listener of listeners, whose removed is false:
        for listener in listeners {
            if listener.removed.get() {
                continue;
            }
            // Step 2.1: If event's type attribute value is not listener's
            // type, then continue.
            if listener.type_ != event_type {
                continue;
            }
            // Step 2.2: Set found to true.
            found = true;
            // Step 2.3: If phase is "capturing" and listener's capture is
            // false, then continue.
            if phase == Phase::Capturing && !listener.capture {
                continue;
            }
            // Step 2.4: If phase is "bubbling" and listener's capture is
            // true, then continue.
            if phase == Phase::Bubbling && listener.capture {
                continue;
            }
            // Step 2.5: If listener's once is true, then remove an event
            // listener given event's currentTarget and listener.
            if listener.once {
                self.remove_event_listener(listener);
            }
            // Steps 2.6-2.8: the global's current event (window.event) is
            // not implemented yet (no Window interface).
            // Step 2.9: If listener's passive is true, then set event's in
            // passive listener flag.
            if listener.passive {
                event.set_in_passive_listener(true);
            }
            // Step 2.11: Call a user object's operation with listener's
            // callback, "handleEvent", « event », and event's currentTarget
            // attribute value. If this throws an exception, report it (the
            // callbacks are called with ExceptionHandling::Report) and go on
            // with the next listener.
            rooted!(&in(cx) let this = ObjectValue(self.reflector().get_jsobject()));
            match &listener.callback {
                ListenerCallback::Listener(callback) => {
                    // Rooted for the call: a `once` listener was just
                    // removed from the (traced) list.
                    let _root = RootedTraceableBox::new(callback.clone());
                    let _ =
                        callback.HandleEvent(cx, this.handle(), event, ExceptionHandling::Report);
                }
                ListenerCallback::EventHandler => {
                    self.process_event_handler(cx, &listener.type_, event);
                }
            }
            // Step 2.12: Unset event's in passive listener flag.
            event.set_in_passive_listener(false);
            // Step 2.14: If event's stop immediate propagation flag is set,
            // then break.
            if event.stop_immediate_propagation_flag() {
                break;
            }
        }
        // Step 3: Return found.
        found
    }

    /// <https://html.spec.whatwg.org/#the-event-handler-processing-algorithm>
    fn process_event_handler(&self, cx: &mut JSContext, type_: &str, event: &Event) {
        // Step 1: Let callback be the result of getting the current value
        // of the event handler.
        // Step 2: If callback is null, then return.
        let Some(callback) = self.get_event_handler(type_) else {
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

    /// The getter of an event handler IDL attribute
    /// (<https://html.spec.whatwg.org/#getting-the-current-value-of-the-event-handler>)
    /// for the event `type_` (the attribute's name without "on").
    pub fn get_event_handler(&self, type_: &str) -> Option<Rc<EventHandlerNonNull>> {
        self.handlers
            .borrow()
            .iter()
            .find(|h| h.type_ == type_)
            .and_then(|h| h.value.clone())
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
            Some(value) => {
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
        }
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
    fn deactivate_event_handler(&self, type_: &str) {
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

/// The phase argument of "invoke".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Capturing,
    Bubbling,
}

unsafe impl Traceable for EventTarget {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe {
            self.reflector.trace(trc);
            if let Ok(listeners) = self.listeners.try_borrow() {
                for listener in listeners.iter() {
                    if let ListenerCallback::Listener(callback) = &listener.callback {
                        callback.trace(trc);
                    }
                }
            }
            if let Ok(handlers) = self.handlers.try_borrow() {
                for handler in handlers.iter() {
                    if let Some(value) = &handler.value {
                        value.trace(trc);
                    }
                }
            }
        }
    }
}

/// <https://dom.spec.whatwg.org/#concept-flatten-options>
fn flatten(options: &EventListenerOptionsOrBoolean) -> bool {
    match options {
        EventListenerOptionsOrBoolean::Boolean(capture) => *capture,
        EventListenerOptionsOrBoolean::EventListenerOptions(o) => o.capture,
    }
}

impl EventTargetMethods for EventTarget {
    /// <https://dom.spec.whatwg.org/#dom-eventtarget-eventtarget>: set
    /// this's ... (nothing to do).
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<EventTarget>> {
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(EventTarget::new_inherited()),
            proto,
        ))
    }

    /// <https://dom.spec.whatwg.org/#dom-eventtarget-addeventlistener>
    fn AddEventListener(
        &self,
        _cx: &mut JSContext,
        type_: DOMString,
        callback: Option<Rc<EventListener>>,
        options: AddEventListenerOptionsOrBoolean,
    ) -> Fallible<()> {
        // "Flatten more" options
        // (https://dom.spec.whatwg.org/#event-flatten-more): capture,
        // passive, once (signal is not supported yet).
        let (capture, passive, once) = match &options {
            AddEventListenerOptionsOrBoolean::Boolean(capture) => (*capture, None, false),
            AddEventListenerOptionsOrBoolean::AddEventListenerOptions(o) => {
                (o.parent.capture, o.passive, o.once)
            }
        };
        // "Add an event listener", step 3: If listener's callback is null,
        // then return.
        let Some(callback) = callback else {
            return Ok(());
        };
        // Step 1 of this method, then "add an event listener" (step 4: the
        // default passive value is false for these targets).
        self.add_event_listener(EventListenerEntry {
            type_,
            callback: ListenerCallback::Listener(callback),
            capture,
            passive: passive.unwrap_or(false),
            once,
            removed: Cell::new(false),
        });
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-eventtarget-removeeventlistener>
    fn RemoveEventListener(
        &self,
        _cx: &mut JSContext,
        type_: DOMString,
        callback: Option<Rc<EventListener>>,
        options: EventListenerOptionsOrBoolean,
    ) -> Fallible<()> {
        // Step 1: Let capture be the result of flattening options.
        let capture = flatten(&options);
        let Some(callback) = callback else {
            return Ok(());
        };
        let callback = ListenerCallback::Listener(callback);
        // Step 2: If this's event listener list contains an event listener
        // whose type is type, callback is callback, and capture is capture,
        // then remove an event listener with this and that event listener.
        let found = self
            .listeners
            .borrow()
            .iter()
            .find(|l| l.type_ == type_ && l.capture == capture && l.callback.same(&callback))
            .cloned();
        if let Some(listener) = found {
            self.remove_event_listener(&listener);
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-eventtarget-dispatchevent>
    fn DispatchEvent(&self, cx: &mut JSContext, event: DomRoot<Event>) -> Fallible<bool> {
        // Step 1: If event's dispatch flag is set, or if its initialized
        // flag is not set, then throw an "InvalidStateError" DOMException.
        if event.dispatching() || !event.initialized() {
            return Err(Error::dom_with_message(
                DomExceptionName::InvalidStateError,
                "The event is already being dispatched or was not initialized.",
            ));
        }
        // Step 2: Initialize event's isTrusted attribute to false.
        event.set_trusted(false);
        // Step 3: Return the result of dispatching event to this.
        Ok(self.dispatch(cx, &event))
    }
}

/// A DOM struct whose interface inherits from `EventTarget`, seen as its
/// `EventTarget` part. The generated bindings implement it (along the
/// `AsRef` chain to `EventTarget`) for every such struct; the provided
/// methods of event handler IDL attributes (`attribute EventHandler onx`)
/// in the `*Methods` traits go through it.
pub trait AsEventTarget {
    fn as_event_target(&self) -> &EventTarget;
}
