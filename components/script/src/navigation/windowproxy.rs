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
//!   ([`window_of_window_proxy`]); a wrapper of another compartment is
//!   never unwrapped.
//!
//! # Not done
//! - The cross-origin `Location` object: `location` is a cross-origin
//!   property, but its getter and setter throw a "SecurityError" here
//!   (this shell navigates a document only to a fragment through
//!   `Location`).
//! - Named frames for a same-origin caller (`window.frameName`): Window
//!   has no named properties object (a cross-origin caller gets them,
//!   [[GetOwnProperty]] step 6).
//! - The [[CrossOriginPropertyDescriptorMap]] is keyed by (accessing
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

use std::ffi::{c_void, CString};
use std::ptr::{self, NonNull};
use std::sync::OnceLock;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::glue::{CreateWrapperProxyHandler, GetCrossCompartmentWrapper, ProxyTraps};
use mozjs::jsapi::{
    GetFunctionNativeReserved, IsWindowProxy, JSObject, JSWrapObjectCallbacks,
    JS_GetFunctionObject, JS_IsGlobalObject, PropertyDescriptor, PropertyKey,
    SetFunctionNativeReserved, SymbolCode, ToWindowIfWindowProxy, ToWindowProxyIfWindowSlow,
};
use mozjs::jsapi::{
    HandleId as RawHandleId, HandleObject as RawHandleObject, MutableHandle as RawMutableHandle,
    MutableHandleIdVector as RawMutableHandleIdVector,
    MutableHandleObject as RawMutableHandleObject,
};
use mozjs::jsapi::{JSErrNum, ObjectOpResult, JSITER_HIDDEN, JSITER_OWNONLY, JSITER_SYMBOLS};
use mozjs::jsval::{BooleanValue, Int32Value, JSVal, NullValue, ObjectValue, UInt32Value};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    AppendToIdVector, GetWellKnownSymbolKey, JS_AtomizeAndPinString, JS_IndexToId, JS_StringToId,
    JS_TransplantObject, JS_WrapValue, NewFunctionWithReserved, NewWindowProxy, SetWindowProxy,
    SetWindowProxyClass,
};
use mozjs::rust::wrappers2::{
    GetPropertyKeys, JS_DefinePropertyById, JS_DeletePropertyById, JS_ForwardGetPropertyTo,
    JS_ForwardSetPropertyTo, JS_GetOwnPropertyDescriptorById, JS_HasOwnPropertyById,
    JS_HasPropertyById,
};
use mozjs::rust::{Handle, HandleId, HandleObject, IdVector};

use crate::dom::bindings::conversions::{FromJsValue, RootedJsValue, USVString};
use crate::dom::bindings::error::{throw_dom_error, DomExceptionName, Error};
use crate::dom::bindings::native::{call_native, ReturnKind};
use crate::dom::bindings::proxyhandler::{
    array_index, data_descriptor, key_string, prevent_extensions, property_trap,
    return_own_property, trap,
};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;
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

static CALLBACKS: Callbacks = Callbacks {
    is_same_origin,
    get_own_property: cross_origin_get_own_property,
    own_property_keys: cross_origin_own_property_keys,
    throw_security_error,
};

/// The handler of the wrappers of WindowProxy objects (made once per
/// process, never freed).
fn cross_origin_handler() -> *const c_void {
    static HANDLER: OnceLock<usize> = OnceLock::new();
    // SAFETY: CALLBACKS is a static table of plain functions; the handler
    // copies it.
    *HANDLER.get_or_init(
        || unsafe { jsprof_new_cross_origin_window_wrapper_handler(&CALLBACKS) } as usize,
    ) as *const c_void
}

/// The handler of WindowProxy objects themselves: a `js::Wrapper` (every
/// internal method forwards to the Window, with the WindowProxy as the
/// receiver) except the ones HTML defines for array indices (the child
/// navigables' WindowProxy objects) and [[PreventExtensions]]
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-preventextensions>:
/// "Return false").
fn window_proxy_handler() -> *const c_void {
    static HANDLER: OnceLock<usize> = OnceLock::new();
    const TRAPS: ProxyTraps = ProxyTraps {
        enter: None,
        getOwnPropertyDescriptor: Some(proxy_get_own_property),
        defineProperty: Some(proxy_define_property),
        ownPropertyKeys: Some(proxy_own_property_keys),
        delete_: Some(proxy_delete),
        enumerate: Some(proxy_enumerate),
        getPrototypeIfOrdinary: None,
        getPrototype: None,
        setPrototype: None,
        setImmutablePrototype: None,
        preventExtensions: Some(prevent_extensions),
        isExtensible: None,
        has: Some(proxy_has),
        get: Some(proxy_get),
        set: Some(proxy_set),
        call: None,
        construct: None,
        hasOwn: Some(proxy_has_own),
        getOwnEnumerablePropertyKeys: Some(proxy_own_enumerable_keys),
        nativeCall: None,
        objectClassIs: None,
        className: None,
        fun_toString: None,
        boxedValue_unbox: None,
        defaultValue: None,
        trace: None,
        finalize: None,
        objectMoved: None,
        isCallable: None,
        isConstructor: None,
    };
    // SAFETY: TRAPS is a constant table of plain functions; the handler
    // copies it.
    *HANDLER.get_or_init(|| unsafe { CreateWrapperProxyHandler(&TRAPS) } as usize) as *const c_void
}

