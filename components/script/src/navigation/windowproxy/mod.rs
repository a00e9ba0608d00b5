//! WindowProxy objects
//! (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-windowproxy-exotic-object>)
//! on SpiderMonkey, as Gecko and Servo build them.
//!
//! # Design
//! - Every `Window` global gets a WindowProxy when it is created
//!   ([`attach_window_proxy`]): a SpiderMonkey `js::Wrapper` proxy of
//!   mozjs's `WindowProxyClass` in the global's compartment whose target is
//!   the global, registered with `js::SetWindowProxy`, so that top-level
//!   `this`, `globalThis`, `window`, `self` and `frames` (SpiderMonkey
//!   "outerizes" a Window to its WindowProxy whenever it hands the global
//!   to script) are that proxy.
//! - A navigation that creates a new `Window` for a browsing context
//!   transplants the old WindowProxy onto the new one
//!   ([`transplant_window_proxy`], `JS_TransplantObject`): every reference
//!   other realms hold (their cross-compartment wrappers) keeps its
//!   identity and now reaches the new Window. The WindowProxy of a
//!   browsing context is therefore one object for its whole lifetime, as
//!   seen from any other realm; inside the new Window it is the new
//!   global's own WindowProxy.
//! - Each Window is its own compartment, so another Window reaches a
//!   WindowProxy only through a cross-compartment wrapper, which the wrap
//!   callback ([`wrap`]) makes with the handler of `windowproxy_glue.cpp`.
//!   That handler runs HTML's checks on every access: same origin as the
//!   current realm, it is a plain cross-compartment wrapper; cross origin,
//!   it exposes only HTML's cross-origin properties
//!   (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginproperties-(-o-)>),
//!   whose values are made here in the *accessing* realm (never objects of
//!   the other realm: functions are built-ins of the current realm, other
//!   windows are WindowProxy wrappers), and throws a "SecurityError"
//!   DOMException for everything else.
//! - Bindings that expect a `Window` (`this` of a Window method called as
//!   `window.foo()`) see through a WindowProxy of the current compartment
//!   ([`window_of_window_proxy`](crate::dom::bindings::reflector::window_of_window_proxy)); a wrapper of another compartment is
//!   never unwrapped.
//!
//! # Not done
//! - The cross-origin `Location` object: `location` is a cross-origin
//!   property, but its getter and setter throw a "SecurityError" here
//!   (this shell navigates a document only to a fragment through
//!   `Location`).
//! - Named frames for a same-origin caller (`window.frameName`): Window
//!   has no named properties object (a cross-origin caller gets them,
//!   \[\[GetOwnProperty]] step 6).
//! - The \[\[CrossOriginPropertyDescriptorMap]] is keyed by (accessing
//!   Window, navigable, property), not by the target's relevant settings
//!   object: after a navigation the same functions are given.
//! - `document.domain` is not supported (same origin-domain is same
//!   origin).
//!
//! # Invariants
//! - One realm per compartment for windows (`RealmOptions::default()`:
//!   a new compartment and zone each): so a WindowProxy object in the
//!   current compartment belongs to the current Window, and a wrapper's
//!   compartment is the accessing realm.
//! - The wrappers of WindowProxy objects are the only objects made with
//!   [`cross_origin_handler`]; their traps never enter the target's realm
//!   on the cross-origin path, so no function of the other realm can be
//!   reached (and none can run, nor appear in a profiler's trace, through
//!   them).
//!
//! # Layout
//! This module holds the declarations of `windowproxy_glue.cpp`, the wrap
//! callbacks and what the rest of the crate calls (install, attach,
//! transplant); `handler` the traps of the WindowProxy objects themselves
//! (the same-origin path); `cross_origin` the wrappers' cross-origin
//! checks (`[[GetOwnProperty]]`, `[[OwnPropertyKeys]]`,
//! CrossOriginProperties and the "SecurityError" path);
//! `cross_origin_functions` the built-in functions of the cross-origin
//! properties.

mod cross_origin;
mod cross_origin_functions;
mod handler;

