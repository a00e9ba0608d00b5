//! Exception helpers of module loading: making a `TypeError` or a JSON
//! `SyntaxError`, and moving an exception value in and out of the
//! context's pending exception.

use std::ffi::CString;

use mozjs::context::JSContext;
use mozjs::jsval::{JSVal, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2;

/// Makes a `TypeError` with `message` (in the current realm) and returns
/// it.
pub(super) fn new_type_error(
    cx: &mut JSContext,
    message: &str,
    out: mozjs::rust::MutableHandleValue,
) {
    crate::dom::bindings::error::throw_type_error(cx, message);
    take_exception(cx, out);
}

/// Makes `error` (an exception value, e.g. a script's error to rethrow)
/// the pending exception, for "report the exception".
pub(super) fn set_pending_exception(cx: &mut JSContext, error: JSVal) {
    rooted!(&in(cx) let error = error);
    // SAFETY: `cx` is this thread's live context and `error` is rooted for
    // the call; the engine copies the value into its own root.
    unsafe {
        wrappers2::JS_SetPendingException(
            cx,
            error.handle(),
            mozjs::jsapi::ExceptionStackBehavior::DoNotCapture,
        )
    };
}

/// Takes the pending exception into `out` (undefined if none).
pub(super) fn take_exception(cx: &mut JSContext, mut out: mozjs::rust::MutableHandleValue) {
    // SAFETY: queries of this thread's live context; `out` is a rooted
    // handle (the caller's), which the pending value goes into before the
    // context's own root is cleared.
    unsafe {
        if wrappers2::JS_IsExceptionPending(cx) {
            wrappers2::JS_GetPendingException(cx, out.reborrow());
            wrappers2::JS_ClearPendingException(cx);
        } else {
            out.set(UndefinedValue());
        }
    }
}

/// Throws the `SyntaxError` `JSON.parse(input)` throws (the engine's own
/// message, as browsers report it), or one with `message`.
pub(super) fn throw_json_syntax_error(cx: &mut JSContext, input: &str, message: &str) {
    let text: Vec<u16> = input.encode_utf16().collect();
    rooted!(&in(cx) let mut value = UndefinedValue());
    // SAFETY: `cx` is this thread's live context; `text` is a live local
    // buffer of `text.len()` UTF-16 units for the call; `value` is rooted.
    let parsed = unsafe {
        mozjs::jsapi::JS_ParseJSON(
            cx.raw_cx(),
            text.as_ptr(),
            text.len() as u32,
            value.handle_mut().into(),
        )
    };
    // SAFETY: a plain query of this thread's live context.
    if parsed || !unsafe { wrappers2::JS_IsExceptionPending(cx) } {
        let message = CString::new(format!("import map: {message}")).unwrap_or_default();
        // SAFETY: `cx` is this thread's live context; `message` is a
        // NUL-terminated string that outlives the call (the engine copies
        // it); no format arguments are passed.
        unsafe { mozjs::jsapi::JS_ReportErrorUTF8(cx.raw_cx(), message.as_ptr()) };
    }
}