/// The Window behind the WindowProxy `proxy` (its [[Window]]), rooted.
///
/// # Safety
/// `proxy` must be a live WindowProxy.
unsafe fn window_of_proxy(proxy: *mut JSObject) -> Option<DomRoot<Window>> {
    // SAFETY: the caller's WindowProxy is alive; its [[Window]] is a
    // Window global of ours; the reference lives only until DomRoot roots
    // it.
    unsafe {
        let global = ToWindowIfWindowProxy(proxy);
        if global.is_null() || !JS_IsGlobalObject(global) {
            return None;
        }
        GlobalScope::from_global(global)
            .as_window()
            .map(DomRoot::from_ref)
    }
}

/// [[GetOwnProperty]] steps 2.1-2.4 for the WindowProxy `proxy` and array
/// index `index`: children[index]'s active WindowProxy (as a value of the
/// current compartment), where children are the document-tree child
/// navigables of W's associated Document in order; `None` if there is no
/// such child.
fn indexed_child(cx: &mut JSContext, proxy: HandleObject, index: u32) -> Result<Option<JSVal>, ()> {
    // SAFETY: the proxy is rooted by the caller.
    let Some(window) = (unsafe { window_of_proxy(proxy.get()) }) else {
        return Ok(None);
    };
    let navigable = window.navigable_id();
    if browsing_context::is_destroyed(navigable) {
        return Ok(None);
    }
    let Some(&child) = child_navigables(navigable).get(index as usize) else {
        return Ok(None);
    };
    let value = window_proxy_value(cx, child)?;
    Ok((!value.is_null()).then_some(value))
}

/// [`property_trap`] for the WindowProxy handler's trap of
/// `internal_method` (its name in panic reports).
///
/// # Safety
/// As [`property_trap`].
unsafe fn window_trap(
    cx: *mut RawJSContext,
    internal_method: &str,
    proxy: RawHandleObject,
    id: RawHandleId,
    body: impl FnOnce(&mut JSContext, HandleObject, HandleId) -> Result<(), ()>,
) -> bool {
    // SAFETY: this function's contract.
    unsafe {
        property_trap(
            cx,
            format_args!("{internal_method} of a WindowProxy"),
            proxy,
            id,
            body,
        )
    }
}

/// [`indexed_child`] if `id` is an array index, else `None`.
fn child_at_key(
    cx: &mut JSContext,
    proxy: HandleObject,
    id: HandleId,
) -> Result<Option<JSVal>, ()> {
    // SAFETY: a rooted id.
    match unsafe { array_index(cx, id) } {
        Some(index) => indexed_child(cx, proxy, index),
        None => Ok(None),
    }
}

/// The [[Window]] of the WindowProxy `proxy`, as a rooted-able pointer.
fn target_of(proxy: HandleObject) -> *mut JSObject {
    // SAFETY: the proxy is rooted by the caller.
    unsafe { ToWindowIfWindowProxy(proxy.get()) }
}

/// Runs `op`, a JSAPI call that returns false with an exception pending,
/// on the WindowProxy's [[Window]] (rooted for the call): the
/// `Ordinary...(W, ...)` step the same-origin traps end with.
fn on_window(
    cx: &mut JSContext,
    proxy: HandleObject,
    op: impl FnOnce(&mut JSContext, HandleObject) -> bool,
) -> Result<(), ()> {
    rooted!(&in(cx) let target = target_of(proxy));
    if op(cx, target.handle()) {
        Ok(())
    } else {
        Err(())
    }
}

/// The same-origin steps of [[DefineOwnProperty]] and [[Set]] of a
/// WindowProxy: "If P is an array index property name, return false"
/// (`result` fails), else `op` (the ordinary operation on W).
///
/// # Safety
/// `id` is rooted and `result` the trap's live result.
unsafe fn unless_array_index(
    cx: &mut JSContext,
    proxy: HandleObject,
    id: HandleId,
    result: *mut ObjectOpResult,
    op: impl FnOnce(&mut JSContext, HandleObject) -> bool,
) -> Result<(), ()> {
    // SAFETY: this function's contract.
    unsafe {
        if array_index(cx, id).is_some() {
            (*result).fail(JSErrNum::JSMSG_CANT_DEFINE_WINDOW_ELEMENT);
            return Ok(());
        }
    }
    on_window(cx, proxy, op)
}

/// [[GetOwnProperty]] of a WindowProxy, the steps for a same-origin
/// caller (the WindowProxy's own handler runs only for code of its own
/// realm; other realms go through [`wrap`]'s wrappers, which call this
/// when same origin)
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-getownproperty>).
unsafe extern "C" fn proxy_get_own_property(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    desc: RawMutableHandle<PropertyDescriptor>,
    is_none: *mut bool,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and live out-pointers.
    unsafe {
        window_trap(cx, "[[GetOwnProperty]]", proxy, id, |cx, proxy, id| {
            // Step 1: Let W be the value of the [[Window]] internal slot
            // of this.
            // Step 2: If P is an array index property name, then:
            if let Some(index) = array_index(cx, id) {
                // Steps 2.1-2.4: value is children[index]'s active
                // WindowProxy, if any.
                let value = indexed_child(cx, proxy, index)?;
                // Step 2.5.1: If value is undefined and
                // IsPlatformObjectSameOrigin(W) is true, then return
                // undefined.
                // Step 2.6: Return PropertyDescriptor{ [[Value]]: value,
                // [[Writable]]: false, [[Enumerable]]: true,
                // [[Configurable]]: true }.
                let found = value.map(|value| data_descriptor(value, false, true, true));
                return_own_property(desc, is_none, found);
                return Ok(());
            }
            // Step 3: If IsPlatformObjectSameOrigin(W) is true, then
            // return ! OrdinaryGetOwnProperty(W, P).
            on_window(cx, proxy, |cx, target| {
                JS_GetOwnPropertyDescriptorById(
                    cx,
                    target,
                    id,
                    mozjs::rust::MutableHandle::from_raw(desc),
                    is_none,
                )
            })
        })
    }
}

