//! Reflectors: the JS object of a DOM object.
//!
//! Ownership: a DOM object is a plain Rust struct, boxed and stored in
//! reserved slot [`DOM_OBJECT_SLOT`] of its reflector (a JS object of the
//! interface's [`DOMJSClass`]). The box is dropped by the class's finalizer,
//! so the Rust object lives exactly as long as the JS object. The class's
//! trace hook traces the Rust object ([`Traceable`]), so JS values it holds
//! (event listeners, its own reflector pointer) are kept alive and updated
//! when the GC moves things, and never leak through Rust-side roots.
//!
//! A root interface's struct has a `reflector: Reflector` field; a derived
//! interface's struct implements `AsRef<Parent>` (its parent struct is a
//! field). The generated code implements [`DomObject`] and
//! [`DomObjectIface`] from that.

use std::ffi::{c_void, CStr};
use std::ptr::{self, NonNull};

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::glue::{
    GetProxyHandlerExtra, GetProxyReservedSlot, IsProxyHandlerFamily, JS_GetReservedSlot,
    SetProxyReservedSlot,
};
use mozjs::jsapi::Heap;
use mozjs::jsapi::JSCLASS_IS_PROXY;
use mozjs::jsapi::{
    GCContext, JSClass, JSClassOps, JSObject, JSPropertySpec, JSTracer, JS_SetReservedSlot,
    JSCLASS_FOREGROUND_FINALIZE, JSCLASS_RESERVED_SLOTS_SHIFT,
};
use mozjs::jsval::{PrivateValue, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{JS_DefineProperties, JS_NewObjectWithGivenProto, NewProxyObject};
use mozjs::rust::{get_object_class, HandleObject, HandleValue};
use mozjs::JSCLASS_IS_DOMJSCLASS;

use crate::global::AsGlobalBindings;
use crate::interface::PrototypeId;
use crate::root::DomRoot;

/// The reserved slot holding the `Box<T>` of a reflector.
pub const DOM_OBJECT_SLOT: u32 = 0;

/// The deepest interface inheritance chain supported.
pub const MAX_PROTO_CHAIN_LENGTH: usize = 8;

/// A DOM object's pointer to its JS object. Traced by the DOM object's
/// trace hook, which keeps it current when the GC moves the object (the
/// edge is from the object to itself, so it keeps nothing else alive).
#[derive(Default, JSTraceable)]
pub struct Reflector {
    object: Heap<*mut JSObject>,
}

impl Reflector {
    pub fn new() -> Reflector {
        Reflector::default()
    }

    /// The JS object (null until the DOM object has been reflected).
    pub fn get_jsobject(&self) -> *mut JSObject {
        self.object.get()
    }

    pub fn set_jsobject(&self, object: *mut JSObject) {
        debug_assert!(self.object.get().is_null());
        self.object.set(object);
    }
}

/// A Rust struct implementing a WebIDL interface.
pub trait DomObject: Traceable + 'static {
    fn reflector(&self) -> &Reflector;

    /// The global object of this object's relevant realm
    /// (<https://html.spec.whatwg.org/multipage/webappapis.html#concept-relevant-realm>):
    /// the global its reflector was created in.
    ///
    /// # Panics
    /// If the object has not been reflected yet (`new_inherited` stage).
    fn relevant_global(&self) -> NonNull<JSObject> {
        let object = NonNull::new(self.reflector().get_jsobject())
            .expect("a DOM object's relevant global asked before it was reflected");
        // SAFETY: the reflector lives as long as this DOM object (its
        // finalizer drops the object), so `object` is live while `self`
        // is borrowed; a reflector is never a cross-compartment wrapper.
        unsafe { enter::global_of(object) }
    }

    /// The bindings' state of this object's relevant global.
    fn global_bindings(&self) -> &crate::global::GlobalBindings {
        // SAFETY: a reflector's global is a jsprof global, alive while the
        // reflector is (so while `self` is borrowed).
        unsafe { crate::global::GlobalBindings::from_global(self.relevant_global().as_ptr()) }
    }

    /// Enters this object's relevant realm (as the spec's "queue a global
    /// task on … given this's relevant global object" steps run in it)
    /// until the returned guard is dropped.
    fn enter_relevant_realm<'cx>(&self, cx: &'cx mut JSContext) -> AutoRealm<'cx> {
        AutoRealm::new(cx, self.relevant_global())
    }
}

