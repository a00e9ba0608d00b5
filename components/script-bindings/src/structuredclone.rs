//! <https://html.spec.whatwg.org/multipage/structured-data.html#structuredserialize>
//! and StructuredDeserialize on SpiderMonkey's structured clone algorithm
//! (`JS_WriteStructuredClone` / `JS_ReadStructuredClone`), with no
//! platform-object callbacks: plain data (primitives, plain objects,
//! arrays, `Date`, `RegExp`, `Map`, `Set`, `ArrayBuffer`s and views,
//! `Error`s, boxed primitives; cycles and shared references kept) clones;
//! a function, a symbol or a platform object throws a "DataCloneError"
//! DOMException. No transfer list.

use std::ptr;

use mozjs::context::JSContext;
use mozjs::glue::{
    CopyJSStructuredCloneData, DeleteJSAutoStructuredCloneBuffer, GetLengthOfJSStructuredCloneData,
    NewJSAutoStructuredCloneBuffer, WriteBytesToJSStructuredCloneData,
};
use mozjs::jsapi::{
    CloneDataPolicy, JSAutoStructuredCloneBuffer, JSStructuredCloneData, StructuredCloneScope,
    JS_STRUCTURED_CLONE_VERSION,
};
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    JS_ClearPendingException, JS_IsExceptionPending, JS_ReadStructuredClone,
    JS_WriteStructuredClone,
};
use mozjs::rust::{HandleValue, MutableHandleValue};

use crate::error::{DomExceptionName, Error, Fallible};

/// A serialization: the bytes of SpiderMonkey's structured clone format
/// (same-process scope: no pointers are kept, since nothing is
/// transferred).
#[derive(Clone, Debug)]
pub struct Serialized(Vec<u8>);

/// A clone buffer in one scope (freed on every path).
struct Buffer {
    raw: *mut JSAutoStructuredCloneBuffer,
    scope: StructuredCloneScope,
}

impl Buffer {
    fn new() -> Fallible<Buffer> {
        Buffer::with_scope(StructuredCloneScope::DifferentProcess)
    }

    /// A buffer for a clone read back at once in this process (transfers
    /// move `ArrayBuffer` contents instead of copying them).
    fn new_same_process() -> Fallible<Buffer> {
        Buffer::with_scope(StructuredCloneScope::SameProcess)
    }

    fn with_scope(scope: StructuredCloneScope) -> Fallible<Buffer> {
        // SAFETY: null callbacks: the runtime's (none) are used.
        let raw = unsafe { NewJSAutoStructuredCloneBuffer(scope, ptr::null()) };
        if raw.is_null() {
            return Err(Error::dom(DomExceptionName::DataCloneError));
        }
        Ok(Buffer { raw, scope })
    }

    /// The buffer's data.
    fn data(&self) -> *mut JSStructuredCloneData {
        // SAFETY: `raw` is live until dropped; only the field's address is
        // taken.
        unsafe { &raw mut (*self.raw).data_ }
    }

    /// `JS_WriteStructuredClone` of `value` (with the `transfer` list, or
    /// undefined for none) into the buffer, in its scope, with no
    /// platform-object callbacks; false when SpiderMonkey threw.
    fn write(&self, cx: &mut JSContext, value: HandleValue, transfer: HandleValue) -> bool {
        let policy = policy();
        // SAFETY: the buffer is live; `value` and `transfer` are rooted
        // (handles).
        unsafe {
            JS_WriteStructuredClone(
                cx,
                value,
                self.data(),
                self.scope,
                &policy,
                ptr::null(),
                ptr::null_mut(),
                transfer,
            )
        }
    }

