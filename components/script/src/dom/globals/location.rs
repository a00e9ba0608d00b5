//! `Location` (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-location-interface>):
//! the relevant Document's URL, read live (so `pushState` and fragment
//! navigations show), and the `hash` setter's fragment navigation.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::LocationBinding::LocationMethods;
use crate::dom::bindings::conversions::USVString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::history::HistoryHandling;
use crate::dom::globals::window::Window;
use crate::dom::nodes::document::DocumentReadyState;
use crate::dom::url::urlhelper::UrlHelper;

#[derive(JSTraceable)]
pub struct Location {
    pub(crate) reflector: Reflector,
}

impl Location {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<Location> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Location {
                reflector: Reflector::new(),
            }),
            None,
        )
    }

    /// The relevant global object's Window.
    fn window(&self) -> &Window {
        // (Location is exposed on Window only.)
        self.global_scope()
            .as_window()
            .expect("Location lives in a Window global")
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#concept-location-url>:
    /// this's relevant Document's URL.
    fn url(&self) -> url::Url {
        self.window().url()
    }
}

impl LocationMethods for Location {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-href>
    fn Href(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::href(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-origin>
    fn Origin(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url().origin().ascii_serialization())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-protocol>
    fn Protocol(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::protocol(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-host>
    fn Host(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::host(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hostname>
    fn Hostname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hostname(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-port>
    fn Port(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::port(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-pathname>
    fn Pathname(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::pathname(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-search>
    fn Search(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::search(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hash>
    fn Hash(&self, _cx: &mut JSContext) -> USVString {
        UrlHelper::hash(&self.url())
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-location-hash>
    fn SetHash(&self, cx: &mut JSContext, value: USVString) -> Fallible<()> {
        let window = self.window();
        // Step 1: If this's relevant Document is null, then return.
        let Some(document) = window.active_document() else {
            return Ok(());
        };
        // Step 2: If this's relevant Document's origin is not same
        // origin-domain with the entry settings object's origin, then
        // throw a "SecurityError" DOMException. (A cross-origin caller
        // cannot reach this Location: a cross-origin WindowProxy does not
        // give it out, see crate::navigation::windowproxy; the caller is same origin
        // here.)
        // Step 3: Let copyURL be a copy of this's url.
        let url = self.url();
        let mut copy_url = url.clone();
        // Step 4: Let thisURLFragment be copyURL's fragment if it is
        // non-null; otherwise the empty string.
        let this_url_fragment = copy_url.fragment().unwrap_or("").to_owned();
        // Step 5: Let input be the given value with a single leading "#"
        // removed, if any.
        let input = value.0.strip_prefix('#').unwrap_or(&value.0);
        // Step 6: Set copyURL's fragment to the empty string.
        // Step 7: Basic URL parse input, with copyURL as url and fragment
        // state as state override (percent-encoding with the fragment
        // percent-encode set, as the url crate's set_fragment does).
        copy_url.set_fragment(Some(input));
        // Step 8: If copyURL's fragment is thisURLFragment, then return.
        if copy_url.fragment().unwrap_or("") == this_url_fragment {
            return Ok(());
        }
        // Step 9: Location-object navigate this to copyURL.
        // (https://html.spec.whatwg.org/multipage/nav-history-apis.html#location-object-navigate:
        // historyHandling is "replace" while the document is not yet
        // completely loaded (the shell has no transient activation), else
        // "push"; a URL equal to the document's but for its fragment
        // navigates to the fragment.)
        let history_handling = if document.ready_state() == DocumentReadyState::Complete {
            HistoryHandling::Push
        } else {
            HistoryHandling::Replace
        };
        let history = window.history(cx);
        history.navigate_to_fragment(cx, copy_url, history_handling);
        Ok(())
    }
}
