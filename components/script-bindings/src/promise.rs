//! Promises created and settled by DOM code
//! (<https://webidl.spec.whatwg.org/#es-promise-manipulation>).
//!
//! A `Promise` roots its JS object while the `Rc` lives: DOM code holds it
//! until it settles it (possibly later, from a task), then drops it.

use std::ptr::NonNull;
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::Heap;
use mozjs::jsapi::JSObject;
use mozjs::jsval::{ObjectValue, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{NewPromiseObject, RejectPromise, ResolvePromise};
use mozjs::rust::{HandleObject, MutableHandleValue};

use crate::conversions::ToJsValue;
use crate::error::{throw_dom_error, Error};
use crate::native::reject_with_pending_exception;
use crate::reflector::enter::realm_of;

pub struct Promise {
    object: RootedTraceableBox<Heap<*mut JSObject>>,
}

impl Promise {
    /// <https://webidl.spec.whatwg.org/#a-new-promise> in the current realm.
    pub fn new(cx: &mut JSContext) -> Rc<Promise> {
        // SAFETY: a null executor is allowed (a promise settled by Rust code); the result is
        // rooted at once by `from_object`.
        let object = unsafe { NewPromiseObject(cx, HandleObject::null()) };
        assert!(!object.is_null(), "out of memory creating a promise");
        Promise::from_object(object)
    }

    fn from_object(object: *mut JSObject) -> Rc<Promise> {
        let root = RootedTraceableBox::new(Heap::default());
        root.set(object);
        Rc::new(Promise { object: root })
    }

    /// <https://webidl.spec.whatwg.org/#a-promise-rejected-with> `error`
    /// (a `DOMException`, `TypeError`, ...).
    pub fn new_rejected(cx: &mut JSContext, error: Error) -> Rc<Promise> {
        throw_dom_error(cx, error);
        rooted!(&in(cx) let mut value = UndefinedValue());
        // SAFETY: `value` is rooted above; an exception is pending (thrown just before).
        if unsafe { reject_with_pending_exception(cx, value.handle_mut()) } && value.is_object() {
            return Promise::from_object(value.to_object());
        }
        let promise = Promise::new(cx);
        promise.reject(cx, &());
        promise
    }

    pub fn object(&self) -> HandleObject<'_> {
        self.object.handle()
    }

    /// Enters the realm of the promise's global (the realm it was made in)
    /// until the guard is dropped.
    pub fn enter_realm<'cx>(&self, cx: &'cx mut JSContext) -> AutoRealm<'cx> {
        let object = NonNull::new(self.object.get()).expect("a promise object is never null");
        // SAFETY: the promise object is rooted by `self`, and made in a
        // realm of this thread (`NewPromiseObject` or a rejection made in
        // the current realm), so it is not a cross-compartment wrapper.
        unsafe { realm_of(cx, object) }
    }

    /// <https://webidl.spec.whatwg.org/#resolve>
    pub fn resolve<T: ToJsValue + ?Sized>(&self, cx: &mut JSContext, value: &T) {
        rooted!(&in(cx) let mut js = UndefinedValue());
        // SAFETY: `js` and the promise object are rooted, and `cx` is in a realm (the
        // caller's).
        unsafe {
            value.to_js(cx, js.handle_mut());
            ResolvePromise(cx, self.object.handle(), js.handle());
        }
    }

    /// <https://webidl.spec.whatwg.org/#reject>
    pub fn reject<T: ToJsValue + ?Sized>(&self, cx: &mut JSContext, value: &T) {
        rooted!(&in(cx) let mut js = UndefinedValue());
        // SAFETY: `js` and the promise object are rooted, and `cx` is in a realm (the
        // caller's).
        unsafe {
            value.to_js(cx, js.handle_mut());
            RejectPromise(cx, self.object.handle(), js.handle());
        }
    }

    /// Rejects with `error` turned into a JS value (e.g. a `DOMException`
    /// named `NotAllowedError`).
    pub fn reject_error(&self, cx: &mut JSContext, error: Error) {
        throw_dom_error(cx, error);
        rooted!(&in(cx) let mut exception = UndefinedValue());
        // SAFETY: `exception` and the promise object are rooted; the exception was thrown just
        // before.
        unsafe {
            if mozjs::rust::wrappers2::JS_GetPendingException(cx, exception.handle_mut()) {
                mozjs::rust::wrappers2::JS_ClearPendingException(cx);
                RejectPromise(cx, self.object.handle(), exception.handle());
            }
        }
    }
}

impl ToJsValue for Promise {
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(ObjectValue(self.object.get()));
        mozjs::rust::maybe_wrap_value(cx, rval);
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#queue-a-microtask>
/// of "invoke `callback` with « » and "report"": the microtask is a
/// reaction job on an already-resolved promise, so it shares SpiderMonkey's
/// job queue (and its FIFO order) with promise jobs. The reaction is a
/// native trampoline holding the callback in a reserved slot; it reports
/// what the callback throws instead of rejecting the derived promise.
pub fn enqueue_callback_microtask(cx: &mut JSContext, callback: *mut JSObject) -> Result<(), ()> {
    use mozjs::jsapi::{
        AddPromiseReactions, CallOriginalPromiseResolve, GetFunctionNativeReserved,
        JS_GetFunctionObject, NewFunctionWithReserved, SetFunctionNativeReserved,
    };
    unsafe extern "C" fn trampoline(
        cx: *mut mozjs::context::RawJSContext,
        argc: u32,
        vp: *mut mozjs::jsval::JSVal,
    ) -> bool {
        // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair on the context's
        // thread.
        unsafe {
            let args = mozjs::jsapi::CallArgs::from_vp(vp, argc);
            let callee = args.callee();
            let callback = *GetFunctionNativeReserved(callee, 0);
            let Some(raw) = std::ptr::NonNull::new(cx) else {
                return false;
            };
            let mut cx = JSContext::from_ptr(raw);
            rooted!(&in(&mut cx) let callback = callback);
            rooted!(&in(&mut cx) let this = mozjs::jsval::UndefinedValue());
            rooted!(&in(&mut cx) let mut rval = mozjs::jsval::UndefinedValue());
            let empty = mozjs::jsapi::HandleValueArray::empty();
            if !mozjs::rust::wrappers2::Call(
                &mut cx,
                this.handle(),
                callback.handle(),
                &empty,
                rval.handle_mut(),
            ) {
                (crate::hooks::hooks().report_pending_exception)(&mut cx);
            }
            args.rval().set(mozjs::jsval::UndefinedValue());
            true
        }
    }
    // SAFETY: `callback` is a live object the caller holds rooted; the new function is rooted
    // before anything else can GC.
    unsafe {
        let function = NewFunctionWithReserved(
            cx.raw_cx(),
            Some(trampoline),
            0,
            0,
            c"queueMicrotask callback".as_ptr(),
        );
        if function.is_null() {
            return Err(());
        }
        rooted!(&in(cx) let reaction = JS_GetFunctionObject(function));
        SetFunctionNativeReserved(reaction.get(), 0, &mozjs::jsval::ObjectValue(callback));
        rooted!(&in(cx) let undefined = mozjs::jsval::UndefinedValue());
        rooted!(&in(cx) let promise = CallOriginalPromiseResolve(cx.raw_cx(), undefined.handle().into()));
        if promise.get().is_null() {
            return Err(());
        }
        rooted!(&in(cx) let null = std::ptr::null_mut::<JSObject>());
        if !AddPromiseReactions(
            cx.raw_cx(),
            promise.handle().into(),
            reaction.handle().into(),
            null.handle().into(),
        ) {
            return Err(());
        }
    }
    Ok(())
}
