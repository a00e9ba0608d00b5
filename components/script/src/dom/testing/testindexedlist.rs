//! `TestIndexedList`: a test-only legacy platform object with an indexed
//! property getter, a value iterator and a stringifier
//! (`webidl/TestBinding.webidl`), standing in for `NodeList` and
//! `DOMTokenList` in the bindings tests.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestIndexedListBinding::TestIndexedListMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct TestIndexedList {
    pub(crate) reflector: Reflector,
    items: RefCell<Vec<DOMString>>,
}

impl TestIndexedList {
    /// The list part of a derived interface's struct.
    pub(crate) fn new_inherited(items: Vec<DOMString>) -> TestIndexedList {
        TestIndexedList {
            reflector: Reflector::new(),
            items: RefCell::new(items),
        }
    }
}

impl TestIndexedListMethods for TestIndexedList {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        items: Vec<DOMString>,
    ) -> Fallible<DomRoot<TestIndexedList>> {
        let list = TestIndexedList::new_inherited(items);
        Ok(reflect_dom_object(cx, global, Box::new(list), proto))
    }

    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.items.borrow().len() as u32
    }

    fn Item(&self, cx: &mut JSContext, index: u32) -> Fallible<Option<DOMString>> {
        Ok(self.IndexedGetter(cx, index))
    }

    fn Push(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.items.borrow_mut().push(value);
        Ok(())
    }

    fn Stringifier(&self, _cx: &mut JSContext) -> Fallible<DOMString> {
        Ok(self.items.borrow().join(" "))
    }

    fn IndexedGetter(&self, _cx: &mut JSContext, index: u32) -> Option<DOMString> {
        self.items.borrow().get(index as usize).cloned()
    }

    fn SupportedIndexCount(&self, _cx: &mut JSContext) -> u32 {
        self.items.borrow().len() as u32
    }
}
