//! `Response` (<https://fetch.spec.whatwg.org/#response-class>). The
//! `fetch()` method steps are in `crate::loading::fetch`.

use std::cell::Cell;

use jsprof_net::ApiResponse;
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::ResponseBinding::ResponseMethods;
use crate::dom::bindings::codegen::{
    BlobOrBufferSourceOrURLSearchParamsOrUSVString, ResponseInit, ResponseType,
};
use crate::dom::bindings::conversions::{ByteString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::fetch::body::{clone_headers, extract_body, BodyMixin, BodyParts};
use crate::dom::fetch::headers::{isomorphic_decode, Guard, Headers};
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct Response {
    pub(crate) reflector: Reflector,
    /// <https://fetch.spec.whatwg.org/#concept-response-type>
    #[no_trace]
    response_type: ResponseType,
    /// <https://fetch.spec.whatwg.org/#concept-response-url-list>
    #[no_trace]
    url_list: Vec<url::Url>,
    status: u16,
    status_text: String,
    /// <https://fetch.spec.whatwg.org/#response-headers>
    headers: Dom<Headers>,
    /// The body's bytes; `None`: null.
    body: Option<Vec<u8>>,
    /// The body was read (<https://fetch.spec.whatwg.org/#body-unusable>).
    body_used: Cell<bool>,
}

/// <https://fetch.spec.whatwg.org/#null-body-status>
fn is_null_body_status(status: u16) -> bool {
    matches!(status, 101 | 103 | 204 | 205 | 304)
}

/// The reason-phrase production: HTAB, SP, VCHAR, obs-text.
fn is_reason_phrase(text: &str) -> bool {
    text.chars()
        .all(|c| matches!(u32::from(c), 0x09 | 0x20 | 0x21..=0x7E | 0x80..=0xFF))
}

impl Response {
    #[allow(clippy::too_many_arguments)]
    fn create(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        response_type: ResponseType,
        url_list: Vec<url::Url>,
        status: u16,
        status_text: String,
        headers: &Headers,
        body: Option<Vec<u8>>,
    ) -> DomRoot<Response> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Response {
                reflector: Reflector::new(),
                response_type,
                url_list,
                status,
                status_text,
                headers: Dom::from_ref(headers),
                body,
                body_used: Cell::new(false),
            }),
            proto,
        )
    }

    /// <https://fetch.spec.whatwg.org/#response-create> for a fetched
    /// response, with the guard "immutable".
    pub fn from_fetched(
        cx: &mut JSContext,
        global: &GlobalScope,
        response: ApiResponse,
    ) -> DomRoot<Response> {
        // Step 1: Let responseObject be a new Response object with realm.
        // Step 2: Set responseObject's response to response.
        // Step 3: Set responseObject's headers to a new Headers object with
        // realm, whose headers list is response's headers list and guard is
        // guard.
        let headers = Headers::from_list(cx, global, &response.headers, Guard::Immutable);
        let response_type = match response.response_type {
            jsprof_net::ResponseType::Basic => ResponseType::Basic,
            jsprof_net::ResponseType::Cors => ResponseType::Cors,
            jsprof_net::ResponseType::Opaque => ResponseType::Opaque,
            jsprof_net::ResponseType::OpaqueRedirect => ResponseType::Opaqueredirect,
        };
        let opaque = matches!(
            response.response_type,
            jsprof_net::ResponseType::Opaque | jsprof_net::ResponseType::OpaqueRedirect
        );
        // Step 4: Return responseObject.
        Response::create(
            cx,
            global,
            None,
            response_type,
            response.url_list,
            response.status,
            response.status_text,
            &headers,
            (!opaque).then_some(response.body),
        )
    }
}

impl BodyMixin for Response {
    fn body_parts(&self) -> BodyParts<'_> {
        (self.body.as_deref(), &self.body_used, self.headers.root())
    }
}

