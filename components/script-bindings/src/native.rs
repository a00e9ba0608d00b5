//! The common frame of every generated `JSNative`: no panic crosses into
//! SpiderMonkey, operations returning a promise reject instead of
//! throwing, `this` is brand-checked.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};

use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsapi::{CallArgs, JSObject};
use mozjs::jsval::{JSVal, ObjectValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    CallOriginalPromiseReject, JS_ClearPendingException, JS_DefineProperty, JS_GetPendingException,
    JS_GetProperty, JS_IsExceptionPending, JS_SetProperty,
};
use mozjs::rust::{Handle, HandleValue, MutableHandleValue};

use crate::conversions::RootedJsObject;
use crate::error::throw_type_error;
use crate::global::GlobalBindings;
use crate::interface::PrototypeId;
use crate::reflector::{unwrap_dom_object, DomObjectIface};

/// How a native reports failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnKind {
    /// Throw.
    Value,
    /// Return a rejected promise: an operation whose return type is a
    /// promise type turns every exception into a rejection
    /// (<https://webidl.spec.whatwg.org/#dfn-create-operation-function>,
    /// the step "If op has a return type that is a promise type...").
    Promise,
}

/// The arguments of a native call.
#[derive(Clone, Copy)]
pub struct NativeArgs {
    args: CallArgs,
}

impl NativeArgs {
    pub fn len(&self) -> u32 {
        self.args.argc_
    }

    pub fn is_empty(&self) -> bool {
        self.args.argc_ == 0
    }

    /// Argument `i`, `undefined` when missing.
    pub fn get(&self, i: u32) -> HandleValue<'_> {
        // SAFETY: the call's argument slots (and the `undefined` SpiderMonkey
        // hands out for a missing one) are rooted for the whole call, which
        // `self`'s borrow does not outlive.
        unsafe { Handle::from_raw(self.args.get(i)) }
    }

    pub fn thisv(&self) -> HandleValue<'_> {
        // SAFETY: the `this` slot is rooted for the whole call.
        unsafe { Handle::from_raw(self.args.thisv()) }
    }

    pub fn rval(&self) -> MutableHandleValue<'_> {
        // SAFETY: the return value slot is rooted for the whole call.
        unsafe { MutableHandleValue::from_raw(self.args.rval()) }
    }

    pub fn is_constructing(&self) -> bool {
        self.args.is_constructing()
    }

    /// NewTarget; only when constructing.
    pub fn new_target(&self) -> HandleValue<'_> {
        // SAFETY: the NewTarget slot is rooted for the whole call.
        unsafe { Handle::from_marked_location(self.args.new_target().ptr) }
    }
}

/// Runs a native's body: catches panics (reported as an `InternalError`
/// rather than unwinding into C++), and for [`ReturnKind::Promise`] turns a
/// pending exception into a rejected promise.
///
/// # Safety
/// `cx`, `argc` and `vp` are a JSNative's arguments.
pub unsafe fn call_native(
    cx: *mut RawJSContext,
    argc: u32,
    vp: *mut JSVal,
    what: &'static str,
    kind: ReturnKind,
    body: impl FnOnce(&mut JSContext, NativeArgs) -> Result<(), ()>,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a native gets the only live context of its thread.
    let mut cx = unsafe { JSContext::from_ptr(raw) };
    // SAFETY: `vp` and `argc` are the JSNative's arguments (this function's
    // contract).
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    let args = NativeArgs { args };
    let outcome = catch_unwind(AssertUnwindSafe(|| body(&mut cx, args)));
    let ok = match outcome {
        Ok(result) => result.is_ok(),
        Err(_) => {
            let message = format!("internal error in {what} (a Rust panic)");
            mozjs::error::throw_internal_error(&mut cx, &to_cstring(&message));
            false
        }
    };
    if ok {
        return true;
    }
    match kind {
        ReturnKind::Value => false,
        // SAFETY: `args.rval()` is the call's rooted return slot.
        ReturnKind::Promise => unsafe { reject_with_pending_exception(&mut cx, args.rval()) },
    }
}

