//! `Response` (<https://fetch.spec.whatwg.org/#response-class>), the
//! subset `fetch()` needs, and the `fetch()` method steps
//! ([`fetch`], <https://fetch.spec.whatwg.org/#fetch-method>).
//!
//! Simplifications (documented in `webidl/Response.webidl` and
//! `Window.webidl`): `fetch(url)` is a same-origin (or `data:`/`blob:`)
//! GET following redirects; a cross-origin URL, or a redirect to another
//! origin, is a network error (no CORS requests yet). The fetch runs
//! synchronously inside a queued task on the page's loader, and the
//! promise is resolved from that task.

use std::cell::Cell;
use std::rc::Rc;

use jsprof_document::Origin;
use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;

use crate::browsing_context;
use crate::dom::bindings::codegen::ResponseBinding::ResponseMethods;
use crate::dom::bindings::codegen::ResponseType;
use crate::dom::bindings::conversions::{DOMString, RootedJsValue, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globalscope::GlobalScope;
use crate::dom::window::Window;
use crate::event_loop::EventLoop;

pub struct Response {
    pub(crate) reflector: Reflector,
    url: String,
    redirected: bool,
    status: u16,
    status_text: String,
    body: Vec<u8>,
    /// <https://fetch.spec.whatwg.org/#body-unusable> (the body was read).
    body_used: Cell<bool>,
}

unsafe impl Traceable for Response {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.reflector.trace(trc) }
    }
}

impl Response {
    /// "consume body": the bytes, once; a TypeError if already used.
    fn consume_body(&self) -> Fallible<&[u8]> {
        if self.body_used.replace(true) {
            return Err(Error::Type("the body has already been consumed".to_owned()));
        }
        Ok(&self.body)
    }
}

