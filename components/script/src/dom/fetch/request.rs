//! `Request` (<https://fetch.spec.whatwg.org/#request-class>).
//!
//! The request's client is this's relevant settings object: its origin
//! is read when the request is fetched. Not done (see
//! `webidl/Request.webidl`): referrer, cache mode, integrity, keepalive,
//! priority, destination, the body stream.

use std::cell::Cell;

use jsprof_net::api_fetch::{is_forbidden_method, is_method};
use jsprof_net::Method;
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::RequestBinding::RequestMethods;
use crate::dom::bindings::codegen::{
    ByteStringSequenceSequenceOrByteStringByteStringRecord as HeadersInit, RequestCredentials,
    RequestInit, RequestMode, RequestOrUSVString, RequestRedirect,
};
use crate::dom::bindings::conversions::{ByteString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::events::abortsignal::AbortSignal;
use crate::dom::fetch::body::{clone_headers, extract_body, BodyMixin, BodyParts};
use crate::dom::fetch::headers::{isomorphic_decode, Guard, Headers};
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct Request {
    pub(crate) reflector: Reflector,
    /// <https://fetch.spec.whatwg.org/#concept-request-method>
    #[no_trace]
    method: Method,
    /// <https://fetch.spec.whatwg.org/#concept-request-url>
    #[no_trace]
    url: url::Url,
    /// <https://fetch.spec.whatwg.org/#request-headers>
    headers: Dom<Headers>,
    /// The body's bytes; `None`: null.
    body: Option<Vec<u8>>,
    body_used: Cell<bool>,
    #[no_trace]
    mode: RequestMode,
    #[no_trace]
    credentials: RequestCredentials,
    #[no_trace]
    redirect: RequestRedirect,
    /// <https://fetch.spec.whatwg.org/#request-signal>
    signal: Dom<AbortSignal>,
}

impl Request {
    pub fn signal(&self) -> DomRoot<AbortSignal> {
        self.signal.root()
    }

    /// The request to fetch, from the client `global` (origin).
    pub fn api_request(&self, global: &GlobalScope) -> jsprof_net::ApiRequest {
        jsprof_net::ApiRequest {
            method: self.method.clone(),
            url: self.url.clone(),
            headers: self.headers.root().pairs(),
            body: self.body.clone(),
            origin: global.origin(),
            mode: match self.mode {
                // (navigate never reaches here: the constructor turns it
                // into same-origin.)
                RequestMode::SameOrigin | RequestMode::Navigate => {
                    jsprof_net::RequestMode::SameOrigin
                }
                RequestMode::NoCors => jsprof_net::RequestMode::NoCors,
                RequestMode::Cors => jsprof_net::RequestMode::Cors,
            },
            credentials: match self.credentials {
                RequestCredentials::Omit => jsprof_document::CredentialsMode::Omit,
                RequestCredentials::SameOrigin => jsprof_document::CredentialsMode::SameOrigin,
                RequestCredentials::Include => jsprof_document::CredentialsMode::Include,
            },
            redirect: match self.redirect {
                RequestRedirect::Follow => jsprof_net::RedirectMode::Follow,
                RequestRedirect::Error => jsprof_net::RedirectMode::Error,
                RequestRedirect::Manual => jsprof_net::RedirectMode::Manual,
            },
            use_cors_preflight: false,
        }
    }

    /// Marks the body used (the fetch takes it).
    pub fn take_body(&self) {
        if self.body.is_some() {
            self.body_used.set(true);
        }
    }
}

impl BodyMixin for Request {
    fn body_parts(&self) -> BodyParts<'_> {
        (self.body.as_deref(), &self.body_used, self.headers.root())
    }
}

