//! One SpiderMonkey context (an agent's JS thread) with one global, a job
//! queue for promise reactions, and the errors "report the exception"
//! recorded.
//!
//! The runtime owns its agent ([`crate::runtime::agent::OwnedAgent`], made first and
//! dropped first): `JsRuntime` has no `Drop` of its own; its fields drop
//! in order, the agent (whose `Drop` is the whole teardown order, run
//! while the context lives), then the global's root, the context and the
//! job queue.

use std::cell::{Cell, RefCell};
use std::ffi::CString;
use std::fmt;
use std::ptr::{self, NonNull};
use std::rc::Rc;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::conversions::jsstr_to_string;
use mozjs::gc::RootedTraceableBox;
use mozjs::glue::{CreateJobQueue, DeleteJobQueue, JobQueueTraps, RustJobQueue};
use mozjs::jsapi::Heap;
use mozjs::jsapi::{
    GetExecutionGlobalFromJSMicroTask, JSObject, JSTracer,
    MutableHandleObject as RawMutableHandleObject, ToMaybeWrappedJSMicroTask, Value,
};
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    ClearKeptObjects, CurrentGlobalOrNull, HasAnyMicroTasks, JS_ClearPendingException,
    JS_DequeueNextMicroTask, JS_IsExceptionPending, JobQueueIsEmpty, RunJSMicroTask, SetJobQueue,
};
use mozjs::rust::{
    evaluate_script, CompileOptionsWrapper, HandleObject, ParentRuntime, Runtime, ToString,
};

use crate::dom::globals::globalscope::{
    report_pending_exception, take_pending_exception, GlobalKind, GlobalScope, Prefs,
};
use crate::loading::script_loading::{load_page, Loader, PageLoadError};
use crate::runtime::event_loop::{EventLoop, Inbox};

/// A script that threw, or could not be compiled; also an error reported
/// by "report the exception".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The exception's message (`TypeError: x is not a function`).
    pub message: String,
    /// The file name the failing code was compiled with.
    pub filename: String,
    /// 1-origin line, 0 when unknown.
    pub line: u32,
    /// 1-origin column, 0 when unknown.
    pub column: u32,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.filename, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ScriptError {}

/// How to make a [`JsRuntime`].
#[derive(Clone, Debug, Default)]
pub struct RuntimeOptions {
    /// The kind of the global, which decides the interfaces installed
    /// (`[Exposed]`).
    pub global: GlobalKind,
    pub prefs: Prefs,
}

/// Owns the job queue; deleted after the context.
struct JobQueue(*mut RustJobQueue);

impl Drop for JobQueue {
    fn drop(&mut self) {
        // SAFETY: created by CreateJobQueue; the context using it is gone.
        unsafe { DeleteJobQueue(self.0) }
    }
}

/// A SpiderMonkey context on the current thread with one global object.
///
/// Not `Send`: a context belongs to the thread that created it.
pub struct JsRuntime {
    // Field order is drop order, and is the runtime's whole teardown: the
    // agent first (its `Drop` runs the agent's teardown order, see
    // `crate::runtime::agent::OwnedAgent`), then the global's root, then the
    // context, the job queue after it.
    _agent: crate::runtime::agent::OwnedAgent,
    global: RootedTraceableBox<Heap<*mut JSObject>>,
    reported_errors: Rc<RefCell<Vec<ScriptError>>>,
    event_loop: Rc<EventLoop>,
    // Boxed: its address is in the agent's `AgentRuntime` (dedicated
    // workers are created as its child runtimes).
    runtime: Box<Runtime>,
    _job_queue: JobQueue,
}

/// The agent's runtime state (a field of [`crate::runtime::agent::Agent`]).
pub(crate) struct AgentRuntime {
    /// The `Runtime` of the agent's `JsRuntime`, once its global is made.
    runtime: Cell<*const Runtime>,
    /// <https://html.spec.whatwg.org/#performing-a-microtask-checkpoint>
    performing_microtask_checkpoint: Cell<bool>,
}

impl Default for AgentRuntime {
    fn default() -> Self {
        AgentRuntime {
            runtime: Cell::new(ptr::null()),
            performing_microtask_checkpoint: Cell::new(false),
        }
    }
}

/// The `Runtime` of this thread's `JsRuntime`, while it lives (null
/// otherwise; no agent is made for the question).
fn current_runtime() -> *const Runtime {
    crate::runtime::agent::existing().map_or(ptr::null(), |a| a.runtime.runtime.get())
}

