//! `CrossOriginWindow`: what a realm sees of a window of another origin
//! (see `webidl/CrossOriginWindow.webidl` for how this stands in for a
//! cross-origin WindowProxy,
//! <https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginproperties-(-o-)>).
//! It lives in the accessing realm and refers to the other window only by
//! its navigable id, so no object of the other realm is reachable from it.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};

use crate::browsing_context::{self, NavigableId};
use crate::dom::bindings::codegen::CrossOriginWindowBinding::CrossOriginWindowMethods;
use crate::dom::bindings::conversions::{RootedJsObject, RootedJsValue, USVString};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject, Reflector};
use crate::dom::globalscope::GlobalScope;
use crate::dom::window::window_post_message_steps;

#[derive(JSTraceable)]
pub struct CrossOriginWindow {
    pub(crate) reflector: Reflector,
    /// The window's navigable.
    target: NavigableId,
}

impl CrossOriginWindow {
    /// A new view of navigable `target`'s window in `global` (the accessing
    /// realm); returns its reflector.
    pub fn create(cx: &mut JSContext, global: &GlobalScope, target: NavigableId) -> *mut JSObject {
        reflect_dom_object(
            cx,
            global,
            Box::new(CrossOriginWindow {
                reflector: Reflector::new(),
                target,
            }),
            None,
        )
        .reflector_object()
    }

    fn this_object(&self) -> RootedJsObject {
        let root = RootedTraceableBox::new(Heap::default());
        root.set(self.reflector().get_jsobject());
        root
    }
}

fn security_error(what: &str) -> Error {
    Error::dom_with_message(
        DomExceptionName::SecurityError,
        format!("Blocked a cross-origin access to `{what}`"),
    )
}

impl CrossOriginWindowMethods for CrossOriginWindow {
    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window>
    fn Window(&self, _cx: &mut JSContext) -> RootedJsObject {
        self.this_object()
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-self>
    fn Self_(&self, _cx: &mut JSContext) -> RootedJsObject {
        self.this_object()
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-frames>
    fn Frames(&self, _cx: &mut JSContext) -> RootedJsObject {
        self.this_object()
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-length>
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        browsing_context::children_of(self.target).len() as u32
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-top>
    fn Top(&self, cx: &mut JSContext) -> Option<RootedJsObject> {
        browsing_context::window_proxy_for(cx, browsing_context::top_of(self.target))
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-parent>
    fn Parent(&self, cx: &mut JSContext) -> Option<RootedJsObject> {
        let parent = browsing_context::parent_of(self.target).unwrap_or(self.target);
        browsing_context::window_proxy_for(cx, parent)
    }

    /// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window-closed>
    fn Closed(&self, _cx: &mut JSContext) -> bool {
        false
    }

    /// Not a cross-origin property: "SecurityError"
    /// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-get>
    /// step 3 → CrossOriginGet → step 3 of CrossOriginGetOwnPropertyHelper
    /// failing → throw).
    fn Document(&self, _cx: &mut JSContext) -> Fallible<RootedJsValue> {
        Err(security_error("document"))
    }

    /// Simplification: the standard allows a restricted cross-origin
    /// `Location` (its `href` setter and `replace()`); navigation is not
    /// implemented, so the access is refused.
    fn Location(&self, _cx: &mut JSContext) -> Fallible<RootedJsValue> {
        Err(security_error("location"))
    }

    /// <https://html.spec.whatwg.org/multipage/web-messaging.html#dom-window-postmessage>
    fn PostMessage(
        &self,
        cx: &mut JSContext,
        message: RootedJsValue,
        target_origin: USVString,
    ) -> Fallible<()> {
        window_post_message_steps(cx, self.target, &message, &target_origin.0)
    }
}
