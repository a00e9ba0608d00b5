//! Globals as the bindings see them: the `JSClass` plumbing of the
//! `[Global]` interfaces (<https://webidl.spec.whatwg.org/#Global>), and the
//! per-global state the bindings own ([`GlobalBindings`]: the kind of
//! global, its prefs, the cache of interface and prototype objects, whether
//! `[SecureContext]` members are exposed), stored in a reserved slot of the
//! global object together with the DOM's own per-global state (a
//! [`DomGlobal`], which the bindings only trace and drop).
//!
//! Invariants: the slot is set once, right after the global is created and
//! before any script or interface object exists, and cleared only by the
//! global's finalizer, which drops the box; so every live global of one of
//! [`DomHooks::global_classes`](crate::hooks::DomHooks::global_classes)
//! past its creation has a live `GlobalBindings`.

use std::any::Any;
use std::cell::Cell;
use std::collections::BTreeSet;
use std::ffi::{c_void, CStr};
use std::ptr::{self, NonNull};

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::glue::JS_GetReservedSlot;
use mozjs::jsapi::{
    GCContext, Heap, JSClass, JSClassOps, JSObject, JSTracer, JS_EnumerateStandardClasses,
    JS_GlobalObjectTraceHook, JS_MayResolveStandardClass, JS_ResolveStandardClass,
    JS_SetReservedSlot, OnNewGlobalHookOption, JSCLASS_FOREGROUND_FINALIZE,
    JSCLASS_RESERVED_SLOTS_SHIFT,
};
use mozjs::jsval::{PrivateValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    CurrentGlobalOrNull, JS_DefineProperties, JS_NewGlobalObject, JS_SetPrototype,
};
use mozjs::rust::{get_object_class, HandleObject, RealmOptions};
use mozjs::{
    JSCLASS_GLOBAL_SLOT_COUNT, JSCLASS_IS_DOMJSCLASS, JSCLASS_IS_GLOBAL,
    JSCLASS_RESERVED_SLOTS_MASK,
};

use crate::hooks::hooks;
use crate::interface::{get_or_create_interface_objects, InterfaceSpec, PrototypeId};
use crate::reflector::{DOMJSClass, DomObject, DomObjectIface, DOM_OBJECT_SLOT};

/// The kinds of globals, which `[Exposed]` names map to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GlobalKind {
    /// `[Exposed=Window]`.
    #[default]
    Window,
    /// `[Exposed=DedicatedWorker]` (and `Worker`).
    DedicatedWorker,
}

/// Enables the test-only interfaces (`TestBinding`...).
pub const TESTBINDING_PREF: &str = "dom.testbinding.enabled";

/// Interfaces whose IDL follows a spec exactly (no `[Pref]`) but that are
/// installed only when a pref is on (none at present).
const INTERFACE_PREFS: &[(&str, &str)] = &[];

/// Runtime preferences of a global (as Servo's prefs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prefs {
    enabled: BTreeSet<String>,
}

impl Prefs {
    /// No pref enabled.
    pub fn new() -> Prefs {
        Prefs::default()
    }

    /// The prefs of runtimes made for tests: the test interfaces too.
    pub fn for_tests() -> Prefs {
        let mut prefs = Prefs::default();
        prefs.enable(TESTBINDING_PREF);
        prefs
    }

    /// Enables the pref `name`.
    pub fn enable(&mut self, name: &str) -> &mut Prefs {
        self.enabled.insert(name.to_owned());
        self
    }

    /// Whether the pref `name` is enabled.
    pub fn is_enabled(&self, name: &str) -> bool {
        self.enabled.contains(name)
    }

    /// Whether the interface is installed on globals with these prefs.
    pub fn interface_enabled(&self, spec: &InterfaceSpec) -> bool {
        if let Some(pref) = spec.pref {
            return self.is_enabled(pref);
        }
        let name = spec.name.to_str().unwrap_or_default();
        INTERFACE_PREFS
            .iter()
            .filter(|(interface, _)| *interface == name)
            .all(|(_, pref)| self.is_enabled(pref))
    }
}

/// The DOM's per-global state, owned by the global's [`GlobalBindings`]:
/// traced with it and dropped by the global's finalizer.
pub trait DomGlobal: Any + Traceable {}

impl<T: Any + Traceable> DomGlobal for T {}

/// The reserved slot of the global holding the `Box<GlobalBindings>` (after
/// SpiderMonkey's global slots; a `[Global]` interface's DOM object is in
/// slot [`DOM_OBJECT_SLOT`], one of the application slots).
const GLOBAL_BINDINGS_SLOT: u32 = JSCLASS_GLOBAL_SLOT_COUNT;