/// Sets `rval` to a promise rejected with the pending exception (cleared).
/// False if nothing is pending (an uncatchable error).
pub unsafe fn reject_with_pending_exception(
    cx: &mut JSContext,
    mut rval: MutableHandleValue,
) -> bool {
    // SAFETY: pending-exception queries on this thread's context; the
    // exception is rooted before `CallOriginalPromiseReject` can GC.
    unsafe {
        if !JS_IsExceptionPending(cx) {
            return false;
        }
        rooted!(&in(cx) let mut exception = UndefinedValue());
        if !JS_GetPendingException(cx, exception.handle_mut()) {
            return false;
        }
        JS_ClearPendingException(cx);
        // https://webidl.spec.whatwg.org/#a-promise-rejected-with
        let promise = CallOriginalPromiseReject(cx, exception.handle());
        if promise.is_null() {
            return false;
        }
        rval.set(ObjectValue(promise));
        true
    }
}

pub fn to_cstring(s: &str) -> std::ffi::CString {
    std::ffi::CString::new(s.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

/// The brand check of an operation or attribute accessor
/// (<https://webidl.spec.whatwg.org/#dfn-create-operation-function>, steps
/// "If thisValue is not a platform object that implements the interface,
/// throw a TypeError").
pub fn unwrap_this<'a, T: DomObjectIface>(
    cx: &mut JSContext,
    args: &'a NativeArgs,
    what: &str,
) -> Result<&'a T, ()> {
    let this = args.thisv();
    // https://webidl.spec.whatwg.org/#dfn-create-operation-function: "If
    // thisValue is null or undefined, set O to realm's global object" (a
    // bare `setTimeout(...)` call).
    if this.is_null_or_undefined() {
        // SAFETY: a query of this thread's context.
        let global = unsafe { mozjs::rust::wrappers2::CurrentGlobalOrNull(cx) };
        // SAFETY: the current global is alive during the call.
        if let Some(object) = unsafe { unwrap_dom_object::<T>(global) } {
            return Ok(object);
        }
    }
    if this.is_object() {
        // SAFETY: `this` is rooted by the call for the duration of 'a.
        if let Some(object) = unsafe { unwrap_dom_object::<T>(this.to_object()) } {
            return Ok(object);
        }
    }
    throw_type_error(
        cx,
        &format!(
            "'{what}' called on an object that does not implement interface {}.",
            T::NAME
        ),
    );
    Err(())
}

/// Throws a TypeError if fewer than `required` arguments were passed
/// (overload resolution, <https://webidl.spec.whatwg.org/#es-overloads>:
/// no entry of the effective overload set matches).
pub fn check_argument_count(
    cx: &mut JSContext,
    args: &NativeArgs,
    required: usize,
    what: &str,
) -> Result<(), ()> {
    let given = args.len() as usize;
    if given >= required {
        return Ok(());
    }
    let plural = if required == 1 { "" } else { "s" };
    throw_type_error(
        cx,
        &format!("{what}: At least {required} argument{plural} required, but only {given} passed."),
    );
    Err(())
}

/// The global a static operation runs for: the current global (the
/// interface object's realm).
/// <https://webidl.spec.whatwg.org/#dfn-create-operation-function> step
/// 2.1.2 (static: no `this` check).
pub fn static_operation_global<'g>(cx: &mut JSContext) -> Result<&'g GlobalBindings, ()> {
    // SAFETY: the current global lives while its realm is entered, for the
    // whole native call; the reference is for that call (as the generated
    // static operations use it).
    unsafe { GlobalBindings::current(cx) }.ok_or(())
}

/// <https://webidl.spec.whatwg.org/#js-constructor>, step 1: "If NewTarget
/// is undefined, then throw a TypeError."
pub fn require_new_target(cx: &mut JSContext, args: &NativeArgs, name: &str) -> Result<(), ()> {
    if !args.is_constructing() {
        throw_type_error(
            cx,
            &format!("Class constructor {name} cannot be invoked without 'new'."),
        );
        return Err(());
    }
    Ok(())
}

