//! `WorkerNavigator` (<https://html.spec.whatwg.org/multipage/workers.html#the-workernavigator-object>):
//! a worker's `navigator`, with the values the Window's `Navigator` gives
//! (see `dom/navigator.rs`).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::WorkerNavigatorBinding::WorkerNavigatorMethods;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::navigator::LanguagesCache;

#[derive(JSTraceable)]
pub struct WorkerNavigator {
    pub(crate) reflector: Reflector,
    languages: LanguagesCache,
}

impl WorkerNavigator {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<WorkerNavigator> {
        reflect_dom_object(
            cx,
            global,
            Box::new(WorkerNavigator {
                reflector: Reflector::new(),
                languages: LanguagesCache::default(),
            }),
            None,
        )
    }
}

impl WorkerNavigatorMethods for WorkerNavigator {
    crate::navigator_shared_methods!();
}
