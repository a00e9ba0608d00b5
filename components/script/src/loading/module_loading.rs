//! Module scripts (<https://html.spec.whatwg.org/multipage/webappapis.html#module-script>)
//! on SpiderMonkey's module API: the module map of each global, fetching a
//! single module script (CORS mode, the JavaScript MIME type check),
//! creating JavaScript and JSON module scripts (`CompileModule`), fetching
//! the descendants of and linking a module graph (`LoadRequestedModules`
//! driving our `HostLoadImportedModule` hook, then `ModuleLink`), running a
//! module script (`ModuleEvaluate`, the evaluation promise reported on
//! rejection, so top-level `await` works), dynamic `import()` from any
//! script (classic or module, in a window or a worker), `import.meta`
//! (`url`, `resolve`), `<script type="module">` and
//! `<script type="importmap">` ("prepare" and "execute the script
//! element" call in here), and module workers.
//!
//! Fetches are synchronous (the shell's loader blocks), but the hook never
//! finishes a load re-entrantly: it queues the request, and a loop drains
//! the queue (`drain_static_loads`), so the native stack stays flat however
//! deep the import graph is. A dynamic `import()` whose module must be
//! fetched is finished from a task, as in browsers; one that does not
//! resolve, or whose module is in the module map already, finishes at
//! once, as HTML says (its promise still settles in a microtask).
//!
//! Profiling: every module is compiled with its response URL as file name
//! from line 1 (inline modules: the document URL and their line) and
//! registered in the agent's script registry like a classic script, never
//! muted (a module passed the CORS check); code a muted classic script
//! reaches through `import()` runs in the module's own script, so the
//! sampler attributes it to the module.
//!
//! The modules' host-defined data, the static imports waiting to be
//! fetched and the graphs' loading states are the agent's
//! ([`ModuleMaps`], a field of [`crate::runtime::agent::Agent`], emptied in its
//! teardown): a thread's next runtime starts with none.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::ffi::CString;
use std::ptr::{self, NonNull};

use jsprof_document::{CorsSettings, Origin, ScriptCorsOutcome, ScriptFetchParams};
use mozjs::context::{JSContext, RawJSContext};
use mozjs::gc::{RootedTraceableBox, Traceable};
use mozjs::jsapi::{
    ColumnNumberOneOrigin, Handle as RawHandle, HandleObject as RawHandleObject,
    HandleValue as RawHandleValue, Heap, JSObject, JSScript, JSTracer, ModuleType,
};
use mozjs::jsval::{Int32Value, JSVal, ObjectValue, StringValue, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2;
use mozjs::rust::{CompileOptionsWrapper, Handle};

use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::{report_pending_exception, GlobalScope};
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::loading::import_map::{parse_import_map_string, ImportMapError, ImportMapState};
use crate::loading::script_registry::{self, ScriptRecord};
use crate::runtime::event_loop::EventLoop;

/// The module types this host supports
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#module-type-allowed>).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// "javascript-or-wasm" (JavaScript only: no WebAssembly modules).
    JavaScript,
    /// "json"
    Json,
}

impl Kind {
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#module-type-from-module-request>
    /// and "module type allowed": `None` for a type this host refuses.
    fn from_module_type(module_type: ModuleType) -> Option<Kind> {
        match module_type {
            ModuleType::JavaScript => Some(Kind::JavaScript),
            ModuleType::JSON => Some(Kind::Json),
            _ => None,
        }
    }
}

/// A module script's host-defined data
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#concept-script>):
/// its base URL and the credentials mode of its fetch options, found from
/// the module record's private value (an index into [`MODULE_INFOS`]).
#[derive(Clone, Debug)]
struct ModuleInfo {
    base_url: url::Url,
    credentials: CorsSettings,
}

/// A fetched module script in a module map
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#module-map>):
/// its record, or its parse error.
struct ModuleScript {
    record: Heap<*mut JSObject>,
    parse_error: Heap<JSVal>,
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#module-map>:
/// (request URL, module type) → module script. A null result (a failed
/// fetch) is never stored, so a later request fetches again
/// (<https://github.com/whatwg/html/pull/10327>).
type ModuleMap = HashMap<(url::Url, Kind), Box<ModuleScript>>;

/// One global's module state: its module map (keyed by request URL and
/// module type), its import map and resolved module set, and whether it is
/// a module worker's.
#[derive(Default)]
pub struct GlobalModules {
    map: RefCell<ModuleMap>,
    imports: RefCell<ImportMapState>,
    module_worker: Cell<bool>,
}

impl GlobalModules {
    /// Whether this is the global of a module worker (`importScripts`
    /// throws a `TypeError` there).
    pub fn is_module_worker(&self) -> bool {
        self.module_worker.get()
    }
}

// SAFETY: traces every GC thing the map holds (records and parse errors),
// from the global's trace hook (`GlobalScope::trace`).
unsafe impl Traceable for GlobalModules {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        for script in self.map.borrow().values() {
            // SAFETY: `trc` is the live tracer the GC passed to the
            // global's trace hook (this method's only caller); the record
            // and error are `Heap` cells owned by the map, inside the global.
            unsafe {
                script.record.trace(trc);
                script.parse_error.trace(trc);
            }
        }
    }
}

/// The result of fetching a module script graph for a `<script>` element
/// or a worker (HTML's "el's result"): `None` record and `None` error is
/// "null" (a network error: fire `error`).
pub struct ModuleResult {
    record: RootedTraceableBox<Heap<*mut JSObject>>,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-script-error-to-rethrow>
    error_to_rethrow: Option<RootedTraceableBox<Heap<JSVal>>>,
    /// Whether the element's script came from an external file (fires
    /// `load` after running).
    external: bool,
}

impl ModuleResult {
    fn null(external: bool) -> ModuleResult {
        ModuleResult {
            record: RootedTraceableBox::new(Heap::default()),
            error_to_rethrow: None,
            external,
        }
    }

    fn is_null(&self) -> bool {
        self.record.get().is_null() && self.error_to_rethrow.is_none()
    }
}

/// A request of `HostLoadImportedModule` waiting to be fetched: the
/// referrer, the request and the payload SpiderMonkey passes back to
/// `FinishLoadingImportedModule`, what the resolution gave, and the fetch
/// options it inherits.
struct PendingLoad {
    global: RootedTraceableBox<Heap<*mut JSObject>>,
    referrer: RootedTraceableBox<Heap<*mut JSScript>>,
    request: RootedTraceableBox<Heap<*mut JSObject>>,
    payload: RootedTraceableBox<Heap<JSVal>>,
    /// The resolved URL and module type, or the TypeError's message.
    target: Result<(url::Url, Kind), String>,
    credentials: CorsSettings,
    /// The graph loading state (HTML's loadState) of a static import;
    /// `None` for a dynamic `import()`.
    graph: Option<u32>,
}

/// HTML's loadState record and how `LoadRequestedModules` ended.
#[derive(Default)]
struct GraphState {
    /// `[[ErrorToRethrow]]`
    error_to_rethrow: Option<RootedTraceableBox<Heap<JSVal>>>,
    /// `None` while loading; `Some(Ok)` fulfilled; `Some(Err(error))`
    /// rejected.
    outcome: Option<Result<(), RootedTraceableBox<Heap<JSVal>>>>,
}

/// The agent's module maps (a field of [`crate::runtime::agent::Agent`]): the
/// modules' host-defined data, the static imports waiting to be fetched
/// and the graphs' loading states (both hold roots).
pub(crate) struct ModuleMaps {
    infos: RefCell<Vec<ModuleInfo>>,
    static_loads: RefCell<VecDeque<PendingLoad>>,
    graphs: RefCell<HashMap<u32, GraphState>>,
    next_graph: Cell<u32>,
}

