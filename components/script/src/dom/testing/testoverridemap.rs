//! `TestOverrideMap`: a test-only `[LegacyOverrideBuiltIns]` legacy
//! platform object with identifier-less named property operations
//! (`webidl/TestBinding.webidl`), standing in for `DOMStringMap`.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::TestOverrideMapBinding::TestOverrideMapMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::testing::testnamedmap::OrderedMap;

#[derive(JSTraceable)]
pub struct TestOverrideMap {
    pub(crate) reflector: Reflector,
    #[no_trace]
    map: OrderedMap,
}

impl TestOverrideMapMethods for TestOverrideMap {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<TestOverrideMap>> {
        let map = TestOverrideMap {
            reflector: Reflector::new(),
            map: OrderedMap::default(),
        };
        Ok(reflect_dom_object(cx, global, Box::new(map), proto))
    }

    fn Builtin(&self, _cx: &mut JSContext) -> DOMString {
        "builtin".into()
    }

    fn NamedGetter(&self, _cx: &mut JSContext, name: DOMString) -> Option<DOMString> {
        self.map.get(&name)
    }

    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        self.map.names()
    }

    fn NamedSetter(&self, _cx: &mut JSContext, name: DOMString, value: DOMString) -> Fallible<()> {
        self.map.set(name, value);
        Ok(())
    }

    fn NamedDeleter(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<()> {
        self.map.remove(&name);
        Ok(())
    }
}
