//! The Fetch Standard's `Body` interface mixin
//! (<https://fetch.spec.whatwg.org/#body-mixin>), shared by `Request` and
//! `Response`: "extract a body" and "consume body" with their package
//! data algorithms. Also used by `XMLHttpRequest` (JSON, ArrayBuffer).

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use mozjs::context::JSContext;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::{JSVal, ObjectValue, UndefinedValue};
use mozjs::rooted;
use mozjs::typedarray::{ArrayBuffer, CreateWith};

use crate::dom::bindings::codegen::BlobOrBufferSourceOrURLSearchParamsOrUSVString;
use crate::dom::bindings::conversions::RootedJsValue;
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::fetch::blob::Blob;
use crate::dom::fetch::headers::Headers;
use crate::dom::globals::globalscope::GlobalScope;

/// What "consume body" packages the bytes as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    ArrayBuffer,
    Blob,
    Json,
    Text,
}

/// <https://fetch.spec.whatwg.org/#concept-bodyinit-extract> for the
/// BodyInit members the shell has (all but ReadableStream and FormData):
/// the bytes and the type (`None`: null). A detached buffer gives no
/// bytes, as "get a copy of the bytes held by the buffer source" says.
pub fn extract_body(
    object: &BlobOrBufferSourceOrURLSearchParamsOrUSVString,
) -> (Vec<u8>, Option<String>) {
    match object {
        // Blob: set source to object; if object's type attribute is not
        // the empty byte sequence, set type to its value.
        BlobOrBufferSourceOrURLSearchParamsOrUSVString::Blob(blob) => {
            let type_ = blob.type_string();
            (
                blob.bytes().to_vec(),
                (!type_.is_empty()).then(|| type_.to_owned()),
            )
        }
        // BufferSource: set source to a copy of the bytes held by object.
        BlobOrBufferSourceOrURLSearchParamsOrUSVString::BufferSource(buffer) => {
            (buffer.bytes(), None)
        }
        // URLSearchParams: set source to the result of running the
        // application/x-www-form-urlencoded serializer with object's list;
        // set type to `application/x-www-form-urlencoded;charset=UTF-8`.
        BlobOrBufferSourceOrURLSearchParamsOrUSVString::URLSearchParams(params) => (
            params.serialized().into_bytes(),
            Some("application/x-www-form-urlencoded;charset=UTF-8".to_owned()),
        ),
        // scalar value string: set source to the UTF-8 encoding of object;
        // set type to `text/plain;charset=UTF-8`.
        BlobOrBufferSourceOrURLSearchParamsOrUSVString::USVString(text) => (
            text.0.as_bytes().to_vec(),
            Some("text/plain;charset=UTF-8".to_owned()),
        ),
    }
}

/// <https://encoding.spec.whatwg.org/#utf-8-decode>: a leading BOM is
/// removed, invalid sequences become U+FFFD.
pub fn utf8_decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

/// <https://infra.spec.whatwg.org/#parse-json-bytes-to-a-javascript-value>:
/// `Err(JSFailed)` with the SyntaxError pending.
pub fn parse_json(cx: &mut JSContext, bytes: &[u8]) -> Fallible<JSVal> {
    let text: Vec<u16> = utf8_decode(bytes).encode_utf16().collect();
    let length = u32::try_from(text.len())
        .map_err(|_| Error::Range("the body is too large to parse".to_owned()))?;
    rooted!(&in(cx) let mut value = UndefinedValue());
    // SAFETY: `text` outlives the call; `value` is rooted.
    let ok = unsafe {
        mozjs::rust::wrappers2::JS_ParseJSON(cx, text.as_ptr(), length, value.handle_mut())
    };
    if ok {
        Ok(value.get())
    } else {
        Err(Error::JSFailed)
    }
}