pub(crate) use cross_origin::CrossOriginFunction;

use std::ffi::c_void;
use std::ptr::NonNull;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::glue::GetCrossCompartmentWrapper;
use mozjs::jsapi::{
    HandleId as RawHandleId, HandleObject as RawHandleObject, MutableHandle as RawMutableHandle,
    MutableHandleIdVector as RawMutableHandleIdVector,
    MutableHandleObject as RawMutableHandleObject,
};
use mozjs::jsapi::{
    IsWindowProxy, JSObject, JSWrapObjectCallbacks, JS_IsGlobalObject, PropertyDescriptor,
    ToWindowProxyIfWindowSlow,
};
use mozjs::jsval::{JSVal, NullValue, ObjectValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    JS_TransplantObject, JS_WrapValue, NewWindowProxy, SetWindowProxy, SetWindowProxyClass,
};
use mozjs::rust::HandleObject;

use self::cross_origin::cross_origin_handler;
use self::handler::window_proxy_handler;
use crate::navigation::browsing_context::{self, NavigableId};

/// The `windowproxy_glue.cpp` side.
#[repr(C)]
struct Callbacks {
    is_same_origin: unsafe extern "C" fn(*mut RawJSContext, *mut JSObject) -> bool,
    get_own_property: unsafe extern "C" fn(
        *mut RawJSContext,
        RawHandleObject,
        RawHandleId,
        RawMutableHandle<PropertyDescriptor>,
        *mut bool,
    ) -> bool,
    own_property_keys:
        unsafe extern "C" fn(*mut RawJSContext, RawHandleObject, RawMutableHandleIdVector) -> bool,
    throw_security_error: unsafe extern "C" fn(*mut RawJSContext, RawHandleId) -> bool,
}

unsafe extern "C" {
    fn jsprof_new_cross_origin_window_wrapper_handler(callbacks: *const Callbacks)
        -> *const c_void;
    fn jsprof_new_wrapper(
        cx: *mut RawJSContext,
        obj: RawHandleObject,
        handler: *const c_void,
    ) -> *mut JSObject;
}

static WRAP_CALLBACKS: JSWrapObjectCallbacks = JSWrapObjectCallbacks {
    wrap: Some(wrap),
    preWrap: Some(pre_wrap),
};

/// Sets up the context of an agent for WindowProxy objects: mozjs's
/// `WindowProxyClass` is the class SpiderMonkey recognises as a
/// WindowProxy, and the wrap callbacks below make every cross-compartment
/// wrapper.
pub(crate) fn install(cx: &mut JSContext) {
    // SAFETY: the live context of this thread; a static class and a static
    // table of plain functions.
    unsafe {
        SetWindowProxyClass(cx, mozjs::glue::GetWindowProxyClass());
        mozjs::rust::wrappers2::JS_SetWrapObjectCallbacks(cx, &WRAP_CALLBACKS);
    }
}

/// SpiderMonkey's wrap callback: the cross-compartment wrapper of `obj`
/// for the current compartment. A WindowProxy gets the handler that runs
/// HTML's cross-origin checks; anything else a transparent wrapper.
unsafe extern "C" fn wrap(
    cx: *mut RawJSContext,
    _existing: RawHandleObject,
    obj: RawHandleObject,
) -> *mut JSObject {
    // SAFETY: SpiderMonkey calls this with a live context and a rooted
    // object of another compartment.
    unsafe {
        let handler = if IsWindowProxy(obj.get()) {
            cross_origin_handler()
        } else {
            GetCrossCompartmentWrapper()
        };
        jsprof_new_wrapper(cx, obj, handler)
    }
}

