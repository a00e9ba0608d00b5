//! `IdleDeadline` (<https://w3c.github.io/requestidlecallback/#the-idledeadline-interface>):
//! the argument of an idle callback (see `crate::runtime::rendering`).

use std::time::Instant;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::IdleDeadlineBinding::IdleDeadlineMethods;
use crate::dom::bindings::conversions::Finite;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

/// An `IdleDeadline`'s
/// [get deadline time algorithm](https://w3c.github.io/requestidlecallback/#dfn-get-deadline-time).
#[derive(Clone, Copy, Debug)]
pub(crate) enum DeadlineTime {
    /// The deadline of the idle period that started at `start` with the
    /// deadline `end`, computed again at each call (HTML's computeDeadline:
    /// a timer scheduled or an animation frame requested since shortens
    /// it; see `crate::runtime::rendering::idle_period_deadline`).
    IdlePeriod { start: Instant, end: Instant },
    /// A fixed time (a callback run by its timeout: the time it ran).
    Fixed(Instant),
}

#[derive(JSTraceable)]
pub struct IdleDeadline {
    pub(crate) reflector: Reflector,
    #[no_trace]
    deadline: DeadlineTime,
    /// <https://w3c.github.io/requestidlecallback/#dfn-timeout>
    timeout: bool,
}

impl IdleDeadline {
    pub(crate) fn new(
        cx: &mut JSContext,
        global: &GlobalScope,
        deadline: DeadlineTime,
        timeout: bool,
    ) -> DomRoot<IdleDeadline> {
        reflect_dom_object(
            cx,
            global,
            Box::new(IdleDeadline {
                reflector: Reflector::new(),
                deadline,
                timeout,
            }),
            None,
        )
    }
}

impl IdleDeadlineMethods for IdleDeadline {
    /// <https://w3c.github.io/requestidlecallback/#the-timeremaining-method>
    fn TimeRemaining(&self, _cx: &mut JSContext) -> Fallible<Finite<f64>> {
        let global = self.global_scope();
        // Step 1: Let now be a DOMHighResTimeStamp representing current
        // high resolution time in milliseconds.
        let now = global.coarsened_now();
        // Step 2: Let deadline be the result of calling IdleDeadline's get
        // deadline time algorithm.
        let deadline = crate::runtime::rendering::deadline_ms(&self.deadline, global);
        // Step 3: Let timeRemaining be deadline - now.
        let time_remaining = deadline - now;
        // Step 4: If timeRemaining is negative, set it to 0.
        // Step 5: Return timeRemaining.
        Ok(Finite::<f64>::wrap(time_remaining.max(0.0)))
    }

    /// <https://w3c.github.io/requestidlecallback/#the-didtimeout-attribute>
    fn DidTimeout(&self, _cx: &mut JSContext) -> bool {
        // The getter must return timeout.
        self.timeout
    }
}
