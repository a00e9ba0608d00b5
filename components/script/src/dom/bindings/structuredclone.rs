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
    CloneDataPolicy, JSAutoStructuredCloneBuffer, StructuredCloneScope, JS_STRUCTURED_CLONE_VERSION,
};
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    JS_ClearPendingException, JS_IsExceptionPending, JS_ReadStructuredClone,
    JS_WriteStructuredClone,
};
use mozjs::rust::{HandleValue, MutableHandleValue};

use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};

/// A serialization: the bytes of SpiderMonkey's structured clone format
/// (same-process scope: no pointers are kept, since nothing is
/// transferred).
#[derive(Clone, Debug)]
pub struct Serialized(Vec<u8>);

/// Frees the buffer on every path.
struct Buffer(*mut JSAutoStructuredCloneBuffer);

impl Buffer {
    fn new() -> Fallible<Buffer> {
        // SAFETY: null callbacks: the runtime's (none) are used.
        let raw = unsafe {
            NewJSAutoStructuredCloneBuffer(StructuredCloneScope::DifferentProcess, ptr::null())
        };
        if raw.is_null() {
            return Err(Error::dom(DomExceptionName::DataCloneError));
        }
        Ok(Buffer(raw))
    }
}

impl Buffer {
    /// A buffer for a clone read back at once in this process (transfers
    /// move `ArrayBuffer` contents instead of copying them).
    fn new_same_process() -> Fallible<Buffer> {
        // SAFETY: null callbacks: the runtime's (none) are used.
        let raw = unsafe {
            NewJSAutoStructuredCloneBuffer(StructuredCloneScope::SameProcess, ptr::null())
        };
        if raw.is_null() {
            return Err(Error::dom(DomExceptionName::DataCloneError));
        }
        Ok(Buffer(raw))
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // SAFETY: made by NewJSAutoStructuredCloneBuffer, freed once.
        unsafe { DeleteJSAutoStructuredCloneBuffer(self.0) }
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
    let _work = crate::profiling::other_work_here(cx);
    let buffer = Buffer::new()?;
    let policy = policy();
    rooted!(&in(cx) let transfer = UndefinedValue());
    // SAFETY: the buffer is live; `value` is rooted.
    let ok = unsafe {
        JS_WriteStructuredClone(
            cx,
            value,
            &mut (*buffer.0).data_,
            StructuredCloneScope::DifferentProcess,
            &policy,
            ptr::null(),
            ptr::null_mut(),
            transfer.handle(),
        )
    };
    if !ok {
        return Err(data_clone_error(cx));
    }
    // SAFETY: `buffer` owns the clone buffer SpiderMonkey just wrote; it is read (not kept)
    // here.
    let bytes = unsafe {
        let data = &mut (*buffer.0).data_;
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
    let _work = crate::profiling::other_work_here(cx);
    let buffer = Buffer::new()?;
    let policy = policy();
    // SAFETY: the buffer is live; the bytes were written by
    // structured_serialize in the different-process format (no pointers).
    let ok = unsafe {
        let data = &mut (*buffer.0).data_;
        WriteBytesToJSStructuredCloneData(serialized.0.as_ptr(), serialized.0.len(), data)
            && JS_ReadStructuredClone(
                cx,
                data,
                JS_STRUCTURED_CLONE_VERSION,
                StructuredCloneScope::DifferentProcess,
                rval,
                &policy,
                ptr::null(),
                ptr::null_mut(),
            )
    };
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
    let policy = policy();
    // SAFETY: the buffer is live; `value` and `transfer` are rooted; the
    // data is read back by this thread, in this process, at once.
    let ok = unsafe {
        let data = &mut (*buffer.0).data_;
        JS_WriteStructuredClone(
            cx,
            value,
            data,
            StructuredCloneScope::SameProcess,
            &policy,
            ptr::null(),
            ptr::null_mut(),
            transfer,
        ) && JS_ReadStructuredClone(
            cx,
            data,
            JS_STRUCTURED_CLONE_VERSION,
            StructuredCloneScope::SameProcess,
            rval,
            &policy,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    if !ok {
        return Err(data_clone_error(cx));
    }
    Ok(())
}