impl Default for ModuleMaps {
    fn default() -> Self {
        ModuleMaps {
            infos: RefCell::new(Vec::new()),
            static_loads: RefCell::new(VecDeque::new()),
            graphs: RefCell::new(HashMap::new()),
            next_graph: Cell::new(1),
        }
    }
}

impl ModuleMaps {
    /// Drops the pending loads and graph states (their roots) while the
    /// context lives (the agent's teardown).
    pub(crate) fn clear(&self) {
        let loads = std::mem::take(&mut *self.static_loads.borrow_mut());
        drop(loads);
        let graphs = std::mem::take(&mut *self.graphs.borrow_mut());
        drop(graphs);
    }
}

static MODULE_INFOS: crate::runtime::agent::AgentLocal<RefCell<Vec<ModuleInfo>>> =
    crate::runtime::agent::AgentLocal(|a| &a.modules.infos);
static STATIC_LOADS: crate::runtime::agent::AgentLocal<RefCell<VecDeque<PendingLoad>>> =
    crate::runtime::agent::AgentLocal(|a| &a.modules.static_loads);
static GRAPHS: crate::runtime::agent::AgentLocal<RefCell<HashMap<u32, GraphState>>> =
    crate::runtime::agent::AgentLocal(|a| &a.modules.graphs);
static NEXT_GRAPH: crate::runtime::agent::AgentLocal<Cell<u32>> =
    crate::runtime::agent::AgentLocal(|a| &a.modules.next_graph);

/// Installs the host hooks on this thread's runtime: `HostLoadImportedModule`
/// (static imports and `import()`) and `HostGetImportMetaProperties`.
pub(crate) fn install_hooks(cx: &mut JSContext) {
    // SAFETY: `cx` is this thread's live context, so its runtime is live;
    // the hooks are `extern "C"` functions with the hook signatures, valid
    // for the whole process.
    unsafe {
        let runtime = mozjs::jsapi::JS_GetRuntime(cx.raw_cx());
        mozjs::jsapi::SetModuleLoadHook(runtime, Some(host_load_imported_module));
        mozjs::jsapi::SetModuleMetadataHook(runtime, Some(host_get_import_meta_properties));
    }
}

/// The host-defined data of the script or module `script` (null: none).
fn referrer_info(cx: &mut JSContext, script: *mut JSScript) -> Option<ModuleInfo> {
    if script.is_null() {
        return None;
    }
    rooted!(&in(cx) let mut private = UndefinedValue());
    // SAFETY: `script` is non-null (checked above) and live: it is read from
    // the rooted referrer handle SpiderMonkey passed to the load hook just
    // before this call, with no GC in between; `private` is rooted.
    unsafe { mozjs::glue::JS_GetScriptPrivate(script, private.handle_mut().into()) };
    if !private.get().is_int32() {
        return None;
    }
    let index = private.get().to_int32() as usize;
    MODULE_INFOS.with(|infos| infos.borrow().get(index).cloned())
}

/// The base URL of a classic script (or of code it compiled from a
/// string, or of an event handler): an external script's is its file name
/// (its response URL); code compiled under the document's URL (inline
/// scripts, event handlers, timer strings) gets the settings object's API
/// base URL, the document base URL. (Not done: an inline script's base URL
/// is the document base URL when it was prepared, not when the import
/// runs; they differ only if a `base` element changed in between.)
fn classic_referrer_base_url(cx: &mut JSContext, global: &GlobalScope) -> url::Url {
    let document_url = global.as_window().map(|window| window.url());
    mozjs::rust::describe_scripted_caller(cx)
        .ok()
        .and_then(|caller| url::Url::parse(&caller.filename).ok())
        .filter(|url| !matches!(url.scheme(), "about"))
        .filter(|url| Some(url) != document_url.as_ref())
        .unwrap_or_else(|| global.api_base_url())
}