/// Entering the realm of an object's global, for objects that are not DOM
/// objects (DOM objects have [`DomObject::enter_relevant_realm`]).
pub mod enter {
    use std::ptr::NonNull;

    use mozjs::context::JSContext;
    use mozjs::jsapi::{GetNonCCWObjectGlobal, JSObject};
    use mozjs::realm::AutoRealm;

    /// The global of `object`.
    ///
    /// # Safety
    /// `object` is a live JS object that is not a cross-compartment
    /// wrapper.
    pub unsafe fn global_of(object: NonNull<JSObject>) -> NonNull<JSObject> {
        // SAFETY: as the caller promises.
        let global = unsafe { GetNonCCWObjectGlobal(object.as_ptr()) };
        NonNull::new(global).expect("a live object's global is never null")
    }

    /// Enters the realm of `object`'s global until the guard is dropped.
    ///
    /// # Safety
    /// As [`global_of`].
    pub unsafe fn realm_of(cx: &mut JSContext, object: NonNull<JSObject>) -> AutoRealm<'_> {
        // SAFETY: as the caller promises.
        AutoRealm::new(cx, unsafe { global_of(object) })
    }
}

/// Implemented by the generated code for each interface's struct.
pub trait DomObjectIface: DomObject + Sized {
    const PROTO_ID: PrototypeId;
    /// The number of ancestors.
    const DEPTH: usize;
    const NAME: &'static str;
    fn dom_class() -> &'static DOMJSClass;
}

/// `T: DerivedFrom<U>`: `T`'s interface is `U` or inherits from it.
pub trait DerivedFrom<T: DomObjectIface>: DomObjectIface {}

/// Turns a pointer to the concrete struct in the reserved slot into a
/// pointer to the struct of one of its interfaces.
pub type Upcast = unsafe fn(*const c_void) -> *const c_void;

/// What identifies a reflector's interfaces.
pub struct DOMClass {
    /// The interface chain, root interface first.
    pub interface_chain: &'static [PrototypeId],
    /// `upcasts[d]` turns the slot's pointer into a pointer to the struct
    /// of `interface_chain[d]`.
    pub upcasts: &'static [Upcast],
    /// `[LegacyUnforgeable]` attributes, defined on every instance.
    pub unforgeable_attributes: &'static [JSPropertySpec],
    /// For legacy platform objects (interfaces with indexed or named
    /// property getters): the interface's proxy handler; its reflectors
    /// are proxies (see [`crate::proxyhandler`]).
    pub proxy_handler: Option<fn() -> *const c_void>,
}

/// A `JSClass` followed by the DOM data (the layout Servo uses too).
#[repr(C)]
pub struct DOMJSClass {
    pub base: JSClass,
    pub dom_class: DOMClass,
}

// SAFETY: only immutable statics of pointers to other statics.
unsafe impl Sync for DOMJSClass {}

/// The `JSClass` of an interface's platform objects.
pub const fn dom_jsclass(name: &'static CStr, ops: &'static JSClassOps) -> JSClass {
    JSClass {
        name: name.as_ptr(),
        flags: JSCLASS_IS_DOMJSCLASS
            | JSCLASS_FOREGROUND_FINALIZE
            | (1 << JSCLASS_RESERVED_SLOTS_SHIFT),
        cOps: ops,
        spec: ptr::null(),
        ext: ptr::null(),
        oOps: ptr::null(),
    }
}

/// Class hooks of `T`'s reflectors: drop the box, trace the struct.
pub const fn dom_class_ops<T: DomObject>() -> JSClassOps {
    JSClassOps {
        addProperty: None,
        delProperty: None,
        enumerate: None,
        newEnumerate: None,
        resolve: None,
        mayResolve: None,
        finalize: Some(finalize_dom_object::<T>),
        call: None,
        construct: None,
        trace: Some(trace_dom_object::<T>),
    }
}

