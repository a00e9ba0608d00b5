//! `HashChangeEvent` (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-hashchangeevent-interface>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::HashChangeEventBinding::HashChangeEventMethods;
use crate::dom::bindings::codegen::HashChangeEventInit;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct HashChangeEvent {
    event: Event,
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-hashchangeevent-oldurl>
    old_url: String,
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-hashchangeevent-newurl>
    new_url: String,
}

impl AsRef<Event> for HashChangeEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl HashChangeEvent {
    /// A trusted `hashchange` event (not bubbling, not cancelable).
    pub fn new_trusted(
        cx: &mut JSContext,
        global: &GlobalScope,
        old_url: &str,
        new_url: &str,
    ) -> DomRoot<HashChangeEvent> {
        Event::new_trusted(cx, global, "hashchange", false, false, |now| {
            HashChangeEvent {
                event: Event::new_inherited(now),
                old_url: old_url.to_owned(),
                new_url: new_url.to_owned(),
            }
        })
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl HashChangeEventMethods for HashChangeEvent {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-hashchangeevent-oldurl>
    fn OldURL(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.old_url.clone())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-hashchangeevent-newurl>
    fn NewURL(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.new_url.clone())
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: HashChangeEventInit,
    ) -> Fallible<DomRoot<HashChangeEvent>> {
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| HashChangeEvent {
                event: Event::new_inherited(now),
                old_url: init.old_url.0,
                new_url: init.new_url.0,
            },
        ))
    }
}
