//! `Event` (<https://dom.spec.whatwg.org/#interface-event>).

use std::cell::{Cell, RefCell};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::EventBinding::EventMethods;
use crate::dom::bindings::codegen::EventInit;
use crate::dom::bindings::conversions::{DOMString, Finite};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObjectIface, Reflector};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::globalscope::GlobalScope;

/// `eventPhase` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum EventPhase {
    None = 0,
    Capturing = 1,
    AtTarget = 2,
    Bubbling = 3,
}

#[derive(JSTraceable)]
pub struct Event {
    pub(crate) reflector: Reflector,
    type_: RefCell<DOMString>,
    target: MutNullableDom<EventTarget>,
    current_target: MutNullableDom<EventTarget>,
    #[no_trace]
    phase: Cell<EventPhase>,
    // Flags (https://dom.spec.whatwg.org/#stop-propagation-flag and after).
    stop_propagation: Cell<bool>,
    stop_immediate_propagation: Cell<bool>,
    canceled: Cell<bool>,
    in_passive_listener: Cell<bool>,
    composed: Cell<bool>,
    initialized: Cell<bool>,
    dispatch: Cell<bool>,
    bubbles: Cell<bool>,
    cancelable: Cell<bool>,
    is_trusted: Cell<bool>,
    time_stamp: f64,
}

impl Event {
    pub fn new_inherited(time_stamp: f64) -> Event {
        Event {
            reflector: Reflector::new(),
            type_: RefCell::new(DOMString::new()),
            target: MutNullableDom::default(),
            current_target: MutNullableDom::default(),
            phase: Cell::new(EventPhase::None),
            stop_propagation: Cell::new(false),
            stop_immediate_propagation: Cell::new(false),
            canceled: Cell::new(false),
            in_passive_listener: Cell::new(false),
            composed: Cell::new(false),
            initialized: Cell::new(false),
            dispatch: Cell::new(false),
            bubbles: Cell::new(false),
            cancelable: Cell::new(false),
            is_trusted: Cell::new(false),
            time_stamp,
        }
    }