/// The `Box<T>` pointer in a reflector's slot (null once finalized or
/// before it is set).
///
/// # Safety
/// `object` is a live object whose class has the reserved slot
/// [`DOM_OBJECT_SLOT`] (a reflector).
unsafe fn slot_pointer(object: *mut JSObject) -> *const c_void {
    let mut value = UndefinedValue();
    // SAFETY: `object` is a live object (this function's contract).
    if unsafe { is_proxy(object) } {
        // A legacy platform object: the proxy's reserved slot.
        // SAFETY: a proxy reflector made by `create_reflector` has the reserved
        // slot DOM_OBJECT_SLOT; `value` is a local out-parameter.
        unsafe { GetProxyReservedSlot(object, DOM_OBJECT_SLOT, &mut value) };
    } else {
        // SAFETY: a DOM class made by `dom_jsclass` has the reserved slot
        // DOM_OBJECT_SLOT; `value` is a local out-parameter.
        unsafe { JS_GetReservedSlot(object, DOM_OBJECT_SLOT, &mut value) };
    }
    if value.is_undefined() {
        ptr::null()
    } else {
        value.to_private()
    }
}

unsafe extern "C" fn finalize_dom_object<T: DomObject>(
    _gcx: *mut GCContext,
    object: *mut JSObject,
) {
    // SAFETY: SpiderMonkey finalizes `object`, still readable here, with the
    // hook of its own class, a DOM class with the slot.
    let pointer = unsafe { slot_pointer(object) } as *mut T;
    if !pointer.is_null() {
        // SAFETY: the box was leaked into the slot by `reflect_dom_object`
        // and this is the only place that takes it back.
        drop(unsafe { Box::from_raw(pointer) });
        let undefined = UndefinedValue();
        // SAFETY: `object` is still readable during finalization and its class has
        // the slot; clearing it keeps `slot_pointer` from returning the freed box.
        unsafe { JS_SetReservedSlot(object, DOM_OBJECT_SLOT, &undefined) };
    }
}

unsafe extern "C" fn trace_dom_object<T: DomObject>(trc: *mut JSTracer, object: *mut JSObject) {
    // SAFETY: SpiderMonkey traces `object`, live, with the hook of its own
    // class, a DOM class with the slot.
    let pointer = unsafe { slot_pointer(object) } as *const T;
    if !pointer.is_null() {
        // SAFETY: the box in the slot is alive until the finalizer takes it, and
        // the finalizer runs only after the last trace of `object`.
        unsafe { (*pointer).trace(trc) };
    }
}

/// Whether `object` is a proxy.
///
/// # Safety
/// `object` is a live object.
unsafe fn is_proxy(object: *mut JSObject) -> bool {
    // SAFETY: `object` is a live object (this function's contract).
    let class = unsafe { get_object_class(object) };
    // SAFETY: `class` is non-null (checked first) and classes are static.
    !class.is_null() && unsafe { (*class).flags } & JSCLASS_IS_PROXY != 0
}

/// The DOM class of `object`, if it is a reflector.
///
/// # Safety
/// `object` is a live object or null.
pub unsafe fn dom_class_of(object: *mut JSObject) -> Option<&'static DOMClass> {
    if object.is_null() {
        return None;
    }
    // SAFETY: `object` is non-null (checked above) and live (this function's
    // contract).
    let class = unsafe { get_object_class(object) };
    if class.is_null() {
        return None;
    }
    // SAFETY: `class` is non-null (checked above) and classes are static.
    if unsafe { (*class).flags } & JSCLASS_IS_PROXY != 0 {
        // SAFETY: the handler of a proxy of the glue's handler family is
        // one made by `ProxyHandlerCell::get`, whose extra pointer is the
        // interface's static DOMClass (nothing else in the process creates
        // handlers of that family).
        if !unsafe { IsProxyHandlerFamily(object) } {
            return None;
        }
        // SAFETY: `object` is a proxy of the glue's handler family (checked just
        // above), so it has a handler with an extra pointer.
        let extra = unsafe { GetProxyHandlerExtra(object) } as *const DOMClass;
        // SAFETY: the extra pointer is null or the interface's static DOMClass
        // (see the note above).
        return unsafe { extra.as_ref() };
    }
    // SAFETY: `class` is non-null (checked above) and classes are static.
    if unsafe { (*class).flags } & JSCLASS_IS_DOMJSCLASS == 0 {
        return None;
    }
    // SAFETY: every class with JSCLASS_IS_DOMJSCLASS is a DOMJSClass made
    // by `dom_jsclass` (nothing else in the process sets that flag).
    Some(unsafe { &(*(class as *const DOMJSClass)).dom_class })
}

