//! `StorageEvent` (<https://html.spec.whatwg.org/multipage/webstorage.html#the-storageevent-interface>).

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::StorageEventBinding::StorageEventMethods;
use crate::dom::bindings::codegen::StorageEventInit;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::storage::Storage;

/// The attributes an init dictionary or `initStorageEvent()` sets.
#[derive(Default)]
struct Fields {
    key: Option<String>,
    old_value: Option<String>,
    new_value: Option<String>,
    url: String,
}

#[derive(JSTraceable)]
pub struct StorageEvent {
    event: Event,
    #[no_trace]
    fields: RefCell<Fields>,
    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-storagearea>
    storage_area: MutNullableDom<Storage>,
}

impl AsRef<Event> for StorageEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl StorageEvent {
    /// A trusted `storage` event (not bubbling, not cancelable).
    pub fn new_trusted(
        cx: &mut JSContext,
        global: &GlobalScope,
        key: Option<String>,
        old_value: Option<String>,
        new_value: Option<String>,
        url: String,
        storage_area: &Storage,
    ) -> DomRoot<StorageEvent> {
        let fields = Fields {
            key,
            old_value,
            new_value,
            url,
        };
        Event::new_trusted(cx, global, "storage", false, false, |now| StorageEvent {
            event: Event::new_inherited(now),
            fields: RefCell::new(fields),
            storage_area: MutNullableDom::new(Some(storage_area)),
        })
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl StorageEventMethods for StorageEvent {
    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-key>
    fn Key(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.fields.borrow().key.clone()
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-oldvalue>
    fn OldValue(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.fields.borrow().old_value.clone()
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-newvalue>
    fn NewValue(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.fields.borrow().new_value.clone()
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-url>
    fn Url(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.fields.borrow().url.clone())
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-storagearea>
    fn StorageArea(&self, _cx: &mut JSContext) -> Option<DomRoot<Storage>> {
        self.storage_area.get()
    }

    /// <https://html.spec.whatwg.org/multipage/webstorage.html#dom-storageevent-initstorageevent>
    #[allow(clippy::too_many_arguments)]
    fn InitStorageEvent(
        &self,
        _cx: &mut JSContext,
        type_: DOMString,
        bubbles: bool,
        cancelable: bool,
        key: Option<DOMString>,
        old_value: Option<DOMString>,
        new_value: Option<DOMString>,
        url: USVString,
        storage_area: Option<DomRoot<Storage>>,
    ) -> Fallible<()> {
        // Step 1: If this's dispatch flag is set, then return.
        if self.event.dispatching() {
            return Ok(());
        }
        // Step 2: Initialize this with type, bubbles, and cancelable.
        self.event.initialize(&type_, bubbles, cancelable);
        // Step 3: Set this's key, oldValue, newValue, url and storageArea
        // to the arguments.
        *self.fields.borrow_mut() = Fields {
            key,
            old_value,
            new_value,
            url: url.0,
        };
        self.storage_area.set(storage_area.as_deref());
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: StorageEventInit,
    ) -> Fallible<DomRoot<StorageEvent>> {
        let fields = Fields {
            key: init.key,
            old_value: init.old_value,
            new_value: init.new_value,
            url: init.url.0,
        };
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| StorageEvent {
                event: Event::new_inherited(now),
                fields: RefCell::new(fields),
                storage_area: MutNullableDom::new(init.storage_area.as_deref()),
            },
        ))
    }
}
