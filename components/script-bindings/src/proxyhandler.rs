//! Legacy platform objects (<https://webidl.spec.whatwg.org/#es-legacy-platform-objects>):
//! the reflectors of interfaces with indexed or named property getters
//! (`NodeList`, `HTMLCollection`, `DOMTokenList`, `Storage`,
//! `DOMStringMap`) are SpiderMonkey proxies whose handler implements the
//! internal methods WebIDL §3.9 overrides: \[\[GetOwnProperty]],
//! \[\[Set]], \[\[DefineOwnProperty]], \[\[Delete]], \[\[PreventExtensions]] and
//! \[\[OwnPropertyKeys]]. \[\[HasProperty]] and \[\[Get]] are the ordinary ones,
//! which SpiderMonkey's base handler builds from \[\[GetOwnProperty]] and the
//! prototype.
//!
//! Layout of such a reflector: proxy reserved slot [`DOM_OBJECT_SLOT`]
//! holds the `Box<T>` (as for ordinary reflectors), and the proxy's
//! private value holds the *expando object*: a plain object, created on
//! first use, that stores the object's ordinary own properties (those
//! script defines, and `[LegacyUnforgeable]` attributes), so that
//! "OrdinaryGetOwnProperty(O, P)" and friends are operations on it.
//!
//! One handler per interface (made once per process by
//! [`ProxyHandlerCell::get`]); its "extra" pointer is the interface's
//! [`DOMClass`], which is how [`crate::reflector::dom_class_of`]
//! recognises these proxies (no other code in the process creates proxy
//! handlers of the mozjs glue's `BaseProxyHandler` family).

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::OnceLock;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::conversions::jsstr_to_string;
use mozjs::glue::{
    CreateProxyHandler, GetProxyPrivate, GetProxyReservedSlot, ProxyTraps, SetProxyPrivate,
};
use mozjs::jsapi::{
    GCContext, GetStaticPrototype, JSErrNum, JSObject, JSTracer, JS_GetStringLength,
    ObjectOpResult, PropertyDescriptor, JSITER_HIDDEN, JSITER_OWNONLY, JSITER_SYMBOLS,
};
use mozjs::jsapi::{
    Handle as RawHandle, HandleId as RawHandleId, HandleObject as RawHandleObject,
    HandleValue as RawHandleValue, MutableHandle as RawMutableHandle,
    MutableHandleIdVector as RawMutableHandleIdVector,
    MutableHandleObject as RawMutableHandleObject,
};
use mozjs::jsid::VoidId;
use mozjs::jsval::{ObjectValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    AppendToIdVector, GetPropertyKeys, JS_DefinePropertyById, JS_DeletePropertyById,
    JS_GetOwnPropertyDescriptorById, JS_GetPrototype, JS_GetStringCharAt, JS_HasPropertyById,
    JS_IndexToId, JS_NewPlainObject, JS_ValueToId, SetPropertyIgnoringNamedGetter,
    RUST_JSID_IS_INT, RUST_JSID_IS_STRING, RUST_JSID_TO_INT, RUST_JSID_TO_STRING,
};
use mozjs::rust::{Handle, HandleId, HandleObject, HandleValue, IdVector, MutableHandleValue};

use crate::conversions::ToJsValue;
use crate::native::to_cstring;
use crate::reflector::{DOMClass, DomObjectIface, DOM_OBJECT_SLOT};

/// Which special operations and related extended attributes an interface
/// has (<https://webidl.spec.whatwg.org/#idl-special-operations>).
#[derive(Clone, Copy, Debug, Default)]
pub struct Specials {
    pub indexed_getter: bool,
    pub indexed_setter: bool,
    pub named_getter: bool,
    pub named_setter: bool,
    pub named_deleter: bool,
    /// `[LegacyOverrideBuiltIns]`.
    pub override_builtins: bool,
    /// `[LegacyUnenumerableNamedProperties]`.
    pub unenumerable_named_properties: bool,
}

/// What the generated code implements for an interface whose objects are
/// legacy platform objects: the special operations, calling the DOM
/// struct's `*Methods` trait. Every method that may run script returns
/// `Err(())` with an exception pending on failure.
pub trait LegacyPlatformObject: DomObjectIface {
    const SPECIALS: Specials;

    /// The indexed property getter's steps for a supported property index:
    /// `Ok(true)` with the value in `rval`, `Ok(false)` if `index` is not a
    /// supported property index.
    unsafe fn indexed_get(
        &self,
        _cx: &mut JSContext,
        _index: u32,
        _rval: MutableHandleValue,
    ) -> Result<bool, ()> {
        Ok(false)
    }