/// The first steps of an interface's constructor
/// (<https://webidl.spec.whatwg.org/#js-constructor>): the NewTarget
/// check, the current global, and the prototype of the new object from
/// NewTarget (<https://webidl.spec.whatwg.org/#internally-create-a-new-object-implementing-the-interface>,
/// steps "Let prototype be ? Get(newTarget, "prototype")").
pub fn constructor_prologue<'g>(
    cx: &mut JSContext,
    args: &NativeArgs,
    id: PrototypeId,
    name: &str,
) -> Result<(&'g GlobalBindings, RootedJsObject), ()> {
    require_new_target(cx, args, name)?;
    // SAFETY: the current global lives while its realm is entered, for the
    // whole constructor call.
    let global = unsafe { GlobalBindings::current(cx) }.ok_or(())?;
    let new_target = args.new_target();
    rooted!(&in(cx) let target = if new_target.is_object() { new_target.to_object() } else { ptr::null_mut::<JSObject>() });
    rooted!(&in(cx) let mut prototype = UndefinedValue());
    if !target.get().is_null() {
        // SAFETY: `target` and `prototype` are rooted; the name is
        // NUL-terminated.
        let got = unsafe {
            JS_GetProperty(
                cx,
                target.handle(),
                c"prototype".as_ptr(),
                prototype.handle_mut(),
            )
        };
        if !got {
            return Err(());
        }
    }
    let proto = RootedJsObject::new(Default::default());
    if prototype.is_object() {
        proto.set(prototype.to_object());
    } else {
        // "If Type(prototype) is not Object": the interface prototype
        // object of the current realm.
        proto.set(global.interface_prototype(cx, id));
    }
    Ok((global, proto))
}

/// The setter of a `[PutForwards=forward]` attribute `attribute`
/// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>, the
/// `[PutForwards]` steps), after the brand check.
pub fn put_forwards(
    cx: &mut JSContext,
    args: &NativeArgs,
    attribute: &std::ffi::CStr,
    forward: &std::ffi::CStr,
) -> Result<(), ()> {
    rooted!(&in(cx) let this = args.thisv().to_object());
    // Step 1: Let Q be ? Get(jsValue, id).
    rooted!(&in(cx) let mut q = UndefinedValue());
    // SAFETY: `this` and `q` are rooted; `attribute` is NUL-terminated.
    if !unsafe { JS_GetProperty(cx, this.handle(), attribute.as_ptr(), q.handle_mut()) } {
        return Err(());
    }
    // Step 2: If Q is not an Object, then throw a TypeError.
    if !q.is_object() {
        throw_type_error(
            cx,
            &format!("{} is not an object.", attribute.to_string_lossy()),
        );
        return Err(());
    }
    // Steps 3-4: Perform ? Set(Q, forwardId, V, false).
    rooted!(&in(cx) let q_object = q.to_object());
    // SAFETY: `q_object` and the argument are rooted; `forward` is
    // NUL-terminated.
    if !unsafe { JS_SetProperty(cx, q_object.handle(), forward.as_ptr(), args.get(0)) } {
        return Err(());
    }
    args.rval().set(UndefinedValue());
    Ok(())
}

/// The setter of a `[Replaceable]` attribute
/// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>, the
/// `[Replaceable]` steps), after the brand check: Perform ?
/// CreateDataPropertyOrThrow(jsValue, id, V).
pub fn replace_attribute(
    cx: &mut JSContext,
    args: &NativeArgs,
    attribute: &std::ffi::CStr,
) -> Result<(), ()> {
    rooted!(&in(cx) let this = args.thisv().to_object());
    // SAFETY: `this` and the argument are rooted; `attribute` is
    // NUL-terminated.
    if !unsafe {
        JS_DefineProperty(
            cx,
            this.handle(),
            attribute.as_ptr(),
            args.get(0),
            mozjs::jsapi::JSPROP_ENUMERATE as u32,
        )
    } {
        return Err(());
    }
    args.rval().set(UndefinedValue());
    Ok(())
}
