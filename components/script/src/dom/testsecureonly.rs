//! `TestSecureOnly`: a test-only `[SecureContext]` interface
//! (`webidl/TestBinding.webidl`): no interface object outside secure
//! contexts.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestSecureOnlyBinding::TestSecureOnlyMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globalscope::GlobalScope;

pub struct TestSecureOnly {
    pub(crate) reflector: Reflector,
}

unsafe impl Traceable for TestSecureOnly {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.reflector.trace(trc) }
    }
}

impl TestSecureOnlyMethods for TestSecureOnly {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<TestSecureOnly>> {
        let object = TestSecureOnly {
            reflector: Reflector::new(),
        };
        Ok(reflect_dom_object(cx, global, Box::new(object), proto))
    }
}
