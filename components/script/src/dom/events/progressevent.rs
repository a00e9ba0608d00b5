//! `ProgressEvent` (<https://xhr.spec.whatwg.org/#interface-progressevent>).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::ProgressEventBinding::ProgressEventMethods;
use crate::dom::bindings::codegen::ProgressEventInit;
use crate::dom::bindings::conversions::{DOMString, Finite};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct ProgressEvent {
    event: Event,
    length_computable: bool,
    loaded: f64,
    total: f64,
}

impl AsRef<Event> for ProgressEvent {
    fn as_ref(&self) -> &Event {
        &self.event
    }
}

impl ProgressEvent {
    /// <https://xhr.spec.whatwg.org/#concept-event-fire-progress>: a
    /// trusted, non-bubbling, non-cancelable `type_` event whose loaded is
    /// `transmitted`, total is `length`, and lengthComputable is whether
    /// `length` is not 0.
    pub fn new_progress(
        cx: &mut JSContext,
        global: &GlobalScope,
        type_: &str,
        transmitted: u64,
        length: u64,
    ) -> DomRoot<ProgressEvent> {
        Event::new_trusted(cx, global, type_, false, false, |now| ProgressEvent {
            event: Event::new_inherited(now),
            length_computable: length != 0,
            loaded: transmitted as f64,
            total: length as f64,
        })
    }

    pub fn upcast_event(&self) -> &Event {
        &self.event
    }
}

impl ProgressEventMethods for ProgressEvent {
    /// <https://dom.spec.whatwg.org/#concept-event-constructor>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        init: ProgressEventInit,
    ) -> Fallible<DomRoot<ProgressEvent>> {
        Ok(Event::construct(
            cx,
            global,
            proto,
            &type_,
            &init.parent,
            |now| ProgressEvent {
                event: Event::new_inherited(now),
                length_computable: init.length_computable,
                loaded: *init.loaded,
                total: *init.total,
            },
        ))
    }

    /// <https://xhr.spec.whatwg.org/#dom-progressevent-lengthcomputable>
    fn LengthComputable(&self, _cx: &mut JSContext) -> bool {
        self.length_computable
    }

    /// <https://xhr.spec.whatwg.org/#dom-progressevent-loaded>
    fn Loaded(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.loaded)
    }

    /// <https://xhr.spec.whatwg.org/#dom-progressevent-total>
    fn Total(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.total)
    }
}
