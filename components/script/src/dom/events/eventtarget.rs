//! `EventTarget` (<https://dom.spec.whatwg.org/#interface-eventtarget>) and
//! event handlers (<https://html.spec.whatwg.org/#event-handler-attributes>).

use jsprof_script_derive::JSTraceable;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::JS_IsGlobalObject;
use mozjs::jsval::ObjectValue;
use mozjs::realm::AutoRealm;
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
use crate::dom::events::errorevent::ErrorEvent;
use crate::dom::events::event::{Event, EventPhase};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::node::{Node, NodeKind};
use crate::loading::script_registry::ScriptRecord;

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

    /// <https://dom.spec.whatwg.org/#concept-event-dispatch> (no shadow
    /// trees, related targets or touch targets; activation behavior from
    /// [`crate::dom::html::activation`]): the
    /// event path is the target and its ancestors by "get the parent"
    /// ([`EventTarget::get_the_parent`]). Returns false if the event was
    /// canceled.
    pub fn dispatch(&self, cx: &mut JSContext, event: &Event) -> bool {
        // Step 1: Set event's dispatch flag.
        event.set_dispatching(true);
        // Step 2: Let targetOverride be target (no legacy target override).
        // Step 4: no related target (Step 3 below).
        // Step 5.1-5.2: Append to an event path with event, target,
        // targetOverride.
        // Step 5.3: Let parent be the result of invoking target's get the
        // parent with event.
        // Step 5.4-5.9: While parent is non-null, append parent to the
        // event path and set parent to the result of invoking parent's get
        // the parent with event (no slots or shadow roots).
        let mut path: Vec<DomRoot<EventTarget>> = vec![DomRoot::from_ref(self)];
        while let Some(parent) = path.last().and_then(|t| t.get_the_parent(event)) {
            path.push(parent);
        }
        // Step 3: Let isActivationEvent be true, if event is a MouseEvent
        // object and event's type attribute is "click"; otherwise false.
        // Step 5.5: If isActivationEvent is true and target has activation
        // behavior, then set activationTarget to target.
        // Step 5.9.x: otherwise the first parent with activation behavior
        // when event's bubbles attribute is true.
        let activation_target = if crate::dom::html::activation::is_activation_event(event) {
            path.iter()
                .enumerate()
                .find(|(i, t)| {
                    (*i == 0 || event.bubbles())
                        && crate::dom::html::activation::has_activation_behavior(t)
                })
                .map(|(_, t)| t.clone())
        } else {
            None
        };
        // Step 5.10-5.12: clearTargets is false (no shadow trees).
        event.set_target(Some(self));
        // Step 5.11: If activationTarget is non-null and activationTarget
        // has legacy-pre-activation behavior, then run activationTarget's
        // legacy-pre-activation behavior.
        if let Some(target) = &activation_target {
            crate::dom::html::activation::legacy_pre_activation(target);
        }
        // Step 5.13: For each struct in event's path, in reverse order:
        for (index, target) in path.iter().enumerate().rev() {
            // Step 5.13.1: If struct's shadow-adjusted target is non-null
            // (the first struct), then set event's eventPhase attribute to
            // AT_TARGET. Step 5.13.2: Otherwise, set it to CAPTURING_PHASE.
            event.set_phase(if index == 0 {
                EventPhase::AtTarget
            } else {
                EventPhase::Capturing
            });
            // Step 5.13.3: Invoke with struct, event, "capturing".
            target.invoke(cx, event, Phase::Capturing);
        }
        // Step 5.14: For each struct in event's path:
        for (index, target) in path.iter().enumerate() {
            if index == 0 {
                // Step 5.14.1: AT_TARGET for the target.
                event.set_phase(EventPhase::AtTarget);
            } else {
                // Step 5.14.2.1: If event's bubbles attribute is false, then
                // continue. Step 5.14.2.2: Set event's eventPhase attribute
                // to BUBBLING_PHASE.
                if !event.bubbles() {
                    continue;
                }
                event.set_phase(EventPhase::Bubbling);
            }
            // Step 5.14.3: Invoke with struct, event, "bubbling".
            target.invoke(cx, event, Phase::Bubbling);
        }
        // Step 6: Set event's eventPhase attribute to NONE.
        event.set_phase(EventPhase::None);
        // Step 7: Set event's currentTarget attribute to null.
        event.set_current_target(None);
        // Step 8: Set event's path to the empty list.
        // Step 9: Unset event's dispatch flag, stop propagation flag, and
        // stop immediate propagation flag.
        event.set_dispatching(false);
        event.clear_propagation_flags();
        // Step 10: clearTargets is false; target stays set.
        // Step 11: If activationTarget is non-null: if event's canceled
        // flag is unset, then run activationTarget's activation behavior
        // with event; otherwise, if activationTarget has
        // legacy-canceled-activation behavior, then run it.
        if let Some(target) = &activation_target {
            if event.canceled_flag() {
                crate::dom::html::activation::legacy_canceled_activation(target);
            } else {
                crate::dom::html::activation::activation_behavior(cx, target, event);
            }
        }
        // Step 13: Return false if event's canceled flag is set; otherwise
        // true.
        !event.canceled_flag()
    }

    /// "Get the parent" (<https://dom.spec.whatwg.org/#get-the-parent>):
    /// a node's is its parent (no slots or shadow roots); a document's is
    /// its relevant global object (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-window-object>
    /// defines Document's: null if event's type is "load" or the document
    /// has no browsing context); every other target has none.
    fn get_the_parent(&self, event: &Event) -> Option<DomRoot<EventTarget>> {
        // SAFETY: the reflector of a live DOM object.
        let node = unsafe { DomRoot::<Node>::try_from_object(self.reflector().get_jsobject()) }?;
        if node.kind() != NodeKind::Document {
            return node.parent().map(|p| p.upcast::<EventTarget>());
        }
        // A document's get the parent: null if event's type attribute
        // value is "load" or document does not have a browsing context;
        // otherwise the document's relevant global object.
        if event.type_() == "load" {
            return None;
        }
        let window = node.global().as_window()?;
        let active = window
            .active_document()
            .is_some_and(|d| d.reflector_object() == node.reflector_object());
        active.then(|| DomRoot::from_ref(window.upcast_event_target()))
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

    /// Steps 1.1-1.12 of
    /// <https://html.spec.whatwg.org/#getting-the-current-value-of-the-event-handler>:
    /// compiles `handler` as the function `on<type_>` in the realm of the
    /// document the attribute belongs to, with the scope chain element,
    /// form owner, document. A syntax error (or a document with scripting
    /// disabled) gives `Err` with the steps that report it.
    #[allow(clippy::type_complexity)]
    fn compile_event_handler(
        &self,
        cx: &mut JSContext,
        type_: &str,
        handler: &UncompiledHandler,
    ) -> Result<Rc<EventHandlerNonNull>, Box<dyn FnOnce(&mut JSContext)>> {
        use mozjs::jsapi::JS_GetFunctionObject;
        use mozjs::jsapi::JS::SupportUnscopables;
        use mozjs::rust::wrappers2::{CompileFunction1, JS_WrapObject};
        use mozjs::rust::{transform_str_to_source_text, CompileOptionsWrapper, EnvironmentChain};
        let nothing_to_report = || -> Box<dyn FnOnce(&mut JSContext)> { Box::new(|_| {}) };
        let object = self.reflector().get_jsobject();
        // Step 1.1: If eventTarget is an element, then let element be
        // eventTarget, and document be element's node document. Otherwise,
        // eventTarget is a Window object, let element be null, and
        // document be eventTarget's associated Document.
        // SAFETY: the reflector of a live DOM object.
        let element = unsafe { DomRoot::<Element>::try_from_object(object) };
        let document = match &element {
            Some(element) => element.upcast_node().owner_doc(),
            // SAFETY: `object` is rooted by the caller (the event target's reflector).
            None => unsafe { DomRoot::<Window>::try_from_object(object) }
                .and_then(|window| window.active_document()),
        };
        let Some(document) = document else {
            return Err(nothing_to_report());
        };
        // Step 1.2: If scripting is disabled for document (it has no
        // browsing context: it is not its window's active document), then
        // return null.
        let global = document.upcast_node().global();
        let has_browsing_context = global
            .as_window()
            .and_then(|w| w.active_document())
            .is_some_and(|d| d.reflector_object() == document.reflector_object());
        if !has_browsing_context {
            return Err(nothing_to_report());
        }
        // Step 1.3-1.4: body and location (handler).
        // Step 1.5: If element is not null and element has a form owner,
        // let form owner be that form owner. Otherwise, let form owner be
        // null.
        let form_owner = element.as_deref().and_then(form_owner);
        // Step 1.6: Let settings object be the relevant settings object of
        // document.
        // Step 1.8: Push settings object's realm execution context onto the
        // JavaScript execution context stack.
        let Some(global_object) = std::ptr::NonNull::new(global.global_object()) else {
            return Err(nothing_to_report());
        };
        let mut realm = AutoRealm::new(cx, global_object);
        let cx = &mut *realm;
        // Step 1.9, scope: realm's global environment; if eventHandler is
        // an element's event handler, NewObjectEnvironment(document),
        // then (form owner), then (element): SpiderMonkey's environment
        // chain lists the innermost object first.
        let chain = EnvironmentChain::new(cx, SupportUnscopables::Yes);
        if let Some(element) = &element {
            let scopes = [
                Some(element.reflector_object()),
                form_owner.as_ref().map(|f| f.reflector_object()),
                Some(document.reflector_object()),
            ];
            for scope in scopes.into_iter().flatten() {
                rooted!(&in(cx) let mut scope = scope);
                // SAFETY: a rooted object; wrapped into this compartment
                // (a node adopted from another document keeps its realm).
                if !unsafe { JS_WrapObject(cx, scope.handle_mut()) } {
                    return Err(Box::new(
                        crate::dom::globals::globalscope::report_pending_exception,
                    ));
                }
                chain.append(scope.get());
            }
        }
        // Step 1.9, parameters: "event", or for the onerror handler of a
        // Window "event, source, lineno, colno, error"; the function's
        // name is the handler's name.
        let is_window_onerror = element.is_none() && type_ == "error";
        let names: &[&std::ffi::CStr] = if is_window_onerror {
            &[c"event", c"source", c"lineno", c"colno", c"error"]
        } else {
            &[c"event"]
        };
        let argnames: Vec<*const std::os::raw::c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let name = std::ffi::CString::new(format!("on{type_}")).unwrap_or_default();
        // The function is the document's code: compiled with the
        // document's URL and the attribute's line, never muted (the
        // attribute is in the document's DOM, whoever set it), and
        // registered as such for the sampler and error reporting.
        if crate::loading::script_registry::lookup(&handler.url, handler.line)
            .is_none_or(|r| r.url != handler.url || r.start_line != handler.line)
        {
            crate::loading::script_registry::register(ScriptRecord::inline(
                &handler.url,
                handler.line,
            ));
        }
        let filename =
            std::ffi::CString::new(handler.url.replace('\0', "\u{FFFD}")).unwrap_or_default();
        let mut options = CompileOptionsWrapper::new(cx, filename, handler.line.max(1));
        options.set_muted_errors(false);
        let mut text = transform_str_to_source_text(&handler.body);
        // SAFETY: the chain, options and source outlive the call.
        let function = unsafe {
            CompileFunction1(
                cx,
                chain.get(),
                options.ptr,
                name.as_ptr(),
                argnames.len() as u32,
                argnames.as_ptr(),
                &mut text,
            )
        };
        // Step 1.7: If body is not parsable as FunctionBody or if parsing
        // detects an early error: a SyntaxError is pending; report it
        // (Step 1.7.2-1.7.3) in this realm.
        if function.is_null() {
            return Err(Box::new(move |cx: &mut JSContext| {
                let Some(global) = std::ptr::NonNull::new(global_object.as_ptr()) else {
                    return;
                };
                let mut realm = AutoRealm::new(cx, global);
                crate::dom::globals::globalscope::report_pending_exception(&mut realm);
            }));
        }
        // Step 1.10-1.11: leave the realm (when `realm` drops); the
        // function has no script or module.
        // SAFETY: a live function.
        rooted!(&in(cx) let function = unsafe { JS_GetFunctionObject(function) });
        // Step 1.12: an EventHandler callback function object whose object
        // reference is function and whose callback context is settings
        // object.
        // SAFETY: a rooted function object.
        Ok(unsafe { EventHandlerNonNull::new(cx, function.get()) })
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

    /// The attribute change steps of an event handler content attribute
    /// (<https://html.spec.whatwg.org/#event-handler-attributes:concept-element-attributes-change-ext>)
    /// for a target already determined: `None` (the attribute was
    /// removed) deactivates the handler, else its value becomes the
    /// internal raw uncompiled handler and the handler is activated.
    pub fn set_event_handler_content_attribute(
        &self,
        type_: &str,
        value: Option<UncompiledHandler>,
    ) {
        match value {
            // Step 4: Otherwise (value is null), deactivate an event
            // handler given eventTarget and name.
            None => self.deactivate_event_handler(type_),
            // Step 3.1-3.3: Let location be the script location that
            // triggered the execution of these steps; set eventHandler's
            // value to the internal raw uncompiled handler value/location;
            // activate an event handler given eventTarget and name.
            Some(value) => self.set_and_activate(type_, HandlerValue::Uncompiled(value)),
        }
    }

    fn set_and_activate(&self, type_: &str, value: HandlerValue) {
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

/// The elements that are form-associated and listed
/// (<https://html.spec.whatwg.org/multipage/forms.html#form-associated-element>),
/// whose event handlers have their form owner in scope.
const FORM_ASSOCIATED: &[&str] = &[
    "button", "fieldset", "img", "input", "object", "output", "select", "textarea",
];

/// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-owner>
/// of `element`, found as "reset the form owner" would set it: the element
/// with the `form` attribute's ID in the same tree if that is a `form`,
/// else the nearest `form` ancestor (never for `img` with a `form`
/// attribute, which is not listed).
fn form_owner(element: &Element) -> Option<DomRoot<Element>> {
    let is_html_form = |e: &Element| e.is_html("form");
    if !FORM_ASSOCIATED.iter().any(|name| element.is_html(name)) {
        return None;
    }
    // Step 3 of "reset the form owner": If element is listed, has a form
    // content attribute, and is connected, then: if the first element in
    // element's tree, in tree order, whose ID is element's form content
    // attribute value is a form element, associate element with it.
    if let Some(id) = element.get_attribute("form") {
        if element.upcast_node().is_connected() && !element.is_html("img") {
            let root = element.upcast_node().root_ref();
            return root
                .descendants()
                .into_iter()
                .filter_map(|n| n.downcast::<Element>())
                .find(|e| e.get_attribute("id").as_deref() == Some(id.as_str()))
                .filter(|e| is_html_form(e));
        }
        return None;
    }
    // Step 4: Otherwise, if element has an ancestor form element, then
    // associate element with the nearest such ancestor form element.
    let mut parent = element.upcast_node().parent();
    while let Some(node) = parent {
        if let Some(form) = node.downcast::<Element>().filter(|e| is_html_form(e)) {
            return Some(form);
        }
        parent = node.parent();
    }
    None
}

/// The event handlers of `GlobalEventHandlers` that are content
/// attributes on every HTML element
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#globaleventhandlers>).
pub const GLOBAL_EVENT_HANDLERS: &[&str] = &[
    "onabort",
    "onauxclick",
    "onbeforeinput",
    "onbeforematch",
    "onbeforetoggle",
    "onblur",
    "oncancel",
    "oncanplay",
    "oncanplaythrough",
    "onchange",
    "onclick",
    "onclose",
    "oncommand",
    "oncontextlost",
    "oncontextmenu",
    "oncontextrestored",
    "oncopy",
    "oncuechange",
    "oncut",
    "ondblclick",
    "ondrag",
    "ondragend",
    "ondragenter",
    "ondragleave",
    "ondragover",
    "ondragstart",
    "ondrop",
    "ondurationchange",
    "onemptied",
    "onended",
    "onerror",
    "onfocus",
    "onformdata",
    "oninput",
    "oninvalid",
    "onkeydown",
    "onkeypress",
    "onkeyup",
    "onload",
    "onloadeddata",
    "onloadedmetadata",
    "onloadstart",
    "onmousedown",
    "onmouseenter",
    "onmouseleave",
    "onmousemove",
    "onmouseout",
    "onmouseover",
    "onmouseup",
    "onpaste",
    "onpause",
    "onplay",
    "onplaying",
    "onprogress",
    "onratechange",
    "onreset",
    "onresize",
    "onscroll",
    "onscrollend",
    "onsecuritypolicyviolation",
    "onseeked",
    "onseeking",
    "onselect",
    "onslotchange",
    "onstalled",
    "onsubmit",
    "onsuspend",
    "ontimeupdate",
    "ontoggle",
    "onvolumechange",
    "onwaiting",
    "onwheel",
];

/// The Window-reflecting body element event handler set and the
/// `WindowEventHandlers` names
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#window-reflecting-body-element-event-handler-set>,
/// <https://html.spec.whatwg.org/multipage/webappapis.html#windoweventhandlers>):
/// on `body` (and `frameset`) they are the Window's handlers.
const WINDOW_REFLECTING: &[&str] = &[
    "onblur",
    "onerror",
    "onfocus",
    "onload",
    "onresize",
    "onscroll",
    "onafterprint",
    "onbeforeprint",
    "onbeforeunload",
    "onhashchange",
    "onlanguagechange",
    "onmessage",
    "onmessageerror",
    "onoffline",
    "ononline",
    "onpagehide",
    "onpagereveal",
    "onpageshow",
    "onpageswap",
    "onpopstate",
    "onrejectionhandled",
    "onstorage",
    "onunhandledrejection",
    "onunload",
];

/// The attribute change steps for event handler content attributes
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-attributes:concept-element-attributes-change-ext>),
/// run when `element`'s attribute `local_name` (no namespace) changed to
/// `value` (`None`: removed).
pub fn event_handler_attribute_changed(element: &Element, local_name: &str, value: Option<&str>) {
    // Step 1: If namespace is not null, or localName is not the name of an
    // event handler content attribute on element, then return (content
    // attributes of HTML elements; the parser and setAttribute give
    // attributes without a namespace).
    if element.namespace() != Some(HTML_NAMESPACE) {
        return;
    }
    let is_body = element.is_html("body") || element.is_html("frameset");
    let is_handler = GLOBAL_EVENT_HANDLERS.contains(&local_name)
        || (is_body && WINDOW_REFLECTING.contains(&local_name));
    if !is_handler {
        return;
    }
    let type_ = &local_name[2..];
    // Step 2: Let eventTarget be the result of determining the target of
    // an event handler given element and localName.
    let Some(document) = element.upcast_node().owner_doc() else {
        return;
    };
    let target: DomRoot<EventTarget> = if is_body && WINDOW_REFLECTING.contains(&local_name) {
        // Determining the target, step 3-4: if eventTarget's node document
        // is not an active document, return null; else return its
        // relevant global object.
        let Some(window) = document.upcast_node().global().as_window() else {
            return;
        };
        let active = window
            .active_document()
            .is_some_and(|d| d.reflector_object() == document.reflector_object());
        if !active {
            return;
        }
        DomRoot::from_ref(window.upcast_event_target())
    } else {
        DomRoot::from_ref(element.upcast_node().as_ref())
    };
    // Step 3: (value not null) Step 3.1: If the "Should element's inline
    // behavior be blocked by Content Security Policy?" algorithm returns
    // "Blocked": no Content Security Policy here.
    // Step 3.2: Let handlerMap be eventTarget's event handler map; Step
    // 3.3: let eventHandler be handlerMap[localName]; Step 3.4: location
    // is the script location that triggered these steps: the parser's
    // position while the document is being parsed, else line 1 (as
    // Chromium, whose event handler position is its parser's text
    // position, else the minimum position).
    let handler = value.map(|body| UncompiledHandler {
        body: body.to_owned(),
        url: document.url().to_string(),
        line: document.parser_line().unwrap_or(1),
    });
    target.set_event_handler_content_attribute(type_, handler);
}