    /// `JS_ReadStructuredClone` of the buffer into `rval`, in its scope;
    /// false when SpiderMonkey threw.
    fn read(&self, cx: &mut JSContext, rval: MutableHandleValue) -> bool {
        let policy = policy();
        // SAFETY: the buffer is live and holds a clone written in its
        // scope; `rval` is rooted (a handle).
        unsafe {
            JS_ReadStructuredClone(
                cx,
                self.data(),
                JS_STRUCTURED_CLONE_VERSION,
                self.scope,
                rval,
                &policy,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // SAFETY: made by NewJSAutoStructuredCloneBuffer, freed once.
        unsafe { DeleteJSAutoStructuredCloneBuffer(self.raw) }
    }
}

fn policy() -> CloneDataPolicy {
    CloneDataPolicy {
        allowIntraClusterClonableSharedObjects_: false,
        allowSharedMemoryObjects_: false,
    }
}

fn data_clone_error(cx: &mut JSContext) -> Error {
    // SpiderMonkey threw its own error (a TypeError naming the value);
    // the standard wants a "DataCloneError" DOMException.
    // SAFETY: plain queries and clearing of the pending exception on this thread's context.
    unsafe {
        if JS_IsExceptionPending(cx) {
            JS_ClearPendingException(cx);
        }
    }
    Error::dom_with_message(
        DomExceptionName::DataCloneError,
        "The value could not be cloned (functions, symbols and platform objects cannot)",
    )
}

/// <https://html.spec.whatwg.org/multipage/structured-data.html#structuredserialize>
/// of `value` (in the current realm).
pub fn structured_serialize(cx: &mut JSContext, value: HandleValue) -> Fallible<Serialized> {
    // `other` work outside script (markers).
    let _work = (crate::hooks::hooks().other_work)(cx);
    let buffer = Buffer::new()?;
    rooted!(&in(cx) let transfer = UndefinedValue());
    if !buffer.write(cx, value, transfer.handle()) {
        return Err(data_clone_error(cx));
    }
    // SAFETY: `buffer` owns the clone buffer SpiderMonkey just wrote; it is read (not kept)
    // here.
    let bytes = unsafe {
        let data = &mut *buffer.data();
        let length = GetLengthOfJSStructuredCloneData(data);
        // (A failed allocation would abort the process: a message too
        // large to copy is a DataCloneError instead.)
        let mut bytes = Vec::new();
        if bytes.try_reserve_exact(length).is_err() {
            return Err(Error::dom_with_message(
                DomExceptionName::DataCloneError,
                "out of memory copying the message",
            ));
        }
        bytes.resize(length, 0u8);
        CopyJSStructuredCloneData(data, bytes.as_mut_ptr());
        bytes
    };
    Ok(Serialized(bytes))
}

/// <https://html.spec.whatwg.org/multipage/structured-data.html#structureddeserialize>
/// of `serialized` into the current realm.
pub fn structured_deserialize(
    cx: &mut JSContext,
    serialized: &Serialized,
    rval: MutableHandleValue,
) -> Fallible<()> {
    // `other` work outside script (markers).
    let _work = (crate::hooks::hooks().other_work)(cx);
    let buffer = Buffer::new()?;
    // SAFETY: the buffer is live; the bytes were written by
    // structured_serialize in the different-process format (no pointers).
    let ok = unsafe {
        WriteBytesToJSStructuredCloneData(serialized.0.as_ptr(), serialized.0.len(), buffer.data())
    } && buffer.read(cx, rval);
    if !ok {
        return Err(data_clone_error(cx));
    }
    Ok(())
}

/// <https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone>'s
/// StructuredSerializeWithTransfer then StructuredDeserializeWithTransfer
/// in the current realm, in one buffer: `transfer` (an array of the
/// transfer list's objects, or undefined for none) is handed to
/// SpiderMonkey, which transfers `ArrayBuffer`s (detaching the originals)
/// and throws for anything it cannot transfer or for a duplicate, which
/// become a "DataCloneError" DOMException as the standard says.
pub fn structured_clone_with_transfer(
    cx: &mut JSContext,
    value: HandleValue,
    transfer: HandleValue,
    rval: MutableHandleValue,
) -> Fallible<()> {
    let buffer = Buffer::new_same_process()?;
    // The data is read back by this thread, in this process, at once.
    if !(buffer.write(cx, value, transfer) && buffer.read(cx, rval)) {
        return Err(data_clone_error(cx));
    }
    Ok(())
}
