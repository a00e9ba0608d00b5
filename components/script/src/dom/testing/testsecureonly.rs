//! `TestSecureOnly`: a test-only `[SecureContext]` interface
//! (`webidl/TestBinding.webidl`): no interface object outside secure
//! contexts.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestSecureOnlyBinding::TestSecureOnlyMethods;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct TestSecureOnly {
    pub(crate) reflector: Reflector,
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
