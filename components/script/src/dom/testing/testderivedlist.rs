//! `TestDerivedList`: a test-only interface inheriting `TestIndexedList`'s
//! indexed getter (`webidl/TestBinding.webidl`), standing in for
//! `RadioNodeList : NodeList`.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestDerivedListBinding::TestDerivedListMethods;
use crate::dom::bindings::codegen::TestIndexedListBinding::TestIndexedListMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::testing::testindexedlist::TestIndexedList;

#[derive(JSTraceable)]
pub struct TestDerivedList {
    list: TestIndexedList,
    value: RefCell<DOMString>,
}

impl AsRef<TestIndexedList> for TestDerivedList {
    fn as_ref(&self) -> &TestIndexedList {
        &self.list
    }
}

impl TestDerivedListMethods for TestDerivedList {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        items: Vec<DOMString>,
    ) -> Fallible<DomRoot<TestDerivedList>> {
        let derived = TestDerivedList {
            list: TestIndexedList::new_inherited(items),
            value: RefCell::new(DOMString::new()),
        };
        Ok(reflect_dom_object(cx, global, Box::new(derived), proto))
    }

    fn Constructor_(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        copy_of: DomRoot<TestIndexedList>,
    ) -> Fallible<DomRoot<TestDerivedList>> {
        let length = copy_of.Length(cx);
        let items = (0..length)
            .filter_map(|i| copy_of.IndexedGetter(cx, i))
            .collect();
        Self::Constructor(cx, global, proto, items)
    }

    fn Constructor__(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        item: DOMString,
        count: u32,
    ) -> Fallible<DomRoot<TestDerivedList>> {
        if count > 1000 {
            return Err(Error::Range("count must be at most 1000".into()));
        }
        Self::Constructor(cx, global, proto, vec![item; count as usize])
    }

    fn Value(&self, _cx: &mut JSContext) -> DOMString {
        self.value.borrow().clone()
    }

    fn SetValue(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        *self.value.borrow_mut() = value;
        Ok(())
    }
}
