//! `MessageChannel` (<https://html.spec.whatwg.org/multipage/web-messaging.html#message-channels>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::MessageChannelBinding::MessageChannelMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::workers::messageport::MessagePort;

#[derive(JSTraceable)]
pub struct MessageChannel {
    pub(crate) reflector: Reflector,
    port1: Dom<MessagePort>,
    port2: Dom<MessagePort>,
}

impl MessageChannelMethods for MessageChannel {
    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#dom-messagechannel>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<MessageChannel>> {
        // Step 1: Set this's port 1 to a new MessagePort in this's relevant
        // realm.
        let port1 = MessagePort::new(cx, global);
        // Step 2: Set this's port 2 to a new MessagePort in this's relevant
        // realm.
        let port2 = MessagePort::new(cx, global);
        // Step 3: Entangle this's port 1 and this's port 2.
        MessagePort::entangle(&port1, &port2);
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(MessageChannel {
                reflector: Reflector::new(),
                port1: Dom::from_ref(&port1),
                port2: Dom::from_ref(&port2),
            }),
            proto,
        ))
    }

    fn Port1(&self, _cx: &mut JSContext) -> DomRoot<MessagePort> {
        self.port1.root()
    }

    fn Port2(&self, _cx: &mut JSContext) -> DomRoot<MessagePort> {
        self.port2.root()
    }
}
