//! `EventTarget` (<https://dom.spec.whatwg.org/#interface-eventtarget>) and
//! event handlers (<https://html.spec.whatwg.org/#event-handler-attributes>).
//!
//! This module holds the listener and handler types, `EventTarget` with
//! its listener list and the `EventTargetMethods` binding; `dispatch` the
//! dispatch algorithm (get the parent, invoke, inner invoke); `handlers`
//! event handlers as IDL attributes (get, set, activate, the processing
//! algorithm); `handler_attributes` event handler content attributes
//! (compiling an uncompiled handler with its scopes, which attributes are
//! event handlers, the attribute change steps).

mod dispatch;
mod handler_attributes;
mod handlers;

pub use handler_attributes::event_handler_attribute_changed;
pub use handler_attributes::GLOBAL_EVENT_HANDLERS;

use jsprof_script_derive::JSTraceable;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::EventTargetBinding::EventTargetMethods;
use crate::dom::bindings::codegen::{
    AddEventListenerOptionsOrBoolean, EventHandlerNonNull, EventListener,
    EventListenerOptionsOrBoolean,
};
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

/// What an event listener calls.
#[derive(Clone, JSTraceable)]
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
#[derive(JSTraceable)]
struct EventListenerEntry {
    type_: DOMString,
    callback: ListenerCallback,
    capture: bool,
    passive: bool,
    once: bool,
    removed: Cell<bool>,
}

/// An event handler's value
/// (<https://html.spec.whatwg.org/#event-handler-value>) when not null.
#[derive(Clone, JSTraceable)]
enum HandlerValue {
    /// A callback object (set through the IDL attribute, or compiled).
    Callback(Rc<EventHandlerNonNull>),
    /// <https://html.spec.whatwg.org/#internal-raw-uncompiled-handler>,
    /// set through the content attribute; compiled when first read.
    Uncompiled(#[no_trace] UncompiledHandler),
}

/// <https://html.spec.whatwg.org/#internal-raw-uncompiled-handler>: an
/// event handler content attribute's value and the location where the
/// script body originated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncompiledHandler {
    /// The uncompiled script body (the attribute's value).
    pub body: String,
    /// The URL of the document whose markup (or DOM) held the attribute:
    /// the compiled function's file name.
    pub url: String,
    /// The 1-based line the attribute is on (the parser's position when
    /// the attribute was set, else 1).
    pub line: u32,
}

/// <https://html.spec.whatwg.org/#event-handlers>
#[derive(JSTraceable)]
struct EventHandler {
    /// The event type (the handler's name without "on").
    type_: DOMString,
    value: Option<HandlerValue>,
    /// The listener added when the handler was activated.
    listener: Option<Rc<EventListenerEntry>>,
}

#[derive(JSTraceable)]
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