/// The struct of interface `T` behind `object`: the brand check of
/// <https://webidl.spec.whatwg.org/#implements>.
///
/// # Safety
/// `object` is a live object or null. The returned reference is valid
/// while `object` is alive.
pub unsafe fn unwrap_dom_object<'a, T: DomObjectIface>(object: *mut JSObject) -> Option<&'a T> {
    // A WindowProxy of the current compartment stands for its Window
    // (`window.setTimeout(...)` has the WindowProxy as `this`).
    // SAFETY: `object` is non-null (checked first) and live (this
    // function's contract).
    let object = if !object.is_null() && unsafe { is_proxy(object) } {
        // SAFETY: `object` is a live proxy (this function's contract).
        unsafe { window_of_window_proxy(object) }
    } else {
        object
    };
    // SAFETY: `object` is live or null (this function's contract).
    let class = unsafe { dom_class_of(object) }?;
    if class.interface_chain.get(T::DEPTH) != Some(&T::PROTO_ID) {
        return None;
    }
    // SAFETY: `object` is a reflector (`dom_class_of` returned its class), so
    // it has the slot DOM_OBJECT_SLOT.
    let pointer = unsafe { slot_pointer(object) };
    if pointer.is_null() {
        return None;
    }
    let upcast = class.upcasts.get(T::DEPTH)?;
    // SAFETY: `pointer` is the live box of the object behind the reflector,
    // which implements T (interface chain checked above), and `upcast`
    // is that class's own upcast to depth T::DEPTH; the box lives as
    // long as `object` (this function's contract).
    Some(unsafe { &*(upcast(pointer) as *const T) })
}

/// Creates the reflector of `object` in `global` and gives it ownership of
/// `object` (<https://webidl.spec.whatwg.org/#internally-create-a-new-object-implementing-the-interface>).
/// `proto` is the prototype from the constructor's NewTarget, if any; else
/// the interface prototype object of `global`.
pub fn reflect_dom_object<T: DomObjectIface>(
    cx: &mut JSContext,
    global: &(impl AsGlobalBindings + ?Sized),
    object: Box<T>,
    proto: Option<HandleObject>,
) -> DomRoot<T> {
    // (At the agent's heap ceiling the object comes from the reserve above
    // it, `crate::hooks::with_heap_reserve`: the events the engine
    // fires must be made even then.)
    let reflector = create_reflector(cx, global, object, proto, true);
    reflector.unwrap_or_else(|| panic!("out of memory creating a {}", T::NAME))
}

/// Clears the out-of-memory exception a failed allocation left.
fn clear_exception(cx: &mut JSContext) {
    // SAFETY: plain queries on the live context.
    unsafe {
        if mozjs::rust::wrappers2::JS_IsExceptionPending(cx) {
            mozjs::rust::wrappers2::JS_ClearPendingException(cx);
        }
    }
}

/// [`reflect_dom_object`], or `None` (and no exception pending) when the
/// agent's heap is at its ceiling (`crate::hooks::DomHooks::with_heap_reserve`): for the paths that
/// must go on without the object, such as reporting an out-of-memory
/// error.
pub fn try_reflect_dom_object<T: DomObjectIface>(
    cx: &mut JSContext,
    global: &(impl AsGlobalBindings + ?Sized),
    object: Box<T>,
    proto: Option<HandleObject>,
) -> Option<DomRoot<T>> {
    create_reflector(cx, global, object, proto, false)
}