/// The event loop's "performing a microtask checkpoint" flag.
static PERFORMING_MICROTASK_CHECKPOINT: crate::runtime::agent::AgentLocal<Cell<bool>> =
    crate::runtime::agent::AgentLocal(|a| &a.runtime.performing_microtask_checkpoint);

/// This thread's context, for DOM steps whose callers pass none (an
/// `<iframe>`'s insertion, removing and attribute change steps, which run
/// inside a DOM call already running on this context).
pub(crate) fn current_context() -> Option<JSContext> {
    let runtime = current_runtime();
    if runtime.is_null() {
        return None;
    }
    // SAFETY: set while the boxed Runtime lives, on this thread; the
    // handle is used on this thread only, within the current call (as the
    // HTML parser's tree sink uses its context).
    let raw = unsafe { (*runtime).cx_no_gc().raw_cx_no_gc() };
    // SAFETY: `raw` is the context of the runtime above, alive and owned by
    // this thread; the copy is used on this thread within the current call.
    NonNull::new(raw).map(|raw| unsafe { JSContext::from_ptr(raw) })
}

/// The thread-safe handle of this thread's runtime's context and its event
/// loop's inbox, while it lives (for a watchdog armed after the runtime
/// was made).
pub(crate) fn current_context_and_inbox(
) -> Option<(mozjs::rust::ThreadSafeJSContext, std::sync::Arc<Inbox>)> {
    let runtime = current_runtime();
    if runtime.is_null() {
        return None;
    }
    // SAFETY: set while the boxed Runtime lives, on this thread.
    let context = unsafe { (*runtime).thread_safe_js_context() };
    Some((context, EventLoop::current().inbox().clone()))
}

/// A handle for creating a dedicated worker's runtime as a child of this
/// thread's runtime (SpiderMonkey then shares the parent's immutable
/// self-hosted code and permanent atoms with it, so a worker starts
/// without compiling the self-hosted code again). The parent asserts, when
/// dropped, that every child is gone: a runtime joins its workers' threads
/// before it is dropped (`crate::runtime::workers::OwnedWorkers::shut_down`).
pub(crate) fn parent_for_new_worker() -> Option<ParentRuntime> {
    let runtime = current_runtime();
    // SAFETY: set while the boxed Runtime lives, on this thread.
    (!runtime.is_null()).then(|| unsafe { (*runtime).prepare_for_new_child() })
}

impl JsRuntime {
    /// Creates a context and a `Window`-kind global on the current thread.
    pub fn new() -> Result<JsRuntime, String> {
        JsRuntime::with_options(RuntimeOptions::default())
    }

    /// Like [`JsRuntime::new`], with the test-only interfaces
    /// (`TestBinding`, ...) installed too.
    pub fn new_for_tests() -> Result<JsRuntime, String> {
        JsRuntime::with_options(RuntimeOptions {
            global: GlobalKind::Window,
            prefs: Prefs::for_tests(),
        })
    }

    pub fn with_options(options: RuntimeOptions) -> Result<JsRuntime, String> {
        JsRuntime::create(options, None, Inbox::new())
    }

    /// The runtime of a dedicated worker's thread: a child of its owner's
    /// runtime (`parent`), whose event loop receives what is posted to
    /// `inbox`.
    pub(crate) fn new_for_worker(
        options: RuntimeOptions,
        parent: ParentRuntime,
        inbox: std::sync::Arc<Inbox>,
    ) -> Result<JsRuntime, String> {
        JsRuntime::create(options, Some(parent), inbox)
    }

