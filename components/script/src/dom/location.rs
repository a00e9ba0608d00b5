//! `Location` (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-location-interface>),
//! read-only.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::LocationBinding::LocationMethods;
use crate::dom::bindings::conversions::USVString;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globalscope::GlobalScope;
use crate::dom::urlhelper::UrlHelper;

pub struct Location {
    pub(crate) reflector: Reflector,
    url: url::Url,
}

unsafe impl Traceable for Location {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.reflector.trace(trc) }
    }
}

impl Location {
    pub fn new(cx: &mut JSContext, global: &GlobalScope, url: url::Url) -> DomRoot<Location> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Location {
                reflector: Reflector::new(),
                url,
            }),
            None,
        )
    }
}

impl LocationMethods for Location {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-href>
    fn Href(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::href(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-origin>
    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.origin().ascii_serialization())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-protocol>
    fn Protocol(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::protocol(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-host>
    fn Host(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::host(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hostname>
    fn Hostname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hostname(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-port>
    fn Port(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::port(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-pathname>
    fn Pathname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::pathname(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-search>
    fn Search(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::search(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hash>
    fn Hash(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hash(&self.url)
    }
}