/// [`reflect_dom_object`]'s steps; an allocation that fails is retried
/// with the heap reserve if `use_reserve`, else gives `None`.
fn create_reflector<T: DomObjectIface>(
    cx: &mut JSContext,
    global: &(impl AsGlobalBindings + ?Sized),
    object: Box<T>,
    proto: Option<HandleObject>,
    use_reserve: bool,
) -> Option<DomRoot<T>> {
    rooted!(&in(cx) let mut prototype = ptr::null_mut::<JSObject>());
    match proto {
        Some(p) => prototype.set(p.get()),
        None => prototype.set(
            global
                .global_bindings()
                .interface_prototype(cx, T::PROTO_ID),
        ),
    }
    let class = T::dom_class();
    // A legacy platform object is a proxy with the interface's handler
    // (https://webidl.spec.whatwg.org/#es-legacy-platform-objects); its
    // private value (the expando object) starts undefined.
    let new_object = |cx: &mut JSContext| match class.dom_class.proxy_handler {
        // SAFETY: `handler()` is the interface's static handler and
        // `prototype` is rooted across the allocation.
        Some(handler) => unsafe {
            NewProxyObject(
                cx,
                handler(),
                HandleValue::undefined(),
                prototype.get(),
                ptr::null(),
                false,
            )
        },
        // SAFETY: `class.base` is a static DOM class and `prototype` is rooted.
        None => unsafe { JS_NewObjectWithGivenProto(cx, &class.base, prototype.handle()) },
    };
    rooted!(&in(cx) let mut reflector = new_object(cx));
    if reflector.get().is_null() {
        clear_exception(cx);
        if use_reserve {
            let retry = crate::hooks::with_heap_reserve(cx, new_object);
            reflector.set(retry);
            clear_exception(cx);
        }
        if reflector.get().is_null() {
            return None;
        }
    }
    let raw = Box::into_raw(object);
    let private = PrivateValue(raw as *const c_void);
    // SAFETY: a fresh object of a class with one reserved slot; from here
    // on the finalizer owns the box.
    unsafe {
        if class.dom_class.proxy_handler.is_some() {
            SetProxyReservedSlot(reflector.get(), DOM_OBJECT_SLOT, &private);
        } else {
            JS_SetReservedSlot(reflector.get(), DOM_OBJECT_SLOT, &private);
        }
        (*raw).reflector().set_jsobject(reflector.get());
    }
    if class.dom_class.unforgeable_attributes.len() > 1 {
        // Step 5 of "internally create a new object implementing the
        // interface": define the unforgeable regular attributes.
        // SAFETY: `reflector` is rooted and the property specs are the
        // interface's static, null-terminated list (len > 1 checked above).
        let define = |cx: &mut JSContext| unsafe {
            JS_DefineProperties(
                cx,
                reflector.handle(),
                class.dom_class.unforgeable_attributes.as_ptr(),
            )
        };
        let mut ok = define(cx);
        if !ok {
            clear_exception(cx);
            if use_reserve {
                ok = crate::hooks::with_heap_reserve(cx, define);
                clear_exception(cx);
            }
        }
        if !ok {
            // Out of memory: the half-made reflector is garbage (its
            // finalizer frees the Rust object).
            return None;
        }
    }
    // SAFETY: the reflector of a `T` just made.
    Some(unsafe { DomRoot::from_object(reflector.get()) })
}

/// The `Window` behind `object` if it is a WindowProxy of the current
/// compartment (always the current Window's own: one realm per
/// compartment), for the bindings' brand checks
/// (<https://webidl.spec.whatwg.org/#implements>: a WindowProxy stands for
/// its Window). Anything else is returned as is.
///
/// # Safety
/// `object` must be a live object.
pub unsafe fn window_of_window_proxy(object: *mut JSObject) -> *mut JSObject {
    // SAFETY: the caller's object is alive.
    unsafe {
        if !object.is_null() && mozjs::jsapi::IsWindowProxy(object) {
            mozjs::jsapi::ToWindowIfWindowProxy(object)
        } else {
            object
        }
    }
}