    /// The supported property indices are `0..supported_index_count()`.
    fn supported_index_count(&self, _cx: &mut JSContext) -> u32 {
        0
    }

    /// The indexed property setter's steps.
    unsafe fn indexed_set(
        &self,
        _cx: &mut JSContext,
        _index: u32,
        _value: HandleValue,
    ) -> Result<(), ()> {
        Ok(())
    }

    /// The named property getter's steps for a supported property name:
    /// `Ok(true)` with the value in `rval`, `Ok(false)` if `name` is not a
    /// supported property name.
    unsafe fn named_get(
        &self,
        _cx: &mut JSContext,
        _name: &str,
        _rval: MutableHandleValue,
    ) -> Result<bool, ()> {
        Ok(false)
    }

    /// The supported property names, in the interface's order.
    fn supported_property_names(&self, _cx: &mut JSContext) -> Vec<String> {
        Vec::new()
    }

    /// The named property setter's steps.
    unsafe fn named_set(
        &self,
        _cx: &mut JSContext,
        _name: &str,
        _value: HandleValue,
    ) -> Result<(), ()> {
        Ok(())
    }

    /// The named property deleter's steps: `Ok(false)` if the operation
    /// was declared returning `boolean` and returned false.
    unsafe fn named_delete(&self, _cx: &mut JSContext, _name: &str) -> Result<bool, ()> {
        Ok(true)
    }
}

/// The traps of `T`'s proxy handler.
pub const fn proxy_traps<T: LegacyPlatformObject>() -> ProxyTraps {
    ProxyTraps {
        enter: None,
        getOwnPropertyDescriptor: Some(get_own_property_descriptor::<T>),
        defineProperty: Some(define_property::<T>),
        ownPropertyKeys: Some(own_property_keys::<T>),
        delete_: Some(delete::<T>),
        enumerate: None,
        getPrototypeIfOrdinary: Some(get_prototype_if_ordinary),
        getPrototype: None,
        setPrototype: None,
        setImmutablePrototype: None,
        preventExtensions: Some(prevent_extensions),
        isExtensible: Some(is_extensible),
        has: None,
        get: None,
        set: Some(set::<T>),
        call: None,
        construct: None,
        hasOwn: None,
        getOwnEnumerablePropertyKeys: None,
        nativeCall: None,
        objectClassIs: None,
        className: Some(class_name::<T>),
        fun_toString: None,
        boxedValue_unbox: None,
        defaultValue: None,
        trace: Some(trace::<T>),
        finalize: Some(finalize::<T>),
        objectMoved: None,
        isCallable: None,
        isConstructor: None,
    }
}

/// The process-wide proxy handler of one interface.
pub struct ProxyHandlerCell(OnceLock<usize>);

impl ProxyHandlerCell {
    pub const fn new() -> Self {
        ProxyHandlerCell(OnceLock::new())
    }

    /// The handler, created on first use; it lives as long as the process
    /// (SpiderMonkey keeps pointers to it in every proxy).
    pub fn get(&self, traps: &'static ProxyTraps, class: &'static DOMClass) -> *const c_void {
        *self.0.get_or_init(|| {
            // SAFETY: `traps` and `class` are statics; the handler copies
            // the traps and keeps `class` as its extra pointer.
            unsafe { CreateProxyHandler(traps, class as *const DOMClass as *const c_void) as usize }
        }) as *const c_void
    }
}

impl Default for ProxyHandlerCell {
    fn default() -> Self {
        Self::new()
    }
}

/// The DOM struct behind a legacy platform object.
///
/// # Safety
/// `proxy` is a live reflector of `T` (a proxy with `T`'s handler); the
/// reference is valid while it lives.
unsafe fn native<'a, T: LegacyPlatformObject>(proxy: *mut JSObject) -> Option<&'a T> {
    let mut value = UndefinedValue();
    // SAFETY: `proxy` is a live proxy reflector (this function's contract),
    // which has DOM_OBJECT_SLOT; `value` is a local out-parameter.
    unsafe { GetProxyReservedSlot(proxy, DOM_OBJECT_SLOT, &mut value) };
    if value.is_undefined() {
        return None;
    }
    // SAFETY: only `T`'s handler calls these traps, and slot 0 of its
    // proxies holds the `Box<T>` (see `reflector::create_reflector`).
    Some(unsafe { &*(value.to_private() as *const T) })
}

/// The expando object holding the ordinary own properties (null if none
/// yet).
fn expando(proxy: *mut JSObject) -> *mut JSObject {
    let mut value = UndefinedValue();
    // SAFETY: `proxy` is a live proxy.
    unsafe { GetProxyPrivate(proxy, &mut value) };
    if value.is_object() {
        value.to_object()
    } else {
        ptr::null_mut()
    }
}

