//! Callback functions and callback interfaces held by Rust
//! (<https://webidl.spec.whatwg.org/#idl-callback-function>,
//! <https://webidl.spec.whatwg.org/#idl-callback-interface>).
//!
//! A callback holds its JS object in a `Heap`: it is *traced* by whoever
//! stores it (e.g. an event target's listener list), so a listener that
//! refers back to its target forms an ordinary collectable cycle. The
//! generated glue roots callback arguments for the duration of a call.

use jsprof_script_derive::JSTraceable;
use std::ffi::CStr;

use mozjs::context::JSContext;
use mozjs::gc::{RootedVec, Traceable};
use mozjs::jsapi::Heap;
use mozjs::jsapi::{HandleValueArray, IsCallable, JSAutoRealm, JSObject, JSTracer};
use mozjs::jsval::{JSVal, ObjectValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{Call, JS_GetProperty};
use mozjs::rust::{HandleValue, MutableHandleValue};

use std::rc::Rc;

use crate::conversions::{FromJsValue, ToJsValue};
use crate::error::{throw_type_error, Error, Fallible};

/// What to do with an exception thrown by a callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionHandling {
    /// Report it (<https://html.spec.whatwg.org/#report-the-exception>)
    /// and return `Err(Error::JSFailed)` with nothing pending.
    Report,
    /// Leave it pending and return `Err(Error::JSFailed)`.
    Rethrow,
}

/// The JS object of a callback.
#[derive(JSTraceable)]
struct CallbackObject {
    // Boxed: a Heap must not move once it holds a pointer.
    object: Box<Heap<*mut JSObject>>,
}

impl CallbackObject {
    fn new(object: *mut JSObject) -> Self {
        CallbackObject {
            object: Heap::boxed(object),
        }
    }
}

/// Ends a failed callback call per `handling`.
fn failed(cx: &mut JSContext, handling: ExceptionHandling) -> Error {
    if handling == ExceptionHandling::Report {
        (crate::hooks::hooks().report_pending_exception)(cx);
    }
    Error::JSFailed
}

/// When converting a callback's return value failed.
pub fn callback_conversion_failed(cx: &mut JSContext, handling: ExceptionHandling) -> Error {
    failed(cx, handling)
}

/// A callback function value.
#[derive(JSTraceable)]
pub struct CallbackFunction(CallbackObject);

impl CallbackFunction {
    pub fn new(_cx: &mut JSContext, object: *mut JSObject) -> Self {
        CallbackFunction(CallbackObject::new(object))
    }

    pub fn object(&self) -> *mut JSObject {
        self.0.object.get()
    }

    /// <https://webidl.spec.whatwg.org/#invoke-a-callback-function>
    ///
    /// # Safety
    /// `argv` and `rval` are rooted.
    pub unsafe fn call(
        &self,
        cx: &mut JSContext,
        this_arg: HandleValue,
        argv: &RootedVec<'_, JSVal>,
        rval: MutableHandleValue,
        handling: ExceptionHandling,
    ) -> Fallible<()> {
        rooted!(&in(cx) let function = ObjectValue(self.object()));
        // Step 4: If IsCallable(F) is false ([LegacyTreatNonObjectAsNull]
        // only): return undefined.
        // SAFETY: the callback object is traced by its holder, so alive; IsCallable only reads
        // it.
        if !unsafe { IsCallable(self.object()) } {
            let mut rval = rval;
            rval.set(UndefinedValue());
            return Ok(());
        }
        // Steps 5-8: prepare to run script in F's realm.
        // SAFETY: the callback object is alive (traced by its holder); the realm guard is
        // dropped at the end of this scope, before `cx` is used elsewhere.
        let _realm = unsafe { JSAutoRealm::new(cx.raw_cx_no_gc(), self.object()) };
        // thisArg as a value of F's realm (a Window is its WindowProxy).
        rooted!(&in(cx) let mut this = this_arg.get());
        // SAFETY: a rooted value, wrapped into the entered realm.
        if !unsafe { mozjs::rust::wrappers2::JS_WrapValue(cx, this.handle_mut()) } {
            return Err(failed(cx, handling));
        }
        let args = HandleValueArray::from(argv);
        // Step 11: Let callResult be Completion(Call(F, thisArg, jsArgs)).
        // SAFETY: every argument is a rooted handle, and we are in the function's realm.
        if unsafe { Call(cx, this.handle(), function.handle(), &args, rval) } {
            Ok(())
        } else {
            Err(failed(cx, handling))
        }
    }
}

