//! `WorkerLocation` (<https://html.spec.whatwg.org/multipage/workers.html#worker-locations>):
//! the worker global scope's URL, read-only.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::WorkerLocationBinding::WorkerLocationMethods;
use crate::dom::bindings::conversions::USVString;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::url::urlhelper::UrlHelper;

#[derive(JSTraceable)]
pub struct WorkerLocation {
    pub(crate) reflector: Reflector,
    /// The WorkerGlobalScope's url.
    #[no_trace]
    url: url::Url,
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
        UrlHelper::href(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-origin>:
    /// the serialization of this's WorkerGlobalScope's url's origin.
    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(jsprof_document::Origin::of(&self.url).ascii_serialization())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-protocol>:
    /// the url's scheme, followed by ":".
    fn Protocol(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::protocol(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-host>
    fn Host(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::host(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-hostname>
    fn Hostname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hostname(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-port>
    fn Port(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::port(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-pathname>:
    /// the result of URL path serializing the url.
    fn Pathname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::pathname(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-search>
    fn Search(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::search(&self.url)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerlocation-hash>
    fn Hash(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hash(&self.url)
    }
}