/// [[DefineOwnProperty]] of a WindowProxy, same origin
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-defineownproperty>).
unsafe extern "C" fn proxy_define_property(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    desc: mozjs::jsapi::Handle<PropertyDescriptor>,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and a live result.
    unsafe {
        window_trap(cx, "[[DefineOwnProperty]]", proxy, id, |cx, proxy, id| {
            // Step 1: Let W be the value of the [[Window]] internal slot
            // of this.
            // Step 2: If IsPlatformObjectSameOrigin(W) is true, then:
            // Step 2.1: If P is an array index property name, return
            // false.
            // Step 2.2: Return ? OrdinaryDefineOwnProperty(W, P, Desc).
            unless_array_index(cx, proxy, id, result, |cx, target| {
                JS_DefinePropertyById(cx, target, id, Handle::from_raw(desc), result)
            })
        })
    }
}

/// [[Delete]] of a WindowProxy, same origin
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-delete>).
unsafe extern "C" fn proxy_delete(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and a live result.
    unsafe {
        window_trap(cx, "[[Delete]]", proxy, id, |cx, proxy, id| {
            // Step 1: Let W be the value of the [[Window]] internal slot
            // of this.
            // Step 2: If IsPlatformObjectSameOrigin(W) is true, then:
            // Step 2.1: If P is an array index property name, then:
            if let Some(index) = array_index(cx, id) {
                // Step 2.1.1: Let desc be ! this.[[GetOwnProperty]](P).
                // Step 2.1.2: If desc is undefined, then return true.
                if indexed_child(cx, proxy, index)?.is_none() {
                    (*result).succeed();
                    return Ok(());
                }
                // Step 2.1.3: Return false.
                (*result).fail(JSErrNum::JSMSG_CANT_DELETE_WINDOW_ELEMENT);
                return Ok(());
            }
            // Step 2.2: Return ? OrdinaryDelete(W, P).
            on_window(cx, proxy, |cx, target| {
                JS_DeletePropertyById(cx, target, id, result)
            })
        })
    }
}

/// [[OwnPropertyKeys]] of a WindowProxy, same origin
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-ownpropertykeys>).
unsafe extern "C" fn proxy_own_property_keys(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    props: RawMutableHandleIdVector,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles.
    unsafe {
        trap(cx, "[[OwnPropertyKeys]] of a WindowProxy", |cx| {
            let proxy = Handle::from_raw(proxy);
            // Step 1: Let W be the value of the [[Window]] internal slot
            // of this.
            // Step 2: Let maxProperties be W's associated Document's
            // document-tree child navigables's size.
            // Step 3: Let keys be the range 0 to maxProperties, exclusive.
            // Step 4: If IsPlatformObjectSameOrigin(W) is true, then
            // return the concatenation of keys and
            // OrdinaryOwnPropertyKeys(W).
            append_window_keys(
                cx,
                proxy,
                JSITER_OWNONLY | JSITER_HIDDEN | JSITER_SYMBOLS,
                props,
            )
        })
    }
}

/// Appends to `props` the array indices of the WindowProxy `proxy`'s
/// child navigables (all enumerable), then the keys of its Window that
/// `GetPropertyKeys` gives with `flags` (W has no array index keys of its
/// own).
///
/// # Safety
/// `props` is the vector SpiderMonkey passed to the trap.
unsafe fn append_window_keys(
    cx: &mut JSContext,
    proxy: HandleObject,
    flags: u32,
    props: RawMutableHandleIdVector,
) -> Result<(), ()> {
    // SAFETY: the proxy is rooted by the caller; `props` is live.
    unsafe {
        let Some(window) = window_of_proxy(proxy.get()) else {
            return Ok(());
        };
        append_indices(cx, window.length(), props)?;
        rooted!(&in(cx) let mut id = mozjs::jsid::VoidId());
        rooted!(&in(cx) let target = target_of(proxy));
        let mut own = IdVector::new(cx);
        if !GetPropertyKeys(cx, target.handle(), flags, own.handle_mut()) {
            return Err(());
        }
        for key in own.iter() {
            id.set(*key);
            if !AppendToIdVector(props, id.handle()) {
                return Err(());
            }
        }
        Ok(())
    }
}

/// Appends the array indices 0 to `count`, exclusive, to `props` (the
/// keys of a WindowProxy's child navigables).
///
/// # Safety
/// `props` is the vector SpiderMonkey passed to the trap.
unsafe fn append_indices(
    cx: &mut JSContext,
    count: u32,
    props: RawMutableHandleIdVector,
) -> Result<(), ()> {
    rooted!(&in(cx) let mut id = mozjs::jsid::VoidId());
    for index in 0..count {
        // SAFETY: a rooted id; `props` is live (this function's contract).
        if unsafe {
            !JS_IndexToId(cx, index, id.handle_mut()) || !AppendToIdVector(props, id.handle())
        } {
            return Err(());
        }
    }
    Ok(())
}

/// The enumerable own keys of a WindowProxy (`Object.keys`): the ordinary
/// filter of [[OwnPropertyKeys]] by [[GetOwnProperty]]'s [[Enumerable]]
/// (the child navigables' indices are enumerable, step 2.6).
unsafe extern "C" fn proxy_own_enumerable_keys(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    props: RawMutableHandleIdVector,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles.
    unsafe {
        trap(cx, "the enumerable keys of a WindowProxy", |cx| {
            let proxy = Handle::from_raw(proxy);
            append_window_keys(cx, proxy, JSITER_OWNONLY | JSITER_SYMBOLS, props)
        })
    }
}