/// The specifier string of a module request.
fn request_specifier(cx: &mut JSContext, request: Handle<*mut JSObject>) -> String {
    // SAFETY: `request` is the rooted handle to the ModuleRequestObject that
    // SpiderMonkey passed to the load hook (alive for the hook's call).
    let string = unsafe { wrappers2::GetModuleRequestSpecifier(cx, request) };
    match NonNull::new(string) {
        // SAFETY: `string` is non-null and is the request's specifier, kept
        // alive by the rooted request object; it is read at once.
        Some(string) => unsafe { mozjs::conversions::jsstr_to_string(cx, string) },
        None => String::new(),
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#resolve-a-module-specifier>
/// in `global`, from a script whose base URL is `base_url`.
fn resolve_module_specifier(
    global: &GlobalScope,
    specifier: &str,
    base_url: &url::Url,
) -> Result<url::Url, String> {
    global
        .modules()
        .imports
        .borrow_mut()
        .resolve(specifier, base_url, global.as_window().is_some())
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#hostloadimportedmodule>
/// (SpiderMonkey's `JS::ModuleLoadHook`), steps 1-15; step 16's fetch
/// happens later: for a static import in [`drain_static_loads`], for
/// `import()` in a queued task ([`continue_dynamic_import`]), unless the
/// module is in the module map already (then at once).
unsafe extern "C" fn host_load_imported_module(
    cx: *mut RawJSContext,
    referrer: RawHandle<*mut JSScript>,
    module_request: RawHandleObject,
    host_defined: RawHandleValue,
    payload: RawHandleValue,
    _line: u32,
    _column: ColumnNumberOneOrigin,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: SpiderMonkey calls the hook on this thread's live context.
    let mut cx = unsafe { JSContext::from_ptr(raw) };
    let cx = &mut cx;
    // (The referrer and payload are read from their handles where they are
    // used, not copied out here: a copy would be a raw GC pointer held
    // across calls that can collect and move it.)
    // SAFETY: SpiderMonkey passes rooted handles, valid for the hook's call;
    // `module_request` is a handle to a non-null ModuleRequestObject.
    let request = unsafe { Handle::from_raw(module_request) };
    // SAFETY: as above, a rooted handle; the value is converted to a plain
    // number at once (an int32 is no GC thing).
    let graph = unsafe { *host_defined.ptr };
    let graph = graph.is_int32().then(|| graph.to_int32() as u32);
    // Step 1: Let settingsObject be the current settings object.
    // SAFETY: the current realm (entered by SpiderMonkey to run the
    // importing script) keeps its global alive while it is entered, i.e.
    // for this whole hook call; `global` is not used after the hook returns
    // (the queued task re-reads it from the rooted `load.global`).
    let Some(global) = (unsafe { GlobalScope::current(cx) }) else {
        return false;
    };
    // Step 3-6: the referencing script's base URL and fetch options (a
    // module's from its host-defined data; a classic script's from its
    // file name; none: the settings object's API base URL).
    // SAFETY: `referrer` is a rooted handle passed by SpiderMonkey, valid for
    // the hook's call; the pointer is used at once by `referrer_info`.
    let referrer_script = unsafe { *referrer.ptr };
    let info = referrer_info(cx, referrer_script).unwrap_or_else(|| ModuleInfo {
        base_url: classic_referrer_base_url(cx, global),
        credentials: CorsSettings::Anonymous,
    });
    let specifier = request_specifier(cx, request);
    // Step 8-9: Let moduleType be the result of running the module type
    // from module request steps given moduleRequest; if the module type
    // allowed steps give false, the completion is a TypeError.
    // SAFETY: `request` is the rooted handle to the hook's
    // ModuleRequestObject.
    let module_type = unsafe { wrappers2::GetModuleRequestType(cx, request) };
    // Step 10: Let url be the result of resolving a module specifier
    // given referencingScript and moduleRequest.[[Specifier]], catching
    // any exceptions.
    let target = match Kind::from_module_type(module_type) {
        None => Err(format!(
            "{specifier:?}: this module type is not supported (only JavaScript and JSON modules)"
        )),
        Some(kind) => {
            resolve_module_specifier(global, &specifier, &info.base_url).map(|url| (url, kind))
        }
    };
    // Step 11 for `import()`: if resolving threw, perform
    // FinishLoadingImportedModule(referrer, moduleRequest, payload,
    // ThrowCompletion(resolutionError)) now: returning false with the
    // TypeError pending makes SpiderMonkey finish the load with it, so the
    // promise is rejected without waiting for a task.
    if graph.is_none() {
        if let Err(message) = &target {
            crate::dom::bindings::error::throw_type_error(cx, message);
            return false;
        }
    }
    let load = PendingLoad {
        global: RootedTraceableBox::new(Heap::default()),
        referrer: RootedTraceableBox::new(Heap::default()),
        request: RootedTraceableBox::new(Heap::default()),
        payload: RootedTraceableBox::new(Heap::default()),
        target,
        credentials: info.credentials,
        graph,
    };
    load.global.set(global.global_object());
    // SAFETY: `referrer` and `payload` are rooted handles SpiderMonkey
    // passed to this hook, valid for its call; the values are read now,
    // after the calls above that can collect, and stored at once in the
    // `load`'s roots (no GC in between).
    load.referrer.set(unsafe { *referrer.ptr });
    load.request.set(request.get());
    // SAFETY: as above.
    load.payload.set(unsafe { *payload.ptr });
    match graph {
        Some(_) => STATIC_LOADS.with(|loads| {
            let mut loads = loads.borrow_mut();
            // Step 7: a resolution error of any request of the referrer is
            // reported before its other requests are fetched (so it wins
            // over a fetch failure of an earlier one).
            if load.target.is_err() {
                loads.push_front(load);
            } else {
                loads.push_back(load);
            }
        }),
        // Step 16 for `import()` of a module already in the module map:
        // "fetch a single module script" runs onComplete at once (step 5),
        // so the load finishes now, without a task (SpiderMonkey links and
        // evaluates it from a promise job).
        None if load
            .target
            .as_ref()
            .is_ok_and(|(url, kind)| module_map_get(global, url, *kind).is_some()) =>
        {
            finish_dynamic_import(cx, &load);
        }
        None => EventLoop::current().queue_task(Box::new(move |cx| {
            let Some(global) = NonNull::new(load.global.get()) else {
                return;
            };
            let mut realm = AutoRealm::new(cx, global);
            continue_dynamic_import(&mut realm, load);
        })),
    }
    true
}

/// Makes a `TypeError` with `message` (in the current realm) and returns
/// it.
fn new_type_error(cx: &mut JSContext, message: &str, out: mozjs::rust::MutableHandleValue) {
    crate::dom::bindings::error::throw_type_error(cx, message);
    take_exception(cx, out);
}

/// Makes `error` (an exception value, e.g. a script's error to rethrow)
/// the pending exception, for "report the exception".
fn set_pending_exception(cx: &mut JSContext, error: JSVal) {
    rooted!(&in(cx) let error = error);
    // SAFETY: `cx` is this thread's live context and `error` is rooted for
    // the call; the engine copies the value into its own root.
    unsafe {
        wrappers2::JS_SetPendingException(
            cx,
            error.handle(),
            mozjs::jsapi::ExceptionStackBehavior::DoNotCapture,
        )
    };
}

/// Takes the pending exception into `out` (undefined if none).
fn take_exception(cx: &mut JSContext, mut out: mozjs::rust::MutableHandleValue) {
    // SAFETY: queries of this thread's live context; `out` is a rooted
    // handle (the caller's), which the pending value goes into before the
    // context's own root is cleared.
    unsafe {
        if wrappers2::JS_IsExceptionPending(cx) {
            wrappers2::JS_GetPendingException(cx, out.reborrow());
            wrappers2::JS_ClearPendingException(cx);
        } else {
            out.set(UndefinedValue());
        }
    }
}

/// What fetching a single module script gave: the record or the parse
/// error (both rooted by the caller right away), or null.
enum Fetched {
    Record(*mut JSObject),
    ParseError(JSVal),
    Null,
}

/// Looks `(url, kind)` up in `global`'s module map.
fn module_map_get(global: &GlobalScope, url: &url::Url, kind: Kind) -> Option<Fetched> {
    let map = global.modules().map.borrow();
    let script = map.get(&(url.clone(), kind))?;
    Some(if !script.record.get().is_null() {
        Fetched::Record(script.record.get())
    } else {
        Fetched::ParseError(script.parse_error.get())
    })
}

/// Stores a module script in `global`'s module map; a null one removes
/// the entry instead (null is not cached).
fn module_map_set(global: &GlobalScope, url: url::Url, kind: Kind, fetched: &Fetched) {
    let script = Box::new(ModuleScript {
        record: Heap::default(),
        parse_error: Heap::default(),
    });
    match fetched {
        Fetched::Null => {
            global.modules().map.borrow_mut().remove(&(url, kind));
            return;
        }
        Fetched::Record(record) => script.record.set(*record),
        Fetched::ParseError(error) => script.parse_error.set(*error),
    }
    global
        .modules()
        .map
        .borrow_mut()
        .insert((url, kind), script);
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-single-module-script>
/// (`cx` in `global`'s realm): the module map first; else a request in
/// mode "cors" (credentials from `credentials`) through the document
/// component's script fetch state machine (a cross-origin response without
/// `Access-Control-Allow-Origin` is a network error), an ok status and a
/// JavaScript (or JSON) MIME type; then "create a module script", stored
/// in the module map (a null result is not stored).
fn fetch_single_module_script(
    cx: &mut JSContext,
    global: &GlobalScope,
    url: &url::Url,
    kind: Kind,
    credentials: CorsSettings,
) -> Fetched {
    // Step 4-5: If moduleMap[(url, moduleType)] exists, run onComplete
    // given moduleMap[(url, moduleType)], and return. (Fetches complete
    // synchronously: no entry stays "fetching".)
    if let Some(fetched) = module_map_get(global, url, kind) {
        return fetched;
    }
    let fetched = match fetch_module_source(global, url, kind, credentials) {
        Err(reason) => {
            // processResponseConsumeBody: a network error, a status that is
            // not ok, or a MIME type that is not acceptable: moduleScript
            // is null. Null is not stored: moduleMap[(url, moduleType)] is
            // removed, so a later request fetches again
            // (<https://github.com/whatwg/html/pull/10327>).
            eprintln!("module script not loaded: {reason}");
            Fetched::Null
        }
        // Step 12.6: create a JavaScript (or JSON) module script given
        // sourceText, settingsObject, response's URL, and options.
        Ok((source, response_url)) => {
            let record = fetched_module_record(&response_url, &global.origin());
            create_module_script(cx, &source, record, &response_url, kind, credentials)
        }
    };
    // Step 12.7: Set moduleMap[(url, moduleType)] to moduleScript (for a
    // null moduleScript: remove the entry).
    module_map_set(global, url.clone(), kind, &fetched);
    fetched
}

/// The network part of "fetch a single module script": the source text
/// and the response URL, or why the result is null.
fn fetch_module_source(
    global: &GlobalScope,
    url: &url::Url,
    kind: Kind,
    credentials: CorsSettings,
) -> Result<(String, url::Url), String> {
    let loader = crate::navigation::browsing_context::loader()
        .ok_or_else(|| format!("{url}: no loader on this thread"))?;
    if crate::runtime::workers::current_worker_terminated() {
        return Err(format!("{url}: the worker was terminated"));
    }
    // Step 7: Let request be a new request whose URL is url, mode is
    // "cors", referrer is referrer, and client is fetchClient.
    // Step 11: Set up the module script request given request and options
    // (credentials mode from options).
    let params = ScriptFetchParams {
        url: url.clone(),
        cors_setting: match credentials {
            CorsSettings::UseCredentials => CorsSettings::UseCredentials,
            _ => CorsSettings::Anonymous,
        },
        client_origin: global.origin(),
        embedder_policy: global.embedder_policy(),
    };
    let fetched = loader
        .fetch_classic_script(params)
        .map_err(|e| format!("{url}: {e}"))?;
    let response_url = match fetched.outcome {
        ScriptCorsOutcome::Blocked(reason) => {
            return Err(format!("{url}: blocked by the CORS check: {reason:?}"))
        }
        ScriptCorsOutcome::Run {
            muted_errors: true, ..
        } => return Err(format!("{url}: a module response must pass the CORS check")),
        ScriptCorsOutcome::Run { response_url, .. } => response_url,
    };
    let response = fetched
        .response
        .ok_or_else(|| format!("{url}: no response"))?;
    // processResponseConsumeBody, step 1: If bodyBytes is null or failure,
    // or response's status is not an ok status, then the result is null.
    if !response.is_ok() {
        return Err(format!(
            "{}: HTTP status {} {}",
            response.url, response.status, response.status_text
        ));
    }
    // Step 2: Let mimeType be the result of extracting a MIME type from
    // response's header list. Step 6: a JavaScript MIME type for
    // "javascript-or-wasm", a JSON MIME type for "json"; anything else is
    // null.
    let mime_type = response.mime_type();
    let acceptable = match kind {
        Kind::JavaScript => mime_type
            .as_ref()
            .is_some_and(crate::loading::script_loading::is_javascript_mime_type),
        Kind::Json => mime_type.as_ref().is_some_and(|m| {
            let essence = m.essence();
            essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
        }),
    };
    if !acceptable {
        return Err(format!(
            "{}: not a {} MIME type ({:?})",
            response.url,
            match kind {
                Kind::JavaScript => "JavaScript",
                Kind::Json => "JSON",
            },
            response.header("Content-Type").unwrap_or_default()
        ));
    }
    // Step 6.1: Let sourceText be the result of UTF-8 decoding bodyBytes
    // (whatever the Content-Type's charset says).
    let source = crate::loading::script_loading::utf8_decode(&response.body);
    Ok((source, response_url))
}

/// The registry record of a fetched module: its response URL, line 1,
/// "basic" (same origin or `data:`) or "cors", never muted.
fn fetched_module_record(response_url: &url::Url, client_origin: &Origin) -> ScriptRecord {
    let basic =
        Origin::of(response_url).same_origin(client_origin) || response_url.scheme() == "data";
    ScriptRecord {
        url: response_url.to_string(),
        start_line: 1,
        cors_status: if basic { "basic" } else { "cors" }.to_owned(),
        muted_errors: false,
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#creating-a-javascript-module-script>
/// (and, for `Kind::Json`, "creating a JSON module script"), in the
/// current realm: `record` names the script (compile file name, start
/// line); it goes into the script registry first. `base_url` is the
/// script's base URL (a fetched module's response URL; an inline one's
/// document base URL).
fn create_module_script(
    cx: &mut JSContext,
    source: &str,
    record: ScriptRecord,
    base_url: &url::Url,
    kind: Kind,
    credentials: CorsSettings,
) -> Fetched {
    // Step 4-6: script's base URL, fetch options; parse error and error to
    // rethrow null.
    let base_url = base_url.clone();
    let filename = CString::new(record.url.replace('\0', "\u{FFFD}")).unwrap_or_default();
    let line = record.start_line.max(1);
    script_registry::register(record);
    let options = CompileOptionsWrapper::new(cx, filename, line);
    let mut text = mozjs::rust::transform_str_to_source_text(source);
    // Step 7: Let result be ParseModule(source, settings's realm, script)
    // (JSON: ParseJSONModule).
    // SAFETY: `cx` is in the realm the module is compiled for (the caller's
    // contract); `options` and `text` are live locals for the call, and
    // `text` borrows `source`, which outlives it. The result is rooted at
    // once by `rooted!`.
    rooted!(&in(cx) let module = unsafe {
        match kind {
            Kind::JavaScript => wrappers2::CompileModule1(cx, options.ptr, &mut text),
            Kind::Json => wrappers2::CompileJsonModule1(cx, options.ptr, &mut text),
        }
    });
    if module.get().is_null() {
        // Step 8: If result is a list of errors, then set script's parse
        // error to result[0] and return script.
        rooted!(&in(cx) let mut error = UndefinedValue());
        take_exception(cx, error.handle_mut());
        return Fetched::ParseError(error.get());
    }
    // A JSON module is a synthetic module record: no script, no
    // host-defined data (it imports nothing and has no import.meta).
    if kind == Kind::Json {
        return Fetched::Record(module.get());
    }
    // Step 9: Set script's record to result (its host-defined data: the
    // private value, an index into this agent's module infos).
    let index = MODULE_INFOS.with(|infos| {
        let mut infos = infos.borrow_mut();
        infos.push(ModuleInfo {
            base_url,
            credentials,
        });
        infos.len() - 1
    });
    let private = Int32Value(index as i32);
    // SAFETY: `module` is a rooted, non-null (checked above) JavaScript
    // module record; an int32 private value is no GC thing, so no barrier
    // or tracing is needed for it.
    unsafe { mozjs::jsapi::SetModulePrivate(module.get(), &private) };
    Fetched::Record(module.get())
}

/// Processes the queued static-import requests until none is left (each
/// one can queue more: the requests of the module it finished).
fn drain_static_loads(cx: &mut JSContext) {
    while let Some(load) = STATIC_LOADS.with(|loads| loads.borrow_mut().pop_front()) {
        let Some(global) = NonNull::new(load.global.get()) else {
            continue;
        };
        let mut realm = AutoRealm::new(cx, global);
        finish_static_load(&mut realm, load);
    }
}

/// Whether the graph `id` stopped loading (failed): its later requests
/// are not fetched.
fn graph_settled(id: u32) -> bool {
    GRAPHS.with(|g| g.borrow().get(&id).is_none_or(|s| s.outcome.is_some()))
}

/// Step 10-16 of HostLoadImportedModule for `load`, up to
/// onSingleFetchComplete: fetch a single imported module script (or find
/// it in the module map) and return its record; otherwise `None`, with the
/// completion's error in `error`: a TypeError for a resolution failure or a
/// null module script, the parse error for one that does not parse (both
/// of those also become the loadState's [[ErrorToRethrow]] if it was null).
fn fetch_imported_module(
    cx: &mut JSContext,
    load: &PendingLoad,
    mut error: mozjs::rust::MutableHandleValue,
) -> Option<*mut JSObject> {
    // SAFETY: `load.global` is rooted (a `RootedTraceableBox`) for as long as
    // `load` lives, which outlives `global`; it was set in the load hook
    // from `GlobalScope::current`, so it is one of our globals.
    let global = unsafe { GlobalScope::from_global(load.global.get()) };
    let (url, kind) = match &load.target {
        // Step 11: If the previous step threw an exception, then
        // FinishLoadingImportedModule(referrer, moduleRequest, payload,
        // ThrowCompletion(resolutionError)); with a loadState, its
        // [[ErrorToRethrow]] becomes resolutionError.
        Err(message) => {
            new_type_error(cx, message, error.reborrow());
            if let Some(graph) = load.graph {
                set_graph_error_to_rethrow(graph, error.get());
            }
            return None;
        }
        Ok(target) => target,
    };
    match fetch_single_module_script(cx, global, url, *kind, load.credentials) {
        // onSingleFetchComplete step 4: NormalCompletion(moduleScript's
        // record).
        Fetched::Record(record) => Some(record),
        // Step 2: If moduleScript is null, then set completion to
        // ThrowCompletion(a new TypeError).
        Fetched::Null => {
            new_type_error(
                cx,
                &format!("could not fetch the imported module {url}"),
                error,
            );
            None
        }
        // Step 3: if moduleScript's parse error is not null, completion is
        // ThrowCompletion(parseError), and loadState.[[ErrorToRethrow]]
        // becomes parseError if it was null.
        Fetched::ParseError(parse_error) => {
            error.set(parse_error);
            if let Some(graph) = load.graph {
                set_graph_error_to_rethrow(graph, parse_error);
            }
            None
        }
    }
}

/// FinishLoadingImportedModule(referrer, moduleRequest, payload,
/// NormalCompletion(record)) for `load` (`use_promise`: a dynamic import,
/// which SpiderMonkey then links and evaluates from a promise job). False
/// if the engine failed (an exception may be pending).
fn finish_loading_imported_module(
    cx: &mut JSContext,
    load: &PendingLoad,
    record: Handle<*mut JSObject>,
    use_promise: bool,
) -> bool {
    rooted!(&in(cx) let referrer = load.referrer.get());
    rooted!(&in(cx) let request = load.request.get());
    rooted!(&in(cx) let payload = load.payload.get());
    // SAFETY: every handle is rooted (locals above and the caller's
    // `record`); `referrer`, `request` and `payload` are the values the
    // engine passed to the load hook for this request, kept alive since by
    // the `load`'s roots; `cx` is in the importing global's realm.
    unsafe {
        wrappers2::FinishLoadingImportedModule(
            cx,
            referrer.handle(),
            request.handle(),
            payload.handle(),
            record,
            use_promise,
        )
    }
}

/// Step 16 of HostLoadImportedModule for a static import: fetch a single
/// imported module script, then onSingleFetchComplete step 5: perform
/// FinishLoadingImportedModule(referrer, moduleRequest, payload,
/// completion).
fn finish_static_load(cx: &mut JSContext, load: PendingLoad) {
    if load.graph.is_none_or(graph_settled) {
        // The graph already failed: nothing more to fetch for it.
        return;
    }
    rooted!(&in(cx) let payload = load.payload.get());
    rooted!(&in(cx) let mut error = UndefinedValue());
    match fetch_imported_module(cx, &load, error.handle_mut()) {
        Some(record) => {
            rooted!(&in(cx) let record = record);
            if !finish_loading_imported_module(cx, &load, record.handle(), false) {
                // An engine failure (out of memory): the graph fails.
                rooted!(&in(cx) let mut failure = UndefinedValue());
                take_exception(cx, failure.handle_mut());
            }
        }
        // SAFETY: `payload` and `error` are rooted locals; `payload` is the
        // engine's payload for this request (see above); no exception is
        // pending (`fetch_imported_module` took it into `error`).
        None => unsafe {
            wrappers2::FinishLoadingImportedModuleFailed(cx, payload.handle(), error.handle());
        },
    }
}

fn set_graph_error_to_rethrow(graph: u32, error: JSVal) {
    GRAPHS.with(|graphs| {
        if let Some(state) = graphs.borrow_mut().get_mut(&graph) {
            if state.error_to_rethrow.is_none() {
                let root = RootedTraceableBox::new(Heap::default());
                root.set(error);
                state.error_to_rethrow = Some(root);
            }
        }
    });
}

/// `LoadRequestedModules`' fulfilment callback.
unsafe extern "C" fn graph_loaded(_cx: *mut RawJSContext, host_defined: RawHandleValue) -> bool {
    // SAFETY: the engine passes a rooted handle to the host-defined value
    // (an int32, no GC thing), valid for this call.
    let id = unsafe { *host_defined.ptr };
    if id.is_int32() {
        GRAPHS.with(|graphs| {
            if let Some(state) = graphs.borrow_mut().get_mut(&(id.to_int32() as u32)) {
                state.outcome = Some(Ok(()));
            }
        });
    }
    true
}

/// `LoadRequestedModules`' rejection callback.
unsafe extern "C" fn graph_failed(
    _cx: *mut RawJSContext,
    host_defined: RawHandleValue,
    error: RawHandleValue,
) -> bool {
    // SAFETY: the engine passes a rooted handle to the host-defined value
    // (an int32, no GC thing), valid for this call.
    let id = unsafe { *host_defined.ptr };
    // SAFETY: a rooted handle to the rejection's error, valid for this
    // call; the value is stored in a new root below before any call that
    // can collect (only a Rust allocation and map lookups in between).
    let error = unsafe { *error.ptr };
    if id.is_int32() {
        GRAPHS.with(|graphs| {
            if let Some(state) = graphs.borrow_mut().get_mut(&(id.to_int32() as u32)) {
                let root = RootedTraceableBox::new(Heap::default());
                root.set(error);
                state.outcome = Some(Err(root));
            }
        });
    }
    true
}

/// How loading a graph's requested modules ended.
enum GraphOutcome {
    Loaded,
    /// Rejected: the loadState's error to rethrow (if any) and the
    /// rejection's error.
    Failed(
        Option<RootedTraceableBox<Heap<JSVal>>>,
        RootedTraceableBox<Heap<JSVal>>,
    ),
}

/// `record.LoadRequestedModules(state)` with a fresh loadState, driven to
/// completion (`cx` in the record's realm).
fn load_requested_modules(cx: &mut JSContext, record: Handle<*mut JSObject>) -> GraphOutcome {
    let id = NEXT_GRAPH.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1).max(1));
        id
    });
    GRAPHS.with(|g| g.borrow_mut().insert(id, GraphState::default()));
    rooted!(&in(cx) let host_defined = Int32Value(id as i32));
    // SAFETY: `record` (the caller's) and `host_defined` are rooted; `cx` is
    // in the record's realm (this function's contract); the callbacks are
    // `extern "C"` functions with the expected signatures, valid forever.
    let started = unsafe {
        wrappers2::LoadRequestedModules(
            cx,
            record,
            host_defined.handle(),
            Some(graph_loaded),
            Some(graph_failed),
        )
    };
    if !started {
        rooted!(&in(cx) let mut failure = UndefinedValue());
        take_exception(cx, failure.handle_mut());
    }
    drain_static_loads(cx);
    let state = GRAPHS
        .with(|g| g.borrow_mut().remove(&id))
        .unwrap_or_default();
    match state.outcome {
        Some(Ok(())) => GraphOutcome::Loaded,
        Some(Err(error)) => GraphOutcome::Failed(state.error_to_rethrow, error),
        None => {
            // Never settled (the engine failed to start loading): a
            // failure with a TypeError.
            let error = RootedTraceableBox::new(Heap::default());
            rooted!(&in(cx) let mut value = UndefinedValue());
            new_type_error(
                cx,
                "the module graph could not be loaded",
                value.handle_mut(),
            );
            error.set(value.get());
            GraphOutcome::Failed(state.error_to_rethrow, error)
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-the-descendants-of-and-link-a-module-script>
/// for the module script `fetched` (`cx` in its realm).
fn fetch_descendants_and_link(
    cx: &mut JSContext,
    fetched: Fetched,
    external: bool,
) -> ModuleResult {
    let mut result = ModuleResult::null(external);
    let record = match fetched {
        Fetched::Null => return result,
        // Step 2: If record is null, then set moduleScript's error to
        // rethrow to moduleScript's parse error, run onComplete given
        // moduleScript, and return.
        Fetched::ParseError(error) => {
            let root = RootedTraceableBox::new(Heap::default());
            root.set(error);
            result.error_to_rethrow = Some(root);
            return result;
        }
        Fetched::Record(record) => record,
    };
    rooted!(&in(cx) let record = record);
    // Step 3-4: Let state be Record { [[ErrorToRethrow]]: null, ... }; let
    // loadingPromise be record.LoadRequestedModules(state).
    match load_requested_modules(cx, record.handle()) {
        // Step 5: Upon fulfillment of loadingPromise: perform
        // record.Link(); if this throws an exception, set moduleScript's
        // error to rethrow to that exception. Run onComplete given
        // moduleScript.
        GraphOutcome::Loaded => {
            result.record.set(record.get());
            // SAFETY: `record` is a rooted module record whose requested
            // modules are all loaded (the graph settled as loaded); `cx` is
            // in its realm.
            if !unsafe { wrappers2::ModuleLink(cx, record.handle()) } {
                rooted!(&in(cx) let mut error = UndefinedValue());
                take_exception(cx, error.handle_mut());
                let root = RootedTraceableBox::new(Heap::default());
                root.set(error.get());
                result.error_to_rethrow = Some(root);
            }
        }
        // Step 6: Upon rejection: if state.[[ErrorToRethrow]] is not null,
        // set moduleScript's error to rethrow to it and run onComplete
        // given moduleScript; otherwise, run onComplete given null.
        GraphOutcome::Failed(error_to_rethrow, _) => {
            if let Some(error) = error_to_rethrow {
                result.record.set(record.get());
                result.error_to_rethrow = Some(error);
            }
        }
    }
    result
}

/// Step 16 of HostLoadImportedModule for `import()`, in a task: see
/// [`finish_dynamic_import`]; then the microtask checkpoint of the task.
fn continue_dynamic_import(cx: &mut JSContext, load: PendingLoad) {
    finish_dynamic_import(cx, &load);
    crate::runtime::perform_microtask_checkpoint(cx);
}

/// Step 16 of HostLoadImportedModule for `import()`: fetch a single
/// imported module script (or find it in the module map), load its
/// descendants, then FinishLoadingImportedModule (SpiderMonkey links and
/// evaluates it from a promise job and settles the promise with its
/// namespace), or reject the promise with the TypeError, parse error, or
/// resolution error.
fn finish_dynamic_import(cx: &mut JSContext, load: &PendingLoad) {
    rooted!(&in(cx) let payload = load.payload.get());
    rooted!(&in(cx) let mut error = UndefinedValue());
    if let Some(record) = fetch_imported_module(cx, load, error.handle_mut()) {
        rooted!(&in(cx) let record = record);
        match load_requested_modules(cx, record.handle()) {
            GraphOutcome::Loaded => {
                if !finish_loading_imported_module(cx, load, record.handle(), true) {
                    report_pending_exception(cx);
                }
                return;
            }
            GraphOutcome::Failed(error_to_rethrow, failure) => {
                error.set(error_to_rethrow.as_ref().unwrap_or(&failure).get());
            }
        }
    }
    // SAFETY: `payload` and `error` are rooted locals; `payload` is the
    // engine's payload for this `import()` (kept alive by `load`'s roots);
    // no exception is pending (each failure above took it into `error`).
    unsafe { wrappers2::FinishLoadingImportedModuleFailed(cx, payload.handle(), error.handle()) };
}

/// The reaction to a rejected evaluation promise: "report an exception
/// given by reason" in the current realm.
unsafe extern "C" fn report_evaluation_failure(
    cx: *mut RawJSContext,
    argc: u32,
    vp: *mut JSVal,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a JSNative called by SpiderMonkey on this thread: `raw` is the
    // live context, and `vp`/`argc` are its argument vector (rooted by the
    // engine for the call), so `args.get(0)` is a valid handle; the reason
    // is rooted at once, before the calls that can collect.
    unsafe {
        let args = mozjs::jsapi::CallArgs::from_vp(vp, argc);
        let mut cx = JSContext::from_ptr(raw);
        rooted!(&in(&mut cx) let reason = *args.get(0).ptr);
        // (An evaluation the memory ceiling stopped is rejected with
        // undefined: it is reported as the out-of-memory error it is, see
        // `crate::runtime::watchdog`; nothing is pending then.)
        if !(reason.get().is_undefined() && crate::runtime::watchdog::memory_stopped()) {
            wrappers2::JS_SetPendingException(
                &mut cx,
                reason.handle(),
                mozjs::jsapi::ExceptionStackBehavior::Capture,
            );
        }
        report_pending_exception(&mut cx);
        args.rval().set(UndefinedValue());
    }
    true
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#run-a-module-script>
/// with preventErrorReporting false (`cx` in the script's realm).
fn run_module_script(cx: &mut JSContext, script: &ModuleResult) {
    // Step 1-4: settings, check if we can run script, prepare to run
    // script (the caller entered the realm).
    // Step 6: If script's error to rethrow is not null, then set
    // evaluationPromise to a promise rejected with it; step 8 reports it.
    if let Some(error) = &script.error_to_rethrow {
        set_pending_exception(cx, error.get());
        report_pending_exception(cx);
        return;
    }
    // Step 7: Otherwise: let record be script's record; set
    // evaluationPromise to record.Evaluate().
    rooted!(&in(cx) let record = script.record.get());
    if record.get().is_null() {
        return;
    }
    rooted!(&in(cx) let mut promise = UndefinedValue());
    // SAFETY: `record` is a rooted, non-null (checked above), linked module
    // record (`fetch_descendants_and_link` linked it); `cx` is in its realm
    // (the caller's contract); `promise` is rooted.
    if !unsafe { wrappers2::ModuleEvaluate(cx, record.handle(), promise.handle_mut()) } {
        // Evaluate did not complete (the agent was terminated, or the
        // engine failed): report what is pending, if anything.
        report_pending_exception(cx);
        return;
    }
    // Step 8: upon rejection of evaluationPromise with reason, report an
    // exception given by reason for script's settings object's global
    // object.
    if promise.get().is_object() {
        // SAFETY: `cx` is this thread's live context, in the script's realm;
        // the promise is rooted at once; `function` is used (to get its
        // object, no GC) only right after its null check and rooted as
        // `on_rejected` before the next call that can collect; the native
        // has the JSNative signature; the name is a static C string.
        unsafe {
            rooted!(&in(cx) let promise = promise.get().to_object());
            let function = mozjs::jsapi::JS_NewFunction(
                cx.raw_cx(),
                Some(report_evaluation_failure),
                1,
                0,
                c"reportModuleError".as_ptr(),
            );
            if function.is_null() {
                return;
            }
            rooted!(&in(cx) let on_rejected = mozjs::jsapi::JS_GetFunctionObject(function));
            rooted!(&in(cx) let none = ptr::null_mut::<JSObject>());
            mozjs::jsapi::AddPromiseReactions(
                cx.raw_cx(),
                promise.handle().into(),
                none.handle().into(),
                on_rejected.handle().into(),
            );
        }
    }
    // Step 9: Clean up after running script (the caller performs the
    // microtask checkpoint).
}

/// What "prepare the script element" does with a `module` or `importmap`
/// script (<https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// from step 12 on, `cx` in the document's realm): an import map is
/// registered at once (`None`); a module script's graph is fetched and
/// linked now (fetches are synchronous) and returned with whether el has
/// an `async` attribute (`script_element` picks the set or list el joins).
pub(crate) fn prepare_module_or_import_map(
    cx: &mut JSContext,
    document: &Document,
    script: &HTMLScriptElement,
    type_: &str,
) -> Option<(ModuleResult, bool)> {
    let element = script.element();
    // Step 10-11: an ASCII case-insensitive match for "module" or
    // "importmap" (the type string has no leading or trailing ASCII
    // whitespace).
    let module = match type_
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase()
        .as_str()
    {
        "module" => true,
        "importmap" => false,
        // Step 11: Otherwise, return (a data block).
        _ => return None,
    };
    // Step 12: Set el's already started to true.
    script.set_already_started(true);
    let global = document.upcast_node().global();
    let src = script.resolved_src();
    if !module {
        // Step 30.1 (src, importmap): queue an element task on the DOM
        // manipulation task source given el to fire an event named error
        // at el, and return (external import maps are not supported).
        if src.is_some() {
            eprintln!("{}: external import maps are not supported", document.url());
            queue_element_event(DomRoot::from_ref(script), "error");
            return None;
        }
        // Step 31 (importmap): Let result be the result of creating an
        // import map parse result given source text and base URL; then
        // "execute the script element": register an import map.
        register_import_map(cx, global, &script.source_text(), &document.url());
        return None;
    }
    let credentials = CorsSettings::from_attribute(element.get_attribute("crossorigin").as_deref());
    let result = match src {
        // Step 30.3-30.5: If the src attribute's value is the empty string
        // or does not parse: queue an element task to fire error, return.
        Some(Err(raw)) => {
            eprintln!(
                "{}: <script type=module src={raw:?}>: not a valid URL",
                document.url()
            );
            queue_element_event(DomRoot::from_ref(script), "error");
            return None;
        }
        // Step 30.11 (module): fetch an external module script graph given
        // url, settings object, options, and onComplete.
        Some(Ok(url)) => fetch_external_module_script_graph(cx, global, &url, credentials),
        // Step 31.2 (module): fetch an inline module script graph, given
        // source text, base URL, settings object, options, and onComplete.
        None => {
            let source = script.source_text();
            if source.is_empty() {
                // Step 6: no src and an empty source text: return.
                return None;
            }
            // (Its base URL: el's node document's document base URL; its
            // file name for the profiler: the document's URL.)
            let record = ScriptRecord::inline(document.url().as_str(), script.line());
            let base_url = document.base_url();
            let fetched = create_module_script(
                cx,
                &source,
                record,
                &base_url,
                Kind::JavaScript,
                credentials,
            );
            fetch_descendants_and_link(cx, fetched, false)
        }
    };
    // Step 33: whether el has an async attribute (the caller picks the
    // set or list el joins, with el's force async and parser document).
    let is_async = element.get_attribute("async").is_some();
    Some((result, is_async))
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-an-external-module-script-graph>
fn fetch_external_module_script_graph(
    cx: &mut JSContext,
    global: &GlobalScope,
    url: &url::Url,
    credentials: CorsSettings,
) -> ModuleResult {
    // Step 2: Fetch a single module script given url, settings object,
    // "script", options, settings object, "client", true, and onComplete:
    // Step 2.1: If result is null, run onComplete given null, and abort.
    // Step 2.2: Fetch the descendants of and link result.
    let fetched = fetch_single_module_script(cx, global, url, Kind::JavaScript, credentials);
    fetch_descendants_and_link(cx, fetched, true)
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#execute-the-script-element>
/// for a module script (`cx` in any realm).
pub(crate) fn execute_module_script_element(
    cx: &mut JSContext,
    document: &Document,
    element: &HTMLScriptElement,
    result: ModuleResult,
) {
    let global = document.upcast_node().global();
    let Some(global_object) = NonNull::new(global.global_object()) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global_object);
    let cx = &mut *realm;
    // Step 2: If el's result is null, then fire an event named error at
    // el, and return.
    if result.is_null() {
        fire_element_event(cx, element, "error");
        return;
    }
    // Step 6 (module): Set document's currentScript attribute to null; run
    // the module script given by el's result.
    let previous = document.current_script();
    document.set_current_script(None);
    run_module_script(cx, &result);
    crate::runtime::perform_microtask_checkpoint(cx);
    // Step 7: Set document's currentScript attribute to oldCurrentScript.
    document.set_current_script(previous.as_deref());
    // Step 8: If el's from an external file is true, then fire an event
    // named load at el.
    if result.external {
        fire_element_event(cx, element, "load");
    }
}

fn fire_element_event(cx: &mut JSContext, element: &HTMLScriptElement, name: &str) {
    let node = element.element().upcast_node();
    let event = Event::new(cx, node.global(), name, false, false);
    event.set_trusted(true);
    node.as_ref().dispatch(cx, &event);
}

/// Queues an element task firing `name` at `element`.
fn queue_element_event(element: DomRoot<HTMLScriptElement>, name: &'static str) {
    EventLoop::current().queue_task(Box::new(move |cx| {
        let global = element.element().upcast_node().global().global_object();
        let Some(global) = NonNull::new(global) else {
            return;
        };
        let mut realm = AutoRealm::new(cx, global);
        fire_element_event(&mut realm, &element, name);
    }));
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#create-an-import-map-parse-result>
/// and <https://html.spec.whatwg.org/multipage/webappapis.html#register-an-import-map>
/// (`cx` in `global`'s realm).
fn register_import_map(cx: &mut JSContext, global: &GlobalScope, input: &str, base_url: &url::Url) {
    // Create an import map parse result, step 2: Parse an import map
    // string given input and baseURL, catching any exceptions; if this
    // threw, set result's error to rethrow to the exception.
    let parsed = match parse_import_map_string(input, base_url) {
        Ok(parsed) => parsed,
        Err(error) => {
            // Register an import map, step 1: If result's error to rethrow
            // is not null, then report an exception given by result's error
            // to rethrow for global, and return.
            match error {
                ImportMapError::Syntax(message) => throw_json_syntax_error(cx, input, &message),
                ImportMapError::Type(message) => {
                    crate::dom::bindings::error::throw_type_error(cx, &message)
                }
            }
            report_pending_exception(cx);
            return;
        }
    };
    for warning in &parsed.warnings {
        eprintln!("{base_url}: {warning}");
    }
    // Step 2: Merge existing and new import maps, given global and
    // result's import map.
    let warnings = global.modules().imports.borrow_mut().merge(parsed.map);
    for warning in warnings {
        eprintln!("{base_url}: {warning}");
    }
}

/// Throws the `SyntaxError` `JSON.parse(input)` throws (the engine's own
/// message, as browsers report it), or one with `message`.
fn throw_json_syntax_error(cx: &mut JSContext, input: &str, message: &str) {
    let text: Vec<u16> = input.encode_utf16().collect();
    rooted!(&in(cx) let mut value = UndefinedValue());
    // SAFETY: `cx` is this thread's live context; `text` is a live local
    // buffer of `text.len()` UTF-16 units for the call; `value` is rooted.
    let parsed = unsafe {
        mozjs::jsapi::JS_ParseJSON(
            cx.raw_cx(),
            text.as_ptr(),
            text.len() as u32,
            value.handle_mut().into(),
        )
    };
    // SAFETY: a plain query of this thread's live context.
    if parsed || !unsafe { wrappers2::JS_IsExceptionPending(cx) } {
        let message = CString::new(format!("import map: {message}")).unwrap_or_default();
        // SAFETY: `cx` is this thread's live context; `message` is a
        // NUL-terminated string that outlives the call (the engine copies
        // it); no format arguments are passed.
        unsafe { mozjs::jsapi::JS_ReportErrorUTF8(cx.raw_cx(), message.as_ptr()) };
    }
}

/// `import.meta.resolve(specifier)`
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#hostgetimportmetaproperties>
/// step 4): resolve a module specifier given the module script (whose
/// base URL is in reserved slot 0) and `ToString(specifier)`.
unsafe extern "C" fn import_meta_resolve(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a JSNative called by SpiderMonkey on this thread: `raw` is the
    // live context and `vp`/`argc` its rooted argument vector, whose callee
    // is the `resolve` function made by `host_get_import_meta_properties`
    // (one reserved slot, the base URL string, kept alive by the rooted
    // callee). `base` is read and converted before any call that can
    // collect; the argument and every new string are rooted or stored in
    // the rooted return value at once. `global` is the entered realm's
    // global, alive while it is entered (this call).
    unsafe {
        let args = mozjs::jsapi::CallArgs::from_vp(vp, argc);
        let mut cx = JSContext::from_ptr(raw);
        let cx = &mut cx;
        let base = *mozjs::jsapi::GetFunctionNativeReserved(args.callee(), 0);
        let base_url = if base.is_string() {
            NonNull::new(base.to_string())
                .map(|s| mozjs::conversions::jsstr_to_string(cx, s))
                .and_then(|s| url::Url::parse(&s).ok())
        } else {
            None
        };
        // Step 4.1: Set specifier to ? ToString(specifier).
        rooted!(&in(cx) let argument = *args.get(0).ptr);
        let string = mozjs::rust::ToString(cx, argument.handle());
        let Some(string) = NonNull::new(string) else {
            return false;
        };
        let specifier = mozjs::conversions::jsstr_to_string(cx, string);
        let Some(global) = GlobalScope::current(cx) else {
            return false;
        };
        let base_url = base_url.unwrap_or_else(|| global.api_base_url());
        // Step 4.2: Let url be the result of resolving a module specifier
        // given moduleScript and specifier.
        match resolve_module_specifier(global, &specifier, &base_url) {
            // Step 4.3: Return the serialization of url.
            Ok(url) => {
                let text: Vec<u16> = url.as_str().encode_utf16().collect();
                let string = wrappers2::JS_NewUCStringCopyN(cx, text.as_ptr(), text.len());
                if string.is_null() {
                    return false;
                }
                args.rval().set(StringValue(&*string));
                true
            }
            Err(message) => {
                crate::dom::bindings::error::throw_type_error(cx, &message);
                false
            }
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#hostgetimportmetaproperties>
/// (SpiderMonkey's module metadata hook): `import.meta.url` is the module
/// script's base URL, serialized; `import.meta.resolve` resolves against
/// it.
unsafe extern "C" fn host_get_import_meta_properties(
    cx: *mut RawJSContext,
    module: RawHandleObject,
    meta: RawHandleObject,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: called by SpiderMonkey on this thread's live context with
    // rooted handles to a non-null module record and its `import.meta`
    // object, valid for this call; `module` is read just for the private
    // query (no GC); every new string or function is null-checked and
    // rooted before the next call that can collect; `text` outlives the
    // copy; the names are static C strings.
    unsafe {
        let mut cx = JSContext::from_ptr(raw);
        let cx = &mut cx;
        rooted!(&in(cx) let mut private = UndefinedValue());
        mozjs::glue::JS_GetModulePrivate(*module.ptr, private.handle_mut().into());
        // Step 1: Let moduleScript be module.[[HostDefined]].
        let info = private
            .get()
            .is_int32()
            .then(|| {
                MODULE_INFOS.with(|i| i.borrow().get(private.get().to_int32() as usize).cloned())
            })
            .flatten();
        let Some(info) = info else {
            return true;
        };
        // Step 3: Let urlString be moduleScript's base URL, serialized.
        let text: Vec<u16> = info.base_url.as_str().encode_utf16().collect();
        let string = wrappers2::JS_NewUCStringCopyN(cx, text.as_ptr(), text.len());
        if string.is_null() {
            return false;
        }
        rooted!(&in(cx) let url = StringValue(&*string));
        rooted!(&in(cx) let meta = *meta.ptr);
        // Step 6: Return « Record { [[Key]]: "url", [[Value]]: urlString },
        // Record { [[Key]]: "resolve", [[Value]]: resolveFunction } ».
        if !wrappers2::JS_DefineProperty(
            cx,
            meta.handle(),
            c"url".as_ptr(),
            url.handle(),
            mozjs::jsapi::JSPROP_ENUMERATE as u32,
        ) {
            return false;
        }
        // Step 4-5: Let resolveFunction be
        // ! CreateBuiltinFunction(steps, 1, "resolve", « »).
        let function = mozjs::jsapi::NewFunctionWithReserved(
            cx.raw_cx(),
            Some(import_meta_resolve),
            1,
            0,
            c"resolve".as_ptr(),
        );
        if function.is_null() {
            return false;
        }
        rooted!(&in(cx) let resolve = mozjs::jsapi::JS_GetFunctionObject(function));
        mozjs::jsapi::SetFunctionNativeReserved(resolve.get(), 0, &url.get());
        rooted!(&in(cx) let resolve_value = ObjectValue(resolve.get()));
        wrappers2::JS_DefineProperty(
            cx,
            meta.handle(),
            c"resolve".as_ptr(),
            resolve_value.handle(),
            (mozjs::jsapi::JSPROP_ENUMERATE) as u32,
        )
    }
}

/// Why a module worker's script did not start.
pub(crate) enum WorkerModuleError {
    /// Null, or an error to rethrow: the `Worker` gets a plain `error`
    /// event (the reason goes to the console).
    NotRunnable(String),
}

/// A module worker's script
/// (<https://html.spec.whatwg.org/multipage/workers.html#run-a-worker>
/// step 12, "fetch a module worker script graph", and onComplete steps
/// 1-10): the fetched root (`source` from `response_url`, requested as
/// `request_url`) becomes a module script in the worker's module map, its
/// descendants are fetched (CORS, credentials from the worker's options)
/// and linked, then it runs; its evaluation errors are reported in the
/// worker. `cx` is in the worker global's realm.
pub(crate) fn run_module_worker_script(
    cx: &mut JSContext,
    source: &str,
    request_url: &url::Url,
    response_url: &url::Url,
    credentials: CorsSettings,
) -> Result<(), WorkerModuleError> {
    // SAFETY: `cx` is in the worker global's realm (this function's
    // contract), which keeps its global alive while entered, i.e. for this
    // whole call; `global` does not outlive it.
    let Some(global) = (unsafe { GlobalScope::current(cx) }) else {
        return Err(WorkerModuleError::NotRunnable("no global".to_owned()));
    };
    global.modules().module_worker.set(true);
    // The MIME type was checked by the worker script fetch (HTTP(S)); a
    // module script of another scheme needs one too (step 6 of "fetch a
    // single module script" applies to every response).
    let record = fetched_module_record(response_url, &global.origin());
    let fetched = create_module_script(
        cx,
        source,
        record,
        response_url,
        Kind::JavaScript,
        credentials,
    );
    module_map_set(global, request_url.clone(), Kind::JavaScript, &fetched);
    let result = fetch_descendants_and_link(cx, fetched, false);
    // onComplete step 1: If script is null or if script's error to rethrow
    // is non-null, then queue a global task to fire an event named error
    // at worker (the caller), and abort these steps.
    if result.is_null() {
        return Err(WorkerModuleError::NotRunnable(format!(
            "{response_url}: a module of the worker's graph could not be fetched"
        )));
    }
    if let Some(error) = &result.error_to_rethrow {
        set_pending_exception(cx, error.get());
        let description = crate::dom::globals::globalscope::take_pending_exception(cx)
            .map(|e| e.to_string())
            .unwrap_or_default();
        return Err(WorkerModuleError::NotRunnable(description));
    }
    // Step 10: Otherwise, it is a module script; run the module script
    // script.
    run_module_script(cx, &result);
    Ok(())
}