/// The expando object, created if missing.
fn ensure_expando(cx: &mut JSContext, proxy: HandleObject) -> Result<*mut JSObject, ()> {
    let existing = expando(proxy.get());
    if !existing.is_null() {
        return Ok(existing);
    }
    // SAFETY: `cx` is this thread's live context; the new object is stored
    // in the proxy's private slot (traced) before anything can GC.
    let object = unsafe { JS_NewPlainObject(cx) };
    if object.is_null() {
        return Err(());
    }
    let value = ObjectValue(object);
    // SAFETY: the private slot of a live proxy, traced by the engine.
    unsafe { SetProxyPrivate(proxy.get(), &value) };
    Ok(object)
}

/// Runs a trap's body with a safe context, turning a panic into an
/// `InternalError`.
pub unsafe fn trap(
    cx: *mut RawJSContext,
    what: impl std::fmt::Display,
    body: impl FnOnce(&mut JSContext) -> Result<(), ()>,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a trap gets the only live context of its thread.
    let mut cx = unsafe { JSContext::from_ptr(raw) };
    match catch_unwind(AssertUnwindSafe(|| body(&mut cx))) {
        Ok(result) => result.is_ok(),
        Err(_) => {
            let message = format!("internal error in {what} (a Rust panic)");
            mozjs::error::throw_internal_error(&mut cx, &to_cstring(&message));
            false
        }
    }
}

/// [`trap`] for a trap that SpiderMonkey calls with a proxy and a property
/// key: `body` gets them as handles.
///
/// # Safety
/// As [`trap`]; `proxy` and `id` are handles SpiderMonkey roots for the
/// call.
pub unsafe fn property_trap(
    cx: *mut RawJSContext,
    what: impl std::fmt::Display,
    proxy: RawHandleObject,
    id: RawHandleId,
    body: impl FnOnce(&mut JSContext, HandleObject, HandleId) -> Result<(), ()>,
) -> bool {
    // SAFETY: this function's contract: rooted handles for the call.
    unsafe {
        trap(cx, what, |cx| {
            body(cx, Handle::from_raw(proxy), Handle::from_raw(id))
        })
    }
}

/// Writes the answer of a \[\[GetOwnProperty]] trap to its out-parameters:
/// the descriptor `found`, or "undefined" (`is_none`).
///
/// # Safety
/// `desc` and `is_none` are the trap's live out-parameters.
pub unsafe fn return_own_property(
    desc: RawMutableHandle<PropertyDescriptor>,
    is_none: *mut bool,
    found: Option<PropertyDescriptor>,
) {
    // SAFETY: this function's contract.
    unsafe {
        match found {
            Some(d) => {
                *desc.ptr = d;
                *is_none = false;
            }
            None => *is_none = true,
        }
    }
}

/// A property key that is an array index
/// (<https://tc39.es/ecma262/#array-index>): its value.
///
/// # Safety
/// `id` is a rooted key and `cx` this thread's live context.
pub unsafe fn array_index(cx: &mut JSContext, id: HandleId) -> Option<u32> {
    // SAFETY: `id` is a rooted key (this function's contract), which keeps its
    // string alive through these reads; `cx` is this thread's live context.
    unsafe {
        if RUST_JSID_IS_INT(id) {
            // Int keys are the array indices up to 2^31 - 1.
            return u32::try_from(RUST_JSID_TO_INT(id)).ok();
        }
        if !RUST_JSID_IS_STRING(id) {
            return None;
        }
        let string = RUST_JSID_TO_STRING(id);
        // Larger indices are strings of at most 10 digits (checked without
        // copying the string: most keys are names).
        let length = JS_GetStringLength(string);
        if length == 0 || length > 10 {
            return None;
        }
        let mut first = 0u16;
        if !JS_GetStringCharAt(cx, string, 0, &mut first)
            || !(b'1' as u16..=b'9' as u16).contains(&first)
        {
            return None;
        }
        let s = jsstr_to_string(cx, NonNull::new(string)?);
        let canonical = !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s == "0" || !s.starts_with('0'));
        // An array index is below 2^32 - 1.
        s.parse::<u64>()
            .ok()
            .filter(|i| canonical && *i < u32::MAX as u64)
            .map(|i| i as u32)
    }
}

/// The property key as a string, or `None` for a symbol.
///
/// # Safety
/// `id` is a rooted key and `cx` this thread's live context.
pub unsafe fn key_string(cx: &mut JSContext, id: HandleId) -> Option<String> {
    // SAFETY: `id` is a rooted key (this function's contract), which keeps its
    // string alive; `cx` is this thread's live context.
    unsafe {
        if RUST_JSID_IS_INT(id) {
            return Some(RUST_JSID_TO_INT(id).to_string());
        }
        if RUST_JSID_IS_STRING(id) {
            return Some(jsstr_to_string(cx, NonNull::new(RUST_JSID_TO_STRING(id))?));
        }
        None
    }
}

