//! The cross-origin side of WindowProxy objects: the handler of their
//! cross-compartment wrappers (`windowproxy_glue.cpp` calls back into
//! here), IsPlatformObjectSameOrigin, CrossOriginProperties(O), the
//! cross-origin `[[GetOwnProperty]]` and `[[OwnPropertyKeys]]` steps,
//! and the "SecurityError" DOMException for everything else.

use std::ffi::{c_void, CString};
use std::ptr::{self, NonNull};
use std::sync::OnceLock;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsapi::{
    HandleId as RawHandleId, HandleObject as RawHandleObject, MutableHandle as RawMutableHandle,
    MutableHandleIdVector as RawMutableHandleIdVector,
};
use mozjs::jsapi::{
    IsWindowProxy, JSObject, JS_IsGlobalObject, PropertyDescriptor, PropertyKey, SymbolCode,
    ToWindowIfWindowProxy,
};
use mozjs::jsval::{NullValue, ObjectValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    AppendToIdVector, GetWellKnownSymbolKey, JS_AtomizeAndPinString, JS_StringToId,
};
use mozjs::rust::{Handle, HandleId, HandleObject};

use super::cross_origin_functions::cross_origin_function;
use super::handler::append_indices;
use super::{
    child_navigables, jsprof_new_cross_origin_window_wrapper_handler, window_proxy_value, Callbacks,
};
use crate::dom::bindings::error::{throw_dom_error, DomExceptionName, Error};
use crate::dom::bindings::proxyhandler::{
    array_index, data_descriptor, key_string, return_own_property, trap,
};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::window::Window;
use crate::navigation::browsing_context::{self, NavigableId};

static CALLBACKS: Callbacks = Callbacks {
    is_same_origin,
    get_own_property: cross_origin_get_own_property,
    own_property_keys: cross_origin_own_property_keys,
    throw_security_error,
};

/// The handler of the wrappers of WindowProxy objects (made once per
/// process, never freed).
pub(super) fn cross_origin_handler() -> *const c_void {
    static HANDLER: OnceLock<usize> = OnceLock::new();
    // SAFETY: CALLBACKS is a static table of plain functions; the handler
    // copies it.
    *HANDLER.get_or_init(
        || unsafe { jsprof_new_cross_origin_window_wrapper_handler(&CALLBACKS) } as usize,
    ) as *const c_void
}

/// The `Window` that the WindowProxy wrapper `wrapper` (made by [`wrap`](super::wrap))
/// stands for: the wrapped WindowProxy's current \[\[Window]], rooted.
///
/// # Safety
/// `wrapper` must be a live object.
pub(super) unsafe fn target_window(wrapper: *mut JSObject) -> Option<DomRoot<Window>> {
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
pub(super) fn current_window(cx: &JSContext) -> Option<DomRoot<Window>> {
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

pub(super) unsafe extern "C" fn is_same_origin(
    cx: *mut RawJSContext,
    wrapper: *mut JSObject,
) -> bool {
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
pub(super) fn security_error(what: &str) -> Error {
    Error::dom_with_message(
        DomExceptionName::SecurityError,
        format!("Blocked a cross-origin access to property \"{what}\" of a WindowProxy"),
    )
}

pub(super) unsafe extern "C" fn throw_security_error(
    cx: *mut RawJSContext,
    id: RawHandleId,
) -> bool {
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
pub(super) enum CrossOriginKind {
    /// An operation (no \[\[NeedsGet]] / \[\[NeedsSet]]), with its length.
    Method(u32),
    /// An attribute: \[\[NeedsGet]] true, \[\[NeedsSet]] as given.
    Attribute { needs_set: bool },
}

/// CrossOriginProperties(O) for a Window, step 3: « { \[\[Property]]:
/// "window", \[\[NeedsGet]]: true, \[\[NeedsSet]]: false }, { "self" }, {
/// "location", \[\[NeedsGet]]: true, \[\[NeedsSet]]: true }, { "close" }, {
/// "closed", \[\[NeedsGet]]: true, \[\[NeedsSet]]: false }, { "focus" }, {
/// "blur" }, { "frames" }, { "length" }, { "top" }, { "opener" }, {
/// "parent" }, { "postMessage" } ».
pub(super) const CROSS_ORIGIN_PROPERTIES: [(&str, CrossOriginKind); 13] = [
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

/// \[\[GetOwnProperty]] of a WindowProxy, the steps that apply when
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

/// \[\[OwnPropertyKeys]] of a WindowProxy when IsPlatformObjectSameOrigin(W)
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
