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
        USVString(self.url.to_string())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-origin>
    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.origin().ascii_serialization())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-protocol>
    fn Protocol(&self, _cx: &mut JSContext) -> USVString {
        USVString(format!("{}:", self.url.scheme()))
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-host>
    fn Host(&self, _cx: &mut JSContext) -> USVString {
        let host = self.url.host_str().unwrap_or_default();
        USVString(match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        })
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hostname>
    fn Hostname(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.host_str().unwrap_or_default().to_owned())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-port>
    fn Port(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.port().map(|p| p.to_string()).unwrap_or_default())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-pathname>
    fn Pathname(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.path().to_owned())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-search>
    fn Search(&self, _cx: &mut JSContext) -> USVString {
        USVString(match self.url.query() {
            Some(q) if !q.is_empty() => format!("?{q}"),
            _ => String::new(),
        })
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hash>
    fn Hash(&self, _cx: &mut JSContext) -> USVString {
        USVString(match self.url.fragment() {
            Some(f) if !f.is_empty() => format!("#{f}"),
            _ => String::new(),
        })
    }
}