impl ResponseMethods for Response {
    /// <https://fetch.spec.whatwg.org/#dom-response>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        body: Option<BlobOrBufferSourceOrURLSearchParamsOrUSVString>,
        init: ResponseInit,
    ) -> Fallible<DomRoot<Response>> {
        // Step 1: Set this's response to a new response.
        // Step 2: Set this's headers to a new Headers object with this's
        // relevant realm, whose header list is this's response's header
        // list and guard is "response".
        let headers = Headers::new(cx, global, Guard::Response);
        // Step 3: Let bodyWithType be null.
        // Step 4: If body is non-null, then set bodyWithType to the result
        // of extracting body.
        let body_with_type = body.as_ref().map(extract_body);
        // Step 5: Perform initialize a response given this, init, and
        // bodyWithType (https://fetch.spec.whatwg.org/#initialize-a-response):
        // Step 5.1: If init["status"] is not in the range 200 to 599,
        // inclusive, then throw a RangeError.
        if !(200..=599).contains(&init.status) {
            return Err(Error::Range(format!(
                "status {} is not in the range 200 to 599",
                init.status
            )));
        }
        // Step 5.2: If init["statusText"] is not the empty string and does
        // not match the reason-phrase token production, then throw a
        // TypeError.
        let status_text = isomorphic_decode(&init.status_text);
        if !is_reason_phrase(&status_text) {
            return Err(Error::Type(format!(
                "{status_text:?} is not a valid status text"
            )));
        }
        // Step 5.3-4: Set response's status and status message.
        // Step 5.5: If init["headers"] exists, then fill response's headers
        // with init["headers"].
        if let Some(init_headers) = &init.headers {
            headers.fill(init_headers)?;
        }
        // Step 5.6: If body was given, then: if response's status is a null
        // body status, then throw a TypeError; set response's body to
        // body's body; if body's type is non-null and response's header
        // list does not contain `Content-Type`, then append
        // (`Content-Type`, body's type).
        let mut body_bytes = None;
        if let Some((bytes, type_)) = body_with_type {
            if is_null_body_status(init.status) {
                return Err(Error::Type(format!(
                    "a response with status {} cannot have a body",
                    init.status
                )));
            }
            body_bytes = Some(bytes);
            if let Some(type_) = type_ {
                if !headers.contains("Content-Type") {
                    headers.append("Content-Type", &type_)?;
                }
            }
        }
        Ok(Response::create(
            cx,
            global,
            proto,
            ResponseType::Default,
            Vec::new(),
            init.status,
            status_text,
            &headers,
            body_bytes,
        ))
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-error>
    fn Error(cx: &mut JSContext, global: &GlobalScope) -> Fallible<DomRoot<Response>> {
        // The static error() method steps are to return the result of
        // creating a Response object, given a new network error,
        // "immutable", and the current realm.
        let headers = Headers::new(cx, global, Guard::Immutable);
        Ok(Response::create(
            cx,
            global,
            None,
            ResponseType::Error,
            Vec::new(),
            0,
            String::new(),
            &headers,
            None,
        ))
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-redirect>
    fn Redirect(
        cx: &mut JSContext,
        global: &GlobalScope,
        url: USVString,
        status: u16,
    ) -> Fallible<DomRoot<Response>> {
        // Step 1: Let parsedURL be the result of parsing url with current
        // settings object's API base URL.
        // Step 2: If parsedURL is failure, then throw a TypeError.
        let parsed = global
            .api_base_url()
            .join(&url.0)
            .map_err(|_| Error::Type(format!("{:?} is not a valid URL", url.0)))?;
        // Step 3: If status is not a redirect status, then throw a
        // RangeError.
        if !matches!(status, 301 | 302 | 303 | 307 | 308) {
            return Err(Error::Range(format!("{status} is not a redirect status")));
        }
        // Step 4: Let responseObject be the result of creating a Response
        // object, given a new response, "immutable", and the current realm.
        // Step 5: Set responseObject's response's status to status.
        // Step 6: Let value be parsedURL, serialized and isomorphic encoded.
        // Step 7: Append (`Location`, value) to responseObject's response's
        // header list.
        let list = jsprof_document::HeaderList::new().with("Location", parsed.as_str());
        let headers = Headers::from_list(cx, global, &list, Guard::Immutable);
        // Step 8: Return responseObject.
        Ok(Response::create(
            cx,
            global,
            None,
            ResponseType::Default,
            Vec::new(),
            status,
            String::new(),
            &headers,
            None,
        ))
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-type>
    fn Type(&self, _cx: &mut JSContext) -> ResponseType {
        // The type getter steps are to return this's response's type.
        self.response_type
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-url>
    fn Url(&self, _cx: &mut JSContext) -> USVString {
        // The url getter steps are to return the empty string if this's
        // response's URL is null; otherwise this's response's URL,
        // serialized with exclude fragment set to true.
        USVString(self.url_list.last().map_or_else(String::new, |url| {
            let mut url = url.clone();
            url.set_fragment(None);
            url.to_string()
        }))
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-redirected>
    fn Redirected(&self, _cx: &mut JSContext) -> bool {
        // The redirected getter steps are to return true if this's
        // response's URL list's size is greater than 1; otherwise false.
        self.url_list.len() > 1
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-status>
    fn Status(&self, _cx: &mut JSContext) -> u16 {
        self.status
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-ok>
    fn Ok(&self, _cx: &mut JSContext) -> bool {
        // The ok getter steps are to return true if this's response's
        // status is an ok status; otherwise false.
        (200..=299).contains(&self.status)
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-statustext>
    fn StatusText(&self, _cx: &mut JSContext) -> ByteString {
        ByteString(self.status_text.chars().map(|c| c as u8).collect())
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-headers>
    fn Headers(&self, _cx: &mut JSContext) -> DomRoot<Headers> {
        self.headers.root()
    }

    /// <https://fetch.spec.whatwg.org/#dom-response-clone>
    fn Clone(&self, cx: &mut JSContext) -> Fallible<DomRoot<Response>> {
        // Step 1: If this is unusable, then throw a TypeError.
        let headers = clone_headers(cx, self, "response")?;
        // Step 2: Let clonedResponse be the result of cloning this's
        // response.
        // Step 3: Return the result of creating a Response object, given
        // clonedResponse, this's headers's guard, and this's relevant realm.
        Ok(Response::create(
            cx,
            self.global_scope(),
            None,
            self.response_type,
            self.url_list.clone(),
            self.status,
            self.status_text.clone(),
            &headers,
            self.body.clone(),
        ))
    }

    // The Body mixin (webidl/Body.webidl), written once in `body.rs`.
    crate::body_mixin_methods!();
}