impl RequestMethods for Request {
    /// <https://fetch.spec.whatwg.org/#dom-request>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        input: RequestOrUSVString,
        init: RequestInit,
    ) -> Fallible<DomRoot<Request>> {
        // Step 1: Let request be null.
        // Step 2: Let fallbackMode be null.
        let mut fallback_mode = None;
        // Step 3: Let baseURL be this's relevant settings object's API base
        // URL.
        let base = global.api_base_url();
        // Step 4: Let signal be null.
        let mut signal = None;
        let (mut method, url, input_headers, input_body, mut mode, mut credentials, mut redirect);
        match &input {
            // Step 5: If input is a string, then:
            RequestOrUSVString::USVString(text) => {
                // Step 5.1: Let parsedURL be the result of parsing input
                // with baseURL.
                // Step 5.2: If parsedURL is failure, then throw a TypeError.
                let parsed = base
                    .join(&text.0)
                    .map_err(|_| Error::Type(format!("{:?} is not a valid URL", text.0)))?;
                // Step 5.3: If parsedURL includes credentials, then throw a
                // TypeError.
                if !parsed.username().is_empty() || parsed.password().is_some() {
                    return Err(Error::Type(format!(
                        "{parsed} includes credentials (user name or password)"
                    )));
                }
                // Step 5.4: Set request to a new request whose URL is
                // parsedURL.
                // Step 5.5: Set fallbackMode to "cors".
                method = Method::Get;
                url = parsed;
                input_headers = Vec::new();
                input_body = None;
                mode = RequestMode::Cors;
                fallback_mode = Some(RequestMode::Cors);
                credentials = RequestCredentials::SameOrigin;
                redirect = RequestRedirect::Follow;
            }
            // Step 6: Otherwise: set request to input's request; set
            // signal to input's signal.
            RequestOrUSVString::Request(request) => {
                method = request.method.clone();
                url = request.url.clone();
                input_headers = request.headers.root().pairs();
                input_body = request.body.clone();
                mode = request.mode;
                credentials = request.credentials;
                redirect = request.redirect;
                signal = Some(request.signal.root());
            }
        }
        // Steps 7-11 (origin, traversable for user prompts, window): the
        // client is this's relevant settings object.
        // Step 12: If init is not empty, then: if request's mode is
        // "navigate", then set it to "same-origin"; (the reload and
        // history navigation flags, referrer and referrer policy: not
        // kept).
        let init_not_empty = init.method.is_some()
            || init.headers.is_some()
            || init.body.is_some()
            || init.mode.is_some()
            || init.credentials.is_some()
            || init.redirect.is_some()
            || init.signal.is_some();
        if init_not_empty && mode == RequestMode::Navigate {
            mode = RequestMode::SameOrigin;
        }
        // Step 23: Let mode be init["mode"] if it exists, and fallbackMode
        // otherwise.
        // Step 24: If mode is "navigate", then throw a TypeError.
        // Step 25: If mode is non-null, set request's mode to mode.
        match init.mode.or(fallback_mode) {
            Some(RequestMode::Navigate) => {
                return Err(Error::Type(
                    "a Request cannot be made with mode \"navigate\"".to_owned(),
                ))
            }
            Some(m) => mode = m,
            None => {}
        }
        // Step 26: If init["credentials"] exists, then set request's
        // credentials mode to it.
        if let Some(c) = init.credentials {
            credentials = c;
        }
        // Step 30: If init["redirect"] exists, then set request's redirect
        // mode to it.
        if let Some(r) = init.redirect {
            redirect = r;
        }
        // Step 32: If init["method"] exists, then: let method be
        // init["method"]; if method is not a method or method is a
        // forbidden method, then throw a TypeError; normalize method; set
        // request's method to method.
        if let Some(init_method) = &init.method {
            let token = isomorphic_decode(init_method);
            if !is_method(&token) {
                return Err(Error::Type(format!("{token:?} is not a valid method")));
            }
            if is_forbidden_method(&token) {
                return Err(Error::Type(format!("the method {token} is forbidden")));
            }
            method = Method::normalize(&token);
        }
        // Step 33: If init["signal"] exists, then set signal to it.
        if let Some(init_signal) = init.signal {
            signal = init_signal;
        }
        // Step 36: Let signals be « signal » if signal is non-null;
        // otherwise « ».
        // Step 37: Set this's signal to the result of creating a dependent
        // abort signal from signals, using AbortSignal and this's relevant
        // realm.
        let signals: Vec<DomRoot<AbortSignal>> = signal.into_iter().collect();
        let this_signal = AbortSignal::new_dependent(cx, global, &signals);
        // Step 38: Set this's headers to a new Headers object with this's
        // relevant realm, whose header list is request's header list and
        // guard is "request".
        let headers = Headers::new(cx, global, Guard::Request);
        // Step 39: If this's request's mode is "no-cors", then: if this's
        // request's method is not a CORS-safelisted method, then throw a
        // TypeError; set this's headers's guard to "request-no-cors".
        if mode == RequestMode::NoCors {
            if !jsprof_net::api_fetch::is_cors_safelisted_method(&method) {
                return Err(Error::Type(format!(
                    "the method {} is not allowed in mode \"no-cors\"",
                    method.as_str()
                )));
            }
            headers.set_guard(Guard::RequestNoCors);
        }
        // Step 40: If init is not empty, then: let headers be a copy of
        // this's headers and its associated header list; if init["headers"]
        // exists, then set headers to init["headers"]; empty this's
        // headers's header list; if headers is a Headers object, then for
        // each header of its header list, append header to this's headers;
        // otherwise, fill this's headers with headers.
        let source = match init.headers {
            Some(init_headers) => init_headers,
            None => HeadersInit::ByteStringSequenceSequence(
                input_headers
                    .into_iter()
                    .map(|(n, v)| {
                        vec![
                            ByteString(n.chars().map(|c| c as u8).collect()),
                            ByteString(v.chars().map(|c| c as u8).collect()),
                        ]
                    })
                    .collect(),
            ),
        };
        headers.clear();
        headers.fill(&source)?;
        // Step 41: Let inputBody be input's request's body if input is a
        // Request object; otherwise null.
        // Step 42: If either init["body"] exists and is non-null or
        // inputBody is non-null, and request's method is `GET` or `HEAD`,
        // then throw a TypeError.
        let init_body = init.body.flatten();
        if (init_body.is_some() || input_body.is_some())
            && matches!(method, Method::Get | Method::Head)
        {
            return Err(Error::Type(format!(
                "a {} request cannot have a body",
                method.as_str()
            )));
        }
        // Step 43: Let initBody be null.
        // Step 44: If init["body"] exists and is non-null, then: let
        // bodyWithType be the result of extracting init["body"]; set
        // initBody to bodyWithType's body; let type be bodyWithType's type;
        // if type is non-null and this's headers's header list does not
        // contain `Content-Type`, then append (`Content-Type`, type) to
        // this's headers.
        let mut body = input_body;
        if let Some(init_body) = &init_body {
            let (bytes, type_) = extract_body(init_body);
            if let Some(type_) = type_ {
                if !headers.contains("Content-Type") {
                    headers.append("Content-Type", &type_)?;
                }
            }
            body = Some(bytes);
        }
        // Step 45: Let inputOrInitBody be initBody if it is non-null;
        // otherwise inputBody.
        // Steps 46-47 (streams, duplex): none.
        // Step 48: If initBody is null and inputBody is non-null, then: if
        // input is unusable, then throw a TypeError; (set finalBody to the
        // result of creating a proxy for inputBody: the input's body is
        // used from now on).
        if init_body.is_none() {
            if let RequestOrUSVString::Request(input) = &input {
                if input.body.is_some() {
                    if input.body_used.get() {
                        return Err(Error::Type(
                            "the input request's body has already been used".to_owned(),
                        ));
                    }
                    input.body_used.set(true);
                }
            }
        }
        // Step 49: Set this's request's body to finalBody.
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(Request {
                reflector: Reflector::new(),
                method,
                url,
                headers: Dom::from_ref(&headers),
                body,
                body_used: Cell::new(false),
                mode,
                credentials,
                redirect,
                signal: Dom::from_ref(&this_signal),
            }),
            proto,
        ))
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-method>
    fn Method(&self, _cx: &mut JSContext) -> ByteString {
        ByteString::from(self.method.as_str())
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-url>
    fn Url(&self, _cx: &mut JSContext) -> USVString {
        USVString(self.url.to_string())
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-headers>
    fn Headers(&self, _cx: &mut JSContext) -> DomRoot<Headers> {
        self.headers.root()
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-mode>
    fn Mode(&self, _cx: &mut JSContext) -> RequestMode {
        self.mode
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-credentials>
    fn Credentials(&self, _cx: &mut JSContext) -> RequestCredentials {
        self.credentials
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-redirect>
    fn Redirect(&self, _cx: &mut JSContext) -> RequestRedirect {
        self.redirect
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-signal>
    fn Signal(&self, _cx: &mut JSContext) -> DomRoot<AbortSignal> {
        self.signal.root()
    }

    /// <https://fetch.spec.whatwg.org/#dom-request-clone>
    fn Clone(&self, cx: &mut JSContext) -> Fallible<DomRoot<Request>> {
        // Step 1: If this is unusable, then throw a TypeError.
        let headers = clone_headers(cx, self, "request")?;
        // Step 2: Let clonedRequest be the result of cloning this's request.
        // Step 3: Let clonedRequestObject be the result of creating a
        // Request object, given clonedRequest, this's headers's guard,
        // (a dependent signal of this's signal), and this's relevant realm.
        let global = self.global_scope();
        let signal = AbortSignal::new_dependent(cx, global, &[self.signal.root()]);
        // Step 4: Return clonedRequestObject.
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(Request {
                reflector: Reflector::new(),
                method: self.method.clone(),
                url: self.url.clone(),
                headers: Dom::from_ref(&headers),
                body: self.body.clone(),
                body_used: Cell::new(false),
                mode: self.mode,
                credentials: self.credentials,
                redirect: self.redirect,
                signal: Dom::from_ref(&signal),
            }),
            None,
        ))
    }

    // The Body mixin (webidl/Body.webidl), written once in `body.rs`.
    crate::body_mixin_methods!();
}
