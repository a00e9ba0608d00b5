//! The DOM's per-global state ([`GlobalScope`], owned by the global's
//! bindings state, `jsprof_script_bindings::global`): time origin, timers,
//! reported errors, modules, and "report the exception".

use std::cell::{Cell, RefCell};
use std::ptr::NonNull;
use std::rc::Rc;
use std::time::Instant;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::conversions::jsstr_to_string;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{JS_ClearPendingException, JS_FireOnNewGlobalObject, JS_GetProperty};
use mozjs::rust::{error_info_from_exception_stack, HandleObject, RealmOptions};

use crate::dom::bindings::codegen::{
    DedicatedWorkerGlobalScopeBinding, VoidFunction, WindowBinding,
};
use crate::dom::bindings::conversions::{RootedJsValue, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::global::{attach_platform_object, AsGlobalBindings, GlobalBindings};
pub use crate::dom::bindings::global::{
    dom_global_jsclass, global_class_ops, GlobalKind, Prefs, TESTBINDING_PREF,
};
use crate::dom::bindings::interface::{install_interfaces, PrototypeId};
use crate::dom::bindings::reflector::DomObjectIface;
use crate::runtime::timers::Timers;
use crate::runtime::ScriptError;

/// Formerly gated `Profiler`; kept so embedders that enable it still
/// build. `Profiler` is now exposed on every `Window` global.
pub const PROFILER_PREF: &str = "dom.profiler.enabled";

/// The Rust side of a global: the DOM's per-global state, owned by the
/// global's [`GlobalBindings`] (which holds the bindings' own: kind, prefs,
/// interface objects).
#[derive(JSTraceable)]
pub struct GlobalScope {
    /// The global object (a self-edge, traced to stay current).
    global: Heap<*mut JSObject>,
    time_origin: Cell<Instant>,
    #[no_trace]
    reported_errors: Rc<RefCell<Vec<ScriptError>>>,
    /// <https://html.spec.whatwg.org/#concept-settings-object-cross-origin-isolated-capability>
    cross_origin_isolated: std::cell::Cell<bool>,
    /// The sampler's ID of this global's realm.
    profiler_realm_id: u64,
    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#map-of-active-timers>
    /// of this `WindowOrWorkerGlobalScope`.
    timers: Timers,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#in-error-reporting-mode>
    in_error_reporting_mode: Cell<bool>,
    /// The module map, import map and resolved module set
    /// (`crate::loading::module_loading`).
    modules: crate::loading::module_loading::GlobalModules,
    /// The `crypto` object (<https://w3c.github.io/webcrypto/#dom-windoworworkerglobalscope-crypto>),
    /// made on first use.
    crypto: crate::dom::bindings::root::MutNullableDom<crate::dom::globals::crypto::Crypto>,
}

impl AsGlobalBindings for GlobalScope {
    fn global_bindings(&self) -> &GlobalBindings {
        self.bindings()
    }
}

impl GlobalScope {
    /// Creates a global of `kind` with the interfaces exposed on it: the
    /// platform object of the `[Global]` interface `Window` or
    /// `DedicatedWorkerGlobalScope` (its struct in the global's DOM slot,
    /// its \[\[Prototype]] the interface prototype object).
    pub fn create_global(
        cx: &mut JSContext,
        kind: GlobalKind,
        prefs: Prefs,
        reported_errors: Rc<RefCell<Vec<ScriptError>>>,
    ) -> Result<*mut JSObject, String> {
        Self::create_global_in(cx, kind, prefs, reported_errors, None)
    }

    /// Like [`GlobalScope::create_global`]; with `existing_compartment`, the
    /// new realm shares that global's compartment (same-origin browsing
    /// contexts of one agent, which then reach each other's objects
    /// without wrappers).
    pub fn create_global_in(
        cx: &mut JSContext,
        kind: GlobalKind,
        prefs: Prefs,
        reported_errors: Rc<RefCell<Vec<ScriptError>>>,
        existing_compartment: Option<*mut JSObject>,
    ) -> Result<*mut JSObject, String> {
        let mut options = RealmOptions::default();
        // The realm's profilerRealmID, which the sampler checks per frame
        // (https://wicg.github.io/js-self-profiling/#dfn-take-a-sample:
        // "if the realm of the frame is not the session's realm").
        let profiler_realm_id = jsprof_sampler::allocate_profiler_realm_id();
        jsprof_sampler::set_profiler_realm_id(&mut options, profiler_realm_id);
        // Sharing a compartment between same-origin realms is not done yet.
        let _ = existing_compartment;
        let class = match kind {
            GlobalKind::Window => &WindowBinding::CLASS,
            GlobalKind::DedicatedWorker => &DedicatedWorkerGlobalScopeBinding::CLASS,
        };
        let scope = Box::new(GlobalScope {
            global: Heap::default(),
            time_origin: Cell::new(Instant::now()),
            reported_errors,
            cross_origin_isolated: std::cell::Cell::new(false),
            profiler_realm_id,
            timers: Timers::new(),
            in_error_reporting_mode: Cell::new(false),
            modules: Default::default(),
            crypto: Default::default(),
        });
        let object = GlobalBindings::create_global(cx, class, kind, prefs, &options, scope)?;
        // Rooted for the rest of the set-up (until this function returns).
        rooted!(&in(cx) let _global_root = object.as_ptr());
        // SAFETY: `object` is the new global, rooted above, whose state was
        // just set; the reference is used only here.
        unsafe { GlobalScope::from_global(object.as_ptr()) }
            .global
            .set(object.as_ptr());
        let mut realm = AutoRealm::new(cx, object);
        let (global_handle, realm) = realm.global_and_reborrow();
        // https://webidl.spec.whatwg.org/#Global: the global is the platform
        // object of its [Global] interface.
        match kind {
            GlobalKind::Window => {
                crate::dom::globals::window::Window::attach_to_global(realm, global_handle)?;
                // Its WindowProxy, before any script runs (top-level
                // `this` and `globalThis` are the WindowProxy).
                crate::navigation::windowproxy::attach_window_proxy(realm, global_handle)?
            }
            GlobalKind::DedicatedWorker => {
                crate::dom::workers::dedicatedworkerglobalscope::DedicatedWorkerGlobalScope::attach_to_global(
                    realm,
                    global_handle,
                )?
            }
        }
        if install_interfaces(realm, global_handle).is_err() {
            return Err("could not install the DOM interfaces".to_owned());
        }
        // SAFETY: `global_handle` is the rooted global of the entered realm, fully
        // set up above.
        unsafe { JS_FireOnNewGlobalObject(realm, global_handle) };
        Ok(object.as_ptr())
    }

    /// Makes `global` the platform object of its `[Global]` interface `T`
    /// (see [`attach_platform_object`]).
    pub(crate) fn attach_platform_object<T: DomObjectIface>(
        cx: &mut JSContext,
        global: HandleObject,
        object: Box<T>,
    ) -> Result<(), String> {
        attach_platform_object(cx, global, object)
    }

    /// The [`GlobalScope`] of `global`, a global made by
    /// [`GlobalScope::create_global`].
    ///
    /// # Panics
    /// If `global` is not one of our globals (checked, see
    /// [`GlobalBindings::from_global`]).
    ///
    /// # Safety
    /// `global` must be a live object (rooted, or otherwise kept alive);
    /// the reference is valid while it lives.
    pub unsafe fn from_global<'a>(global: *mut JSObject) -> &'a GlobalScope {
        // SAFETY: the caller's contract.
        let bindings = unsafe { GlobalBindings::from_global(global) };
        bindings
            .dom::<GlobalScope>()
            .expect("every global of the DOM has a GlobalScope")
    }

    /// The global of the current realm, if it is one of ours.
    ///
    /// # Safety
    /// The reference is valid while the global lives (during the current
    /// call into script, at least).
    pub unsafe fn current<'a>(cx: &JSContext) -> Option<&'a GlobalScope> {
        // SAFETY: the caller's contract.
        unsafe { GlobalBindings::current(cx) }?.dom::<GlobalScope>()
    }

    /// The bindings' state of this global.
    pub fn bindings(&self) -> &GlobalBindings {
        // SAFETY: `self` is owned by the global's bindings state, so the
        // global is alive while `self` is borrowed.
        unsafe { GlobalBindings::from_global(self.global.get()) }
    }

    /// The sampler's ID of this global's realm
    /// ([`jsprof_sampler::set_profiler_realm_id`]).
    pub fn profiler_realm_id(&self) -> u64 {
        self.profiler_realm_id
    }

    /// The kind of global.
    pub fn kind(&self) -> GlobalKind {
        self.bindings().kind()
    }

    /// The global's prefs.
    pub fn prefs(&self) -> &Prefs {
        self.bindings().prefs()
    }

    /// The global object.
    pub fn global_object(&self) -> *mut JSObject {
        self.global.get()
    }

    /// The time origin (<https://w3c.github.io/hr-time/#dfn-time-origin>).
    pub fn time_origin(&self) -> Instant {
        self.time_origin.get()
    }

    /// Sets the time origin (a worker's is the time its owner started
    /// creating it, before any of its script runs).
    pub(crate) fn set_time_origin(&self, time_origin: Instant) {
        self.time_origin.set(time_origin);
    }

    /// <https://w3c.github.io/hr-time/#dfn-current-high-resolution-time>
    /// relative to the time origin, in milliseconds (unrounded; see
    /// [`GlobalScope::coarsened_now`]).
    pub fn now(&self) -> f64 {
        self.time_origin.get().elapsed().as_secs_f64() * 1000.0
    }

    /// <https://w3c.github.io/hr-time/#dfn-current-high-resolution-time>
    /// as exposed to script: the duration from the time origin to the
    /// current time, coarsened
    /// (<https://w3c.github.io/hr-time/#dfn-coarsen-time>) per this global's
    /// cross-origin isolated capability.
    pub fn coarsened_now(&self) -> f64 {
        // Step 1: Let unsafeTime be the unsafe shared current time.
        let unsafe_time = self.now();
        // Step 2: Return the result of coarsen time with unsafeTime and the
        // global's relevant settings object's cross-origin isolated
        // capability.
        jsprof_document::coarsen_time(unsafe_time, self.cross_origin_isolated.get())
    }

    /// The time origin as milliseconds since the Unix epoch, coarsened.
    pub fn time_origin_epoch_ms(&self) -> f64 {
        let now_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0);
        jsprof_document::coarsen_time(now_epoch - self.now(), self.cross_origin_isolated.get())
    }

    /// <https://html.spec.whatwg.org/#concept-settings-object-cross-origin-isolated-capability>
    pub fn cross_origin_isolated(&self) -> bool {
        self.cross_origin_isolated.get()
    }

    pub fn set_cross_origin_isolated(&self, isolated: bool) {
        self.cross_origin_isolated.set(isolated);
    }

    /// The `Window` platform object, if this is a window global.
    pub fn as_window(&self) -> Option<&crate::dom::globals::window::Window> {
        // SAFETY: the global lives as long as `self`.
        unsafe {
            crate::dom::bindings::reflector::unwrap_dom_object::<crate::dom::globals::window::Window>(
                self.global.get(),
            )
        }
    }

    /// The `WorkerGlobalScope` platform object, if this is a worker global.
    pub fn as_worker(&self) -> Option<&crate::dom::workers::workerglobalscope::WorkerGlobalScope> {
        // SAFETY: the global lives as long as `self`.
        unsafe {
            crate::dom::bindings::reflector::unwrap_dom_object::<
                crate::dom::workers::workerglobalscope::WorkerGlobalScope,
            >(self.global.get())
        }
    }

    /// The `DedicatedWorkerGlobalScope` platform object, if this is a
    /// dedicated worker's global.
    pub fn as_dedicated_worker(
        &self,
    ) -> Option<&crate::dom::workers::dedicatedworkerglobalscope::DedicatedWorkerGlobalScope> {
        // SAFETY: the global lives as long as `self`.
        unsafe {
            crate::dom::bindings::reflector::unwrap_dom_object::<
                crate::dom::workers::dedicatedworkerglobalscope::DedicatedWorkerGlobalScope,
            >(self.global.get())
        }
    }

    /// The global object as an `EventTarget` (a `Window` or a
    /// `WorkerGlobalScope`).
    pub fn event_target(&self) -> Option<&crate::dom::events::eventtarget::EventTarget> {
        if let Some(window) = self.as_window() {
            return Some(window.upcast_event_target());
        }
        self.as_worker().map(|w| w.upcast_event_target())
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-settings-object-origin>
    /// of this global's environment settings object.
    pub fn origin(&self) -> jsprof_document::Origin {
        if let Some(window) = self.as_window() {
            return window.origin();
        }
        match self.as_worker() {
            Some(worker) => worker.origin(),
            None => jsprof_document::Origin::new_opaque(),
        }
    }

    /// The URL relative URLs of scripts of this global are parsed against
    /// (<https://html.spec.whatwg.org/multipage/webappapis.html#api-base-url>):
    /// the associated document's document base URL (its `base` element's),
    /// or the worker global scope's URL.
    pub fn api_base_url(&self) -> url::Url {
        if let Some(window) = self.as_window() {
            return match window.active_document() {
                Some(document) => document.base_url(),
                None => window.url(),
            };
        }
        match self.as_worker() {
            Some(worker) => worker.url(),
            None => url::Url::parse("about:blank").expect("about:blank parses"),
        }
    }

    /// The document policy of this global's policy container: the active
    /// document's (`None` without a `Document-Policy` header), or a
    /// worker's (decided when its script was fetched; see
    /// `jsprof_document::worker_document_policy`).
    pub fn document_policy(&self) -> Option<jsprof_document::DocumentPolicy> {
        if let Some(window) = self.as_window() {
            return window.active_document().and_then(|d| d.document_policy());
        }
        self.as_worker().and_then(|w| w.document_policy())
    }

    /// The embedder policy value (COEP) of this global's policy
    /// container.
    pub fn embedder_policy(&self) -> jsprof_document::EmbedderPolicyValue {
        if let Some(window) = self.as_window() {
            return window
                .active_document()
                .map(|d| d.embedder_policy())
                .unwrap_or_default();
        }
        self.as_worker()
            .map(|w| w.embedder_policy())
            .unwrap_or_default()
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#secure-context>
    /// of this global's environment.
    pub fn is_secure_context(&self) -> bool {
        if let Some(window) = self.as_window() {
            return window.is_secure_context();
        }
        self.as_worker().is_some_and(|w| w.is_secure_context())
    }

    /// Runs timer `id` of this global's map of active timers (the task of
    /// the timer initialization steps). `cx` is in this global's realm; a
    /// string handler is compiled with the document's or the worker's URL.
    pub(crate) fn run_timer(&self, cx: &mut JSContext, id: i32) {
        // Timers' bookkeeping is `other` work (markers); the callback is
        // script.
        let _work = crate::runtime::profiling::other_work(self);
        let url = match self.as_window() {
            Some(window) => window.url(),
            None => self.api_base_url(),
        }
        .to_string();
        self.timers.run(cx, self.global.get(), &url, id);
    }

    /// Clears the map of active timers (when a worker's event loop ends).
    pub(crate) fn clear_timers(&self) {
        self.timers.clear_all();
    }

    // The members of the WindowOrWorkerGlobalScope mixin
    // (https://html.spec.whatwg.org/multipage/webappapis.html#windoworworkerglobalscope),
    // which `Window` and `WorkerGlobalScope` delegate to.

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-origin>:
    /// the serialization of this's relevant settings object's origin.
    pub(crate) fn serialized_origin(&self) -> USVString {
        USVString(self.origin().ascii_serialization())
    }

    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-settimeout>
    /// (`repeat` false) and
    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-setinterval>
    /// (`repeat` true): return the result of running the timer
    /// initialization steps given this, handler, timeout, arguments, and
    /// repeat.
    pub(crate) fn set_timeout_or_interval(
        &self,
        cx: &mut JSContext,
        handler: RootedJsValue,
        timeout: i32,
        arguments: Vec<RootedJsValue>,
        repeat: bool,
    ) -> i32 {
        self.timers.initialize(
            cx,
            self.global.get(),
            handler,
            timeout,
            arguments,
            repeat,
            None,
        )
    }

    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-cleartimeout>
    /// and
    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-clearinterval>:
    /// remove this's map of active timers\[id].
    pub(crate) fn clear_timeout_or_interval(&self, id: i32) {
        self.timers.clear(id);
    }

    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-queuemicrotask>:
    /// queue a microtask to invoke callback with « » and "report". The
    /// microtask is a promise reaction job (mozjs's job queue), so it is
    /// ordered with promise jobs as HTML requires.
    pub(crate) fn queue_microtask(
        &self,
        cx: &mut JSContext,
        callback: Rc<VoidFunction>,
    ) -> Fallible<()> {
        crate::dom::bindings::promise::enqueue_callback_microtask(cx, callback.callback())
            .map_err(|_| Error::JSFailed)
    }

    /// The interface prototype object of `id` in this global, created on
    /// first use (null if that failed: an exception is pending).
    pub fn interface_prototype(&self, cx: &mut JSContext, id: PrototypeId) -> *mut JSObject {
        self.bindings().interface_prototype(cx, id)
    }

    /// Records an error reported by "report the exception".
    /// The list "report the exception" records into (shared by the
    /// agent's globals).
    pub(crate) fn reported_errors_handle(&self) -> Rc<RefCell<Vec<ScriptError>>> {
        self.reported_errors.clone()
    }

    /// This global's module state (`crate::loading::module_loading`).
    pub fn modules(&self) -> &crate::loading::module_loading::GlobalModules {
        &self.modules
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-reporterror>:
    /// "the reportError(e) method steps are to report an exception e for
    /// this" (`cx` in this global's realm: the caller's, which is the
    /// method's relevant realm). The error's position is the error
    /// object's (or, for another value, the caller's); a value thrown
    /// from a muted script is reported muted, as "report the exception"
    /// does.
    pub(crate) fn report_error(&self, cx: &mut JSContext, e: RootedJsValue) {
        rooted!(&in(cx) let value = e.get());
        // SAFETY: `value` is rooted; the exception is taken back at once
        // by `report_pending_exception`.
        unsafe {
            mozjs::rust::wrappers2::JS_SetPendingException(
                cx,
                value.handle(),
                mozjs::jsapi::ExceptionStackBehavior::Capture,
            );
        }
        report_pending_exception(cx);
    }

    /// <https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone>
    /// (`cx` in this global's realm).
    pub(crate) fn structured_clone(
        &self,
        cx: &mut JSContext,
        value: RootedJsValue,
        options: crate::dom::bindings::codegen::StructuredSerializeOptions,
    ) -> Fallible<RootedJsValue> {
        use crate::dom::bindings::conversions::ToJsValue;
        rooted!(&in(cx) let value = value.get());
        // The transfer list as a JS array (undefined when empty), as
        // SpiderMonkey's structured clone takes it.
        rooted!(&in(cx) let mut transfer = UndefinedValue());
        if !options.transfer.is_empty() {
            // SAFETY: `transfer` is rooted.
            unsafe { options.transfer.to_js(cx, transfer.handle_mut()) };
        }
        // Step 1: Let serialized be ?
        // StructuredSerializeWithTransfer(value, options["transfer"]).
        // Step 2: Let deserializeRecord be ?
        // StructuredDeserializeWithTransfer(serialized, this's relevant
        // realm).
        rooted!(&in(cx) let mut clone = UndefinedValue());
        crate::dom::bindings::structuredclone::structured_clone_with_transfer(
            cx,
            value.handle(),
            transfer.handle(),
            clone.handle_mut(),
        )?;
        // Step 3: Return deserializeRecord.[[Deserialized]].
        let result = RootedJsValue::new(Heap::default());
        result.set(clone.get());
        Ok(result)
    }

    /// <https://w3c.github.io/webcrypto/#dom-windoworworkerglobalscope-crypto>:
    /// this global's `Crypto` object (the same one every time).
    pub(crate) fn crypto(
        &self,
        cx: &mut JSContext,
    ) -> crate::dom::bindings::root::DomRoot<crate::dom::globals::crypto::Crypto> {
        if let Some(crypto) = self.crypto.get() {
            return crypto;
        }
        let crypto = crate::dom::globals::crypto::Crypto::new(cx, self);
        self.crypto.set(Some(&crypto));
        crypto
    }

    pub fn record_reported_error(&self, error: ScriptError) {
        self.reported_errors.borrow_mut().push(error);
    }
}

/// Takes the pending exception (in the current realm) and describes it:
/// `"TypeError: message"` for errors, `None` if nothing is pending (an
/// uncatchable termination).
pub(crate) fn take_pending_exception(cx: &mut JSContext) -> Option<ScriptError> {
    // An uncatchable termination (a watchdog's or a worker termination's
    // interrupt) leaves no exception: nothing to report, unless it was the
    // memory ceiling's (`crate::runtime::watchdog`), reported as an out-of-memory
    // error where the script was stopped.
    // SAFETY: `cx` is this thread's live context; a plain query.
    if !unsafe { mozjs::rust::wrappers2::JS_IsExceptionPending(cx) } {
        return crate::runtime::watchdog::take_memory_stop().map(|at| ScriptError {
            message: "out of memory".to_owned(),
            filename: at.url,
            line: at.line,
            column: 0,
        });
    }
    rooted!(&in(cx) let mut exception = UndefinedValue());
    let info = error_info_from_exception_stack(cx, exception.handle_mut())?;
    let mut message = info.message;
    // Error objects' reports hold the bare message; prefix the error's name
    // as consoles do.
    if exception.is_object() {
        rooted!(&in(cx) let object = exception.to_object());
        rooted!(&in(cx) let mut name = UndefinedValue());
        let ok =
            // SAFETY: `object` and `name` are rooted; `cx` is in the current realm.
            unsafe { JS_GetProperty(cx, object.handle(), c"name".as_ptr(), name.handle_mut()) };
        if ok && name.is_string() {
            if let Some(name) = NonNull::new(name.to_string()) {
                // SAFETY: `name` is rooted and holds this non-null string.
                let name = unsafe { jsstr_to_string(cx, name) };
                if !name.is_empty() && !message.starts_with(&name) {
                    message = format!("{name}: {message}");
                }
            }
        }
        // SAFETY: `cx` is this thread's live context.
        unsafe { JS_ClearPendingException(cx) };
    }
    Some(ScriptError {
        message,
        filename: info.filename,
        line: info.line,
        column: info.col,
    })
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception>:
/// takes the pending exception, records it on the current global (see
/// `JsRuntime::reported_errors`), fires `error` at the global (a window or
/// a worker global) and, unless a listener canceled it, reports it: on
/// the developer console (stderr, `file:line:column message`) for a
/// window, to the `Worker` object in the owner for a dedicated worker
/// (see [`report_error_event`]). Errors of muted scripts are reported as
/// "Script error." with an empty file name, 0, 0 and a null error (via
/// `jsprof-document`).
pub fn report_pending_exception(cx: &mut JSContext) {
    rooted!(&in(cx) let mut exception_value = UndefinedValue());
    // SAFETY: `cx` is this thread's live context; `exception_value` is rooted.
    unsafe {
        if mozjs::rust::wrappers2::JS_IsExceptionPending(cx) {
            mozjs::rust::wrappers2::JS_GetPendingException(cx, exception_value.handle_mut());
        }
    }
    let Some(error) = take_pending_exception(cx) else {
        return;
    };
    // Step 1-3: the script's muted errors decide what is exposed.
    let muted = crate::loading::script_registry::is_muted(&error.filename);
    let info = jsprof_document::error_info_to_report(
        jsprof_document::script::ErrorInfo {
            message: error.message.clone(),
            filename: error.filename.clone(),
            lineno: error.line,
            colno: error.column,
            error: Some(()),
        },
        muted,
        false,
    );
    let reported = ScriptError {
        message: info.message.clone(),
        filename: info.filename.clone(),
        line: info.lineno,
        column: info.colno,
    };
    let error_value = if info.error.is_some() {
        exception_value.get()
    } else {
        mozjs::jsval::NullValue()
    };
    // SAFETY: the current realm is entered for this whole call, and
    // SpiderMonkey keeps an entered realm's global alive, so `scope` stays
    // valid through `report_error_event`.
    let Some(scope) = (unsafe { GlobalScope::current(cx) }) else {
        print_error(&reported);
        return;
    };
    report_error_event(cx, scope, reported, error_value);
}

/// Step 6-7 of "report an exception" for `global` (`cx` in its realm),
/// given the error's (already muted-filtered) fields and value: fires an
/// `ErrorEvent` at the global; if no listener canceled it, the error is
/// reported on the console for a window and, for a dedicated worker, to
/// its `Worker` object in the owner
/// (<https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2>),
/// which repeats the process one level up if not canceled there. The
/// error is recorded on the global's runtime either way.
pub(crate) fn report_error_event(
    cx: &mut JSContext,
    global: &GlobalScope,
    error: ScriptError,
    error_value: mozjs::jsval::JSVal,
) {
    rooted!(&in(cx) let error_value = error_value);
    let mut not_handled = true;
    // Step 6: If global is not in error reporting mode, then: (an
    // exception thrown by an error event listener is reported while the
    // global is in that mode: it reaches the console or the Worker object
    // below, never the global's error event again, so a throwing onerror
    // cannot recurse.)
    if let Some(target) = global
        .event_target()
        .filter(|_| !global.in_error_reporting_mode.get())
    {
        // Step 6.1: Set global's in error reporting mode to true.
        global.in_error_reporting_mode.set(true);
        // Step 6.2: If global implements EventTarget, then set notHandled
        // to the result of firing an event named error at global, using
        // ErrorEvent, with the cancelable attribute initialized to true,
        // and additional attributes initialized according to errorInfo.
        // (With the heap at its ceiling the event cannot be made: the
        // error is then not handled, and goes on to the console or the
        // owner, which has memory of its own.)
        let event = crate::dom::events::errorevent::ErrorEvent::new_error(
            cx,
            global,
            &error,
            error_value.get(),
        );
        if let Some(event) = event {
            not_handled = target.dispatch(cx, event.upcast_event());
        }
        // Step 6.3: Set global's in error reporting mode to false.
        global.in_error_reporting_mode.set(false);
    }
    global.record_reported_error(error.clone());
    // Step 7: If notHandled is true, then report exception to the
    // developer console (or, in a dedicated worker, to the Worker object).
    if not_handled {
        let propagated = global
            .as_dedicated_worker()
            .is_some_and(|w| w.report_error_to_owner(&error));
        if !propagated {
            print_error(&error);
        }
    }
}

/// The console line of an unhandled error.
fn print_error(error: &ScriptError) {
    if error.filename.is_empty() {
        // A muted error: no position to show.
        eprintln!("{}", error.message);
    } else {
        eprintln!(
            "{}:{}:{} {}",
            error.filename, error.line, error.column, error.message
        );
    }
}

/// The members of the WindowOrWorkerGlobalScope mixin
/// (webidl/WindowOrWorkerGlobalScope.webidl), written once for `Window` and
/// `WorkerGlobalScope`: each delegates to the one implementation on
/// [`GlobalScope`]. Expanded inside a `…Methods` impl whose type has
/// `global_scope()` and a `performance: MutNullableDom<Performance>` field.
/// A timer method and its clearing method of `WindowOrWorkerGlobalScope`
/// (`setTimeout()`/`clearTimeout()`, `setInterval()`/`clearInterval()`):
/// `$set` runs the timer initialization steps with repeat `$repeat`;
/// `$clear` removes the entry of the map of active timers (the same steps
/// for both clearing methods).
#[macro_export]
#[doc(hidden)]
macro_rules! timer_methods {
    ($set_link:literal, $set:ident, $clear_link:literal, $clear:ident, $repeat:expr) => {
        #[doc = $set_link]
        fn $set(
            &self,
            cx: &mut mozjs::context::JSContext,
            handler: $crate::dom::bindings::conversions::RootedJsValue,
            timeout: i32,
            arguments: Vec<$crate::dom::bindings::conversions::RootedJsValue>,
        ) -> $crate::dom::bindings::error::Fallible<i32> {
            Ok(self
                .global_scope()
                .set_timeout_or_interval(cx, handler, timeout, arguments, $repeat))
        }

        #[doc = $clear_link]
        fn $clear(
            &self,
            _cx: &mut mozjs::context::JSContext,
            id: i32,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.global_scope().clear_timeout_or_interval(id);
            Ok(())
        }
    };
}

#[macro_export]
macro_rules! window_or_worker_global_scope_methods {
    () => {
        /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-btoa>
        fn Btoa(
            &self,
            _cx: &mut mozjs::context::JSContext,
            data: String,
        ) -> $crate::dom::bindings::error::Fallible<String> {
            $crate::dom::encoding::base64::btoa(&data)
        }

        /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-atob>
        fn Atob(
            &self,
            _cx: &mut mozjs::context::JSContext,
            data: String,
        ) -> $crate::dom::bindings::error::Fallible<$crate::dom::bindings::conversions::ByteString>
        {
            $crate::dom::encoding::base64::atob(&data).map($crate::dom::bindings::conversions::ByteString)
        }

        /// <https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone>
        fn StructuredClone(
            &self,
            cx: &mut mozjs::context::JSContext,
            value: $crate::dom::bindings::conversions::RootedJsValue,
            options: $crate::dom::bindings::codegen::StructuredSerializeOptions,
        ) -> $crate::dom::bindings::error::Fallible<$crate::dom::bindings::conversions::RootedJsValue>
        {
            self.global_scope().structured_clone(cx, value, options)
        }

        /// <https://w3c.github.io/webcrypto/#dom-windoworworkerglobalscope-crypto>
        fn Crypto(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::root::DomRoot<$crate::dom::globals::crypto::Crypto> {
            self.global_scope().crypto(cx)
        }

        /// <https://fetch.spec.whatwg.org/#dom-global-fetch>
        fn Fetch(
            &self,
            cx: &mut mozjs::context::JSContext,
            input: $crate::dom::bindings::codegen::RequestOrUSVString,
            init: $crate::dom::bindings::codegen::RequestInit,
        ) -> $crate::dom::bindings::error::Fallible<
            std::rc::Rc<$crate::dom::bindings::promise::Promise>,
        > {
            $crate::loading::fetch::fetch_method(self.global_scope(), cx, input, init)
        }

        /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-origin>
        fn Origin(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::conversions::USVString {
            self.global_scope().serialized_origin()
        }

        /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-issecurecontext>:
        /// whether this's relevant settings object is a secure context (decided
        /// when the document was created, from the top-level creation URL, so a
        /// child of an insecure page is not secure).
        fn IsSecureContext(&self, _cx: &mut mozjs::context::JSContext) -> bool {
            self.global_scope().is_secure_context()
        }

        /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-crossoriginisolated>
        fn CrossOriginIsolated(&self, _cx: &mut mozjs::context::JSContext) -> bool {
            self.global_scope().cross_origin_isolated()
        }

        $crate::timer_methods!(
            "<https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-settimeout>",
            SetTimeout,
            "<https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-cleartimeout>",
            ClearTimeout,
            false
        );

        $crate::timer_methods!(
            "<https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-setinterval>",
            SetInterval,
            "<https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-clearinterval>",
            ClearInterval,
            true
        );

        /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-queuemicrotask>
        fn QueueMicrotask(
            &self,
            cx: &mut mozjs::context::JSContext,
            callback: std::rc::Rc<$crate::dom::bindings::codegen::VoidFunction>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.global_scope().queue_microtask(cx, callback)
        }

        /// <https://html.spec.whatwg.org/multipage/webappapis.html#dom-reporterror>
        fn ReportError(
            &self,
            cx: &mut mozjs::context::JSContext,
            e: $crate::dom::bindings::conversions::RootedJsValue,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.global_scope().report_error(cx, e);
            Ok(())
        }

        /// <https://w3c.github.io/hr-time/#the-performance-attribute>: this
        /// global's own `Performance` (a worker's time origin is the worker's).
        fn Performance(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::root::DomRoot<$crate::dom::globals::performance::Performance> {
            if let Some(p) = self.performance.get() {
                return p;
            }
            let p = $crate::dom::globals::performance::Performance::new(cx, self.global_scope());
            self.performance.set(Some(&p));
            p
        }
    };
}