/// A data property descriptor.
pub fn data_descriptor(
    value: mozjs::jsval::JSVal,
    writable: bool,
    enumerable: bool,
    configurable: bool,
) -> PropertyDescriptor {
    let mut desc = PropertyDescriptor {
        value_: value,
        ..Default::default()
    };
    desc.set_hasValue_(true);
    desc.set_hasWritable_(true);
    desc.set_writable_(writable);
    desc.set_hasEnumerable_(true);
    desc.set_enumerable_(enumerable);
    desc.set_hasConfigurable_(true);
    desc.set_configurable_(configurable);
    desc
}

/// Whether `proxy` has an own (ordinary) property `id`.
///
/// # Safety
/// `proxy` is a live legacy platform object.
unsafe fn has_own_ordinary(
    cx: &mut JSContext,
    proxy: HandleObject,
    id: HandleId,
) -> Result<bool, ()> {
    rooted!(&in(cx) let expando = expando(proxy.get()));
    if expando.get().is_null() {
        return Ok(false);
    }
    rooted!(&in(cx) let mut desc = PropertyDescriptor::default());
    let mut is_none = true;
    // SAFETY: `expando` is rooted and non-null (checked above); `id` is
    // rooted and `desc` is rooted.
    if !unsafe {
        JS_GetOwnPropertyDescriptorById(cx, expando.handle(), id, desc.handle_mut(), &mut is_none)
    } {
        return Err(());
    }
    Ok(!is_none)
}

/// The named property visibility algorithm
/// (<https://webidl.spec.whatwg.org/#dfn-named-property-visibility>).
///
/// # Safety
/// `proxy` is a live legacy platform object and `this` its DOM struct.
unsafe fn named_property_visible<T: LegacyPlatformObject>(
    cx: &mut JSContext,
    proxy: HandleObject,
    this: &T,
    id: HandleId,
    name: &str,
    known_supported: bool,
) -> Result<bool, ()> {
    // Step 1: If P is not a supported property name of O, then return false
    // (the caller may know it is one).
    if !known_supported && !this.supported_property_names(cx).iter().any(|n| n == name) {
        return Ok(false);
    }
    // Step 2: If O has an own property named P, then return false.
    // SAFETY: `proxy` and `id` are the rooted handles of the calling trap.
    if unsafe { has_own_ordinary(cx, proxy, id) }? {
        return Ok(false);
    }
    // Step 3: If O implements an interface that has the
    // [LegacyOverrideBuiltIns] extended attribute, then return true.
    if T::SPECIALS.override_builtins {
        return Ok(true);
    }
    // Steps 4-5: walk the prototype chain; a prototype with an own
    // property named P hides the named property (no named properties
    // objects here: those are for [Global] interfaces).
    rooted!(&in(cx) let mut prototype = ptr::null_mut::<JSObject>());
    // SAFETY: `proxy` is rooted and `prototype` is rooted.
    if !unsafe { JS_GetPrototype(cx, proxy, prototype.handle_mut()) } {
        return Err(());
    }
    if prototype.get().is_null() {
        return Ok(true);
    }
    let mut found = false;
    // SAFETY: `prototype` is rooted and non-null (checked above), `id` is
    // rooted; `found` is a local out-parameter.
    if !unsafe { JS_HasPropertyById(cx, prototype.handle(), id, &mut found) } {
        return Err(());
    }
    // Step 6: Return true.
    Ok(!found)
}