/// The keys `for-in` visits on a WindowProxy
/// (<https://tc39.es/ecma262/#sec-enumerate-object-properties>): its own
/// enumerable keys (the indices first), then those of W's prototype chain.
unsafe extern "C" fn proxy_enumerate(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    props: RawMutableHandleIdVector,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles.
    unsafe {
        trap(cx, "for-in over a WindowProxy", |cx| {
            let proxy = Handle::from_raw(proxy);
            append_window_keys(cx, proxy, 0, props)
        })
    }
}

/// [[HasProperty]] of a WindowProxy: the ordinary one
/// (<https://tc39.es/ecma262/#sec-ordinaryhasproperty>) on its
/// [[GetOwnProperty]] (the child navigables for array indices, W's own
/// properties otherwise) and W's prototype chain.
unsafe extern "C" fn proxy_has(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    bp: *mut bool,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and a live out-pointer.
    unsafe {
        window_trap(cx, "[[HasProperty]]", proxy, id, |cx, proxy, id| {
            if child_at_key(cx, proxy, id)?.is_some() {
                *bp = true;
                return Ok(());
            }
            on_window(cx, proxy, |cx, target| {
                JS_HasPropertyById(cx, target, id, bp)
            })
        })
    }
}

/// Whether the WindowProxy has an own property: [[GetOwnProperty]] is not
/// undefined.
unsafe extern "C" fn proxy_has_own(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    bp: *mut bool,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and a live out-pointer.
    unsafe {
        window_trap(cx, "[[GetOwnProperty]]", proxy, id, |cx, proxy, id| {
            if let Some(index) = array_index(cx, id) {
                *bp = indexed_child(cx, proxy, index)?.is_some();
                return Ok(());
            }
            on_window(cx, proxy, |cx, target| {
                JS_HasOwnPropertyById(cx, target, id, bp)
            })
        })
    }
}

/// [[Get]] of a WindowProxy, same origin
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-get>).
unsafe extern "C" fn proxy_get(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    receiver: mozjs::jsapi::HandleValue,
    id: RawHandleId,
    vp: mozjs::jsapi::MutableHandleValue,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles.
    unsafe {
        window_trap(cx, "[[Get]]", proxy, id, |cx, proxy, id| {
            // Step 1: Let W be the value of the [[Window]] internal slot
            // of this.
            // Step 3: If IsPlatformObjectSameOrigin(W) is true, then
            // return ? OrdinaryGet(this, P, Receiver): this's own property
            // (a child navigable's WindowProxy for an array index, else
            // W's), else W's prototype chain, which is what getting P from
            // W with Receiver does once the index case is answered.
            if let Some(value) = child_at_key(cx, proxy, id)? {
                *vp.ptr = value;
                return Ok(());
            }
            on_window(cx, proxy, |cx, target| {
                JS_ForwardGetPropertyTo(
                    cx,
                    target,
                    id,
                    Handle::from_raw(receiver),
                    mozjs::rust::MutableHandle::from_raw(vp),
                )
            })
        })
    }
}

/// [[Set]] of a WindowProxy, same origin
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-set>).
unsafe extern "C" fn proxy_set(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    v: mozjs::jsapi::HandleValue,
    receiver: mozjs::jsapi::HandleValue,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and a live result.
    unsafe {
        window_trap(cx, "[[Set]]", proxy, id, |cx, proxy, id| {
            // Step 1: Let W be the value of the [[Window]] internal slot
            // of this.
            // Step 3: If IsPlatformObjectSameOrigin(W) is true, then:
            // Step 3.1: If P is an array index property name, then return
            // false.
            // Step 3.2: Return ? OrdinarySet(W, P, V, Receiver).
            unless_array_index(cx, proxy, id, result, |cx, target| {
                JS_ForwardSetPropertyTo(
                    cx,
                    target,
                    id,
                    Handle::from_raw(v),
                    Handle::from_raw(receiver),
                    result,
                )
            })
        })
    }
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
/// step "Let windowProxy be a new WindowProxy... whose [[Window]] is
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
/// with a new Window, which sets the WindowProxy's [[Window]]): the
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

/// The `Window` that the WindowProxy wrapper `wrapper` (made by [`wrap`])
/// stands for: the wrapped WindowProxy's current [[Window]], rooted.
///
/// # Safety
/// `wrapper` must be a live object.
unsafe fn target_window(wrapper: *mut JSObject) -> Option<DomRoot<Window>> {
    // SAFETY: the caller's wrapper is alive; its target is a WindowProxy
    // whose [[Window]] is a Window global of ours.
    unsafe {
        let proxy = mozjs::glue::UncheckedUnwrapObject(wrapper, true);
        if proxy.is_null() || !IsWindowProxy(proxy) {
            return None;
        }
        let global = ToWindowIfWindowProxy(proxy);
        if global.is_null() || !JS_IsGlobalObject(global) {
            return None;
        }
        GlobalScope::from_global(global)
            .as_window()
            .map(DomRoot::from_ref)
    }
}

/// The accessing window: the current realm's global, rooted.
fn current_window(cx: &JSContext) -> Option<DomRoot<Window>> {
    // SAFETY: the current global is alive during the call; the reference
    // lives only until DomRoot roots it.
    unsafe { GlobalScope::current(cx) }
        .and_then(|g| g.as_window())
        .map(DomRoot::from_ref)
}

/// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#isplatformobjectsameorigin-(-o-)>
/// for the Window `target`: "Return true if the current settings object's
/// origin is same origin-domain with O's relevant settings object's
/// origin, and false otherwise." (`document.domain` is not supported, so
/// same origin-domain is same origin.)
fn is_platform_object_same_origin(cx: &JSContext, target: &Window) -> bool {
    match current_window(cx) {
        Some(current) => current.origin().same_origin(&target.origin()),
        None => false,
    }
}

unsafe extern "C" fn is_same_origin(cx: *mut RawJSContext, wrapper: *mut JSObject) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a trap gets the only live context of its thread; the wrapper
    // is live during the trap.
    unsafe {
        let cx = JSContext::from_ptr(raw);
        target_window(wrapper).is_some_and(|w| is_platform_object_same_origin(&cx, &w))
    }
}