/// The `JSClass` of a `[Global]` interface's global object
/// (<https://webidl.spec.whatwg.org/#Global>): a DOM class (the global is
/// the platform object of the interface, its struct in
/// [`DOM_OBJECT_SLOT`]) that is also a global class with the
/// [`GlobalBindings`] slot.
pub const fn dom_global_jsclass(name: &'static CStr, ops: &'static JSClassOps) -> JSClass {
    JSClass {
        name: name.as_ptr(),
        flags: JSCLASS_IS_GLOBAL
            | JSCLASS_IS_DOMJSCLASS
            | JSCLASS_FOREGROUND_FINALIZE
            | (((JSCLASS_GLOBAL_SLOT_COUNT + 1) & JSCLASS_RESERVED_SLOTS_MASK)
                << JSCLASS_RESERVED_SLOTS_SHIFT),
        cOps: ops,
        spec: ptr::null(),
        ext: ptr::null(),
        oOps: ptr::null(),
    }
}

/// Class hooks of a `[Global]` interface's global: the standard classes
/// resolve lazily; the trace hook traces SpiderMonkey's global data, the
/// interface's struct `T` and the [`GlobalBindings`]; the finalizer drops
/// both.
pub const fn global_class_ops<T: DomObject>() -> JSClassOps {
    JSClassOps {
        addProperty: None,
        delProperty: None,
        enumerate: Some(JS_EnumerateStandardClasses),
        newEnumerate: None,
        resolve: Some(JS_ResolveStandardClass),
        mayResolve: Some(JS_MayResolveStandardClass),
        finalize: Some(finalize_dom_global::<T>),
        call: None,
        construct: None,
        trace: Some(trace_dom_global::<T>),
    }
}

/// The private pointer in reserved slot `slot` of `global` (null if unset).
///
/// # Safety
/// `global` is a live global of one of our `[Global]` classes.
unsafe fn slot_pointer(global: *mut JSObject, slot: u32) -> *mut c_void {
    let mut value = UndefinedValue();
    // SAFETY: `global` is a live global of one of our `[Global]` classes (this
    // function's contract), which have the reserved slots DOM_OBJECT_SLOT
    // and GLOBAL_BINDINGS_SLOT; `value` is a local out-parameter.
    unsafe { JS_GetReservedSlot(global, slot, &mut value) };
    if value.is_undefined() {
        ptr::null_mut()
    } else {
        value.to_private() as *mut c_void
    }
}

unsafe extern "C" fn trace_dom_global<T: DomObject>(trc: *mut JSTracer, global: *mut JSObject) {
    // SAFETY: SpiderMonkey traces `global`, live, with its own class's hook, a
    // `[Global]` class with both slots; the boxes in them live until the
    // finalizer below, which runs after the last trace.
    unsafe {
        JS_GlobalObjectTraceHook(trc, global);
        let bindings = slot_pointer(global, GLOBAL_BINDINGS_SLOT) as *const GlobalBindings;
        if !bindings.is_null() {
            (*bindings).trace(trc);
        }
        let object = slot_pointer(global, DOM_OBJECT_SLOT) as *const T;
        if !object.is_null() {
            (*object).trace(trc);
        }
    }
}

unsafe extern "C" fn finalize_dom_global<T: DomObject>(
    _gcx: *mut GCContext,
    global: *mut JSObject,
) {
    // SAFETY: SpiderMonkey finalizes `global` (still readable) with its own
    // class's hook; each box was leaked into its slot (by
    // `attach_platform_object` and `GlobalBindings::create_global`) and is
    // taken back only here, then the slot is cleared so no later read sees
    // the freed box.
    unsafe {
        let undefined = UndefinedValue();
        let object = slot_pointer(global, DOM_OBJECT_SLOT) as *mut T;
        if !object.is_null() {
            drop(Box::from_raw(object));
            JS_SetReservedSlot(global, DOM_OBJECT_SLOT, &undefined);
        }
        let bindings = slot_pointer(global, GLOBAL_BINDINGS_SLOT) as *mut GlobalBindings;
        if !bindings.is_null() {
            drop(Box::from_raw(bindings));
            JS_SetReservedSlot(global, GLOBAL_BINDINGS_SLOT, &undefined);
        }
    }
}

/// Whether `class` is the class of one of our globals (one of the
/// `[Global]` interfaces' classes the DOM's hooks name).
fn is_our_global_class(class: *const JSClass) -> bool {
    hooks()
        .global_classes
        .iter()
        .any(|ours| ptr::eq(class, &ours.base))
}

/// The bindings' state of a global, and the DOM's ([`DomGlobal`]) with it.
pub struct GlobalBindings {
    /// The global object (a self-edge, traced to stay current).
    global: Heap<*mut JSObject>,
    kind: GlobalKind,
    prefs: Prefs,
    /// Interface prototype objects, by prototype ID.
    prototypes: Box<[Heap<*mut JSObject>]>,
    /// Interface objects, by prototype ID.
    interface_objects: Box<[Heap<*mut JSObject>]>,
    /// Whether the `[SecureContext]` interfaces and members are defined
    /// (<https://webidl.spec.whatwg.org/#SecureContext>): set once the
    /// global's environment is known to be a secure context.
    secure_members_exposed: Cell<bool>,
    /// The DOM's state of this global.
    dom: Box<dyn DomGlobal>,
}

