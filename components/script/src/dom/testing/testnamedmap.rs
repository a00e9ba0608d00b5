//! `TestNamedMap`: a test-only legacy platform object with a named
//! property getter, setter and deleter (`webidl/TestBinding.webidl`),
//! standing in for `Storage` in the bindings tests.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestNamedMapBinding::TestNamedMapMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

/// Name-value pairs in insertion order (shared with `TestOverrideMap`).
#[derive(Default)]
pub struct OrderedMap(RefCell<Vec<(DOMString, DOMString)>>);

impl OrderedMap {
    pub fn get(&self, name: &str) -> Option<DOMString> {
        let entries = self.0.borrow();
        entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }

    pub fn set(&self, name: DOMString, value: DOMString) {
        let mut entries = self.0.borrow_mut();
        match entries.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = value,
            None => entries.push((name, value)),
        }
    }

    pub fn remove(&self, name: &str) {
        self.0.borrow_mut().retain(|(n, _)| n != name);
    }

    pub fn names(&self) -> Vec<DOMString> {
        self.0.borrow().iter().map(|(n, _)| n.clone()).collect()
    }

    pub fn len(&self) -> usize {
        self.0.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

#[derive(JSTraceable)]
pub struct TestNamedMap {
    pub(crate) reflector: Reflector,
    #[no_trace]
    map: OrderedMap,
}

impl TestNamedMapMethods for TestNamedMap {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<TestNamedMap>> {
        let map = TestNamedMap {
            reflector: Reflector::new(),
            map: OrderedMap::default(),
        };
        Ok(reflect_dom_object(cx, global, Box::new(map), proto))
    }

    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.map.len() as u32
    }

    fn GetItem(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<Option<DOMString>> {
        Ok(self.map.get(&name))
    }

    fn SetItem(&self, _cx: &mut JSContext, name: DOMString, value: DOMString) -> Fallible<()> {
        self.map.set(name, value);
        Ok(())
    }

    fn RemoveItem(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        self.map.remove(&name);
        Ok(())
    }

    fn NamedGetter(&self, _cx: &mut JSContext, name: DOMString) -> Option<DOMString> {
        self.map.get(&name)
    }

    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        self.map.names()
    }

    fn NamedSetter(&self, cx: &mut JSContext, name: DOMString, value: DOMString) -> Fallible<()> {
        self.SetItem(cx, name, value)
    }

    fn NamedDeleter(&self, cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        self.RemoveItem(cx, name)
    }
}