    fn create(
        options: RuntimeOptions,
        parent: Option<ParentRuntime>,
        inbox: std::sync::Arc<Inbox>,
    ) -> Result<JsRuntime, String> {
        if Runtime::get().is_some() {
            return Err("this thread already has a JsRuntime (one context per thread)".to_owned());
        }
        let mut runtime = Box::new(match parent {
            // SAFETY: the parent outlives this runtime: its JsRuntime joins
            // this thread before it is dropped (see parent_for_new_worker).
            Some(parent) => unsafe { Runtime::create_with_parent(parent) },
            None => Runtime::new(crate::runtime::engine::handle()?),
        });
        let traps = JobQueueTraps {
            getHostDefinedData: Some(get_host_defined_data),
            getHostDefinedGlobal: Some(get_host_defined_global),
            runJobs: Some(run_jobs),
            traceNonGCThingMicroTask: Some(trace_non_gc_thing_micro_task),
        };
        // SAFETY: the traps are plain functions; the queue is deleted after
        // the context (field order).
        let queue = unsafe { CreateJobQueue(&traps) };
        if queue.is_null() {
            return Err("could not create a job queue".to_owned());
        }
        let job_queue = JobQueue(queue);
        // SAFETY: `queue` is non-null (checked above) and outlives the context
        // (`JobQueue` is dropped after the runtime, by field order).
        unsafe { SetJobQueue(runtime.cx(), queue as *mut _) };
        // This thread's agent starts with its runtime (a fresh one).
        let mut agent = crate::runtime::agent::start();
        crate::runtime::rejection::install(runtime.cx());
        crate::loading::module_loading::install_hooks(runtime.cx());
        crate::navigation::windowproxy::install(runtime.cx());
        // Before any script: the sampler attributes a wasm frame only to a
        // compilation it saw (false if security callbacks were already set:
        // wasm frames then never appear).
        jsprof_sampler::install_wasm_compile_hook(runtime.cx());
        crate::runtime::profiling::apply_jit_options_from_env(runtime.cx());
        // SAFETY: a static table of plain functions.
        unsafe { mozjs::rust::wrappers2::SetDOMCallbacks(runtime.cx(), &DOM_CALLBACKS) };
        // The agent's limits (`crate::runtime::watchdog`): the heap ceiling, the GC
        // callback checking the whole memory against it, and the interrupt
        // callback (stops script past the ceiling, or once a watchdog
        // fires).
        // SAFETY: the live context of this thread; plain functions.
        unsafe {
            mozjs::rust::wrappers2::JS_SetGCParameter(
                runtime.cx(),
                mozjs::jsapi::JSGCParamKey::JSGC_MAX_BYTES,
                crate::runtime::watchdog::max_heap_bytes(),
            );
            mozjs::rust::wrappers2::SetOutOfMemoryCallback(
                runtime.cx(),
                Some(crate::runtime::watchdog::on_out_of_memory),
                ptr::null_mut(),
            );
            mozjs::jsapi::JS_AddInterruptCallback(
                runtime.cx().raw_cx(),
                Some(crate::runtime::watchdog::interrupt_callback),
            );
            mozjs::jsapi::JS_SetGCCallback(
                runtime.cx().raw_cx(),
                Some(crate::runtime::watchdog::on_gc),
                ptr::null_mut(),
            );
        }
        let reported_errors = Rc::new(RefCell::new(Vec::new()));
        let event_loop = EventLoop::install(inbox);
        let object = match GlobalScope::create_global(
            runtime.cx(),
            options.global,
            options.prefs,
            reported_errors.clone(),
        ) {
            Ok(object) => object,
            Err(message) => {
                // The agent's teardown, then the context, then its job
                // queue.
                drop(event_loop);
                drop(agent);
                drop(runtime);
                drop(job_queue);
                return Err(message);
            }
        };
        agent
            .agent()
            .runtime
            .runtime
            .set(&*runtime as *const Runtime);
        crate::runtime::watchdog::register_runtime(
            runtime.thread_safe_js_context(),
            event_loop.inbox().clone(),
        );
        let global = RootedTraceableBox::new(Heap::default());
        global.set(object);
        // SAFETY: `object` is the global just made, rooted above.
        agent.set_global_realm(unsafe { GlobalScope::from_global(object) }.profiler_realm_id());
        Ok(JsRuntime {
            _agent: agent,
            global,
            reported_errors,
            event_loop,
            runtime,
            _job_queue: job_queue,
        })
    }

    /// Evaluates a classic script in the global and returns its completion
    /// value converted with ECMAScript `ToString`. `filename` and `line` are
    /// the position of the script's first line (for errors, and later traces).
    /// Afterwards, as HTML's "clean up after running script", performs a
    /// microtask checkpoint (promise reactions run).
    pub fn evaluate(
        &mut self,
        source: &str,
        filename: &str,
        line: u32,
    ) -> Result<String, ScriptError> {
        let result = self.evaluate_without_checkpoint(source, filename, line);
        self.perform_microtask_checkpoint();
        result
    }

