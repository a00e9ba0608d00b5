//! Globals: the custom global `JSClass`, the per-global state
//! ([`GlobalScope`], in a reserved slot of the global) with the cache of
//! interface and prototype objects, prefs, and reported errors.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ffi::c_void;
use std::ptr::{self, NonNull};
use std::rc::Rc;
use std::time::Instant;

use mozjs::context::JSContext;
use mozjs::conversions::jsstr_to_string;
use mozjs::gc::Traceable;
use mozjs::glue::JS_GetReservedSlot;
use mozjs::jsapi::Heap;
use mozjs::jsapi::{
    GCContext, JSClass, JSClassOps, JSObject, JSTracer, JS_EnumerateStandardClasses,
    JS_GlobalObjectTraceHook, JS_MayResolveStandardClass, JS_ResolveStandardClass,
    JS_SetReservedSlot, OnNewGlobalHookOption, JSCLASS_FOREGROUND_FINALIZE,
    JSCLASS_RESERVED_SLOTS_SHIFT,
};
use mozjs::jsval::{PrivateValue, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    CurrentGlobalOrNull, JS_ClearPendingException, JS_FireOnNewGlobalObject, JS_GetProperty,
    JS_NewGlobalObject,
};
use mozjs::rust::{error_info_from_exception_stack, get_object_class, RealmOptions};
use mozjs::{JSCLASS_GLOBAL_SLOT_COUNT, JSCLASS_IS_GLOBAL, JSCLASS_RESERVED_SLOTS_MASK};

use crate::dom::bindings::codegen::PrototypeList;
use crate::dom::bindings::interface::{
    get_or_create_interface_objects, install_interfaces, InterfaceSpec, PrototypeId,
};
use crate::runtime::ScriptError;

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

/// Installs `Profiler` (off until the Profiler issue implements it).
pub const PROFILER_PREF: &str = "dom.profiler.enabled";

/// Interfaces whose IDL follows a spec exactly (no `[Pref]`) but that are
/// installed only when a pref is on.
const INTERFACE_PREFS: &[(&str, &str)] = &[("Profiler", PROFILER_PREF)];

/// Runtime preferences of a global (as Servo's prefs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prefs {
    enabled: BTreeSet<String>,
}

impl Prefs {
    pub fn new() -> Prefs {
        Prefs::default()
    }

    /// The prefs of runtimes made for tests: the test interfaces too.
    pub fn for_tests() -> Prefs {
        let mut prefs = Prefs::default();
        prefs.enable(TESTBINDING_PREF);
        prefs
    }

    pub fn enable(&mut self, name: &str) -> &mut Prefs {
        self.enabled.insert(name.to_owned());
        self
    }

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

/// The reserved slot of the global holding the `Box<GlobalScope>`.
const GLOBAL_SCOPE_SLOT: u32 = JSCLASS_GLOBAL_SLOT_COUNT;

static GLOBAL_CLASS_OPS: JSClassOps = JSClassOps {
    addProperty: None,
    delProperty: None,
    enumerate: Some(JS_EnumerateStandardClasses),
    newEnumerate: None,
    resolve: Some(JS_ResolveStandardClass),
    mayResolve: Some(JS_MayResolveStandardClass),
    finalize: Some(finalize_global),
    call: None,
    construct: None,
    trace: Some(trace_global),
};

/// The class of every global: SpiderMonkey's global slots plus one for the
/// [`GlobalScope`].
pub static GLOBAL_CLASS: JSClass = JSClass {
    name: c"Global".as_ptr(),
    flags: JSCLASS_IS_GLOBAL
        | JSCLASS_FOREGROUND_FINALIZE
        | (((JSCLASS_GLOBAL_SLOT_COUNT + 1) & JSCLASS_RESERVED_SLOTS_MASK)
            << JSCLASS_RESERVED_SLOTS_SHIFT),
    cOps: &GLOBAL_CLASS_OPS,
    spec: ptr::null(),
    ext: ptr::null(),
    oOps: ptr::null(),
};

unsafe fn scope_pointer(global: *mut JSObject) -> *mut GlobalScope {
    let mut value = UndefinedValue();
    unsafe { JS_GetReservedSlot(global, GLOBAL_SCOPE_SLOT, &mut value) };
    if value.is_undefined() {
        ptr::null_mut()
    } else {
        value.to_private() as *mut GlobalScope
    }
}

unsafe extern "C" fn trace_global(trc: *mut JSTracer, global: *mut JSObject) {
    unsafe {
        JS_GlobalObjectTraceHook(trc, global);
        let scope = scope_pointer(global);
        if !scope.is_null() {
            (*scope).trace(trc);
        }
    }
}

unsafe extern "C" fn finalize_global(_gcx: *mut GCContext, global: *mut JSObject) {
    unsafe {
        let scope = scope_pointer(global);
        if !scope.is_null() {
            drop(Box::from_raw(scope));
            let undefined = UndefinedValue();
            JS_SetReservedSlot(global, GLOBAL_SCOPE_SLOT, &undefined);
        }
    }
}

/// The Rust side of a global.
pub struct GlobalScope {
    /// The global object (a self-edge, traced to stay current).
    global: Heap<*mut JSObject>,
    kind: GlobalKind,
    prefs: Prefs,
    /// Interface prototype objects, by prototype ID.
    prototypes: Box<[Heap<*mut JSObject>]>,
    /// Interface objects, by prototype ID.
    interface_objects: Box<[Heap<*mut JSObject>]>,
    time_origin: Instant,
    reported_errors: Rc<RefCell<Vec<ScriptError>>>,
}

impl GlobalScope {
    /// Creates a global of `kind` with the interfaces exposed on it.
    pub fn create_global(
        cx: &mut JSContext,
        kind: GlobalKind,
        prefs: Prefs,
        reported_errors: Rc<RefCell<Vec<ScriptError>>>,
    ) -> Result<*mut JSObject, String> {
        let options = RealmOptions::default();
        rooted!(&in(cx) let global = unsafe {
            JS_NewGlobalObject(
                cx,
                &GLOBAL_CLASS,
                ptr::null_mut(),
                OnNewGlobalHookOption::DontFireOnNewGlobalHook,
                &*options,
            )
        });
        let Some(object) = NonNull::new(global.get()) else {
            return Err("SpiderMonkey could not create a global object".to_owned());
        };
        let count = PrototypeList::COUNT;
        let scope = Box::new(GlobalScope {
            global: Heap::default(),
            kind,
            prefs,
            prototypes: (0..count).map(|_| Heap::default()).collect(),
            interface_objects: (0..count).map(|_| Heap::default()).collect(),
            time_origin: Instant::now(),
            reported_errors,
        });
        let raw = Box::into_raw(scope);
        unsafe {
            (*raw).global.set(object.as_ptr());
            JS_SetReservedSlot(
                object.as_ptr(),
                GLOBAL_SCOPE_SLOT,
                &PrivateValue(raw as *const c_void),
            );
        }
        let mut realm = AutoRealm::new(cx, object);
        let (global_handle, realm) = realm.global_and_reborrow();
        if install_interfaces(realm, global_handle).is_err() {
            return Err("could not install the DOM interfaces".to_owned());
        }
        unsafe { JS_FireOnNewGlobalObject(realm, global_handle) };
        Ok(object.as_ptr())
    }