// SAFETY: traces every GC edge the struct holds: the global (self-edge),
// the cached interface and prototype objects, and the DOM's state.
unsafe impl Traceable for GlobalBindings {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        // SAFETY: called by the global's trace hook with its tracer.
        unsafe {
            self.global.trace(trc);
            for object in self.prototypes.iter().chain(self.interface_objects.iter()) {
                object.trace(trc);
            }
            self.dom.trace(trc);
        }
    }
}

impl GlobalBindings {
    /// Creates a global object of `class` (one of the hooks'
    /// `global_classes`) in a new realm with `options`, and gives it its
    /// bindings state and the DOM's state `dom`. No interface is installed
    /// yet (see [`install_interfaces`](crate::interface::install_interfaces)),
    /// and the `[Global]` interface's platform object is not attached (see
    /// [`attach_platform_object`]).
    pub fn create_global(
        cx: &mut JSContext,
        class: &'static DOMJSClass,
        kind: GlobalKind,
        prefs: Prefs,
        options: &RealmOptions,
        dom: Box<dyn DomGlobal>,
    ) -> Result<NonNull<JSObject>, String> {
        let class = &class.base;
        assert!(
            is_our_global_class(class),
            "not a [Global] class of the DOM"
        );
        // SAFETY: `class` is a static `[Global]` class and `options` lives on
        // the caller's frame for the call; the result is rooted at once.
        rooted!(&in(cx) let global = unsafe {
            JS_NewGlobalObject(
                cx,
                class,
                ptr::null_mut(),
                OnNewGlobalHookOption::DontFireOnNewGlobalHook,
                &**options,
            )
        });
        let Some(object) = NonNull::new(global.get()) else {
            return Err("SpiderMonkey could not create a global object".to_owned());
        };
        let count = hooks().interfaces.len();
        let bindings = Box::new(GlobalBindings {
            global: Heap::default(),
            kind,
            prefs,
            prototypes: (0..count).map(|_| Heap::default()).collect(),
            interface_objects: (0..count).map(|_| Heap::default()).collect(),
            secure_members_exposed: Cell::new(false),
            dom,
        });
        let raw = Box::into_raw(bindings);
        // SAFETY: `raw` is the box just leaked, owned from here on by the
        // global's finalizer; `object` is the new, rooted global, whose class
        // has GLOBAL_BINDINGS_SLOT.
        unsafe {
            (*raw).global.set(object.as_ptr());
            JS_SetReservedSlot(
                object.as_ptr(),
                GLOBAL_BINDINGS_SLOT,
                &PrivateValue(raw as *const c_void),
            );
        }
        Ok(object)
    }

    /// The [`GlobalBindings`] of `global`, a global made by
    /// [`GlobalBindings::create_global`].
    ///
    /// # Panics
    /// If `global` is not one of our globals (any other object, whose
    /// reserved slots are not ours), or its state is not set yet: checked,
    /// so a wrong object cannot be read out of bounds.
    ///
    /// # Safety
    /// `global` must be a live object (rooted, or otherwise kept alive);
    /// the reference is valid while it lives.
    pub unsafe fn from_global<'a>(global: *mut JSObject) -> &'a GlobalBindings {
        // SAFETY: `global` is a live object (this function's contract), so
        // its class can be read.
        let class = unsafe { get_object_class(global) };
        assert!(is_our_global_class(class), "not a jsprof global");
        // SAFETY: `global` is live and one of our globals (class checked
        // above), which have the slot.
        let bindings = unsafe { slot_pointer(global, GLOBAL_BINDINGS_SLOT) };
        assert!(!bindings.is_null(), "not a jsprof global");
        // SAFETY: non-null (asserted above): the box the global owns, alive
        // while it lives.
        unsafe { &*(bindings as *const GlobalBindings) }
    }

    /// The global of the current realm, if it is one of ours.
    ///
    /// # Safety
    /// The reference is valid while the global lives (during the current
    /// call into script, at least).
    pub unsafe fn current<'a>(cx: &JSContext) -> Option<&'a GlobalBindings> {
        // SAFETY: `cx` is this thread's live context; a plain query.
        let global = unsafe { CurrentGlobalOrNull(cx) };
        // SAFETY: `global` is non-null (checked first) and is the current
        // realm's global, alive while that realm is entered.
        if global.is_null() || !is_our_global_class(unsafe { get_object_class(global) }) {
            return None;
        }
        // SAFETY: `global` is one of ours (class checked above), so it has the
        // slot; it is alive while its realm is entered.
        let bindings = unsafe { slot_pointer(global, GLOBAL_BINDINGS_SLOT) };
        // SAFETY: non-null: the box the global owns, alive while the global
        // lives (this function's contract bounds the reference).
        (!bindings.is_null()).then(|| unsafe { &*(bindings as *const GlobalBindings) })
    }

