//! One SpiderMonkey context (an agent's JS thread) with one global.

use std::ffi::CString;
use std::fmt;
use std::ptr::{self, NonNull};

use mozjs::conversions::jsstr_to_string;
use mozjs::gc::{Heap, RootedTraceableBox};
use mozjs::jsapi::{JSObject, OnNewGlobalHookOption};
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::wrappers2::{JS_ClearPendingException, JS_IsExceptionPending, JS_NewGlobalObject};
use mozjs::rust::{
    error_info_from_exception_stack, evaluate_script, CompileOptionsWrapper, RealmOptions, Runtime,
    ToString, SIMPLE_GLOBAL_CLASS,
};

/// A script that threw, or could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The exception's message (`TypeError: x is not a function`).
    pub message: String,
    /// The file name the failing code was compiled with.
    pub filename: String,
    /// 1-origin line, 0 when unknown.
    pub line: u32,
    /// 1-origin column, 0 when unknown.
    pub column: u32,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.filename, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ScriptError {}

/// A SpiderMonkey context on the current thread with one global object.
///
/// Not `Send`: a context belongs to the thread that created it.
pub struct JsRuntime {
    // Dropped before `runtime`: the root must go before its context.
    global: RootedTraceableBox<Heap<*mut JSObject>>,
    runtime: Runtime,
}

impl JsRuntime {
    /// Creates a context and a plain global on the current thread.
    pub fn new() -> Result<JsRuntime, String> {
        let mut runtime = Runtime::new(crate::engine::handle()?);
        let options = RealmOptions::default();
        let global = RootedTraceableBox::new(Heap::default());
        // SAFETY: the class and options outlive the call; the result is
        // rooted immediately below before anything can GC.
        let object = unsafe {
            JS_NewGlobalObject(
                runtime.cx(),
                &SIMPLE_GLOBAL_CLASS,
                ptr::null_mut(),
                OnNewGlobalHookOption::FireOnNewGlobalHook,
                &*options,
            )
        };
        if object.is_null() {
            return Err("SpiderMonkey could not create a global object".to_owned());
        }
        global.set(object);
        Ok(JsRuntime { global, runtime })
    }

    /// Evaluates a classic script in the global and returns its completion
    /// value converted with ECMAScript `ToString`. `filename` and `line` are
    /// the position of the script's first line (for errors, and later traces).
    pub fn evaluate(
        &mut self,
        source: &str,
        filename: &str,
        line: u32,
    ) -> Result<String, ScriptError> {
        let filename_c =
            CString::new(filename.replace('\0', "\u{FFFD}")).expect("NULs were replaced");
        let cx = self.runtime.cx();
        let options = CompileOptionsWrapper::new(cx, filename_c, line);
        rooted!(&in(cx) let mut rval = UndefinedValue());
        if evaluate_script(cx, self.global.handle(), source, rval.handle_mut(), options).is_err() {
            return Err(take_pending_error(cx, filename));
        }
        // SAFETY: `rval` is rooted; ToString may run user code (toString
        // methods), which is allowed here.
        let string = unsafe { ToString(cx, rval.handle()) };
        match NonNull::new(string) {
            // SAFETY: a live string returned by ToString.
            Some(string) => Ok(unsafe { jsstr_to_string(cx, string) }),
            None => Err(take_pending_error(cx, filename)),
        }
    }
}

/// Clears the pending exception and describes it.
fn take_pending_error(cx: &mut mozjs::context::JSContext, filename: &str) -> ScriptError {
    rooted!(&in(cx) let mut exception = UndefinedValue());
    match error_info_from_exception_stack(cx, exception.handle_mut()) {
        Some(info) => ScriptError {
            message: info.message,
            filename: info.filename,
            line: info.line,
            column: info.col,
        },
        None => {
            // SAFETY: plain queries on the live context.
            unsafe {
                if JS_IsExceptionPending(cx) {
                    JS_ClearPendingException(cx);
                }
            }
            ScriptError {
                // An uncatchable termination (no exception object).
                message: "script terminated without an exception".to_owned(),
                filename: filename.to_owned(),
                line: 0,
                column: 0,
            }
        }
    }
}
