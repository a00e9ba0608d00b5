//! `MessagePort` (<https://html.spec.whatwg.org/multipage/web-messaging.html#message-ports>).
//! Ports are not transferable here, so both ends of a channel live in one
//! realm; messages are structured-cloned and delivered in tasks once the
//! receiving port's message queue is enabled (`start()`, or setting
//! `onmessage`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;

use crate::dom::bindings::codegen::EventHandlerNonNull;
use crate::dom::bindings::codegen::MessagePortBinding::MessagePortMethods;
use crate::dom::bindings::conversions::RootedJsValue;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::bindings::structuredclone::{
    structured_deserialize, structured_serialize, Serialized,
};
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::messageevent::MessageEvent;
use crate::dom::globals::globalscope::GlobalScope;
use crate::runtime::event_loop::EventLoop;

#[derive(JSTraceable)]
pub struct MessagePort {
    eventtarget: EventTarget,
    /// The entangled port (null once either side is closed).
    entangled: MutNullableDom<MessagePort>,
    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#port-message-queue>
    /// is enabled.
    enabled: Cell<bool>,
    /// Messages waiting for the queue to be enabled.
    #[no_trace]
    pending: RefCell<Vec<Serialized>>,
}

impl AsRef<EventTarget> for MessagePort {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl MessagePort {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<MessagePort> {
        reflect_dom_object(
            cx,
            global,
            Box::new(MessagePort {
                eventtarget: EventTarget::new_inherited(),
                entangled: MutNullableDom::default(),
                enabled: Cell::new(false),
                pending: RefCell::new(Vec::new()),
            }),
            None,
        )
    }

    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#entangle>
    pub fn entangle(a: &MessagePort, b: &MessagePort) {
        a.entangled.set(Some(b));
        b.entangled.set(Some(a));
    }

    /// Queues a task firing `message` at this port with `data`.
    fn queue_delivery(&self, data: Serialized) {
        let port = DomRoot::from_ref(self);
        EventLoop::current().queue_task(Box::new(move |cx| {
            let mut realm = port.enter_relevant_realm(cx);
            let cx = &mut *realm;
            let scope = port.global_scope();
            // Step 7.2 of the message port post message steps: deserialize
            // in the target's realm; failure fires messageerror.
            rooted!(&in(cx) let mut value = UndefinedValue());
            let (type_, value) = match structured_deserialize(cx, &data, value.handle_mut()) {
                Ok(()) => ("message", value.get()),
                Err(_) => ("messageerror", UndefinedValue()),
            };
            // Step 7.5: Fire an event named message at messageEventTarget,
            // using MessageEvent, with the data attribute initialized to
            // messageClone.
            let event = MessageEvent::new_message(cx, scope, value, "", std::ptr::null_mut());
            if type_ == "messageerror" {
                event
                    .upcast_event()
                    .initialize("messageerror", false, false);
            }
            port.eventtarget.dispatch(cx, event.upcast_event());
        }));
    }
}

impl MessagePortMethods for MessagePort {
    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-postmessage>
    /// and the message port post message steps.
    fn PostMessage(&self, cx: &mut JSContext, message: RootedJsValue) -> Fallible<()> {
        // Step 1: Let targetPort be the port with which sourcePort is
        // entangled, if any; otherwise let it be null.
        let target = self.entangled.get();
        // Step 4: Let serializeWithTransferResult be
        // StructuredSerializeWithTransfer(message, transfer). Rethrow any
        // exceptions.
        rooted!(&in(cx) let value = message.get());
        let data = structured_serialize(cx, value.handle())?;
        // Step 5: If targetPort is null, or if doomed is true, then return.
        let Some(target) = target else {
            return Ok(());
        };
        // Step 6-7: Add a task that runs the following steps to the port
        // message queue of targetPort.
        if target.enabled.get() {
            target.queue_delivery(data);
        } else {
            target.pending.borrow_mut().push(data);
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-start>:
    /// enable this's port message queue.
    fn Start(&self, _cx: &mut JSContext) -> Fallible<()> {
        if !self.enabled.replace(true) {
            for data in std::mem::take(&mut *self.pending.borrow_mut()) {
                self.queue_delivery(data);
            }
        }
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messageport-close>
    fn Close(&self, _cx: &mut JSContext) -> Fallible<()> {
        // Step 1: Set this's [[Detached]] internal slot value to true.
        // Step 2: If this is entangled, disentangle it.
        if let Some(other) = self.entangled.get() {
            other.entangled.set(None);
        }
        self.entangled.set(None);
        self.pending.borrow_mut().clear();
        Ok(())
    }

    /// Overrides the provided event handler setter: setting `onmessage`
    /// also starts the port
    /// (<https://html.spec.whatwg.org/multipage/web-messaging.html#handler-messageport-onmessage>:
    /// "the first time a MessagePort object's onmessage IDL attribute is
    /// set, the port's port message queue must be enabled"). The other
    /// event handler attributes use the provided methods.
    fn SetOnmessage(
        &self,
        cx: &mut JSContext,
        value: Option<Rc<EventHandlerNonNull>>,
    ) -> Fallible<()> {
        self.eventtarget.set_event_handler("message", value);
        self.Start(cx)
    }
}