/// LegacyPlatformObjectGetOwnProperty
/// (<https://webidl.spec.whatwg.org/#LegacyPlatformObjectGetOwnProperty>):
/// `Ok(None)` when O has no such property.
///
/// # Safety
/// `proxy` is a rooted reflector of `T`.
unsafe fn legacy_get_own_property<T: LegacyPlatformObject>(
    cx: &mut JSContext,
    proxy: HandleObject,
    id: HandleId,
    mut ignore_named_props: bool,
) -> Result<Option<PropertyDescriptor>, ()> {
    // SAFETY: `proxy` is a rooted reflector of `T` (this function's
    // contract); the box it owns outlives this call, since `proxy` stays rooted.
    let this = unsafe { native::<T>(proxy.get()) }.ok_or(())?;
    // Step 1: If O supports indexed properties and P is an array index:
    if T::SPECIALS.indexed_getter {
        // SAFETY: `id` is the calling trap's rooted key.
        if let Some(index) = unsafe { array_index(cx, id) } {
            // Step 1.1-1.2: If index is a supported property index, the
            // value from the indexed property getter, in a descriptor
            // {writable: has an indexed setter, enumerable: true,
            // configurable: true}.
            rooted!(&in(cx) let mut value = UndefinedValue());
            // SAFETY: `value` is rooted.
            if unsafe { this.indexed_get(cx, index, value.handle_mut()) }? {
                return Ok(Some(data_descriptor(
                    value.get(),
                    T::SPECIALS.indexed_setter,
                    true,
                    true,
                )));
            }
            // Step 1.3: Set ignoreNamedProps to true.
            ignore_named_props = true;
        }
    }
    // Step 2: If O supports named properties and ignoreNamedProps is
    // false:
    if T::SPECIALS.named_getter && !ignore_named_props {
        // SAFETY: `id` is the calling trap's rooted key.
        if let Some(name) = unsafe { key_string(cx, id) } {
            // Step 2.1: the named property visibility algorithm (a name
            // the getter has a value for is a supported property name).
            rooted!(&in(cx) let mut value = UndefinedValue());
            // SAFETY: `value` is rooted and `this` is `proxy`'s box.
            if unsafe { this.named_get(cx, &name, value.handle_mut()) }?
                // SAFETY: `proxy` and `id` are the calling trap's rooted
                // handles and `this` is `proxy`'s box.
                && unsafe { named_property_visible(cx, proxy, this, id, &name, true) }?
            {
                // Steps 2.1.4-2.1.8: {writable: has a named setter,
                // enumerable: not [LegacyUnenumerableNamedProperties],
                // configurable: true}.
                return Ok(Some(data_descriptor(
                    value.get(),
                    T::SPECIALS.named_setter,
                    !T::SPECIALS.unenumerable_named_properties,
                    true,
                )));
            }
        }
    }
    // Step 3: Return OrdinaryGetOwnProperty(O, P).
    rooted!(&in(cx) let expando = expando(proxy.get()));
    if expando.get().is_null() {
        return Ok(None);
    }
    rooted!(&in(cx) let mut desc = PropertyDescriptor::default());
    let mut is_none = true;
    // SAFETY: `expando` is rooted and non-null (checked above); `id` and
    // `desc` are rooted.
    if !unsafe {
        JS_GetOwnPropertyDescriptorById(cx, expando.handle(), id, desc.handle_mut(), &mut is_none)
    } {
        return Err(());
    }
    Ok((!is_none).then(|| desc.get()))
}

/// \[\[GetOwnProperty]] (<https://webidl.spec.whatwg.org/#legacy-platform-object-getownproperty>):
/// Return ? LegacyPlatformObjectGetOwnProperty(O, P, false).
unsafe extern "C" fn get_own_property_descriptor<T: LegacyPlatformObject>(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    desc: RawMutableHandle<PropertyDescriptor>,
    is_none: *mut bool,
) -> bool {
    // SAFETY: SpiderMonkey calls this trap of `T`'s handler (only `T`'s handler
    // has it, so `proxy` is one of `T`'s reflectors) on its live context, with
    // handles it roots and out-pointers valid for the call.
    unsafe {
        property_trap(cx, "[[GetOwnProperty]]", proxy, id, |cx, proxy, id| {
            return_own_property(
                desc,
                is_none,
                legacy_get_own_property::<T>(cx, proxy, id, false)?,
            );
            Ok(())
        })
    }
}

/// Whether a descriptor is a data descriptor
/// (<https://tc39.es/ecma262/#sec-isdatadescriptor>).
fn is_data_descriptor(desc: &PropertyDescriptor) -> bool {
    desc.hasValue_() || desc.hasWritable_()
}

