//! `MessageEvent` (<https://html.spec.whatwg.org/multipage/comms.html#messageevent>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::JSVal;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::MessageEventBinding::MessageEventMethods;
use crate::dom::bindings::codegen::MessageEventInit;
use crate::dom::bindings::conversions::{DOMString, RootedJsObject, RootedJsValue, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct MessageEvent {
    event: Event,
    /// <https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-data>
    data: Box<Heap<JSVal>>,
    origin: String,
    last_event_id: String,
    /// <https://html.spec.whatwg.org/multipage/comms.html#dom-messageevent-source>
    /// (null or an object of the event's realm).
    source: Box<Heap<*mut JSObject>>,
}

impl AsRef<Event> for MessageEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl MessageEvent {
    /// A trusted `message` event (as the window post message steps fire
    /// it): not bubbling, not cancelable. `data` and `source` are values of
    /// `global`'s realm.
    pub fn new_message(
        cx: &mut JSContext,
        global: &GlobalScope,
        data: JSVal,
        origin: &str,
        source: *mut JSObject,
    ) -> DomRoot<MessageEvent> {
        Event::new_trusted(cx, global, "message", false, false, |now| MessageEvent {
            event: Event::new_inherited(now),
            data: Heap::boxed(data),
            origin: origin.to_owned(),
            last_event_id: String::new(),
            source: Heap::boxed(source),
        })
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl MessageEventMethods for MessageEvent {
    fn Data(&self, _cx: &mut JSContext) -> RootedJsValue {
        let value = RootedJsValue::new(Heap::default());
        value.set(self.data.get());
        value
    }

    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.origin.clone())
    }

    fn LastEventId(&self, _cx: &mut JSContext) -> DOMString {
        self.last_event_id.clone()
    }

    fn Source(&self, _cx: &mut JSContext) -> Option<RootedJsObject> {
        let source = self.source.get();
        if source.is_null() {
            return None;
        }
        let root = RootedTraceableBox::new(Heap::default());
        root.set(source);
        Some(root)
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: MessageEventInit,
    ) -> Fallible<DomRoot<MessageEvent>> {
        let source = init
            .source
            .as_ref()
            .map_or(std::ptr::null_mut(), |s| s.get());
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| MessageEvent {
                event: Event::new_inherited(now),
                data: Heap::boxed(init.data.get()),
                origin: init.origin.0.clone(),
                last_event_id: init.last_event_id.clone(),
                source: Heap::boxed(source),
            },
        ))
    }
}
