//! `XMLHttpRequest` (<https://xhr.spec.whatwg.org/#interface-xmlhttprequest>),
//! asynchronous: `send()` hands the request to the agent's fetch threads
//! (`crate::loading::fetch`) and the response is processed in a networking task.
//! The whole body arrives at once (one body chunk).
//!
//! Not done (see `webidl/XMLHttpRequest.webidl`):
//! * Synchronous requests: `open(method, url, false)` throws an
//!   InvalidAccessError. The standard throws it only with a timeout or a
//!   response type (step 10 of `open()`); a synchronous request would
//!   block the event loop for the whole fetch, which this shell does not
//!   do.
//! * `upload` and its events, `responseXML` and the "document" response
//!   type (the response is null), charsets other than UTF-8 for the text
//!   response, a `timeout` changed after `send()`.
//! * Username and password given to `open()` are ignored.
//!
//! Events follow the standard: a response with a body fires `progress`
//! when its (single) chunk arrives and again at the end of the body
//! (Chromium fires it once).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use jsprof_net::api_fetch::{
    is_forbidden_method, is_forbidden_request_header, is_header_name, is_header_value, is_method,
    normalize_header_value,
};
use jsprof_net::{ApiRequest, ApiResponse, Method, MimeType};
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsapi::Heap;
use mozjs::jsval::{JSVal, NullValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::XMLHttpRequestBinding::XMLHttpRequestMethods;
use crate::dom::bindings::codegen::{
    BlobOrBufferSourceOrURLSearchParamsOrUSVString, XMLHttpRequestResponseType,
};
use crate::dom::bindings::conversions::{
    ByteString, DOMString, RootedJsValue, ToJsValue, USVString,
};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::progressevent::ProgressEvent;
use crate::dom::fetch::blob::Blob;
use crate::dom::fetch::body::{extract_body, new_array_buffer, parse_json, utf8_decode};
use crate::dom::fetch::headers::isomorphic_decode;
use crate::dom::fetch::xmlhttprequesteventtarget::XMLHttpRequestEventTarget;
use crate::dom::globals::globalscope::GlobalScope;

/// <https://xhr.spec.whatwg.org/#concept-xmlhttprequest-state>
const UNSENT: u16 = 0;
const OPENED: u16 = 1;
const HEADERS_RECEIVED: u16 = 2;
const LOADING: u16 = 3;
const DONE: u16 = 4;

/// The cached response object
/// (<https://xhr.spec.whatwg.org/#response-object>).
#[derive(Clone, Copy, PartialEq, Eq)]
enum ResponseObject {
    Null,
    Value,
    Failure,
}

#[derive(JSTraceable)]
pub struct XMLHttpRequest {
    target: XMLHttpRequestEventTarget,
    state: Cell<u16>,
    /// <https://xhr.spec.whatwg.org/#send-flag>
    send_flag: Cell<bool>,
    /// <https://xhr.spec.whatwg.org/#timed-out-flag>
    timed_out: Cell<bool>,
    /// <https://xhr.spec.whatwg.org/#upload-complete-flag>
    upload_complete: Cell<bool>,
    #[no_trace]
    method: RefCell<Method>,
    #[no_trace]
    url: RefCell<Option<url::Url>>,
    /// <https://xhr.spec.whatwg.org/#author-request-headers>
    author_headers: RefCell<Vec<(String, String)>>,
    timeout: Cell<u32>,
    with_credentials: Cell<bool>,
    #[no_trace]
    response_type: Cell<XMLHttpRequestResponseType>,
    /// <https://xhr.spec.whatwg.org/#response>: `None` is a network error.
    #[no_trace]
    response: RefCell<Option<ApiResponse>>,
    /// <https://xhr.spec.whatwg.org/#received-bytes>
    received: RefCell<Vec<u8>>,
    #[no_trace]
    response_object: Cell<ResponseObject>,
    response_value: Box<Heap<JSVal>>,
    /// <https://xhr.spec.whatwg.org/#override-mime-type>
    #[no_trace]
    override_mime: RefCell<Option<MimeType>>,
    /// The fetch in flight (its id in `crate::loading::fetch`).
    fetch_id: Cell<Option<u64>>,
}

impl AsRef<XMLHttpRequestEventTarget> for XMLHttpRequest {
    fn as_ref(&self) -> &XMLHttpRequestEventTarget {
        &self.target
    }
}

impl XMLHttpRequest {
    fn event_target(&self) -> &EventTarget {
        self.target.upcast_event_target()
    }

    /// Fires a simple (trusted, non-bubbling) event named `type_`.
    fn fire_event(&self, cx: &mut JSContext, type_: &str) {
        let event = Event::new(cx, self.global_scope(), type_, false, false);
        event.set_trusted(true);
        self.event_target().dispatch(cx, &event);
    }

    /// <https://xhr.spec.whatwg.org/#concept-event-fire-progress>
    fn fire_progress(&self, cx: &mut JSContext, type_: &str, transmitted: u64, length: u64) {
        let event =
            ProgressEvent::new_progress(cx, self.global_scope(), type_, transmitted, length);
        self.event_target().dispatch(cx, event.upcast_event());
    }

    /// Terminates the fetch in flight, if any.
    fn terminate_fetch(&self) {
        if let Some(id) = self.fetch_id.take() {
            crate::loading::fetch::cancel(id);
        }
    }

    /// <https://xhr.spec.whatwg.org/#request-error-steps>
    fn request_error_steps(&self, cx: &mut JSContext, event: &str) {
        // Step 1: Set xhr's state to done.
        self.state.set(DONE);
        // Step 2: Unset xhr's send() flag.
        self.send_flag.set(false);
        // Step 3: Set xhr's response to a network error.
        *self.response.borrow_mut() = None;
        // Step 4: If xhr's synchronous flag is set, then throw exception
        // (never set: no synchronous requests).
        // Step 5: Fire an event named readystatechange at xhr.
        self.fire_event(cx, "readystatechange");
        // Step 6: If xhr's upload complete flag is unset, then set it (no
        // upload listeners: no upload events).
        self.upload_complete.set(true);
        // Step 7: Fire a progress event named event at xhr with 0 and 0.
        self.fire_progress(cx, event, 0, 0);
        // Step 8: Fire a progress event named loadend at xhr with 0 and 0.
        self.fire_progress(cx, "loadend", 0, 0);
    }

    /// <https://xhr.spec.whatwg.org/#handle-errors>; `network_error`:
    /// the response is a network error. Returns whether an error was
    /// handled.
    fn handle_errors(&self, cx: &mut JSContext, network_error: bool) -> bool {
        // Step 1: If xhr's send() flag is unset, then return.
        if !self.send_flag.get() {
            return false;
        }
        // Step 2: If xhr's timed out flag is set, then run the request
        // error steps for xhr, timeout, and "TimeoutError" DOMException.
        if self.timed_out.get() {
            self.request_error_steps(cx, "timeout");
            return true;
        }
        // Step 3: Otherwise, if xhr's response's aborted flag is set
        // (abort() runs the request error steps itself, and its fetch never
        // completes).
        // Step 4: Otherwise, if xhr's response is a network error, then run
        // the request error steps for xhr, error, and "NetworkError"
        // DOMException.
        if network_error {
            self.request_error_steps(cx, "error");
            return true;
        }
        false
    }

    /// The fetch's end: processResponse, the body chunk and
    /// processResponseEndOfBody of `send()` step 11, in one task (`None`:
    /// the timeout passed).
    fn process_response(
        &self,
        cx: &mut JSContext,
        outcome: Option<Result<ApiResponse, jsprof_net::NetError>>,
    ) {
        self.fetch_id.set(None);
        let response = match outcome {
            None => {
                // send() step 11.10 (timeout): set xhr's timed out flag;
                // terminate the fetch controller; then handle errors.
                self.timed_out.set(true);
                self.handle_errors(cx, true);
                return;
            }
            Some(Err(_)) => {
                // processResponse step 1-3: set this's response to
                // response; handle errors; a network error returns.
                *self.response.borrow_mut() = None;
                self.handle_errors(cx, true);
                return;
            }
            Some(Ok(response)) => response,
        };
        // processResponse step 1: Set this's response to response.
        let body = response.body.clone();
        let length = response
            .headers
            .get("Content-Length")
            .and_then(|v| String::from_utf8_lossy(&v).trim().parse::<u64>().ok())
            .unwrap_or(0);
        *self.response.borrow_mut() = Some(response);
        // Step 2: Handle errors for this. (Step 3: not a network error.)
        // Step 4: Set this's state to headers received.
        self.state.set(HEADERS_RECEIVED);
        // Step 5: Fire an event named readystatechange at this.
        self.fire_event(cx, "readystatechange");
        // Step 6: If this's state is not headers received, then return.
        if self.state.get() != HEADERS_RECEIVED {
            return;
        }
        // Step 7: If this's response's body is null, then run handle
        // response end-of-body for this and return. (An empty body is one
        // with no chunk.)
        if !body.is_empty() {
            // processBodyChunk given bytes: Step 1: Append bytes to this's
            // received bytes.
            self.received.borrow_mut().extend_from_slice(&body);
            // Step 2: If not roughly 50ms since these steps were last
            // invoked, return (first invocation: go on).
            // Step 3: If this's state is headers received, then set this's
            // state to loading.
            if self.state.get() == HEADERS_RECEIVED {
                self.state.set(LOADING);
            }
            // Step 4: Fire an event named readystatechange at this.
            self.fire_event(cx, "readystatechange");
            // Step 5: Fire a progress event named progress at this with
            // this's received bytes's length and length.
            let transmitted = self.received.borrow().len() as u64;
            self.fire_progress(cx, "progress", transmitted, length);
            // (A listener may have called abort() or open().)
            if self.state.get() != LOADING || !self.send_flag.get() {
                return;
            }
        }
        self.handle_response_end_of_body(cx, length);
    }

    /// <https://xhr.spec.whatwg.org/#handle-response-end-of-body>
    fn handle_response_end_of_body(&self, cx: &mut JSContext, length: u64) {
        // Step 1: Handle errors for xhr. Step 2: (not a network error.)
        if self.handle_errors(cx, false) {
            return;
        }
        // Step 3: Let transmitted be xhr's received bytes's length.
        let transmitted = self.received.borrow().len() as u64;
        // Step 4: Let length be the result of extracting a length from
        // response's header list (or 0).
        // Step 5: If xhr's synchronous flag is unset, then fire a progress
        // event named progress at xhr with transmitted and length.
        self.fire_progress(cx, "progress", transmitted, length);
        // Step 6: Set xhr's state to done.
        self.state.set(DONE);
        // Step 7: Unset xhr's send() flag.
        self.send_flag.set(false);
        // Step 8: Fire an event named readystatechange at xhr.
        self.fire_event(cx, "readystatechange");
        // Step 9: Fire a progress event named load at xhr with transmitted
        // and length.
        self.fire_progress(cx, "load", transmitted, length);
        // Step 10: Fire a progress event named loadend at xhr with
        // transmitted and length.
        self.fire_progress(cx, "loadend", transmitted, length);
    }

    /// <https://xhr.spec.whatwg.org/#final-mime-type>
    fn final_mime_type(&self) -> Option<MimeType> {
        // If xhr's override MIME type is null, return the result of get a
        // response MIME type for xhr (Content-Type, else text/xml).
        if let Some(mime) = self.override_mime.borrow().clone() {
            return Some(mime);
        }
        let response = self.response.borrow();
        let headers = response
            .as_ref()
            .map(|r| r.headers.clone())
            .unwrap_or_default();
        jsprof_net::extract_mime_type(&headers).or_else(|| MimeType::parse("text/xml"))
    }

    /// <https://xhr.spec.whatwg.org/#text-response> (UTF-8 only).
    fn text_response(&self) -> String {
        // Step 1: If xhr's response's body is null, then return the empty
        // string. Steps 2-6: decode with the charset (UTF-8 here).
        utf8_decode(&self.received.borrow())
    }
}

impl XMLHttpRequestMethods for XMLHttpRequest {
    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<XMLHttpRequest>> {
        // The new XMLHttpRequest() constructor steps are: set this's upload
        // object to a new XMLHttpRequestUpload object (not done).
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(XMLHttpRequest {
                target: XMLHttpRequestEventTarget::new_inherited(),
                state: Cell::new(UNSENT),
                send_flag: Cell::new(false),
                timed_out: Cell::new(false),
                upload_complete: Cell::new(false),
                method: RefCell::new(Method::Get),
                url: RefCell::new(None),
                author_headers: RefCell::new(Vec::new()),
                timeout: Cell::new(0),
                with_credentials: Cell::new(false),
                response_type: Cell::new(XMLHttpRequestResponseType::Empty),
                response: RefCell::new(None),
                received: RefCell::new(Vec::new()),
                response_object: Cell::new(ResponseObject::Null),
                response_value: Heap::boxed(UndefinedValue()),
                override_mime: RefCell::new(None),
                fetch_id: Cell::new(None),
            }),
            proto,
        ))
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-readystate>
    fn ReadyState(&self, _cx: &mut JSContext) -> u16 {
        self.state.get()
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-open>
    fn Open(&self, cx: &mut JSContext, method: ByteString, url: USVString) -> Fallible<()> {
        // The open(method, url) method steps are to run the open(method,
        // url, async, username, password) method steps with method, url,
        // true, null, and null.
        self.Open_(cx, method, url, true, None, None)
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-open>
    fn Open_(
        &self,
        cx: &mut JSContext,
        method: ByteString,
        url: USVString,
        async_: bool,
        _username: Option<USVString>,
        _password: Option<USVString>,
    ) -> Fallible<()> {
        // Step 1: If this's relevant global object is a Window object and
        // its associated Document is not fully active, then throw an
        // "InvalidStateError" DOMException. (Documents are always fully
        // active here.)
        // Step 2: If method is not a method, then throw a "SyntaxError"
        // DOMException.
        let method = isomorphic_decode(&method);
        if !is_method(&method) {
            return Err(Error::dom_with_message(
                DomExceptionName::SyntaxError,
                format!("{method:?} is not a valid method"),
            ));
        }
        // Step 3: If method is a forbidden method, then throw a
        // "SecurityError" DOMException.
        if is_forbidden_method(&method) {
            return Err(Error::dom_with_message(
                DomExceptionName::SecurityError,
                format!("the method {method} is forbidden"),
            ));
        }
        // Step 4: Normalize method.
        let method = Method::normalize(&method);
        // Step 5: Let parsedURL be the result of encoding-parsing a URL url,
        // relative to this's relevant settings object.
        // Step 6: If parsedURL is failure, then throw a "SyntaxError"
        // DOMException.
        let parsed = self
            .global_scope()
            .api_base_url()
            .join(&url.0)
            .map_err(|_| {
                Error::dom_with_message(
                    DomExceptionName::SyntaxError,
                    format!("{:?} is not a valid URL", url.0),
                )
            })?;
        // Steps 7-8: (username and password: ignored, see the module
        // documentation.)
        // Step 9: If async is false, the current global object is a Window
        // object, and either this's timeout is not 0 or this's response
        // type is not the empty string, then throw an "InvalidAccessError"
        // DOMException. (Synchronous requests are not supported at all:
        // see the module documentation.)
        if !async_ {
            return Err(Error::dom_with_message(
                DomExceptionName::InvalidAccessError,
                "synchronous XMLHttpRequest is not supported by this shell",
            ));
        }
        // Step 10: Terminate this's fetch controller.
        self.terminate_fetch();
        // Step 11: Set variables associated with the object: unset this's
        // send() flag and upload listener flag; set this's request method
        // to method, request URL to parsedURL, (synchronous flag unset),
        // empty author request headers, response to a network error,
        // received bytes to the empty byte sequence, response object to
        // null.
        self.send_flag.set(false);
        *self.method.borrow_mut() = method;
        *self.url.borrow_mut() = Some(parsed);
        self.author_headers.borrow_mut().clear();
        *self.response.borrow_mut() = None;
        self.received.borrow_mut().clear();
        self.response_object.set(ResponseObject::Null);
        self.response_value.set(UndefinedValue());
        // Step 12: If this's state is not opened, then: set this's state
        // to opened; fire an event named readystatechange at this.
        if self.state.get() != OPENED {
            self.state.set(OPENED);
            self.fire_event(cx, "readystatechange");
        }
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-setrequestheader>
    fn SetRequestHeader(
        &self,
        _cx: &mut JSContext,
        name: ByteString,
        value: ByteString,
    ) -> Fallible<()> {
        // Step 1: If this's state is not opened, then throw an
        // "InvalidStateError" DOMException.
        // Step 2: If this's send() flag is set, then throw an
        // "InvalidStateError" DOMException.
        if self.state.get() != OPENED || self.send_flag.get() {
            return Err(Error::dom(DomExceptionName::InvalidStateError));
        }
        let name = isomorphic_decode(&name);
        let value = isomorphic_decode(&value);
        // Step 3: Normalize value.
        let value = normalize_header_value(&value);
        // Step 4: If name is not a header name or value is not a header
        // value, then throw a "SyntaxError" DOMException.
        let value_bytes: Vec<u8> = value.chars().map(|c| c as u32 as u8).collect();
        if !is_header_name(&name) || !is_header_value(&value_bytes) {
            return Err(Error::dom_with_message(
                DomExceptionName::SyntaxError,
                format!("invalid header {name:?}: {value:?}"),
            ));
        }
        // Step 5: If (name, value) is a forbidden request-header, then
        // return.
        if is_forbidden_request_header(&name, value) {
            return Ok(());
        }
        // Step 6: Combine (name, value) in this's author request headers.
        let mut headers = self.author_headers.borrow_mut();
        match headers
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(&name))
        {
            Some((_, existing)) => {
                existing.push_str(", ");
                existing.push_str(value);
            }
            None => headers.push((name, value.to_owned())),
        }
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-timeout>
    fn Timeout(&self, _cx: &mut JSContext) -> u32 {
        self.timeout.get()
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-timeout>
    fn SetTimeout(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        // Step 1: If the current global object is a Window object and this's
        // synchronous flag is set (never), then throw an
        // "InvalidAccessError" DOMException.
        // Step 2: Set this's timeout to the given value.
        self.timeout.set(value);
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-withcredentials>
    fn WithCredentials(&self, _cx: &mut JSContext) -> bool {
        self.with_credentials.get()
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-withcredentials>
    fn SetWithCredentials(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        // Step 1: If this's state is not unsent or opened, then throw an
        // "InvalidStateError" DOMException.
        // Step 2: If this's send() flag is set, then throw an
        // "InvalidStateError" DOMException.
        if !matches!(self.state.get(), UNSENT | OPENED) || self.send_flag.get() {
            return Err(Error::dom(DomExceptionName::InvalidStateError));
        }
        // Step 3: Set this's cross-origin credentials to the given value.
        self.with_credentials.set(value);
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-send>
    fn Send(
        &self,
        cx: &mut JSContext,
        body: Option<BlobOrBufferSourceOrURLSearchParamsOrUSVString>,
    ) -> Fallible<()> {
        // Step 1: If this's state is not opened, then throw an
        // "InvalidStateError" DOMException.
        // Step 2: If this's send() flag is set, then throw an
        // "InvalidStateError" DOMException.
        if self.state.get() != OPENED || self.send_flag.get() {
            return Err(Error::dom(DomExceptionName::InvalidStateError));
        }
        let method = self.method.borrow().clone();
        // Step 3: If this's request method is `GET` or `HEAD`, then set body
        // to null.
        let body = if matches!(method, Method::Get | Method::Head) {
            None
        } else {
            body
        };
        // Step 4: If body is not null, then: let extractedContentType be
        // null; set this's request body and extractedContentType from
        // extracting body; if this's author request headers does not
        // contain `Content-Type` and extractedContentType is non-null,
        // append (`Content-Type`, extractedContentType).
        let mut request_body = None;
        if let Some(body) = &body {
            let (bytes, type_) = extract_body(body);
            let mut headers = self.author_headers.borrow_mut();
            if let Some(type_) = type_ {
                if !headers
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case("Content-Type"))
                {
                    headers.push(("Content-Type".to_owned(), type_));
                }
            }
            request_body = Some(bytes);
        }
        // Step 5: (upload listener flag: no upload object.)
        // Step 6: Let req be a new request, initialized as follows: method
        // this's request method; URL this's request URL; header list this's
        // author request headers; unsafe-request flag set; body this's
        // request body; client this's relevant settings object; mode
        // "cors"; use-CORS-preflight flag set if this's upload listener
        // flag is set; credentials mode "include" if this's cross-origin
        // credentials is true, and "same-origin" otherwise.
        let global = self.global_scope();
        let Some(url) = self.url.borrow().clone() else {
            return Err(Error::dom(DomExceptionName::InvalidStateError));
        };
        let request = ApiRequest {
            method,
            url,
            headers: self.author_headers.borrow().clone(),
            body: request_body,
            origin: global.origin(),
            mode: jsprof_net::RequestMode::Cors,
            credentials: if self.with_credentials.get() {
                jsprof_document::CredentialsMode::Include
            } else {
                jsprof_document::CredentialsMode::SameOrigin
            },
            redirect: jsprof_net::RedirectMode::Follow,
            use_cors_preflight: false,
        };
        // Step 7: Unset this's upload complete flag.
        // Step 8: Unset this's timed out flag.
        self.timed_out.set(false);
        // Step 9: If req's body is null, then set this's upload complete
        // flag.
        self.upload_complete.set(request.body.is_none());
        // Step 10: Set this's send() flag.
        self.send_flag.set(true);
        // Step 11: If this's synchronous flag is unset, then:
        // Step 11.1: Fire a progress event named loadstart at this with 0
        // and 0.
        self.fire_progress(cx, "loadstart", 0, 0);
        // Steps 11.2-3: (request body progress and upload events: no
        // upload object.)
        // Step 11.4: If this's state is not opened or this's send() flag is
        // unset, then return.
        if self.state.get() != OPENED || !self.send_flag.get() {
            return Ok(());
        }
        // Step 11.8: Set this's fetch controller to the result of fetching
        // req with processResponse, processResponseEndOfBody (run in one
        // networking task when the fetch ends: process_response).
        let this = DomRoot::from_ref(self);
        let id = crate::loading::fetch::start(
            request,
            Box::new(move |cx, outcome| {
                let mut realm = this.enter_relevant_realm(cx);
                this.process_response(&mut realm, outcome);
            }),
        );
        self.fetch_id.set(Some(id));
        // Step 11.9: Let now be the present time.
        // Step 11.10: Run these steps in parallel: wait until either req's
        // done flag is set or this's timeout is not 0 and this's timeout
        // milliseconds have passed since now; if req's done flag is unset,
        // then set this's timed out flag and terminate this's fetch
        // controller (`process_response` with no outcome).
        if self.timeout.get() != 0 {
            crate::loading::fetch::time_out_after(
                id,
                std::time::Duration::from_millis(u64::from(self.timeout.get())),
            );
        }
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-abort>
    fn Abort(&self, cx: &mut JSContext) -> Fallible<()> {
        // Step 1: Abort this's fetch controller.
        self.terminate_fetch();
        // Step 2: If this's state is opened with this's send() flag set,
        // headers received, or loading, then run the request error steps
        // for this and abort.
        let state = self.state.get();
        if (state == OPENED && self.send_flag.get())
            || state == HEADERS_RECEIVED
            || state == LOADING
        {
            self.request_error_steps(cx, "abort");
        }
        // Step 3: If this's state is done, then set this's state to unsent
        // and this's response to a network error. (No readystatechange
        // event is dispatched.)
        if self.state.get() == DONE {
            self.state.set(UNSENT);
            *self.response.borrow_mut() = None;
        }
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responseurl>
    fn ResponseURL(&self, _cx: &mut JSContext) -> USVString {
        // The responseURL getter steps are to return the empty string if
        // this's response's URL is null; otherwise its serialization with
        // the exclude fragment flag set.
        let response = self.response.borrow();
        USVString(
            response
                .as_ref()
                .and_then(|r| r.url())
                .map_or_else(String::new, |url| {
                    let mut url = url.clone();
                    url.set_fragment(None);
                    url.to_string()
                }),
        )
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-status>
    fn Status(&self, _cx: &mut JSContext) -> u16 {
        // The status getter steps are to return this's response's status
        // (0 for a network error).
        self.response.borrow().as_ref().map_or(0, |r| r.status)
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-statustext>
    fn StatusText(&self, _cx: &mut JSContext) -> ByteString {
        let text = self
            .response
            .borrow()
            .as_ref()
            .map_or_else(String::new, |r| r.status_text.clone());
        ByteString(text.chars().map(|c| c as u32 as u8).collect())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-getresponseheader>
    fn GetResponseHeader(
        &self,
        _cx: &mut JSContext,
        name: ByteString,
    ) -> Fallible<Option<ByteString>> {
        let name = isomorphic_decode(&name);
        // The getResponseHeader(name) method steps are to return the result
        // of getting name from this's response's header list.
        Ok(self
            .response
            .borrow()
            .as_ref()
            .and_then(|r| r.headers.get(&name).map(|v| ByteString(v.to_vec()))))
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-getallresponseheaders>
    fn GetAllResponseHeaders(&self, _cx: &mut JSContext) -> Fallible<ByteString> {
        // Step 1: Let output be an empty byte sequence.
        let mut output = Vec::new();
        // Step 2: Let initialHeaders be the result of running sort and
        // combine with this's response's header list (names lowercased,
        // sorted, values of one name combined with ", ").
        let response = self.response.borrow();
        let Some(response) = response.as_ref() else {
            return Ok(ByteString(output));
        };
        let names = crate::dom::fetch::headers::sorted_lowercase_set(
            response.headers.iter().map(|(n, _)| n),
        );
        // Steps 3-4: For each header in headers, append header's name,
        // followed by a 0x3A 0x20 byte pair, followed by header's value,
        // followed by a 0x0D 0x0A byte pair, to output.
        for name in names {
            if let Some(value) = response.headers.get(&name) {
                output.extend_from_slice(name.as_bytes());
                output.extend_from_slice(b": ");
                output.extend_from_slice(&value);
                output.extend_from_slice(b"\r\n");
            }
        }
        // Step 5: Return output.
        Ok(ByteString(output))
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-overridemimetype>
    fn OverrideMimeType(&self, _cx: &mut JSContext, mime: DOMString) -> Fallible<()> {
        // Step 1: If this's state is loading or done, then throw an
        // "InvalidStateError" DOMException.
        if matches!(self.state.get(), LOADING | DONE) {
            return Err(Error::dom(DomExceptionName::InvalidStateError));
        }
        // Step 2: Set this's override MIME type to the result of parsing
        // mime. Step 3: If it is failure, set it to
        // `application/octet-stream`.
        *self.override_mime.borrow_mut() =
            MimeType::parse(&mime).or_else(|| MimeType::parse("application/octet-stream"));
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responsetype>
    fn ResponseType(&self, _cx: &mut JSContext) -> XMLHttpRequestResponseType {
        self.response_type.get()
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responsetype>
    fn SetResponseType(
        &self,
        _cx: &mut JSContext,
        value: XMLHttpRequestResponseType,
    ) -> Fallible<()> {
        // Step 1: If the current global object is not a Window object and
        // the given value is "document", then return.
        if value == XMLHttpRequestResponseType::Document
            && self.global_scope().as_window().is_none()
        {
            return Ok(());
        }
        // Step 2: If this's state is loading or done, then throw an
        // "InvalidStateError" DOMException.
        if matches!(self.state.get(), LOADING | DONE) {
            return Err(Error::dom(DomExceptionName::InvalidStateError));
        }
        // Step 3: (synchronous flag: never set.)
        // Step 4: Set this's response type to the given value.
        self.response_type.set(value);
        Ok(())
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-response>
    fn Response(&self, cx: &mut JSContext) -> RootedJsValue {
        let result = RootedJsValue::new(Heap::default());
        result.set(NullValue());
        // Step 1: If this's response type is the empty string or "text":
        // if this's state is not loading or done, return the empty string;
        // return the result of getting a text response for this.
        if matches!(
            self.response_type.get(),
            XMLHttpRequestResponseType::Empty | XMLHttpRequestResponseType::Text
        ) {
            let text = if matches!(self.state.get(), LOADING | DONE) {
                self.text_response()
            } else {
                String::new()
            };
            rooted!(&in(cx) let mut value = UndefinedValue());
            // SAFETY: `value` is rooted.
            unsafe { USVString(text).to_js(cx, value.handle_mut()) };
            result.set(value.get());
            return result;
        }
        // Step 2: If this's state is not done, then return null.
        if self.state.get() != DONE {
            return result;
        }
        match self.response_object.get() {
            // Step 3: If this's response object is failure, then return
            // null.
            ResponseObject::Failure => return result,
            // Step 4: If this's response object is non-null, then return it.
            ResponseObject::Value => {
                result.set(self.response_value.get());
                return result;
            }
            ResponseObject::Null => {}
        }
        let bytes = self.received.borrow().clone();
        let value: Option<JSVal> = match self.response_type.get() {
            // Step 5: If this's response type is "arraybuffer", then set
            // this's response object to a new ArrayBuffer object
            // representing this's received bytes. If this throws an
            // exception, then set this's response object to failure and
            // return null.
            XMLHttpRequestResponseType::Arraybuffer => new_array_buffer(cx, &bytes).ok(),
            // Step 6: Otherwise, if this's response type is "blob", set
            // this's response object to a new Blob object representing
            // this's received bytes with type set to the result of get a
            // final MIME type for this.
            XMLHttpRequestResponseType::Blob => {
                let type_ = self
                    .final_mime_type()
                    .map(|m| m.to_string())
                    .unwrap_or_default();
                let blob = Blob::new(cx, self.global_scope(), Arc::from(bytes), type_, None);
                rooted!(&in(cx) let mut value = UndefinedValue());
                // SAFETY: `value` is rooted.
                unsafe { blob.to_js(cx, value.handle_mut()) };
                Some(value.get())
            }
            // Step 7: Otherwise, if this's response type is "document", set
            // a document response for this (not done: null).
            XMLHttpRequestResponseType::Document => None,
            // Step 8: Otherwise: (json) if this's response's body is null,
            // then return null; let jsonObject be the result of running
            // parse JSON from bytes on this's received bytes; if that threw
            // an exception, then return null; set this's response object to
            // jsonObject.
            _ => match parse_json(cx, &bytes) {
                Ok(value) => Some(value),
                Err(_) => {
                    // SAFETY: clears the SyntaxError left pending.
                    unsafe { mozjs::rust::wrappers2::JS_ClearPendingException(cx) };
                    return result;
                }
            },
        };
        match value {
            Some(value) => {
                self.response_value.set(value);
                self.response_object.set(ResponseObject::Value);
                result.set(value);
            }
            None => self.response_object.set(ResponseObject::Failure),
        }
        // Step 9: Return this's response object.
        result
    }

    /// <https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responsetext>
    fn ResponseText(&self, _cx: &mut JSContext) -> Fallible<USVString> {
        // Step 1: If this's response type is not the empty string or
        // "text", then throw an "InvalidStateError" DOMException.
        if !matches!(
            self.response_type.get(),
            XMLHttpRequestResponseType::Empty | XMLHttpRequestResponseType::Text
        ) {
            return Err(Error::dom_with_message(
                DomExceptionName::InvalidStateError,
                "responseText is only available for responseType \"\" or \"text\"",
            ));
        }
        // Step 2: If this's state is not loading or done, then return the
        // empty string.
        if !matches!(self.state.get(), LOADING | DONE) {
            return Ok(USVString(String::new()));
        }
        // Step 3: Return the result of getting a text response for this.
        Ok(USVString(self.text_response()))
    }
}