/// A "SecurityError" DOMException for a cross-origin access to `what`.
fn security_error(what: &str) -> Error {
    Error::dom_with_message(
        DomExceptionName::SecurityError,
        format!("Blocked a cross-origin access to property \"{what}\" of a WindowProxy"),
    )
}

unsafe extern "C" fn throw_security_error(cx: *mut RawJSContext, id: RawHandleId) -> bool {
    // SAFETY: the id is rooted by the caller.
    unsafe {
        trap(cx, "a cross-origin WindowProxy access", |cx| {
            let id = Handle::from_raw(id);
            let what = if id.get().asBits_ == mozjs::jsid::VoidId().asBits_ {
                "(a built-in)".to_owned()
            } else {
                key_string(cx, id).unwrap_or_else(|| "(a symbol)".to_owned())
            };
            throw_dom_error(cx, security_error(&what));
            Err(())
        });
    }
    false
}

/// An entry of CrossOriginProperties(O) for a Window
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginproperties-(-o-)>,
/// step 3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CrossOriginKind {
    /// An operation (no [[NeedsGet]] / [[NeedsSet]]), with its length.
    Method(u32),
    /// An attribute: [[NeedsGet]] true, [[NeedsSet]] as given.
    Attribute { needs_set: bool },
}

/// CrossOriginProperties(O) for a Window, step 3: « { [[Property]]:
/// "window", [[NeedsGet]]: true, [[NeedsSet]]: false }, { "self" }, {
/// "location", [[NeedsGet]]: true, [[NeedsSet]]: true }, { "close" }, {
/// "closed", [[NeedsGet]]: true, [[NeedsSet]]: false }, { "focus" }, {
/// "blur" }, { "frames" }, { "length" }, { "top" }, { "opener" }, {
/// "parent" }, { "postMessage" } ».
const CROSS_ORIGIN_PROPERTIES: [(&str, CrossOriginKind); 13] = [
    ("window", CrossOriginKind::Attribute { needs_set: false }),
    ("self", CrossOriginKind::Attribute { needs_set: false }),
    ("location", CrossOriginKind::Attribute { needs_set: true }),
    ("close", CrossOriginKind::Method(0)),
    ("closed", CrossOriginKind::Attribute { needs_set: false }),
    ("focus", CrossOriginKind::Method(0)),
    ("blur", CrossOriginKind::Method(0)),
    ("frames", CrossOriginKind::Attribute { needs_set: false }),
    ("length", CrossOriginKind::Attribute { needs_set: false }),
    ("top", CrossOriginKind::Attribute { needs_set: false }),
    ("opener", CrossOriginKind::Attribute { needs_set: false }),
    ("parent", CrossOriginKind::Attribute { needs_set: false }),
    ("postMessage", CrossOriginKind::Method(1)),
];

/// Which function of a cross-origin property: the operation, the getter
/// or the setter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CrossOriginFunction {
    Value = 0,
    Getter = 1,
    Setter = 2,
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

/// [[GetOwnProperty]] of a WindowProxy, the steps that apply when
/// IsPlatformObjectSameOrigin(W) is false
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-getownproperty>).
unsafe extern "C" fn cross_origin_get_own_property(
    cx: *mut RawJSContext,
    wrapper: RawHandleObject,
    id: RawHandleId,
    desc: RawMutableHandle<PropertyDescriptor>,
    is_none: *mut bool,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles and live out-pointers.
    unsafe {
        trap(
            cx,
            "[[GetOwnProperty]] of a cross-origin WindowProxy",
            |cx| {
                let wrapper = Handle::from_raw(wrapper);
                let id = Handle::from_raw(id);
                return_own_property(
                    desc,
                    is_none,
                    cross_origin_get_own_property_steps(cx, wrapper, id)?,
                );
                Ok(())
            },
        )
    }
}