    fn evaluate_without_checkpoint(
        &mut self,
        source: &str,
        filename: &str,
        line: u32,
    ) -> Result<String, ScriptError> {
        // The embedder's own script: same-origin, reported under its file
        // name (registered once).
        if crate::loading::script_registry::sampler_registry()
            .lookup(filename)
            .is_none()
        {
            crate::loading::script_registry::register(
                crate::loading::script_registry::ScriptRecord::inline(filename, line),
            );
        }
        let filename_c = CString::new(filename.replace('\0', "\u{FFFD}")).unwrap_or_default();
        let global = self.global.handle();
        let cx = self.runtime.cx();
        // As before any task or script: a full GC first if the last one
        // ran out of memory (`crate::runtime::watchdog`).
        crate::runtime::watchdog::collect_after_out_of_memory(cx);
        let mut realm = AutoRealm::new_from_handle(cx, global);
        let cx = &mut *realm;
        let options = CompileOptionsWrapper::new(cx, filename_c, line);
        rooted!(&in(cx) let mut rval = UndefinedValue());
        if evaluate_script(cx, global, source, rval.handle_mut(), options).is_err() {
            return Err(take_pending_error(cx, filename));
        }
        // SAFETY: `rval` is rooted; ToString may run user code (toString
        // methods), which is allowed here.
        let string = unsafe { ToString(cx, rval.handle()) };
        match NonNull::new(string) {
            // SAFETY: a live string returned by ToString.
            Some(string) => Ok(unsafe { jsstr_to_string(cx, string) }),
            None => Err(take_pending_error(cx, filename)),
        }
    }

    /// <https://html.spec.whatwg.org/#perform-a-microtask-checkpoint>
    pub fn perform_microtask_checkpoint(&mut self) {
        let global = self.global.handle();
        let cx = self.runtime.cx();
        let mut realm = AutoRealm::new_from_handle(cx, global);
        perform_microtask_checkpoint(&mut realm);
    }

    /// The errors reported by "report the exception" so far (exceptions in
    /// event listeners, callbacks and microtasks).
    pub fn reported_errors(&self) -> Vec<ScriptError> {
        self.reported_errors.borrow().clone()
    }

    /// Takes the reported errors.
    pub fn take_reported_errors(&mut self) -> Vec<ScriptError> {
        std::mem::take(&mut self.reported_errors.borrow_mut())
    }

    /// Navigates the window global to `url` (fetched with `loader`): parses
    /// the document and runs its parser-blocking scripts; the rest (async
    /// scripts, timers, `DOMContentLoaded`, `load`) runs in
    /// [`JsRuntime::run_until_idle`].
    pub fn load_page(
        &mut self,
        url: &url::Url,
        loader: Rc<dyn Loader>,
    ) -> Result<(), PageLoadError> {
        let global = self.global.handle();
        let cx = self.runtime.cx();
        let mut realm = AutoRealm::new_from_handle(cx, global);
        // SAFETY: `self.global` is the rooted global this runtime made with
        // `GlobalScope::create_global`; it lives as long as `self`, which
        // `scope` cannot outlive, and its realm is entered just above.
        let scope = unsafe { GlobalScope::from_global(global.get()) };
        let Some(window) = scope.as_window() else {
            return Err(PageLoadError::Fetch("not a window global".to_owned()));
        };
        let result = load_page(&mut realm, window, url, loader);
        perform_microtask_checkpoint(&mut realm);
        result
    }

    /// Runs the event loop until nothing is left to run (true) or until
    /// `deadline` (false).
    pub fn run_until_idle(&mut self, deadline: Option<std::time::Instant>) -> bool {
        let event_loop = self.event_loop.clone();
        let global = self.global.handle();
        let cx = self.runtime.cx();
        let mut realm = AutoRealm::new_from_handle(cx, global);
        event_loop.run_until_idle(&mut realm, deadline)
    }

    /// Runs `f` in the global's realm.
    pub(crate) fn enter<R>(&mut self, f: impl FnOnce(&mut JSContext, HandleObject) -> R) -> R {
        let global = self.global.handle();
        let cx = self.runtime.cx();
        let mut realm = AutoRealm::new_from_handle(cx, global);
        f(&mut realm, global)
    }

    /// Adds an interrupt callback to this context (callbacks cannot be
    /// removed; they run on this thread when an interrupt was requested).
    pub(crate) fn add_interrupt_callback(
        &mut self,
        callback: unsafe extern "C" fn(*mut RawJSContext) -> bool,
    ) {
        // SAFETY: the live context of this thread.
        unsafe {
            mozjs::jsapi::JS_AddInterruptCallback(self.runtime.cx().raw_cx(), Some(callback))
        };
    }

    /// The handle other threads request interrupts of this context with.
    pub(crate) fn thread_safe_context(&self) -> mozjs::rust::ThreadSafeJSContext {
        self.runtime.thread_safe_js_context()
    }