impl ToJsValue for CallbackFunction {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        let mut rval = rval;
        rval.set(ObjectValue(self.object()));
        mozjs::rust::maybe_wrap_value(cx, rval);
    }
}

/// A callback interface value: a function, or an object with the
/// operation as a method.
#[derive(JSTraceable)]
pub struct CallbackInterface(CallbackObject);

impl CallbackInterface {
    pub fn new(_cx: &mut JSContext, object: *mut JSObject) -> Self {
        CallbackInterface(CallbackObject::new(object))
    }

    pub fn object(&self) -> *mut JSObject {
        self.0.object.get()
    }

    /// <https://webidl.spec.whatwg.org/#call-a-user-objects-operation>
    ///
    /// # Safety
    /// `argv` and `rval` are rooted.
    pub unsafe fn call_operation(
        &self,
        cx: &mut JSContext,
        operation: &CStr,
        this_arg: HandleValue,
        argv: &RootedVec<'_, JSVal>,
        rval: MutableHandleValue,
        handling: ExceptionHandling,
    ) -> Fallible<()> {
        rooted!(&in(cx) let object = self.object());
        // Steps 4-5: prepare to run script in O's realm.
        // SAFETY: the callback object is alive (rooted as `object` above); the realm guard is
        // dropped at the end of this scope.
        let _realm = unsafe { JSAutoRealm::new(cx.raw_cx_no_gc(), self.object()) };
        // Step 6: Let X be O.
        rooted!(&in(cx) let mut x = ObjectValue(self.object()));
        rooted!(&in(cx) let mut this = this_arg.get());
        // thisArg as a value of O's realm (a Window is its WindowProxy).
        // SAFETY: a rooted value, wrapped into the entered realm.
        if !unsafe { mozjs::rust::wrappers2::JS_WrapValue(cx, this.handle_mut()) } {
            return Err(failed(cx, handling));
        }
        // Step 7: If IsCallable(O) is false, then:
        // SAFETY: the callback object is rooted as `object` above; IsCallable only reads it.
        if !unsafe { IsCallable(self.object()) } {
            // Step 7.1: Let getResult be Completion(Get(O, opName)).
            // SAFETY: `object` and `x` are rooted; `operation` is a NUL-terminated name.
            if !unsafe { JS_GetProperty(cx, object.handle(), operation.as_ptr(), x.handle_mut()) } {
                return Err(failed(cx, handling));
            }
            // Step 7.3: If IsCallable(X) is false, throw a TypeError.
            // SAFETY: `x` is rooted and holds an object (checked first).
            if !(x.is_object() && unsafe { IsCallable(x.to_object()) }) {
                let name = operation.to_string_lossy();
                throw_type_error(
                    cx,
                    &format!("Property '{name}' of the listener is not callable."),
                );
                return Err(failed(cx, handling));
            }
            // Step 7.4: Set thisArg to O.
            this.set(ObjectValue(self.object()));
        }
        let args = HandleValueArray::from(argv);
        // Step 10: Let callResult be Completion(Call(X, thisArg, jsArgs)).
        // SAFETY: every argument is a rooted handle, and we are in the object's realm.
        if unsafe { Call(cx, this.handle(), x.handle(), &args, rval) } {
            Ok(())
        } else {
            Err(failed(cx, handling))
        }
    }

    /// Traces the callback object (from the generated callback interface
    /// types' `Traceable` impls).
    ///
    /// # Safety
    /// As `Traceable::trace`: `trc` is the tracer the GC passed in.
    pub unsafe fn trace(&self, trc: *mut JSTracer) {
        // SAFETY: forwards this function's contract.
        unsafe { self.0.object.trace(trc) }
    }
}

impl ToJsValue for CallbackInterface {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        let mut rval = rval;
        rval.set(ObjectValue(self.object()));
        mozjs::rust::maybe_wrap_value(cx, rval);
    }
}

/// A callback type generated from WebIDL: how a JS value becomes an
/// `Rc` of it (a `TypeError` when the value is not acceptable), so that
/// `Rc<T>` converts like every other IDL type ([`FromJsValue`]).
pub trait CallbackType: Sized {
    /// Converts `value` to this callback type (throwing a `TypeError` if it
    /// is not acceptable).
    ///
    /// # Safety
    /// As [`FromJsValue::from_js`].
    unsafe fn from_js_callback(cx: &mut JSContext, value: HandleValue) -> Result<Rc<Self>, ()>;
}

impl<T: CallbackType> FromJsValue for Rc<T> {
    type Config = ();

    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _config: ()) -> Result<Self, ()> {
        // SAFETY: the caller's contract, which is the callee's.
        unsafe { T::from_js_callback(cx, value) }
    }
}
