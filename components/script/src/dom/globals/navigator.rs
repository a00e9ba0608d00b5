//! `Navigator` (<https://html.spec.whatwg.org/multipage/system-state.html#the-navigator-object>),
//! the `navigator` of a Window, with the values of the client
//! identification, language, online, cookie and hardware concurrency
//! mixins that `WorkerNavigator` shares (the functions below).
//!
//! The shell answers in the Gecko navigator compatibility mode
//! (<https://html.spec.whatwg.org/multipage/system-state.html#concept-navigator-compatibility-mode>),
//! as its engine is SpiderMonkey.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;

use crate::dom::bindings::codegen::NavigatorBinding::NavigatorMethods;
use crate::dom::bindings::conversions::{DOMString, RootedJsObject, ToJsValue};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

/// The platform part of the user agent string and of `navigator.platform`
/// (the network layer's, [`jsprof_net::platform`]).
pub(crate) fn platform() -> String {
    jsprof_net::platform()
}

/// The "default `User-Agent` value"
/// (<https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-useragent>)
/// as pages see it: the string the network layer sends as the HTTP
/// `User-Agent` header ([`jsprof_net::default_user_agent`]).
pub(crate) fn user_agent() -> String {
    jsprof_net::default_user_agent().to_owned()
}

/// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appversion>
pub(crate) fn app_version() -> String {
    // Let trail be the substring of default User-Agent value that follows
    // the "Mozilla/" prefix.
    let ua = user_agent();
    let trail = ua.strip_prefix("Mozilla/").unwrap_or(&ua);
    // If the navigator compatibility mode is Gecko: if trail starts with
    // "5.0 (Windows", then return "5.0 (Windows)".
    if trail.starts_with("5.0 (Windows") {
        return "5.0 (Windows)".to_owned();
    }
    // Otherwise, return the prefix of trail up to but not including the
    // first U+003B (;), concatenated with the character U+0029 RIGHT
    // PARENTHESIS.
    let prefix = trail.split(';').next().unwrap_or(trail);
    format!("{prefix})")
}

/// The user's preferred languages (<https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages>):
/// the shell has no settings, and answers as headless Chromium does by
/// default.
pub(crate) const LANGUAGES: &[&str] = &["en-US", "en"];

/// <https://html.spec.whatwg.org/multipage/workers.html#dom-navigator-hardwareconcurrency>:
/// the number of logical processors available to the user agent.
pub(crate) fn hardware_concurrency() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// The `languages` frozen array a navigator hands out, made once per
/// navigator (so `navigator.languages === navigator.languages`, as a
/// FrozenArray attribute whose value has not changed).
#[derive(Default, JSTraceable)]
pub(crate) struct LanguagesCache(Box<Heap<*mut JSObject>>);

impl LanguagesCache {
    /// The array, made in the current realm (the navigator's) on first
    /// use.
    pub(crate) fn get(&self, cx: &mut JSContext) -> RootedJsObject {
        let root = RootedTraceableBox::new(Heap::default());
        if self.0.get().is_null() {
            let languages: Vec<String> = LANGUAGES.iter().map(|l| (*l).to_owned()).collect();
            rooted!(&in(cx) let mut value = UndefinedValue());
            // SAFETY: `value` is rooted.
            unsafe { languages.to_js(cx, value.handle_mut()) };
            if value.is_object() {
                rooted!(&in(cx) let array = value.to_object());
                // https://webidl.spec.whatwg.org/#js-frozen-array: the
                // array is frozen.
                // SAFETY: `array` is rooted.
                unsafe { mozjs::rust::wrappers2::JS_FreezeObject(cx, array.handle()) };
                self.0.set(array.get());
            }
        }
        root.set(self.0.get());
        root
    }
}

#[derive(JSTraceable)]
pub struct Navigator {
    pub(crate) reflector: Reflector,
    languages: LanguagesCache,
}

impl Navigator {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<Navigator> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Navigator {
                reflector: Reflector::new(),
                languages: LanguagesCache::default(),
            }),
            None,
        )
    }
}

impl NavigatorMethods for Navigator {
    crate::navigator_shared_methods!();

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-productsub>:
    /// "20100101" in the Gecko compatibility mode.
    fn ProductSub(&self, _cx: &mut JSContext) -> DOMString {
        "20100101".to_owned()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-vendor>:
    /// the empty string in the Gecko compatibility mode.
    fn Vendor(&self, _cx: &mut JSContext) -> DOMString {
        String::new()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-vendorsub>
    fn VendorSub(&self, _cx: &mut JSContext) -> DOMString {
        String::new()
    }

    /// <https://html.spec.whatwg.org/multipage/obsolete.html#dom-navigator-taintenabled>
    fn TaintEnabled(&self, _cx: &mut JSContext) -> crate::dom::bindings::error::Fallible<bool> {
        Ok(false)
    }

    /// <https://html.spec.whatwg.org/multipage/obsolete.html#dom-navigator-oscpu>:
    /// in the Gecko compatibility mode, a string for the platform.
    fn Oscpu(&self, _cx: &mut JSContext) -> DOMString {
        platform()
    }

    /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-cookieenabled>:
    /// true (cookies are neither blocked nor refused).
    fn CookieEnabled(&self, _cx: &mut JSContext) -> bool {
        true
    }

    /// <https://w3c.github.io/webdriver/#dom-navigatorautomationinformation-webdriver>:
    /// the shell is not under WebDriver control.
    fn Webdriver(&self, _cx: &mut JSContext) -> bool {
        false
    }
}

/// The members of `Navigator`'s mixins that `WorkerNavigator` includes too
/// (`NavigatorID` without its Window-only members, `NavigatorLanguage`,
/// `NavigatorOnLine`, `NavigatorConcurrentHardware`): expanded inside both
/// `…Methods` impls, whose types have a `languages: LanguagesCache` field.
#[macro_export]
macro_rules! navigator_shared_methods {
    () => {
        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appcodename>
        fn AppCodeName(&self, _cx: &mut mozjs::context::JSContext) -> String {
            "Mozilla".to_owned()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appname>
        fn AppName(&self, _cx: &mut mozjs::context::JSContext) -> String {
            "Netscape".to_owned()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-appversion>
        fn AppVersion(&self, _cx: &mut mozjs::context::JSContext) -> String {
            $crate::dom::globals::navigator::app_version()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-platform>
        fn Platform(&self, _cx: &mut mozjs::context::JSContext) -> String {
            $crate::dom::globals::navigator::platform()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-product>
        fn Product(&self, _cx: &mut mozjs::context::JSContext) -> String {
            "Gecko".to_owned()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-useragent>
        fn UserAgent(&self, _cx: &mut mozjs::context::JSContext) -> String {
            $crate::dom::globals::navigator::user_agent()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-language>
        fn Language(&self, _cx: &mut mozjs::context::JSContext) -> String {
            $crate::dom::globals::navigator::LANGUAGES[0].to_owned()
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages>
        fn Languages(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::conversions::RootedJsObject {
            self.languages.get(cx)
        }

        /// <https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-online>:
        /// the shell does not watch the network; it is online.
        fn OnLine(&self, _cx: &mut mozjs::context::JSContext) -> bool {
            true
        }

        /// <https://html.spec.whatwg.org/multipage/workers.html#dom-navigator-hardwareconcurrency>
        fn HardwareConcurrency(&self, _cx: &mut mozjs::context::JSContext) -> u64 {
            $crate::dom::globals::navigator::hardware_concurrency()
        }
    };
}