/// A new ArrayBuffer holding a copy of `bytes` (a RangeError if it
/// cannot be allocated).
pub fn new_array_buffer(cx: &mut JSContext, bytes: &[u8]) -> Fallible<JSVal> {
    rooted!(&in(cx) let mut object = std::ptr::null_mut::<JSObject>());
    // SAFETY: `object` is rooted; the slice is copied into the buffer.
    let created = unsafe { ArrayBuffer::create(cx, CreateWith::Slice(bytes), object.handle_mut()) };
    match created {
        Ok(()) => Ok(ObjectValue(object.get())),
        Err(()) => {
            // SAFETY: clears the allocation failure left pending, if any.
            unsafe { mozjs::rust::wrappers2::JS_ClearPendingException(cx) };
            Err(Error::Range("cannot allocate the ArrayBuffer".to_owned()))
        }
    }
}

/// Rejects `promise` with the pending exception (after a `JSFailed`), or
/// with `error`.
fn reject(cx: &mut JSContext, promise: &Promise, error: Error) {
    if let Error::JSFailed = error {
        rooted!(&in(cx) let mut exception = UndefinedValue());
        // SAFETY: `exception` is rooted.
        unsafe {
            mozjs::rust::wrappers2::JS_GetPendingException(cx, exception.handle_mut());
            mozjs::rust::wrappers2::JS_ClearPendingException(cx);
        }
        let reason = RootedJsValue::new(Heap::default());
        reason.set(exception.get());
        promise.reject(cx, &reason);
    } else {
        promise.reject_error(cx, error);
    }
}

/// What the Body mixin's algorithms read of a `Request` or `Response`
/// besides its relevant global: its body (null: `None`), its "disturbed"
/// state (set once the body is read) and its headers.
pub type BodyParts<'a> = (Option<&'a [u8]>, &'a Cell<bool>, DomRoot<Headers>);

/// An object that includes the Body mixin
/// (<https://fetch.spec.whatwg.org/#body-mixin>).
pub trait BodyMixin: DomObject {
    /// The object's [`BodyParts`].
    fn body_parts(&self) -> BodyParts<'_>;
}

/// The steps of `clone()` that `Request` and `Response` share
/// (<https://fetch.spec.whatwg.org/#dom-request-clone>,
/// <https://fetch.spec.whatwg.org/#dom-response-clone>): step 1, "If this
/// is unusable, then throw a TypeError" (`what`: "request" or
/// "response"), then the headers of the clone: a copy of this's headers
/// (header list and guard) in this's relevant realm.
pub fn clone_headers(
    cx: &mut JSContext,
    object: &impl BodyMixin,
    what: &str,
) -> Fallible<DomRoot<Headers>> {
    let (_, body_used, headers) = object.body_parts();
    let global = object.global_scope();
    if body_used.get() {
        return Err(Error::Type(format!(
            "cannot clone a {what} whose body was consumed"
        )));
    }
    Ok(headers.copy(cx, global))
}

/// <https://fetch.spec.whatwg.org/#concept-body-consume-body> for
/// `object` (the headers give the MIME type of a Blob).
pub fn consume(
    cx: &mut JSContext,
    object: &impl BodyMixin,
    kind: BodyKind,
) -> Fallible<Rc<Promise>> {
    let (body, body_used, headers) = object.body_parts();
    let global = object.global_scope();
    Ok(consume_parts(cx, global, body, body_used, &headers, kind))
}

/// [`consume`] on the object's [`BodyParts`].
fn consume_parts(
    cx: &mut JSContext,
    global: &GlobalScope,
    body: Option<&[u8]>,
    body_used: &Cell<bool>,
    headers: &Headers,
    kind: BodyKind,
) -> Rc<Promise> {
    // Step 1: If object is unusable (its body is non-null and disturbed),
    // then return a promise rejected with a TypeError.
    if body_used.get() {
        return Promise::new_rejected(
            cx,
            Error::Type("the body has already been consumed".to_owned()),
        );
    }
    // (Reading disturbs a non-null body.)
    if body.is_some() {
        body_used.set(true);
    }
    // <https://fetch.spec.whatwg.org/#concept-body-mime-type>: extract a
    // MIME type from the header list.
    let mime = jsprof_net::extract_mime_type(&headers.header_list())
        .map(|m| m.to_string())
        .unwrap_or_default();
    consume_body(cx, global, body, kind, &mime)
}