/// \[\[DefineOwnProperty]] (<https://webidl.spec.whatwg.org/#legacy-platform-object-defineownproperty>).
unsafe extern "C" fn define_property<T: LegacyPlatformObject>(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    desc: RawHandle<PropertyDescriptor>,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey calls this trap of `T`'s handler (only `T`'s handler
    // has it, so `proxy` is one of `T`'s reflectors) on its live context, with
    // handles it roots and out-pointers valid for the call.
    unsafe {
        property_trap(cx, "[[DefineOwnProperty]]", proxy, id, |cx, proxy, id| {
            let desc: HandleDescriptor = Handle::from_raw(desc);
            let result = &mut *result;
            let this = native::<T>(proxy.get()).ok_or(())?;
            // Step 1: If O supports indexed properties and P is an array
            // index:
            if T::SPECIALS.indexed_getter {
                if let Some(index) = array_index(cx, id) {
                    // Step 1.1: If IsDataDescriptor(Desc) is false, return
                    // false.
                    // Step 1.2: If O does not implement an interface with
                    // an indexed property setter, return false.
                    if !is_data_descriptor(&desc.get()) || !T::SPECIALS.indexed_setter {
                        result.fail(JSErrNum::JSMSG_NO_INDEXED_SETTER);
                        return Ok(());
                    }
                    // Step 1.3: Invoke the indexed property setter with P
                    // and Desc.[[Value]].
                    rooted!(&in(cx) let value = desc.get().value_);
                    this.indexed_set(cx, index, value.handle())?;
                    // Step 1.4: Return true.
                    result.succeed();
                    return Ok(());
                }
            }
            // Step 2: If O supports named properties, O does not implement
            // an interface with [Global], P is a String, and P is not an
            // unforgeable property name of O:
            if T::SPECIALS.named_getter {
                if let Some(name) = key_string(cx, id) {
                    if !is_unforgeable_name::<T>(&name) {
                        // Step 2.1: creating is true iff P is not a
                        // supported property name.
                        let creating = !this.supported_property_names(cx).contains(&name);
                        // Step 2.2: If O implements an interface with
                        // [LegacyOverrideBuiltIns] or O does not have an own
                        // property named P:
                        if T::SPECIALS.override_builtins || !has_own_ordinary(cx, proxy, id)? {
                            // Step 2.2.1: If creating is false and O does
                            // not implement an interface with a named
                            // property setter, then return false.
                            if !creating && !T::SPECIALS.named_setter {
                                result.fail(JSErrNum::JSMSG_NO_NAMED_SETTER);
                                return Ok(());
                            }
                            // Step 2.2.2: If O implements an interface with
                            // a named property setter:
                            if T::SPECIALS.named_setter {
                                // Step 2.2.2.1: If IsDataDescriptor(Desc) is
                                // false, return false.
                                if !is_data_descriptor(&desc.get()) {
                                    result.fail(JSErrNum::JSMSG_NO_NAMED_SETTER);
                                    return Ok(());
                                }
                                // Step 2.2.2.2: Invoke the named property
                                // setter with P and Desc.[[Value]].
                                rooted!(&in(cx) let value = desc.get().value_);
                                this.named_set(cx, &name, value.handle())?;
                                // Step 2.2.2.3: Return true.
                                result.succeed();
                                return Ok(());
                            }
                        }
                    }
                }
            }
            // Step 3: Return ! OrdinaryDefineOwnProperty(O, P, Desc).
            rooted!(&in(cx) let expando = ensure_expando(cx, proxy)?);
            if !JS_DefinePropertyById(cx, expando.handle(), id, desc, result) {
                return Err(());
            }
            Ok(())
        })
    }
}

type HandleDescriptor<'a> = Handle<'a, PropertyDescriptor>;

/// Whether `name` is an unforgeable property name of `T`'s objects (a
/// `[LegacyUnforgeable]` attribute of the interface or an ancestor).
fn is_unforgeable_name<T: DomObjectIface>(name: &str) -> bool {
    T::dom_class()
        .dom_class
        .unforgeable_attributes
        .iter()
        .filter_map(|spec| {
            // SAFETY: the specs' names are static C strings (the last
            // spec, the terminator, has none).
            let pointer = unsafe { spec.name.string_ };
            // SAFETY: `pointer` is non-null (checked first) and a static C string.
            (!pointer.is_null()).then(|| unsafe { CStr::from_ptr(pointer) })
        })
        .any(|n| n.to_bytes() == name.as_bytes())
}

/// \[\[Delete]] (<https://webidl.spec.whatwg.org/#legacy-platform-object-delete>).
unsafe extern "C" fn delete<T: LegacyPlatformObject>(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey calls this trap of `T`'s handler (only `T`'s handler
    // has it, so `proxy` is one of `T`'s reflectors) on its live context, with
    // handles it roots and out-pointers valid for the call.
    unsafe {
        property_trap(cx, "[[Delete]]", proxy, id, |cx, proxy, id| {
            let result = &mut *result;
            let this = native::<T>(proxy.get()).ok_or(())?;
            // Step 1: If O supports indexed properties and P is an array
            // index:
            if T::SPECIALS.indexed_getter {
                if let Some(index) = array_index(cx, id) {
                    // Step 1.2: If index is not a supported property index,
                    // return true; Step 1.3: return false.
                    if index < this.supported_index_count(cx) {
                        result.fail(JSErrNum::JSMSG_CANT_DELETE);
                    } else {
                        result.succeed();
                    }
                    return Ok(());
                }
            }
            // Step 2: If O supports named properties, O does not implement
            // an interface with [Global], and the named property
            // visibility algorithm with P and O returns true:
            if T::SPECIALS.named_getter {
                if let Some(name) = key_string(cx, id) {
                    if named_property_visible(cx, proxy, this, id, &name, false)? {
                        // Step 2.1: If O does not implement an interface
                        // with a named property deleter, return false.
                        if !T::SPECIALS.named_deleter {
                            result.fail(JSErrNum::JSMSG_CANT_DELETE);
                            return Ok(());
                        }
                        // Steps 2.2-2.4: perform the deleter's steps; if it
                        // was declared returning boolean and returned
                        // false, return false.
                        if this.named_delete(cx, &name)? {
                            result.succeed();
                        } else {
                            result.fail(JSErrNum::JSMSG_CANT_DELETE);
                        }
                        // Step 2.5: Return true.
                        return Ok(());
                    }
                }
            }
            // Step 3: If O has an own property with name P: if it is not
            // configurable, return false; otherwise remove it.
            // Step 4: Return true.
            rooted!(&in(cx) let expando = expando(proxy.get()));
            if expando.get().is_null() {
                result.succeed();
                return Ok(());
            }
            if !JS_DeletePropertyById(cx, expando.handle(), id, result) {
                return Err(());
            }
            Ok(())
        })
    }
}

