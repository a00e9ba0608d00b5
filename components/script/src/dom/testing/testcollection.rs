//! `TestCollection`: a test-only legacy platform object with indexed and
//! `[LegacyUnenumerableNamedProperties]` named getters and no setters
//! (`webidl/TestBinding.webidl`), standing in for `HTMLCollection`.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestCollectionBinding::TestCollectionMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct TestCollection {
    pub(crate) reflector: Reflector,
    /// "name=value" entries: item(i) is the value, namedItem(name) the
    /// first value with that name.
    entries: Vec<(DOMString, DOMString)>,
}

impl TestCollection {
    /// The collection part of a derived interface's struct.
    pub(crate) fn new_inherited(entries: Vec<DOMString>) -> TestCollection {
        let entries = entries
            .into_iter()
            .map(|e| match e.split_once('=') {
                Some((n, v)) => (n.to_owned(), v.to_owned()),
                None => (String::new(), e),
            })
            .collect();
        TestCollection {
            reflector: Reflector::new(),
            entries,
        }
    }
}

impl TestCollectionMethods for TestCollection {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        entries: Vec<DOMString>,
    ) -> Fallible<DomRoot<TestCollection>> {
        let collection = TestCollection::new_inherited(entries);
        Ok(reflect_dom_object(cx, global, Box::new(collection), proto))
    }

    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.entries.len() as u32
    }

    fn Item(&self, cx: &mut JSContext, index: u32) -> Fallible<Option<DOMString>> {
        Ok(self.IndexedGetter(cx, index))
    }

    fn NamedItem(&self, cx: &mut JSContext, name: DOMString) -> Fallible<Option<DOMString>> {
        Ok(self.NamedGetter(cx, name))
    }

    fn IndexedGetter(&self, _cx: &mut JSContext, index: u32) -> Option<DOMString> {
        self.entries.get(index as usize).map(|(_, v)| v.clone())
    }

    fn SupportedIndexCount(&self, _cx: &mut JSContext) -> u32 {
        self.entries.len() as u32
    }

    fn NamedGetter(&self, _cx: &mut JSContext, name: DOMString) -> Option<DOMString> {
        if name.is_empty() {
            return None;
        }
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }

    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        let mut names: Vec<DOMString> = Vec::new();
        for (n, _) in &self.entries {
            if !n.is_empty() && !names.contains(n) {
                names.push(n.clone());
            }
        }
        names
    }
}
