//! The proxy handler of WindowProxy objects
//! (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-windowproxy-exotic-object>):
//! a `js::Wrapper` of the Window, with HTML's own traps for array indices
//! (the child navigables' WindowProxy objects), `[[DefineOwnProperty]]`,
//! `[[Delete]]`, `[[OwnPropertyKeys]]`, `[[HasProperty]]`, `[[Get]]`,
//! `[[Set]]` and `[[PreventExtensions]]`: the steps that apply when the
//! access is same origin.

use std::ffi::c_void;
use std::sync::OnceLock;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::glue::{CreateWrapperProxyHandler, ProxyTraps};
use mozjs::jsapi::{
    HandleId as RawHandleId, HandleObject as RawHandleObject, MutableHandle as RawMutableHandle,
    MutableHandleIdVector as RawMutableHandleIdVector,
};
use mozjs::jsapi::{JSErrNum, ObjectOpResult, JSITER_HIDDEN, JSITER_OWNONLY, JSITER_SYMBOLS};
use mozjs::jsapi::{JSObject, JS_IsGlobalObject, PropertyDescriptor, ToWindowIfWindowProxy};
use mozjs::jsval::JSVal;
use mozjs::rooted;
use mozjs::rust::wrappers2::{AppendToIdVector, JS_IndexToId};
use mozjs::rust::wrappers2::{
    GetPropertyKeys, JS_DefinePropertyById, JS_DeletePropertyById, JS_ForwardGetPropertyTo,
    JS_ForwardSetPropertyTo, JS_GetOwnPropertyDescriptorById, JS_HasOwnPropertyById,
    JS_HasPropertyById,
};
use mozjs::rust::{Handle, HandleId, HandleObject, IdVector};

use super::{child_navigables, window_proxy_value};
use crate::dom::bindings::proxyhandler::{
    array_index, data_descriptor, prevent_extensions, property_trap, return_own_property, trap,
};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;
use crate::navigation::browsing_context::{self};

/// The handler of WindowProxy objects themselves: a `js::Wrapper` (every
/// internal method forwards to the Window, with the WindowProxy as the
/// receiver) except the ones HTML defines for array indices (the child
/// navigables' WindowProxy objects) and \[\[PreventExtensions]]
/// (<https://html.spec.whatwg.org/multipage/nav-history-apis.html#windowproxy-preventextensions>:
/// "Return false").
pub(super) fn window_proxy_handler() -> *const c_void {
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

/// The Window behind the WindowProxy `proxy` (its \[\[Window]]), rooted.
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

/// \[\[GetOwnProperty]] steps 2.1-2.4 for the WindowProxy `proxy` and array
/// index `index`: children\[index]'s active WindowProxy (as a value of the
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

/// The \[\[Window]] of the WindowProxy `proxy`, as a rooted-able pointer.
fn target_of(proxy: HandleObject) -> *mut JSObject {
    // SAFETY: the proxy is rooted by the caller.
    unsafe { ToWindowIfWindowProxy(proxy.get()) }
}

/// Runs `op`, a JSAPI call that returns false with an exception pending,
/// on the WindowProxy's \[\[Window]] (rooted for the call): the
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

/// The same-origin steps of \[\[DefineOwnProperty]] and \[\[Set]] of a
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

/// \[\[GetOwnProperty]] of a WindowProxy, the steps for a same-origin
/// caller (the WindowProxy's own handler runs only for code of its own
/// realm; other realms go through [`wrap`](super::wrap)'s wrappers, which call this
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

/// \[\[DefineOwnProperty]] of a WindowProxy, same origin
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

/// \[\[Delete]] of a WindowProxy, same origin
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

/// \[\[OwnPropertyKeys]] of a WindowProxy, same origin
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
pub(super) unsafe fn append_indices(
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
/// filter of \[\[OwnPropertyKeys]] by \[\[GetOwnProperty]]'s \[\[Enumerable]]
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

/// \[\[HasProperty]] of a WindowProxy: the ordinary one
/// (<https://tc39.es/ecma262/#sec-ordinaryhasproperty>) on its
/// \[\[GetOwnProperty]] (the child navigables for array indices, W's own
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

/// Whether the WindowProxy has an own property: \[\[GetOwnProperty]] is not
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

/// \[\[Get]] of a WindowProxy, same origin
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

/// \[\[Set]] of a WindowProxy, same origin
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