    /// # Safety
    /// `global` must be a live global of [`GLOBAL_CLASS`]; the reference is
    /// valid while it lives.
    pub unsafe fn from_global<'a>(global: *mut JSObject) -> &'a GlobalScope {
        let scope = unsafe { scope_pointer(global) };
        assert!(!scope.is_null(), "not a jsprof global");
        unsafe { &*scope }
    }

    /// The global of the current realm, if it is one of ours.
    ///
    /// # Safety
    /// The reference is valid while the global lives (during the current
    /// call into script, at least).
    pub unsafe fn current<'a>(cx: &JSContext) -> Option<&'a GlobalScope> {
        let global = unsafe { CurrentGlobalOrNull(cx) };
        if global.is_null() || !std::ptr::eq(unsafe { get_object_class(global) }, &GLOBAL_CLASS) {
            return None;
        }
        let scope = unsafe { scope_pointer(global) };
        (!scope.is_null()).then(|| unsafe { &*scope })
    }

    pub fn kind(&self) -> GlobalKind {
        self.kind
    }

    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// The global object.
    pub fn global_object(&self) -> *mut JSObject {
        self.global.get()
    }

    /// The time origin (<https://w3c.github.io/hr-time/#dfn-time-origin>).
    pub fn time_origin(&self) -> Instant {
        self.time_origin
    }

    /// <https://w3c.github.io/hr-time/#dfn-current-high-resolution-time>
    /// relative to the time origin, in milliseconds.
    pub fn now(&self) -> f64 {
        self.time_origin.elapsed().as_secs_f64() * 1000.0
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

    /// Records an error reported by "report the exception".
    pub fn record_reported_error(&self, error: ScriptError) {
        self.reported_errors.borrow_mut().push(error);
    }
}

unsafe impl Traceable for GlobalScope {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe {
            self.global.trace(trc);
            for object in self.prototypes.iter().chain(self.interface_objects.iter()) {
                object.trace(trc);
            }
        }
    }
}

/// Takes the pending exception (in the current realm) and describes it:
/// `"TypeError: message"` for errors, `None` if nothing is pending (an
/// uncatchable termination).
pub(crate) fn take_pending_exception(cx: &mut JSContext) -> Option<ScriptError> {
    rooted!(&in(cx) let mut exception = UndefinedValue());
    let info = error_info_from_exception_stack(cx, exception.handle_mut())?;
    let mut message = info.message;
    // Error objects' reports hold the bare message; prefix the error's name
    // as consoles do.
    if exception.is_object() {
        rooted!(&in(cx) let object = exception.to_object());
        rooted!(&in(cx) let mut name = UndefinedValue());
        let ok =
            unsafe { JS_GetProperty(cx, object.handle(), c"name".as_ptr(), name.handle_mut()) };
        if ok && name.is_string() {
            if let Some(name) = NonNull::new(name.to_string()) {
                let name = unsafe { jsstr_to_string(cx, name) };
                if !name.is_empty() && !message.starts_with(&name) {
                    message = format!("{name}: {message}");
                }
            }
        }
        unsafe { JS_ClearPendingException(cx) };
    }
    Some(ScriptError {
        message,
        filename: info.filename,
        line: info.line,
        column: info.col,
    })
}

/// <https://html.spec.whatwg.org/#report-the-exception>: takes the pending
/// exception, records it on the current global (see
/// `JsRuntime::reported_errors`) and prints it to stderr. The `error` event
/// is not fired yet (no Window interface).
pub fn report_pending_exception(cx: &mut JSContext) {
    let Some(error) = take_pending_exception(cx) else {
        return;
    };
    eprintln!("JavaScript error: {error}");
    if let Some(global) = unsafe { GlobalScope::current(cx) } {
        global.record_reported_error(error);
    }
}