    /// The DOM's state of this global, if it is a `T`.
    pub fn dom<T: DomGlobal>(&self) -> Option<&T> {
        let dom: &dyn Any = &*self.dom;
        dom.downcast_ref::<T>()
    }

    /// The kind of global.
    pub fn kind(&self) -> GlobalKind {
        self.kind
    }

    /// The global's prefs.
    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// The global object.
    pub fn global_object(&self) -> *mut JSObject {
        self.global.get()
    }

    /// Whether the `[SecureContext]` interfaces and members are defined.
    pub fn secure_members_exposed(&self) -> bool {
        self.secure_members_exposed.get()
    }

    pub(crate) fn set_secure_members_exposed(&self) {
        self.secure_members_exposed.set(true);
    }

    pub(crate) fn cached_prototype(&self, id: PrototypeId) -> *mut JSObject {
        self.prototypes[id.0 as usize].get()
    }

    pub(crate) fn cached_interface_object(&self, id: PrototypeId) -> *mut JSObject {
        self.interface_objects[id.0 as usize].get()
    }

    pub(crate) fn cache_interface_objects(
        &self,
        id: PrototypeId,
        proto: *mut JSObject,
        interface: *mut JSObject,
    ) {
        self.prototypes[id.0 as usize].set(proto);
        self.interface_objects[id.0 as usize].set(interface);
    }

    /// The interface prototype object of `id` in this global, created on
    /// first use (also for interfaces not exposed here, e.g. behind a
    /// pref). Null if creating it failed (an exception is pending).
    pub fn interface_prototype(&self, cx: &mut JSContext, id: PrototypeId) -> *mut JSObject {
        let cached = self.cached_prototype(id);
        if !cached.is_null() {
            return cached;
        }
        rooted!(&in(cx) let global = self.global.get());
        let _ = get_or_create_interface_objects(cx, global.handle(), id);
        self.cached_prototype(id)
    }
}

/// A global's bindings state, from what the DOM has at hand for it (its own
/// per-global struct, or the [`GlobalBindings`] itself).
pub trait AsGlobalBindings {
    /// The global's [`GlobalBindings`].
    fn global_bindings(&self) -> &GlobalBindings;
}

impl AsGlobalBindings for GlobalBindings {
    fn global_bindings(&self) -> &GlobalBindings {
        self
    }
}

/// Makes `global` the platform object of its `[Global]` interface `T`
/// (<https://webidl.spec.whatwg.org/#internally-create-a-new-object-implementing-the-interface>
/// for a `[Global]` interface): stores `object` in the global's DOM
/// slot, sets the global's \[\[Prototype]] to `T`'s interface prototype
/// object, and defines `T`'s `[LegacyUnforgeable]` attributes on it.
pub fn attach_platform_object<T: DomObjectIface>(
    cx: &mut JSContext,
    global: HandleObject,
    object: Box<T>,
) -> Result<(), String> {
    let raw = Box::into_raw(object);
    // SAFETY: `global` is a rooted global made by `create_global` (its
    // class has DOM_OBJECT_SLOT) being set up by the DOM (the `[Global]`
    // interfaces' `attach_to_global`); from here on the box belongs to
    // `finalize_dom_global`.
    unsafe {
        JS_SetReservedSlot(
            global.get(),
            DOM_OBJECT_SLOT,
            &PrivateValue(raw as *const c_void),
        );
        (*raw).reflector().set_jsobject(global.get());
    }
    // SAFETY: `global` is such a global, its state set by `create_global`;
    // `bindings` is used only within this call.
    let bindings = unsafe { GlobalBindings::from_global(global.get()) };
    rooted!(&in(cx) let proto = bindings.interface_prototype(cx, T::PROTO_ID));
    // SAFETY: `global` and `proto` are rooted (proto non-null, checked first).
    if proto.get().is_null() || !unsafe { JS_SetPrototype(cx, global, proto.handle()) } {
        return Err(format!("could not set up the {} prototype", T::NAME));
    }
    let unforgeable = T::dom_class().dom_class.unforgeable_attributes;
    if unforgeable.len() > 1
        // SAFETY: `global` is rooted and the specs are the interface's
        // static, null-terminated list (len > 1 checked first).
        && !unsafe { JS_DefineProperties(cx, global, unforgeable.as_ptr()) }
    {
        return Err(format!(
            "could not define the {}'s unforgeable attributes",
            T::NAME
        ));
    }
    Ok(())
}
