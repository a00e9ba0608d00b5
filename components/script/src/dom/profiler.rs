//! `Profiler` (<https://wicg.github.io/js-self-profiling/#the-profiler-interface>).
//!
//! Placeholder until the Profiler issue: the bindings, the `ProfilerMethods`
//! trait and the dictionaries are generated from `webidl/Profiler.webidl`,
//! but the interface is installed only on globals whose prefs enable
//! [`PROFILER_PREF`](crate::dom::globalscope::PROFILER_PREF) (none by
//! default), and its constructor throws a "NotSupportedError" DOMException.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;
use mozjs::rust::HandleObject;
use std::rc::Rc;

use crate::dom::bindings::codegen::ProfilerBinding::ProfilerMethods;
use crate::dom::bindings::codegen::ProfilerInitOptions;
use crate::dom::bindings::conversions::Finite;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::bindings::root::DomRoot;
use crate::dom::eventtarget::EventTarget;
use crate::dom::globalscope::GlobalScope;

pub struct Profiler {
    eventtarget: EventTarget,
}

impl AsRef<EventTarget> for Profiler {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

unsafe impl Traceable for Profiler {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.eventtarget.trace(trc) }
    }
}

impl ProfilerMethods for Profiler {
    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-profiler>
    /// (not implemented yet).
    fn Constructor(
        _cx: &mut JSContext,
        _global: &GlobalScope,
        _proto: Option<HandleObject>,
        _options: ProfilerInitOptions,
    ) -> Fallible<DomRoot<Profiler>> {
        Err(Error::dom_with_message(
            DomExceptionName::NotSupportedError,
            "The Profiler interface is not implemented yet.",
        ))
    }

    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-sampleinterval>
    fn SampleInterval(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(0.0)
    }

    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-stopped>
    fn Stopped(&self, _cx: &mut JSContext) -> bool {
        true
    }

    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-stop>
    fn Stop(&self, cx: &mut JSContext) -> Fallible<Rc<Promise>> {
        Ok(Promise::new_rejected(
            cx,
            Error::dom(DomExceptionName::InvalidStateError),
        ))
    }
}
