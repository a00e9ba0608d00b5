//! `TestPairIterable`: a test-only interface with a pair iterator
//! (`webidl/TestBinding.webidl`), standing in for `URLSearchParams` and
//! `Headers` in the bindings tests.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestPairIterableBinding::TestPairIterableMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct TestPairIterable {
    pub(crate) reflector: Reflector,
    pairs: RefCell<Vec<(DOMString, i32)>>,
}

impl TestPairIterableMethods for TestPairIterable {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<TestPairIterable>> {
        let object = TestPairIterable {
            reflector: Reflector::new(),
            pairs: RefCell::new(Vec::new()),
        };
        Ok(reflect_dom_object(cx, global, Box::new(object), proto))
    }

    fn Append(&self, _cx: &mut JSContext, name: DOMString, value: i32) -> Fallible<()> {
        self.pairs.borrow_mut().push((name, value));
        Ok(())
    }

    fn Clear(&self, _cx: &mut JSContext) -> Fallible<()> {
        self.pairs.borrow_mut().clear();
        Ok(())
    }

    fn PairIterableEntry(&self, _cx: &mut JSContext, index: u32) -> Option<(DOMString, i32)> {
        self.pairs.borrow().get(index as usize).cloned()
    }
}
