//! `TestWorkerOnly`: a test-only interface exposed only on dedicated
//! worker globals (checks `[Exposed]`).

use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::TestWorkerOnlyBinding::TestWorkerOnlyMethods;
use crate::dom::bindings::reflector::Reflector;

pub struct TestWorkerOnly {
    pub(crate) reflector: Reflector,
}

unsafe impl Traceable for TestWorkerOnly {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.reflector.trace(trc) }
    }
}

impl TestWorkerOnlyMethods for TestWorkerOnly {}