/// \[\[OwnPropertyKeys]] (<https://webidl.spec.whatwg.org/#legacy-platform-object-ownpropertykeys>).
unsafe extern "C" fn own_property_keys<T: LegacyPlatformObject>(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    props: RawMutableHandleIdVector,
) -> bool {
    // SAFETY: SpiderMonkey calls this trap of `T`'s handler (only `T`'s handler
    // has it, so `proxy` is one of `T`'s reflectors) on its live context, with
    // handles it roots and out-pointers valid for the call.
    unsafe {
        trap(cx, "[[OwnPropertyKeys]]", |cx| {
            let proxy = Handle::from_raw(proxy);
            let this = native::<T>(proxy.get()).ok_or(())?;
            rooted!(&in(cx) let mut id = VoidId());
            // Step 2: If O supports indexed properties, then for each index
            // of O's supported property indices, in ascending numerical
            // order, append ! ToString(index) to keys.
            if T::SPECIALS.indexed_getter {
                for index in 0..this.supported_index_count(cx) {
                    if !JS_IndexToId(cx, index, id.handle_mut()) {
                        return Err(());
                    }
                    if !AppendToIdVector(props, id.handle()) {
                        return Err(());
                    }
                }
            }
            // Step 3: If O supports named properties, then for each P of
            // O's supported property names that is visible according to
            // the named property visibility algorithm, append P to keys.
            if T::SPECIALS.named_getter {
                rooted!(&in(cx) let mut value = UndefinedValue());
                for name in this.supported_property_names(cx) {
                    name.to_js(cx, value.handle_mut());
                    if !JS_ValueToId(cx, value.handle(), id.handle_mut()) {
                        return Err(());
                    }
                    // Indices of an interface with both kinds are listed
                    // above.
                    if T::SPECIALS.indexed_getter && array_index(cx, id.handle()).is_some() {
                        continue;
                    }
                    if named_property_visible(cx, proxy, this, id.handle(), &name, true)?
                        && !AppendToIdVector(props, id.handle())
                    {
                        return Err(());
                    }
                }
            }
            // Steps 4-5: O's own property keys that are Strings, then those
            // that are Symbols, each in ascending chronological order of
            // property creation (SpiderMonkey's own-keys order).
            rooted!(&in(cx) let expando = expando(proxy.get()));
            if !expando.get().is_null() {
                let mut own = IdVector::new(cx);
                if !GetPropertyKeys(
                    cx,
                    expando.handle(),
                    JSITER_OWNONLY | JSITER_HIDDEN | JSITER_SYMBOLS,
                    own.handle_mut(),
                ) {
                    return Err(());
                }
                for key in own.iter() {
                    id.set(*key);
                    if !AppendToIdVector(props, id.handle()) {
                        return Err(());
                    }
                }
            }
            Ok(())
        })
    }
}