fn cross_origin_get_own_property_steps(
    cx: &mut JSContext,
    wrapper: HandleObject,
    id: HandleId,
) -> Result<Option<PropertyDescriptor>, ()> {
    // Step 1: Let W be the value of the [[Window]] internal slot of this.
    // SAFETY: the wrapper is live during the trap.
    let Some(window) = (unsafe { target_window(wrapper.get()) }) else {
        throw_dom_error(cx, security_error("(a window that is gone)"));
        return Err(());
    };
    let navigable = window.navigable_id();
    // Step 2: If P is an array index property name, then:
    // SAFETY: a rooted id.
    if let Some(index) = unsafe { array_index(cx, id) } {
        // Step 2.1: Let index be ! ToUint32(P).
        // Step 2.2: Let children be the document-tree child navigables of
        // W's associated Document.
        let children = if browsing_context::is_destroyed(navigable) {
            Vec::new()
        } else {
            child_navigables(navigable)
        };
        // Step 2.3: Let value be undefined.
        // Step 2.4: If index is less than children's size, then: sort
        // children in order of their containers' insertion, and let value
        // be children[index]'s active WindowProxy.
        let value = match children.get(index as usize) {
            Some(&child) => window_proxy_value(cx, child)?,
            None => NullValue(),
        };
        // Step 2.5: If value is undefined, then: (2.5.1: same origin is
        // handled by the wrapper) 2.5.2: Throw a "SecurityError"
        // DOMException.
        if value.is_null() {
            throw_dom_error(cx, security_error(&index.to_string()));
            return Err(());
        }
        // Step 2.6: Return PropertyDescriptor{ [[Value]]: value,
        // [[Writable]]: false, [[Enumerable]]: true, [[Configurable]]:
        // true }.
        return Ok(Some(data_descriptor(value, false, true, true)));
    }
    // Step 3: If IsPlatformObjectSameOrigin(W) is true, then return !
    // OrdinaryGetOwnProperty(W, P). (The wrapper's same-origin branch.)
    // Step 4: Let property be CrossOriginGetOwnPropertyHelper(W, P).
    // Step 5: If property is not undefined, then return property.
    if let Some(property) = cross_origin_get_own_property_helper(cx, wrapper, navigable, id)? {
        return Ok(Some(property));
    }
    // Step 6: If property is undefined and P is in W's document-tree child
    // navigable target name property set, then:
    // SAFETY: a rooted id.
    if let Some(name) = unsafe { key_string(cx, id) } {
        if !name.is_empty() && !browsing_context::is_destroyed(navigable) {
            // Step 6.1: Let value be the active WindowProxy of the named
            // object of W with the name P.
            let named = child_navigables(navigable).into_iter().find(|&child| {
                browsing_context::container_of(child)
                    .and_then(|c| c.element().get_attribute("name"))
                    .is_some_and(|n| *n == *name)
            });
            if let Some(child) = named {
                let value = window_proxy_value(cx, child)?;
                // Step 6.2: Return PropertyDescriptor{ [[Value]]: value,
                // [[Enumerable]]: false, [[Writable]]: false,
                // [[Configurable]]: true }.
                return Ok(Some(data_descriptor(value, false, false, true)));
            }
        }
    }
    // Step 7: Return ? CrossOriginPropertyFallback(P).
    cross_origin_property_fallback(cx, id).map(Some)
}

/// Whether `id` is one of the keys CrossOriginPropertyFallback allows
/// («"then", @@toStringTag, @@hasInstance, @@isConcatSpreadable»).
fn is_fallback_key(cx: &mut JSContext, id: HandleId) -> bool {
    // SAFETY: a rooted id.
    if unsafe { key_string(cx, id) }.is_some_and(|s| s == "then") {
        return true;
    }
    FALLBACK_SYMBOLS.iter().any(|&code| {
        // SAFETY: the live context.
        let key = unsafe { GetWellKnownSymbolKey(cx, code) };
        key.asBits_ == id.get().asBits_
    })
}

const FALLBACK_SYMBOLS: [SymbolCode; 3] = [
    SymbolCode::toStringTag,
    SymbolCode::hasInstance,
    SymbolCode::isConcatSpreadable,
];

/// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginpropertyfallback-(-p-)>
fn cross_origin_property_fallback(
    cx: &mut JSContext,
    id: HandleId,
) -> Result<PropertyDescriptor, ()> {
    // Step 1: If P is "then", @@toStringTag, @@hasInstance, or
    // @@isConcatSpreadable, then return PropertyDescriptor{ [[Value]]:
    // undefined, [[Writable]]: false, [[Enumerable]]: false,
    // [[Configurable]]: true }.
    if is_fallback_key(cx, id) {
        return Ok(data_descriptor(
            mozjs::jsval::UndefinedValue(),
            false,
            false,
            true,
        ));
    }
    // Step 2: Throw a "SecurityError" DOMException.
    // SAFETY: a rooted id.
    let what = unsafe { key_string(cx, id) }.unwrap_or_else(|| "(a symbol)".to_owned());
    throw_dom_error(cx, security_error(&what));
    Err(())
}

