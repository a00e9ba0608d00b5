//! `WorkerLocation` (<https://html.spec.whatwg.org/multipage/workers.html#worker-locations>):
//! the worker global scope's URL, read-only.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::WorkerLocationBinding::WorkerLocationMethods;
use crate::dom::bindings::conversions::USVString;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globalscope::GlobalScope;

pub struct WorkerLocation {
    pub(crate) reflector: Reflector,
    /// The WorkerGlobalScope's url.
    url: url::Url,
}

unsafe impl Traceable for WorkerLocation {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.reflector.trace(trc) }
    }
}

impl WorkerLocation {
    pub fn new(cx: &mut JSContext, global: &GlobalScope, url: url::Url) -> DomRoot<WorkerLocation> {
        reflect_dom_object(
            cx,
            global,
            Box::new(WorkerLocation {
                reflector: Reflector::new(),
                url,
            }),
            None,
        )
    }
}

impl WorkerLocationMethods for WorkerLocation {
    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-href>:
    /// the serialization of this's WorkerGlobalScope's url.
    fn Href(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.to_string())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-origin>:
    /// the serialization of this's WorkerGlobalScope's url's origin.
    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(jsprof_document::Origin::of(&self.url).ascii_serialization())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-protocol>:
    /// the url's scheme, followed by ":".
    fn Protocol(&self, _cx: &mut JSContext) -> USVString {
        USVString(format!("{}:", self.url.scheme()))
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-host>
    fn Host(&self, _cx: &mut JSContext) -> USVString {
        // Step 1: Let url be this's WorkerGlobalScope's url.
        // Step 2: If url's host is null, return the empty string.
        let Some(host) = self.url.host_str() else {
            return USVString(String::new());
        };
        // Step 3: If url's port is null, return url's host, serialized.
        // Step 4: Return url's host, serialized, followed by ":" and url's
        // port, serialized.
        USVString(match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        })
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-hostname>
    fn Hostname(&self, _cx: &mut JSContext) -> USVString {
        // Step 1-3: the host, serialized, or the empty string if null.
        USVString(self.url.host_str().unwrap_or_default().to_owned())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-port>
    fn Port(&self, _cx: &mut JSContext) -> USVString {
        // Step 1-3: the port, serialized, or the empty string if null.
        USVString(self.url.port().map(|p| p.to_string()).unwrap_or_default())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-pathname>:
    /// the result of URL path serializing the url.
    fn Pathname(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.path().to_owned())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-search>
    fn Search(&self, _cx: &mut JSContext) -> USVString {
        // Step 1: Let query be this's WorkerGlobalScope's url's query.
        // Step 2: If query is either null or the empty string, return the
        // empty string.
        // Step 3: Return "?", followed by query.
        USVString(match self.url.query() {
            Some(q) if !q.is_empty() => format!("?{q}"),
            _ => String::new(),
        })
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-hash>
    fn Hash(&self, _cx: &mut JSContext) -> USVString {
        // Step 1: Let fragment be this's WorkerGlobalScope's url's fragment.
        // Step 2: If fragment is either null or the empty string, return
        // the empty string.
        // Step 3: Return "#", followed by fragment.
        USVString(match self.url.fragment() {
            Some(f) if !f.is_empty() => format!("#{f}"),
            _ => String::new(),
        })
    }
}