    /// <https://dom.spec.whatwg.org/#concept-event-create>: creates a
    /// trusted-or-not event of `type_` from Rust (as the UA does to fire
    /// events).
    pub fn new(
        cx: &mut JSContext,
        global: &GlobalScope,
        type_: &str,
        bubbles: bool,
        cancelable: bool,
    ) -> DomRoot<Event> {
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(Event::new_inherited(global.now())),
            None,
        );
        event.initialize(type_, bubbles, cancelable);
        event
    }

    /// <https://dom.spec.whatwg.org/#concept-event-constructor> for an
    /// interface that inherits from `Event`: `make` builds the object from
    /// the time stamp of its `Event` part and the dictionary's own members;
    /// `init` is the dictionary's `EventInit` part.
    pub fn construct<T: DomObjectIface + AsRef<Event>>(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: &str,
        init: &EventInit,
        make: impl FnOnce(f64) -> T,
    ) -> DomRoot<T> {
        // Step 1: Let event be the result of running the inner event
        // creation steps with this interface, null, now, and eventInitDict.
        let event = reflect_dom_object(cx, global, Box::new(make(global.now())), proto);
        // Step 2: Initialize event's type attribute to type.
        (*event).as_ref().initialize_from(type_, init);
        // Step 3: Return event.
        event
    }

    /// The event constructor's `Event` part
    /// (<https://dom.spec.whatwg.org/#concept-event-constructor>): the
    /// inner event creation steps' "for each member → value of
    /// dictionary" for the `EventInit` members, and step 2, "Initialize
    /// event's type attribute to type".
    pub fn initialize_from(&self, type_: &str, init: &EventInit) {
        self.initialize(type_, init.bubbles, init.cancelable);
        self.composed.set(init.composed);
    }

    /// A trusted event of an interface that inherits from `Event`, named
    /// `type_`, that the user agent creates to fire it
    /// (<https://dom.spec.whatwg.org/#concept-event-create>, then
    /// "initialized ... isTrusted set to true"): `make` builds the object
    /// from the time stamp of its `Event` part.
    pub fn new_trusted<T: DomObjectIface + AsRef<Event>>(
        cx: &mut JSContext,
        global: &GlobalScope,
        type_: &str,
        bubbles: bool,
        cancelable: bool,
        make: impl FnOnce(f64) -> T,
    ) -> DomRoot<T> {
        let event = reflect_dom_object(cx, global, Box::new(make(global.now())), None);
        let base: &Event = (*event).as_ref();
        base.initialize(type_, bubbles, cancelable);
        base.is_trusted.set(true);
        event
    }

    /// <https://dom.spec.whatwg.org/#concept-event-initialize>
    pub fn initialize(&self, type_: &str, bubbles: bool, cancelable: bool) {
        // Step 1: Set event's initialized flag.
        self.initialized.set(true);
        // Step 2: Unset event's stop propagation flag, stop immediate
        // propagation flag, and canceled flag.
        self.stop_propagation.set(false);
        self.stop_immediate_propagation.set(false);
        self.canceled.set(false);
        // Step 3: Set event's isTrusted attribute to false.
        self.is_trusted.set(false);
        // Step 4: Set event's target to null.
        self.target.set(None);
        // Step 5: Set event's type attribute to type.
        *self.type_.borrow_mut() = type_.to_owned();
        // Step 6: Set event's bubbles attribute to bubbles.
        self.bubbles.set(bubbles);
        // Step 7: Set event's cancelable attribute to cancelable.
        self.cancelable.set(cancelable);
    }

    /// <https://dom.spec.whatwg.org/#set-the-canceled-flag>
    pub fn set_canceled_flag(&self) {
        if self.cancelable.get() && !self.in_passive_listener.get() {
            self.canceled.set(true);
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-event-bubbles>
    pub fn bubbles(&self) -> bool {
        self.bubbles.get()
    }

    pub fn type_(&self) -> DOMString {
        self.type_.borrow().clone()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-composed>'s value (set by
    /// the constructors of derived interfaces).
    pub fn set_composed(&self, composed: bool) {
        self.composed.set(composed);
    }

    pub fn set_trusted(&self, trusted: bool) {
        self.is_trusted.set(trusted);
    }

    pub fn is_trusted(&self) -> bool {
        self.is_trusted.get()
    }

    pub(crate) fn dispatching(&self) -> bool {
        self.dispatch.get()
    }

    pub(crate) fn set_dispatching(&self, value: bool) {
        self.dispatch.set(value);
    }

    pub(crate) fn initialized(&self) -> bool {
        self.initialized.get()
    }

    /// The event's target.
    pub(crate) fn target_root(&self) -> Option<DomRoot<EventTarget>> {
        self.target.get()
    }

    pub(crate) fn set_target(&self, target: Option<&EventTarget>) {
        self.target.set(target);
    }

    pub(crate) fn set_current_target(&self, target: Option<&EventTarget>) {
        self.current_target.set(target);
    }

    pub(crate) fn set_phase(&self, phase: EventPhase) {
        self.phase.set(phase);
    }

    pub(crate) fn stop_propagation_flag(&self) -> bool {
        self.stop_propagation.get()
    }

    pub(crate) fn stop_immediate_propagation_flag(&self) -> bool {
        self.stop_immediate_propagation.get()
    }

    pub(crate) fn clear_propagation_flags(&self) {
        self.stop_propagation.set(false);
        self.stop_immediate_propagation.set(false);
    }

    pub(crate) fn canceled_flag(&self) -> bool {
        self.canceled.get()
    }

    pub(crate) fn set_in_passive_listener(&self, value: bool) {
        self.in_passive_listener.set(value);
    }
}

impl EventMethods for Event {
    /// <https://dom.spec.whatwg.org/#dom-event-event>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        type_: DOMString,
        event_init_dict: EventInit,
    ) -> Fallible<DomRoot<Event>> {
        // "To create an event ... inner event creation steps": Step 1-2:
        // the object, with its initialized flag set.
        let event = reflect_dom_object(
            cx,
            global,
            Box::new(Event::new_inherited(global.now())),
            proto,
        );
        event.initialized.set(true);
        // Step 3: timeStamp is the relative high resolution coarse time of
        // the global (set at creation above).
        // Step 4: For each member → value of dictionary, set the attribute.
        event.bubbles.set(event_init_dict.bubbles);
        event.cancelable.set(event_init_dict.cancelable);
        event.composed.set(event_init_dict.composed);
        // Step 5 of "constructor": Initialize event's type attribute to type.
        *event.type_.borrow_mut() = type_;
        Ok(event)
    }

    /// <https://dom.spec.whatwg.org/#dom-event-type>
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.type_()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-target>
    fn Target(&self, _cx: &mut JSContext) -> Option<DomRoot<EventTarget>> {
        self.target.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-srcelement>: return this's
    /// target.
    fn SrcElement(&self, _cx: &mut JSContext) -> Option<DomRoot<EventTarget>> {
        self.target.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-currenttarget>
    fn CurrentTarget(&self, _cx: &mut JSContext) -> Option<DomRoot<EventTarget>> {
        self.current_target.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-composedpath>. Event targets
    /// here have no parents, so the path is the current target alone.
    fn ComposedPath(&self, _cx: &mut JSContext) -> Fallible<Vec<DomRoot<EventTarget>>> {
        // Step 1: Let composedPath be an empty list.
        // Step 2-3: If this's path is empty (not dispatching), return it.
        // Step 4-5: Append currentTarget.
        Ok(self.current_target.get().into_iter().collect())
    }

    /// <https://dom.spec.whatwg.org/#dom-event-eventphase>
    fn EventPhase(&self, _cx: &mut JSContext) -> u16 {
        self.phase.get() as u16
    }

    /// <https://dom.spec.whatwg.org/#dom-event-stoppropagation>
    fn StopPropagation(&self, _cx: &mut JSContext) -> Fallible<()> {
        self.stop_propagation.set(true);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-event-cancelbubble>
    fn CancelBubble(&self, _cx: &mut JSContext) -> bool {
        self.stop_propagation.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-cancelbubble>: setting true
    /// sets the stop propagation flag; false does nothing.
    fn SetCancelBubble(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        if value {
            self.stop_propagation.set(true);
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-event-stopimmediatepropagation>
    fn StopImmediatePropagation(&self, _cx: &mut JSContext) -> Fallible<()> {
        self.stop_propagation.set(true);
        self.stop_immediate_propagation.set(true);
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-event-bubbles>
    fn Bubbles(&self, _cx: &mut JSContext) -> bool {
        self.bubbles.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-cancelable>
    fn Cancelable(&self, _cx: &mut JSContext) -> bool {
        self.cancelable.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-returnvalue>: false if the
    /// canceled flag is set.
    fn ReturnValue(&self, _cx: &mut JSContext) -> bool {
        !self.canceled.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-returnvalue>: setting false
    /// sets the canceled flag; true does nothing.
    fn SetReturnValue(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        if !value {
            self.set_canceled_flag();
        }
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-event-preventdefault>
    fn PreventDefault(&self, _cx: &mut JSContext) -> Fallible<()> {
        self.set_canceled_flag();
        Ok(())
    }

    /// <https://dom.spec.whatwg.org/#dom-event-defaultprevented>
    fn DefaultPrevented(&self, _cx: &mut JSContext) -> bool {
        self.canceled.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-composed>
    fn Composed(&self, _cx: &mut JSContext) -> bool {
        self.composed.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-istrusted>
    fn IsTrusted(&self, _cx: &mut JSContext) -> bool {
        self.is_trusted.get()
    }

    /// <https://dom.spec.whatwg.org/#dom-event-timestamp>
    fn TimeStamp(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.time_stamp)
    }

    /// <https://dom.spec.whatwg.org/#dom-event-initevent>
    fn InitEvent(
        &self,
        _cx: &mut JSContext,
        type_: DOMString,
        bubbles: bool,
        cancelable: bool,
    ) -> Fallible<()> {
        // Step 1: If this's dispatch flag is set, then return.
        if self.dispatch.get() {
            return Ok(());
        }
        // Step 2: Initialize this with type, bubbles, and cancelable.
        self.initialize(&type_, bubbles, cancelable);
        Ok(())
    }
}