/// <https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossorigingetownpropertyhelper-(-o,-p-)>
/// for the Window of navigable `navigable`, seen through `wrapper` (its
/// WindowProxy's wrapper in the current realm).
fn cross_origin_get_own_property_helper(
    cx: &mut JSContext,
    wrapper: HandleObject,
    navigable: NavigableId,
    id: HandleId,
) -> Result<Option<PropertyDescriptor>, ()> {
    // SAFETY: a rooted id.
    let Some(name) = (unsafe { key_string(cx, id) }) else {
        return Ok(None);
    };
    // Step 1: Let crossOriginKey be a tuple consisting of the current
    // settings object, O's relevant settings object, and P. (The cache is
    // the current window's, keyed by O's navigable and P.)
    // Step 2: For each e of CrossOriginProperties(O):
    let Some(index) = CROSS_ORIGIN_PROPERTIES.iter().position(|(p, _)| *p == name) else {
        // Step 3: Return undefined.
        return Ok(None);
    };
    // Step 2.1: If SameValue(e.[[Property]], P) is true, then:
    let kind = CROSS_ORIGIN_PROPERTIES[index].1;
    // Step 2.1.1: If the value of the [[CrossOriginPropertyDescriptorMap]]
    // internal slot of O contains an entry whose key is crossOriginKey,
    // then return that entry's value. (Each function below is cached, so
    // the descriptor made from them is the same.)
    // Step 2.1.2: Let originalDesc be OrdinaryGetOwnProperty(O, P).
    // Step 2.1.3: Let crossOriginDesc be undefined.
    let desc = match kind {
        // Step 2.1.4: If e.[[NeedsGet]] and e.[[NeedsSet]] are absent,
        // then: Let value be originalDesc.[[Value]]; if IsCallable(value)
        // is true, then set value to an anonymous built-in function,
        // created in the current realm, that performs the same steps as
        // the IDL operation P on object O. Set crossOriginDesc to
        // PropertyDescriptor{ [[Value]]: value, [[Enumerable]]: false,
        // [[Writable]]: false, [[Configurable]]: true }.
        CrossOriginKind::Method(_) => {
            let value =
                cross_origin_function(cx, wrapper, navigable, index, CrossOriginFunction::Value)?;
            data_descriptor(ObjectValue(value), false, false, true)
        }
        // Step 2.1.5: Otherwise: Let crossOriginGet be undefined. If
        // e.[[NeedsGet]] is true, then set crossOriginGet to an anonymous
        // built-in function, created in the current realm, that performs
        // the same steps as the getter of the IDL attribute P on object O.
        // Let crossOriginSet be undefined. If e.[[NeedsSet]] is true, then
        // set crossOriginSet to an anonymous built-in function, created in
        // the current realm, that performs the same steps as the setter of
        // the IDL attribute P on object O. Set crossOriginDesc to
        // PropertyDescriptor{ [[Get]]: crossOriginGet, [[Set]]:
        // crossOriginSet, [[Enumerable]]: false, [[Configurable]]: true }.
        CrossOriginKind::Attribute { needs_set } => {
            let getter =
                cross_origin_function(cx, wrapper, navigable, index, CrossOriginFunction::Getter)?;
            let setter = if needs_set {
                cross_origin_function(cx, wrapper, navigable, index, CrossOriginFunction::Setter)?
            } else {
                ptr::null_mut()
            };
            accessor_descriptor(getter, setter)
        }
    };
    // Step 2.1.6: Create an entry in the value of the
    // [[CrossOriginPropertyDescriptorMap]] internal slot of O with key
    // crossOriginKey and value crossOriginDesc.
    // Step 2.1.7: Return crossOriginDesc.
    Ok(Some(desc))
}

/// An accessor property descriptor, not enumerable, configurable.
fn accessor_descriptor(getter: *mut JSObject, setter: *mut JSObject) -> PropertyDescriptor {
    let mut desc = PropertyDescriptor {
        getter_: getter,
        setter_: setter,
        ..Default::default()
    };
    desc.set_hasGetter_(true);
    desc.set_hasSetter_(true);
    desc.set_hasEnumerable_(true);
    desc.set_enumerable_(false);
    desc.set_hasConfigurable_(true);
    desc.set_configurable_(true);
    desc
}

/// Reserved slots of the cross-origin built-in functions.
const SLOT_PROPERTY: usize = 0;
const SLOT_TARGET: usize = 1;

/// The built-in function of the current realm for cross-origin property
/// `index` of the window of `navigable` (its operation, getter or
/// setter), made on first use and then kept by the current window, so
/// that a property gives the same function every time. The function is
/// bound to O (`wrapper`, the WindowProxy's wrapper in the current realm,
/// kept in a reserved slot), not to its `this` value.
fn cross_origin_function(
    cx: &mut JSContext,
    wrapper: HandleObject,
    navigable: NavigableId,
    index: usize,
    which: CrossOriginFunction,
) -> Result<*mut JSObject, ()> {
    let Some(current) = current_window(cx) else {
        throw_dom_error(cx, security_error(CROSS_ORIGIN_PROPERTIES[index].0));
        return Err(());
    };
    if let Some(function) = current.cross_origin_function(navigable, index, which) {
        return Ok(function);
    }
    let (property, kind) = CROSS_ORIGIN_PROPERTIES[index];
    let (name, length) = match (which, kind) {
        (CrossOriginFunction::Value, CrossOriginKind::Method(length)) => {
            (property.to_owned(), length)
        }
        (CrossOriginFunction::Setter, _) => (format!("set {property}"), 1),
        _ => (format!("get {property}"), 0),
    };
    let name = CString::new(name).unwrap_or_default();
    // SAFETY: the live context in the current realm; the new function is
    // rooted before the next allocation, its slots set before use.
    unsafe {
        let function =
            NewFunctionWithReserved(cx, Some(cross_origin_native), length, 0, name.as_ptr());
        if function.is_null() {
            return Err(());
        }
        rooted!(&in(cx) let object = JS_GetFunctionObject(function));
        let property_value = Int32Value((index * 4 + which as usize) as i32);
        SetFunctionNativeReserved(object.get(), SLOT_PROPERTY, &property_value);
        let target = ObjectValue(wrapper.get());
        SetFunctionNativeReserved(object.get(), SLOT_TARGET, &target);
        current.set_cross_origin_function(navigable, index, which, object.get());
        Ok(object.get())
    }
}

