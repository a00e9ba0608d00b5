//! `Blob` (<https://w3c.github.io/FileAPI/#blob-section>): immutable bytes
//! and a type, shared (`Arc`) with the blob URL store.

use std::rc::Rc;
use std::sync::Arc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::BlobBinding::BlobMethods;
use crate::dom::bindings::codegen::{BlobOrUSVString, BlobPropertyBag};
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct Blob {
    pub(crate) reflector: Reflector,
    /// <https://w3c.github.io/FileAPI/#blob-snapshot-state>: the bytes.
    #[no_trace]
    bytes: Arc<[u8]>,
    /// <https://w3c.github.io/FileAPI/#dfn-type>
    type_: String,
}

/// The type normalisation of the constructor (step 3.1.1-3.1.2) and of
/// `slice()`: any code point outside U+0020..U+007E makes it empty; else
/// ASCII lowercase.
fn normalize_type(type_: &str) -> String {
    if type_.chars().any(|c| !('\u{20}'..='\u{7E}').contains(&c)) {
        return String::new();
    }
    type_.to_ascii_lowercase()
}

impl Blob {
    pub fn new(
        cx: &mut JSContext,
        global: &GlobalScope,
        bytes: Arc<[u8]>,
        type_: String,
        proto: Option<HandleObject>,
    ) -> DomRoot<Blob> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Blob {
                reflector: Reflector::new(),
                bytes,
                type_,
            }),
            proto,
        )
    }

    pub fn bytes(&self) -> Arc<[u8]> {
        self.bytes.clone()
    }

    pub fn type_string(&self) -> &str {
        &self.type_
    }
}

/// The largest Blob the constructor makes (2 GiB, as Chromium's in-memory
/// blob limit): parts repeating a large Blob could otherwise ask for more
/// memory than the machine has, and a failed allocation aborts the
/// process. Past it, or when the memory cannot be had, the constructor
/// throws a `RangeError`.
pub const MAX_BLOB_SIZE: usize = 2 << 30;

/// <https://w3c.github.io/FileAPI/#process-blob-parts>
fn process_blob_parts(parts: &[BlobOrUSVString]) -> Fallible<Vec<u8>> {
    // (The size first, so that no allocation can fail half-way: see
    // MAX_BLOB_SIZE.)
    let size = parts
        .iter()
        .map(|part| match part {
            BlobOrUSVString::USVString(s) => s.0.len(),
            BlobOrUSVString::Blob(blob) => blob.bytes.len(),
        })
        .try_fold(0usize, usize::checked_add)
        .filter(|&size| size <= MAX_BLOB_SIZE)
        .ok_or_else(|| {
            Error::Range(format!(
                "the Blob would be larger than the {MAX_BLOB_SIZE}-byte limit"
            ))
        })?;
    // Step 1: Let bytes be an empty sequence of bytes.
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(size)
        .map_err(|_| Error::Range(format!("out of memory for a Blob of {size} bytes")))?;
    // Step 2: For each element in parts:
    for part in parts {
        match part {
            // Step 2.1: If element is a USVString: (endings "transparent")
            // append the result of UTF-8 encoding s to bytes.
            BlobOrUSVString::USVString(s) => bytes.extend_from_slice(s.0.as_bytes()),
            // Step 2.3: If element is a Blob, append the bytes it
            // represents to bytes.
            BlobOrUSVString::Blob(blob) => bytes.extend_from_slice(&blob.bytes),
        }
    }
    // Step 3: Return bytes.
    Ok(bytes)
}

impl BlobMethods for Blob {
    /// <https://w3c.github.io/FileAPI/#constructorBlob>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        blob_parts: Option<Vec<BlobOrUSVString>>,
        options: BlobPropertyBag,
    ) -> Fallible<DomRoot<Blob>> {
        // Step 1: If invoked with zero parameters, return a new Blob
        // object consisting of 0 bytes, with size set to 0, and with type
        // set to the empty string.
        // Step 2: Let bytes be the result of processing blob parts given
        // blobParts and options.
        let bytes = process_blob_parts(blob_parts.as_deref().unwrap_or_default())?;
        // Step 3: If the type member of the options argument is not the
        // empty string, run the following sub-steps (normalize it).
        let type_ = normalize_type(&options.type_);
        // Step 4: Return a Blob object referring to bytes as its
        // associated byte sequence, with its size set to the length of
        // bytes, and its type set to the value of t.
        Ok(Blob::new(cx, global, bytes.into(), type_, proto))
    }

    /// <https://w3c.github.io/FileAPI/#dfn-size>
    fn Size(&self, _cx: &mut JSContext) -> u64 {
        self.bytes.len() as u64
    }

    /// <https://w3c.github.io/FileAPI/#dfn-type>
    fn Type(&self, _cx: &mut JSContext) -> DOMString {
        self.type_.clone()
    }

    /// <https://w3c.github.io/FileAPI/#dfn-slice>
    fn Slice(
        &self,
        cx: &mut JSContext,
        start: Option<i64>,
        end: Option<i64>,
        content_type: Option<DOMString>,
    ) -> Fallible<DomRoot<Blob>> {
        // Step 1: Let sliceStart, sliceEnd, and sliceContentType be null.
        // Step 2-3: relativeStart/relativeEnd: negative values count from
        // the end; both are clamped to [0, size].
        let size = self.bytes.len() as i64;
        let relative = |value: i64| {
            if value < 0 {
                (size + value).max(0)
            } else {
                value.min(size)
            }
        };
        let relative_start = relative(start.unwrap_or(0));
        let relative_end = relative(end.unwrap_or(size));
        // Step 4: relativeContentType (normalized).
        let content_type = normalize_type(content_type.as_deref().unwrap_or(""));
        // Step 5: Let span be max((relativeEnd - relativeStart), 0).
        let span = (relative_end - relative_start).max(0);
        // Step 6: Return a new Blob with the bytes from relativeStart,
        // span bytes long, and type relativeContentType.
        let from = relative_start as usize;
        let bytes: Arc<[u8]> = self.bytes[from..from + span as usize].into();
        let global = crate::dom::bindings::reflector::DomGlobal::global_scope(self);
        Ok(Blob::new(cx, global, bytes, content_type, None))
    }

    /// <https://w3c.github.io/FileAPI/#dom-blob-text>
    fn Text(&self, cx: &mut JSContext) -> Fallible<Rc<Promise>> {
        // Step 1-5: read all bytes, then UTF-8 decode them (replacing
        // invalid sequences) and resolve the promise with the result.
        // (The bytes are in memory: the promise is resolved at once.)
        let promise = Promise::new(cx);
        let text = USVString(String::from_utf8_lossy(&self.bytes).into_owned());
        promise.resolve(cx, &text);
        Ok(promise)
    }
}