    /// Runs a dedicated worker's event loop until `closing` is set (see
    /// `EventLoop::run_until_closed`).
    pub(crate) fn run_until_closed(
        &mut self,
        closing: &std::sync::atomic::AtomicBool,
        owner: &Inbox,
    ) {
        let event_loop = self.event_loop.clone();
        self.enter(|cx, _| event_loop.run_until_closed(cx, closing, owner));
    }

    /// The context, for embedders.
    pub fn cx(&mut self) -> &mut JSContext {
        self.runtime.cx()
    }

    /// The global object.
    pub fn global(&self) -> HandleObject<'_> {
        self.global.handle()
    }
}

/// <https://html.spec.whatwg.org/#perform-a-microtask-checkpoint>
pub fn perform_microtask_checkpoint(cx: &mut JSContext) {
    // Step 1: If the event loop's performing a microtask checkpoint is
    // true, then return.
    if PERFORMING_MICROTASK_CHECKPOINT.with(Cell::get) {
        return;
    }
    // Step 2: Set the event loop's performing a microtask checkpoint to true.
    PERFORMING_MICROTASK_CHECKPOINT.with(|p| p.set(true));
    // Step 3: While the event loop's microtask queue is not empty:
    // SAFETY: `cx` is this thread's live context; a plain query.
    while unsafe { HasAnyMicroTasks(cx) } {
        // A terminated worker runs no more script ("terminate a worker"
        // step 3: abort the script currently running; the queued jobs stay
        // unrun until the context goes).
        if crate::runtime::workers::current_worker_terminated() || crate::runtime::watchdog::fired()
        {
            break;
        }
        // Step 3.1-3.2: dequeue the oldest microtask.
        rooted!(&in(cx) let mut task = UndefinedValue());
        // SAFETY: `task` is rooted for the call; `cx` is live.
        unsafe { JS_DequeueNextMicroTask(cx, task.handle_mut()) };
        // SAFETY: `task` is rooted and holds the value just dequeued.
        let job = unsafe { ToMaybeWrappedJSMicroTask(&*task) };
        if job.is_null() {
            continue;
        }
        rooted!(&in(cx) let job = job);
        // SAFETY: `job` is rooted and non-null (checked above).
        let Some(global) = NonNull::new(unsafe { GetExecutionGlobalFromJSMicroTask(job.get()) })
        else {
            continue;
        };
        // Step 3.4: Run oldestMicrotask (in its realm); exceptions are
        // reported.
        let mut realm = AutoRealm::new(cx, global);
        // SAFETY: `job` is rooted; `realm` entered the job's execution global,
        // which the job keeps alive.
        if !unsafe { RunJSMicroTask(&mut realm, job.handle()) } {
            report_pending_exception(&mut realm);
        }
    }
    // SAFETY: `cx` is this thread's live context; this only tells the job
    // queue that it was drained.
    unsafe { JobQueueIsEmpty(cx) };
    // Step 4: For each environment settings object settingsObject whose
    // responsible event loop is this event loop, notify about rejected
    // promises given settingsObject.
    crate::runtime::rejection::notify_about_rejected_promises();
    // Step 6: Cleanup Indexed Database transactions (none).
    // Step 7: Perform ClearKeptObjects().
    // SAFETY: `cx` is this thread's live context and no script is running
    // (we are between tasks, at the end of a checkpoint).
    unsafe { ClearKeptObjects(cx) };
    // Step 8: Set the event loop's performing a microtask checkpoint to false.
    PERFORMING_MICROTASK_CHECKPOINT.with(|p| p.set(false));
}

unsafe extern "C" fn get_host_defined_data(
    cx: *mut RawJSContext,
    incumbent_global: RawMutableHandleObject,
    data: RawMutableHandleObject,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: SpiderMonkey calls this hook on its live, non-null context
    // (null is checked above), on this thread, for the call's duration.
    let cx = unsafe { JSContext::from_ptr(raw) };
    // SAFETY: `incumbent_global` and `data` are the out-handles SpiderMonkey
    // passed for this call; they are rooted by the caller.
    unsafe {
        incumbent_global.set(CurrentGlobalOrNull(&cx));
        data.set(ptr::null_mut());
    }
    true
}

