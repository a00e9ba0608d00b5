//! `WorkerNavigator` (<https://html.spec.whatwg.org/multipage/workers.html#the-workernavigator-object>):
//! a worker's `navigator`, with the values the Window's `Navigator` gives
//! (see `dom/navigator.rs`).

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::WorkerNavigatorBinding::WorkerNavigatorMethods;
use crate::dom::bindings::conversions::{DOMString, RootedJsObject};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globalscope::GlobalScope;
use crate::dom::navigator::{self, LanguagesCache, LANGUAGES};

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
    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appcodename>
    fn AppCodeName(&self, _cx: &mut JSContext) -> DOMString {
        "Mozilla".to_owned()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appname>
    fn AppName(&self, _cx: &mut JSContext) -> DOMString {
        "Netscape".to_owned()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appversion>
    fn AppVersion(&self, _cx: &mut JSContext) -> DOMString {
        navigator::app_version()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-platform>
    fn Platform(&self, _cx: &mut JSContext) -> DOMString {
        navigator::platform()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-product>
    fn Product(&self, _cx: &mut JSContext) -> DOMString {
        "Gecko".to_owned()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-useragent>
    fn UserAgent(&self, _cx: &mut JSContext) -> DOMString {
        navigator::user_agent()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-language>
    fn Language(&self, _cx: &mut JSContext) -> DOMString {
        LANGUAGES[0].to_owned()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages>
    fn Languages(&self, cx: &mut JSContext) -> RootedJsObject {
        self.languages.get(cx)
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-online>
    fn OnLine(&self, _cx: &mut JSContext) -> bool {
        true
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-navigator-hardwareconcurrency>
    fn HardwareConcurrency(&self, _cx: &mut JSContext) -> u64 {
        navigator::hardware_concurrency()
    }
}