/// The steps of a cross-origin built-in function: those of the IDL
/// operation, getter or setter it stands for, on the window its
/// [`SLOT_TARGET`] wrapper reaches.
unsafe extern "C" fn cross_origin_native(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
    // SAFETY: SpiderMonkey calls a native with a live context and `argc`
    // values at `vp`; the callee is one of the functions made by
    // cross_origin_function, whose slots hold an int and an object.
    unsafe {
        let callee = mozjs::jsapi::CallArgs::from_vp(vp, argc).callee();
        let property = *GetFunctionNativeReserved(callee, SLOT_PROPERTY);
        let target = *GetFunctionNativeReserved(callee, SLOT_TARGET);
        call_native(
            cx,
            argc,
            vp,
            "a cross-origin WindowProxy function",
            ReturnKind::Value,
            |cx, args| {
                if !property.is_int32() || !target.is_object() {
                    return Err(());
                }
                let property = property.to_int32() as usize;
                let (index, which) = (property / 4, property % 4);
                let name = CROSS_ORIGIN_PROPERTIES
                    .get(index)
                    .map(|(p, _)| *p)
                    .unwrap_or_default();
                rooted!(&in(cx) let wrapper = target.to_object());
                let Some(window) = target_window(wrapper.get()) else {
                    throw_dom_error(cx, security_error(name));
                    return Err(());
                };
                let navigable = window.navigable_id();
                let mut rval = args.rval();
                // (The return value slot holds the callee until set.)
                rval.set(mozjs::jsval::UndefinedValue());
                match (name, which) {
                    // <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-window>,
                    // #dom-self, #dom-frames: "return this's relevant realm's
                    // WindowProxy" (its wrapper here).
                    ("window" | "self" | "frames", 1) => rval.set(ObjectValue(wrapper.get())),
                    ("closed", 1) => rval.set(BooleanValue(window.closed())),
                    ("length", 1) => rval.set(UInt32Value(window.length())),
                    ("top", 1) => rval.set(match window.top_navigable() {
                        Some(top) => window_proxy_value(cx, top)?,
                        None => NullValue(),
                    }),
                    ("parent", 1) => rval.set(match window.parent_navigable() {
                        Some(parent) => window_proxy_value(cx, parent)?,
                        None => NullValue(),
                    }),
                    // <https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-opener>:
                    // "If this's browsing context's opener browsing context
                    // is null, then return null": this shell has no
                    // auxiliary browsing contexts (no `window.open`).
                    ("opener", 1) => rval.set(NullValue()),
                    ("close", 0) => window.close_steps(),
                    ("focus", 0) => window.focus_steps(cx),
                    // <https://html.spec.whatwg.org/multipage/interaction.html#dom-window-blur>:
                    // "The blur() method steps are to do nothing."
                    ("blur", 0) => {}
                    ("postMessage", 0) => {
                        let message =
                            RootedJsValue::from_js(cx, args.get(0), ()).map_err(|_| ())?;
                        let target_origin = USVString::from_js(cx, args.get(1), ())?;
                        if let Err(error) = crate::dom::globals::window::window_post_message_steps(
                            cx,
                            navigable,
                            &message,
                            &target_origin.0,
                        ) {
                            throw_dom_error(cx, error);
                            return Err(());
                        }
                    }
                    // The cross-origin Location object is not implemented.
                    ("location", _) => {
                        throw_dom_error(
                        cx,
                        Error::dom_with_message(
                            DomExceptionName::SecurityError,
                            "Blocked a cross-origin access to \"location\": cross-origin Location objects are not implemented",
                        ),
                    );
                        return Err(());
                    }
                    _ => {
                        throw_dom_error(cx, security_error(name));
                        return Err(());
                    }
                }
                Ok(())
            },
        )
    }
}

/// [[OwnPropertyKeys]] of a WindowProxy when IsPlatformObjectSameOrigin(W)
/// is false
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-ownpropertykeys>).
unsafe extern "C" fn cross_origin_own_property_keys(
    cx: *mut RawJSContext,
    wrapper: RawHandleObject,
    props: RawMutableHandleIdVector,
) -> bool {
    // SAFETY: SpiderMonkey passes rooted handles.
    unsafe {
        trap(
            cx,
            "[[OwnPropertyKeys]] of a cross-origin WindowProxy",
            |cx| {
                // Step 1: Let W be the value of the [[Window]] internal slot of
                // this.
                let Some(window) = target_window(wrapper.get()) else {
                    return Ok(());
                };
                // Step 2: Let maxProperties be W's associated Document's
                // document-tree child navigables's size.
                let max_properties = window.length();
                // Step 3: Let keys be the range 0 to maxProperties, exclusive.
                append_indices(cx, max_properties, props)?;
                rooted!(&in(cx) let mut id = mozjs::jsid::VoidId());
                // Step 5 (cross origin): Return the concatenation of keys and
                // ! CrossOriginOwnPropertyKeys(W).
                // https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginownpropertykeys-(-o-)
                // Step 1: Let keys be a new empty List. Step 2: For each e of
                // CrossOriginProperties(O), append e.[[Property]] to keys.
                // Step 3: Return the concatenation of keys and « "then",
                // @@toStringTag, @@hasInstance, @@isConcatSpreadable ».
                let names = CROSS_ORIGIN_PROPERTIES
                    .iter()
                    .map(|(p, _)| *p)
                    .chain(["then"]);
                for name in names {
                    let name = CString::new(name).unwrap_or_default();
                    rooted!(&in(cx) let string = JS_AtomizeAndPinString(cx, name.as_ptr()));
                    if string.get().is_null()
                        || !JS_StringToId(cx, string.handle(), id.handle_mut())
                        || !AppendToIdVector(props, id.handle())
                    {
                        return Err(());
                    }
                }
                for code in FALLBACK_SYMBOLS {
                    let key: PropertyKey = GetWellKnownSymbolKey(cx, code);
                    id.set(key);
                    if !AppendToIdVector(props, id.handle()) {
                        return Err(());
                    }
                }
                Ok(())
            },
        )
    }
}