unsafe extern "C" fn get_host_defined_global(
    cx: *mut RawJSContext,
    data: RawMutableHandleObject,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: SpiderMonkey calls this hook on its live, non-null context
    // (null is checked above), on this thread, for the call's duration.
    let cx = unsafe { JSContext::from_ptr(raw) };
    // SAFETY: `data` is the rooted out-handle SpiderMonkey passed for this call.
    unsafe { data.set(CurrentGlobalOrNull(&cx)) };
    true
}

unsafe extern "C" fn run_jobs(cx: *mut RawJSContext) {
    if let Some(raw) = NonNull::new(cx) {
        // SAFETY: SpiderMonkey runs its jobs on its live, non-null context (null
        // is checked above), on this thread, for the call's duration.
        let mut cx = unsafe { JSContext::from_ptr(raw) };
        perform_microtask_checkpoint(&mut cx);
    }
}

/// SpiderMonkey's hooks on DOM objects (classes with
/// `JSCLASS_IS_DOMJSCLASS`). Its error reporting asks
/// `extractExceptionInfo` about a thrown DOM object, so an uncaught
/// `DOMException` is reported as `Name: message`.
static DOM_CALLBACKS: mozjs::jsapi::JSDOMCallbacks = mozjs::jsapi::JSDOMCallbacks {
    instanceClassMatchesProto: Some(instance_class_matches_proto),
    instanceClassIsError: Some(instance_class_is_error),
    extractExceptionInfo: Some(extract_exception_info),
};

/// Used by JIT-info'd DOM accessors only (the bindings have none).
unsafe extern "C" fn instance_class_matches_proto(
    _class: *const mozjs::jsapi::JSClass,
    _proto_id: u32,
    _depth: u32,
) -> bool {
    false
}

unsafe extern "C" fn instance_class_is_error(_class: *const mozjs::jsapi::JSClass) -> bool {
    false
}

unsafe extern "C" fn extract_exception_info(
    cx: *mut RawJSContext,
    object: mozjs::jsapi::HandleObject,
    is_exception: *mut bool,
    filename: mozjs::jsapi::MutableHandle<*mut mozjs::jsapi::JSString>,
    line: *mut u32,
    column: *mut u32,
    message: mozjs::jsapi::MutableHandle<*mut mozjs::jsapi::JSString>,
) -> bool {
    use crate::dom::globals::domexception::DOMException;
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: SpiderMonkey calls this hook on its live, non-null context
    // (null is checked above), on this thread, for the call's duration.
    let mut cx = unsafe { JSContext::from_ptr(raw) };
    // SAFETY: `object` is the live (handle-rooted) thrown object that
    // SpiderMonkey asks about.
    let exception = unsafe {
        crate::dom::bindings::root::DomRoot::<DOMException>::try_from_object(object.get())
    };
    let Some(exception) = exception else {
        // SAFETY: `is_exception` is the valid out-pointer SpiderMonkey passed.
        unsafe { *is_exception = false };
        return true;
    };
    let text: Vec<u16> = format!("{}: {}", exception.name(), exception.message())
        .encode_utf16()
        .collect();
    let empty: [u16; 0] = [];
    // SAFETY: the out-pointers and out-handles are valid for this call
    // (passed by SpiderMonkey, which roots the handles); `text` and `empty`
    // outlive the copies. Each new string goes into its rooted out-handle
    // before the next allocation, which can GC (a raw string pointer held
    // across it could be moved or swept).
    unsafe {
        let message_string =
            mozjs::rust::wrappers2::JS_NewUCStringCopyN(&mut cx, text.as_ptr(), text.len());
        if message_string.is_null() {
            return false;
        }
        message.set(message_string);
        let filename_string =
            mozjs::rust::wrappers2::JS_NewUCStringCopyN(&mut cx, empty.as_ptr(), 0);
        if filename_string.is_null() {
            return false;
        }
        filename.set(filename_string);
        *is_exception = true;
        *line = 0;
        *column = 0;
    }
    true
}

unsafe extern "C" fn trace_non_gc_thing_micro_task(_trc: *mut JSTracer, _value: *mut Value) {}

/// Clears the pending exception and describes it.
fn take_pending_error(cx: &mut JSContext, filename: &str) -> ScriptError {
    match take_pending_exception(cx) {
        Some(error) => error,
        None => {
            // SAFETY: plain queries on the live context.
            unsafe {
                if JS_IsExceptionPending(cx) {
                    JS_ClearPendingException(cx);
                }
            }
            ScriptError {
                // An uncatchable termination (no exception object).
                message: "script terminated without an exception".to_owned(),
                filename: filename.to_owned(),
                line: 0,
                column: 0,
            }
        }
    }
}