impl ResponseMethods for Response {
    /// <https://fetch.spec.whatwg.org/#dom-response-type>
    fn Type(&self, _cx: &mut JSContext) -> ResponseType {
        ResponseType::Basic
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-url>
    fn Url(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.clone())
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-redirected>
    fn Redirected(&self, _cx: &mut JSContext) -> bool {
        self.redirected
    }

    fn Status(&self, _cx: &mut JSContext) -> u16 {
        self.status
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-ok>
    fn Ok(&self, _cx: &mut JSContext) -> bool {
        (200..=299).contains(&self.status)
    }

    fn StatusText(&self, _cx: &mut JSContext) -> DOMString {
        self.status_text.clone()
    }

    fn BodyUsed(&self, _cx: &mut JSContext) -> bool {
        self.body_used.get()
    }

    /// <https://fetch.spec.whatwg.org/#dom-body-text>: consume body with
    /// UTF-8 decode.
    fn Text(&self, cx: &mut JSContext) -> Fallible<Rc<Promise>> {
        let text = String::from_utf8_lossy(self.consume_body()?).into_owned();
        let promise = Promise::new(cx);
        promise.resolve(cx, &USVString(text));
        Ok(promise)
    }

    /// <https://fetch.spec.whatwg.org/#dom-body-json>: consume body with
    /// "parse JSON from bytes" (a SyntaxError rejects).
    fn Json(&self, cx: &mut JSContext) -> Fallible<Rc<Promise>> {
        let text: Vec<u16> = String::from_utf8_lossy(self.consume_body()?)
            .encode_utf16()
            .collect();
        let length = u32::try_from(text.len())
            .map_err(|_| Error::Range("the body is too large to parse".to_owned()))?;
        rooted!(&in(cx) let mut value = UndefinedValue());
        let ok = unsafe {
            mozjs::rust::wrappers2::JS_ParseJSON(cx, text.as_ptr(), length, value.handle_mut())
        };
        let promise = Promise::new(cx);
        if ok {
            let result = RootedJsValue::new(Default::default());
            result.set(value.get());
            promise.resolve(cx, &result);
        } else {
            rooted!(&in(cx) let mut exception = UndefinedValue());
            unsafe {
                mozjs::rust::wrappers2::JS_GetPendingException(cx, exception.handle_mut());
                mozjs::rust::wrappers2::JS_ClearPendingException(cx);
            }
            let reason = RootedJsValue::new(Default::default());
            reason.set(exception.get());
            promise.reject(cx, &reason);
        }
        Ok(promise)
    }
}

/// Whether `url` may be fetched without CORS from `origin`: same origin,
/// `data:` or `blob:` (main fetch step 12's "basic" cases).
fn fetch_allowed(url: &url::Url, origin: &Origin) -> bool {
    matches!(url.scheme(), "data" | "blob") || Origin::of(url).same_origin(origin)
}

/// GET `url`, following redirects
/// (<https://fetch.spec.whatwg.org/#http-redirect-fetch>, redirect mode
/// "follow") while they stay fetchable without CORS: a redirect to another
/// origin is a network error before it is requested (it would need a CORS
/// request).
fn fetch_following_same_origin(
    loader: &dyn crate::script_loading::Loader,
    url: &url::Url,
    origin: &Origin,
) -> Result<jsprof_net::FollowedResponse, String> {
    let mut url_list = vec![url.clone()];
    loop {
        let current = url_list.last().expect("not empty").clone();
        let response = loader
            .fetch_hop(&jsprof_net::HopRequest::get(current.clone()))
            .map_err(|e| e.to_string())?;
        // Step 3: Let locationURL be internalResponse's location URL; Step
        // 4: if null, return response; Step 5: failure is a network error.
        let location = response.location_url().map_err(|e| e.to_string())?;
        let Some(location) = location else {
            return Ok(jsprof_net::FollowedResponse { url_list, response });
        };
        // Step 6: If locationURL's scheme is not an HTTP(S) scheme, then
        // return a network error.
        if !matches!(location.scheme(), "http" | "https") {
            return Err(format!("{current} redirected to a non-HTTP(S) URL"));
        }
        // Step 7: If request's redirect count is 20, then return a network
        // error.
        if url_list.len() > jsprof_net::REDIRECT_LIMIT as usize {
            return Err(format!("{url}: too many redirects"));
        }
        // (No CORS here: a cross-origin hop is a network error.)
        if !fetch_allowed(&location, origin) {
            return Err(format!(
                "{current} redirected to another origin ({location})"
            ));
        }
        // Step 18: Append locationURL to request's URL list.
        url_list.push(location);
    }
}

/// <https://fetch.spec.whatwg.org/#fetch-method> for `window`, with the
/// simplifications of the module documentation.
pub fn fetch(window: &Window, cx: &mut JSContext, input: &str) -> Fallible<Rc<Promise>> {
    // Step 1: Let p be a new promise.
    let promise = Promise::new(cx);
    // Step 2: Let requestObject be the result of invoking the initial
    // value of Request as constructor with input and init as arguments.
    // If this throws an exception, reject p with it and return p. (The
    // Request constructor parses input with this's API base URL; a failure
    // is a TypeError.)
    let base = window
        .active_document()
        .map_or_else(|| window.url(), |d| d.url());
    let Ok(url) = base.join(input) else {
        promise.reject_error(
            cx,
            Error::Type(format!("fetch: {input:?} is not a valid URL")),
        );
        return Ok(promise);
    };
    // Main fetch, step 12: a same-origin request (or data:, or blob:) is
    // fetched with "basic" tainting; a cross-origin one would need a CORS
    // request, which this shell does not make.
    let origin = window.origin();
    if !fetch_allowed(&url, &origin) {
        promise.reject_error(
            cx,
            Error::Type(format!(
                "fetch: {url} is cross-origin (only same-origin fetches are supported)"
            )),
        );
        return Ok(promise);
    }
    // Step 12: Fetch request, with processResponse given response being
    // these steps (run in a task of the networking task source).
    let global = window.global_object();
    let result = promise.clone();
    let loader = browsing_context::loader();
    EventLoop::current().queue_task(Box::new(move |cx| {
        let Some(global) = std::ptr::NonNull::new(global) else {
            return;
        };
        let mut realm = AutoRealm::new(cx, global);
        let cx = &mut *realm;
        let scope = unsafe { GlobalScope::from_global(global.as_ptr()) };
        // Fetch processing is `other` work (markers).
        let _work = crate::profiling::other_work(scope);
        let response = match loader {
            Some(loader) => fetch_following_same_origin(&*loader, &url, &origin),
            None => Err("no loader (no page was loaded)".to_owned()),
        };
        match response {
            // Step 12.3: If response is a network error, then reject p with
            // a TypeError and abort these steps.
            Err(message) => result.reject_error(cx, Error::Type(format!("fetch: {message}"))),
            // Step 12.4: Set responseObject to the result of creating a
            // Response object, given response, "immutable", and
            // relevantRealm.
            // Step 12.5: Resolve p with responseObject.
            Ok(followed) => {
                let response: DomRoot<Response> = reflect_dom_object(
                    cx,
                    scope,
                    Box::new(Response {
                        reflector: Reflector::new(),
                        url: {
                            let mut u = followed.response.url.clone();
                            u.set_fragment(None);
                            u.to_string()
                        },
                        redirected: followed.url_list.len() > 1,
                        status: followed.response.status,
                        status_text: followed.response.status_text.clone(),
                        body: followed.response.body,
                        body_used: Cell::new(false),
                    }),
                    None,
                );
                result.resolve(cx, &response);
            }
        }
    }));
    // Step 13: Return p.
    Ok(promise)
}