/// SpiderMonkey's pre-wrap callback: a Window global is never handed to
/// another compartment, its WindowProxy is.
unsafe extern "C" fn pre_wrap(
    _cx: *mut RawJSContext,
    _scope: RawHandleObject,
    _orig_obj: RawHandleObject,
    obj: RawHandleObject,
    _object_passed_to_wrap: RawHandleObject,
    rval: RawMutableHandleObject,
) {
    // SAFETY: rooted handles SpiderMonkey passes; ToWindowProxyIfWindowSlow
    // takes a global (and answers the global itself when it has no
    // WindowProxy).
    unsafe {
        let object = obj.get();
        let outer = if JS_IsGlobalObject(object) {
            ToWindowProxyIfWindowSlow(object)
        } else {
            object
        };
        rval.set(outer);
    }
}

/// Gives the Window global `global` (the current realm's) its WindowProxy
/// (<https://html.spec.whatwg.org/multipage/document-sequences.html#creating-a-new-browsing-context>
/// step "Let windowProxy be a new WindowProxy... whose \[\[Window\]\] is
/// window"; here before any script of the realm runs).
pub(crate) fn attach_window_proxy(cx: &mut JSContext, global: HandleObject) -> Result<(), String> {
    // SAFETY: `global` is a rooted global of the current realm; the
    // handler lives for the process.
    unsafe {
        rooted!(&in(cx) let proxy = NewWindowProxy(cx, global, window_proxy_handler()));
        if proxy.get().is_null() {
            return Err("SpiderMonkey could not create a WindowProxy".to_owned());
        }
        SetWindowProxy(cx, global, proxy.handle());
    }
    Ok(())
}

/// The WindowProxy of the Window global `global` (its compartment's).
pub(crate) fn window_proxy_of_global(global: *mut JSObject) -> *mut JSObject {
    // SAFETY: `global` is a live global.
    unsafe { ToWindowProxyIfWindowSlow(global) }
}

/// A navigation replaced the Window of a browsing context by the new
/// global `new_global` (HTML's "set the active document" of a document
/// with a new Window, which sets the WindowProxy's \[\[Window\]\]): the
/// WindowProxy of `old_global` becomes the new Window's, so that every
/// other realm's reference to it reaches the new Window.
pub(crate) fn transplant_window_proxy(
    cx: &mut JSContext,
    old_global: *mut JSObject,
    new_global: NonNull<JSObject>,
) -> Result<(), String> {
    let mut realm = mozjs::realm::AutoRealm::new(cx, new_global);
    let cx = &mut *realm;
    rooted!(&in(cx) let old_proxy = window_proxy_of_global(old_global));
    rooted!(&in(cx) let new_proxy = window_proxy_of_global(new_global.as_ptr()));
    rooted!(&in(cx) let global = new_global.as_ptr());
    // SAFETY: rooted WindowProxy objects of the same class (each global's
    // own, made by attach_window_proxy), in the new global's realm.
    unsafe {
        if old_proxy.get() == old_global || new_proxy.get() == new_global.as_ptr() {
            return Err("a Window without a WindowProxy".to_owned());
        }
        rooted!(&in(cx) let identity = JS_TransplantObject(cx, old_proxy.handle(), new_proxy.handle()));
        if identity.get().is_null() {
            return Err("SpiderMonkey could not transplant a WindowProxy".to_owned());
        }
        // The object that now stands for the browsing context in the new
        // compartment is the new global's WindowProxy.
        SetWindowProxy(cx, global.handle(), identity.handle());
    }
    Ok(())
}

/// The child navigables of `navigable` in the order `frames[i]` uses.
fn child_navigables(navigable: NavigableId) -> Vec<NavigableId> {
    browsing_context::children_of(navigable)
}

/// The WindowProxy of navigable `id` as a value of the current
/// compartment (its wrapper there), or `null` if it has no active window.
fn window_proxy_value(cx: &mut JSContext, id: NavigableId) -> Result<JSVal, ()> {
    let Some(global) = browsing_context::global_of(id) else {
        return Ok(NullValue());
    };
    rooted!(&in(cx) let mut value = ObjectValue(window_proxy_of_global(global)));
    // SAFETY: a rooted value; wraps into the current compartment.
    if !unsafe { JS_WrapValue(cx, value.handle_mut()) } {
        return Err(());
    }
    Ok(value.get())
}