/// \[\[Set]] (<https://webidl.spec.whatwg.org/#legacy-platform-object-set>).
unsafe extern "C" fn set<T: LegacyPlatformObject>(
    cx: *mut RawJSContext,
    proxy: RawHandleObject,
    id: RawHandleId,
    v: RawHandleValue,
    receiver: RawHandleValue,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey calls this trap of `T`'s handler (only `T`'s handler
    // has it, so `proxy` is one of `T`'s reflectors) on its live context, with
    // handles it roots and out-pointers valid for the call.
    unsafe {
        property_trap(cx, "[[Set]]", proxy, id, |cx, proxy, id| {
            let v = Handle::from_raw(v);
            let receiver = Handle::from_raw(receiver);
            let result = &mut *result;
            let this = native::<T>(proxy.get()).ok_or(())?;
            // Step 1: If O and Receiver are the same object:
            if receiver.is_object() && receiver.to_object() == proxy.get() {
                // Step 1.1: an indexed property setter and an array index:
                // invoke it, return true.
                if T::SPECIALS.indexed_setter {
                    if let Some(index) = array_index(cx, id) {
                        this.indexed_set(cx, index, v)?;
                        result.succeed();
                        return Ok(());
                    }
                }
                // Step 1.2: a named property setter and a String: invoke
                // it, return true.
                if T::SPECIALS.named_setter {
                    if let Some(name) = key_string(cx, id) {
                        this.named_set(cx, &name, v)?;
                        result.succeed();
                        return Ok(());
                    }
                }
            }
            // Step 2: Let ownDesc be ? LegacyPlatformObjectGetOwnProperty(O,
            // P, true).
            let own = legacy_get_own_property::<T>(cx, proxy, id, true)?;
            // Step 3: Perform ? OrdinarySetWithOwnDescriptor(O, P, V,
            // Receiver, ownDesc).
            rooted!(&in(cx) let own_desc = own.unwrap_or_default());
            let own_desc = own.is_some().then(|| own_desc.handle());
            if !SetPropertyIgnoringNamedGetter(cx, proxy, id, v, receiver, own_desc, result) {
                return Err(());
            }
            Ok(())
        })
    }
}

/// The prototype is the static one the object was created with.
unsafe extern "C" fn get_prototype_if_ordinary(
    _cx: *mut RawJSContext,
    proxy: RawHandleObject,
    is_ordinary: *mut bool,
    protop: RawMutableHandleObject,
) -> bool {
    // SAFETY: SpiderMonkey passes a rooted `proxy` handle and valid
    // out-pointers for the call.
    unsafe {
        *is_ordinary = true;
        *protop.ptr = GetStaticPrototype(*proxy.ptr);
    }
    true
}

/// \[\[PreventExtensions]] (<https://webidl.spec.whatwg.org/#legacy-platform-object-preventextensions>):
/// Return false.
pub unsafe extern "C" fn prevent_extensions(
    _cx: *mut RawJSContext,
    _proxy: RawHandleObject,
    result: *mut ObjectOpResult,
) -> bool {
    // SAFETY: SpiderMonkey passes a valid `result` for the call.
    unsafe { (*result).fail(JSErrNum::JSMSG_CANT_PREVENT_EXTENSIONS) }
}

/// \[\[IsExtensible]]: always true (they cannot be made non-extensible).
unsafe extern "C" fn is_extensible(
    _cx: *mut RawJSContext,
    _proxy: RawHandleObject,
    succeeded: *mut bool,
) -> bool {
    // SAFETY: SpiderMonkey passes a valid `succeeded` for the call.
    unsafe { *succeeded = true };
    true
}

unsafe extern "C" fn class_name<T: LegacyPlatformObject>(
    _cx: *mut RawJSContext,
    _proxy: RawHandleObject,
) -> *const c_char {
    T::dom_class().base.name
}

/// Traces the DOM struct (the expando in the private slot is traced by
/// the engine).
unsafe extern "C" fn trace<T: LegacyPlatformObject>(trc: *mut JSTracer, proxy: *mut JSObject) {
    // SAFETY: SpiderMonkey traces `proxy`, live, with this hook of `T`'s
    // handler; the box lives until `finalize`, after the last trace.
    if let Some(this) = unsafe { native::<T>(proxy) } {
        // SAFETY: `trc` is the tracer SpiderMonkey passed for this call.
        unsafe { this.trace(trc) };
    }
}

/// Drops the DOM struct with its reflector.
unsafe extern "C" fn finalize<T: LegacyPlatformObject>(_gcx: *mut GCContext, proxy: *mut JSObject) {
    let mut value = UndefinedValue();
    // SAFETY: SpiderMonkey finalizes `proxy`, one of `T`'s reflectors,
    // still readable here; `value` is a local out-parameter.
    unsafe { GetProxyReservedSlot(proxy, DOM_OBJECT_SLOT, &mut value) };
    if value.is_undefined() {
        return;
    }
    // SAFETY: the box was leaked into the slot by `create_reflector`; this
    // is the only place that takes it back.
    drop(unsafe { Box::from_raw(value.to_private() as *mut T) });
    let undefined = UndefinedValue();
    // SAFETY: `proxy` is still readable during finalization; clearing the
    // slot keeps `native` from returning the freed box.
    unsafe { mozjs::glue::SetProxyReservedSlot(proxy, DOM_OBJECT_SLOT, &undefined) };
}
