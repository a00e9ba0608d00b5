//! `TestDerivedCollection`: a test-only interface inheriting
//! `TestCollection`'s special operations and overriding its named getter
//! (`webidl/TestBinding.webidl`), standing in for
//! `HTMLFormControlsCollection : HTMLCollection`.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::LongOrString;
use crate::dom::bindings::codegen::TestCollectionBinding::TestCollectionMethods;
use crate::dom::bindings::codegen::TestDerivedCollectionBinding::TestDerivedCollectionMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::reflect_dom_object;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::testing::testcollection::TestCollection;

#[derive(JSTraceable)]
pub struct TestDerivedCollection {
    collection: TestCollection,
}

impl AsRef<TestCollection> for TestDerivedCollection {
    fn as_ref(&self) -> &TestCollection {
        &self.collection
    }
}

impl TestDerivedCollectionMethods for TestDerivedCollection {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        entries: Vec<DOMString>,
    ) -> Fallible<DomRoot<TestDerivedCollection>> {
        let derived = TestDerivedCollection {
            collection: TestCollection::new_inherited(entries),
        };
        Ok(reflect_dom_object(cx, global, Box::new(derived), proto))
    }

    fn NamedItem(&self, cx: &mut JSContext, name: DOMString) -> Fallible<Option<LongOrString>> {
        Ok(self.NamedGetter(cx, name))
    }

    /// The inherited getter's value, as a number when it is one (so the
    /// tests can tell the override from the inherited getter).
    fn NamedGetter(&self, cx: &mut JSContext, name: DOMString) -> Option<LongOrString> {
        let value = self.collection.NamedGetter(cx, name)?;
        Some(match value.parse::<i32>() {
            Ok(n) => LongOrString::Long(n),
            Err(_) => LongOrString::String(value),
        })
    }

    fn SupportedPropertyNames(&self, cx: &mut JSContext) -> Vec<DOMString> {
        self.collection.SupportedPropertyNames(cx)
    }
}