/// Steps 2-7 of [`consume`]: the promise for `body` (null: empty)
/// packaged as `kind`, with `mime_type` for a Blob.
fn consume_body(
    cx: &mut JSContext,
    global: &GlobalScope,
    body: Option<&[u8]>,
    kind: BodyKind,
    mime_type: &str,
) -> Rc<Promise> {
    // Step 2: Let promise be a new promise.
    let promise = Promise::new(cx);
    // Step 5: If object's body is null, then run successSteps with an empty
    // byte sequence. Step 6: Otherwise, fully read object's body given
    // successSteps (the bytes are already in memory).
    let bytes = body.unwrap_or(&[]);
    // Step 3: Let errorSteps given error be to reject promise with error.
    // Step 4: Let successSteps given a byte sequence data be to resolve
    // promise with the result of running convertBytesToJSValue with data;
    // if that threw an exception, then run errorSteps with that exception.
    // (package data: https://fetch.spec.whatwg.org/#concept-body-package-data)
    let value = match kind {
        // ArrayBuffer: a new ArrayBuffer whose contents are bytes.
        BodyKind::ArrayBuffer => new_array_buffer(cx, bytes),
        // Blob: a Blob whose contents are bytes and type is the MIME type.
        BodyKind::Blob => {
            let blob = Blob::new(
                cx,
                global,
                Arc::from(bytes),
                mime_type.to_ascii_lowercase(),
                None,
            );
            promise.resolve(cx, &blob);
            return promise;
        }
        // JSON: the result of running parse JSON from bytes on bytes.
        BodyKind::Json => parse_json(cx, bytes),
        // text: the result of running UTF-8 decode on bytes.
        BodyKind::Text => {
            promise.resolve(
                cx,
                &crate::dom::bindings::conversions::USVString(utf8_decode(bytes)),
            );
            return promise;
        }
    };
    match value {
        Ok(value) => {
            let result = RootedJsValue::new(Heap::default());
            result.set(value);
            promise.resolve(cx, &result);
        }
        Err(error) => reject(cx, &promise, error),
    }
    // Step 7: Return promise.
    promise
}

/// The members of the Body mixin (<https://fetch.spec.whatwg.org/#body-mixin>),
/// written once for `Request` and `Response`: expanded inside their
/// `…Methods` impls, whose types have a `body_used: Cell<bool>` field and
/// implement [`BodyMixin`].
#[macro_export]
macro_rules! body_mixin_methods {
    () => {
        /// <https://fetch.spec.whatwg.org/#dom-body-bodyused>
        fn BodyUsed(&self, _cx: &mut mozjs::context::JSContext) -> bool {
            self.body_used.get()
        }

        /// <https://fetch.spec.whatwg.org/#dom-body-arraybuffer>
        fn ArrayBuffer(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::error::Fallible<
            std::rc::Rc<$crate::dom::bindings::promise::Promise>,
        > {
            $crate::dom::fetch::body::consume(
                cx,
                self,
                $crate::dom::fetch::body::BodyKind::ArrayBuffer,
            )
        }

        /// <https://fetch.spec.whatwg.org/#dom-body-blob>
        fn Blob(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::error::Fallible<
            std::rc::Rc<$crate::dom::bindings::promise::Promise>,
        > {
            $crate::dom::fetch::body::consume(cx, self, $crate::dom::fetch::body::BodyKind::Blob)
        }

        /// <https://fetch.spec.whatwg.org/#dom-body-json>
        fn Json(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::error::Fallible<
            std::rc::Rc<$crate::dom::bindings::promise::Promise>,
        > {
            $crate::dom::fetch::body::consume(cx, self, $crate::dom::fetch::body::BodyKind::Json)
        }

        /// <https://fetch.spec.whatwg.org/#dom-body-text>
        fn Text(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::error::Fallible<
            std::rc::Rc<$crate::dom::bindings::promise::Promise>,
        > {
            $crate::dom::fetch::body::consume(cx, self, $crate::dom::fetch::body::BodyKind::Text)
        }
    };
}
