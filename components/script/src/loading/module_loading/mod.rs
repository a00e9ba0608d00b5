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
//!
//! By concern: this module holds the types (the module map, the agent's
//! module state, a graph's result); `fetch` the module map's look-ups and
//! "fetch a single module script" / "create a module script"; `graph`
//! fetching the descendants of and linking a module graph; `evaluate`
//! running a module script and a module worker's script; `hooks` the
//! engine's host hooks (`HostLoadImportedModule`, dynamic `import()`,
//! `import.meta`); `element` `<script type="module">` and
//! `<script type="importmap">`; `errors` pending-exception helpers.

mod element;
mod errors;
mod evaluate;
mod fetch;
mod graph;
mod hooks;

pub(crate) use element::execute_module_script_element;
pub(crate) use element::prepare_module_or_import_map;
pub(crate) use evaluate::run_module_worker_script;
pub(crate) use evaluate::WorkerModuleError;
pub(crate) use hooks::install_hooks;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};

use jsprof_document::CorsSettings;
use mozjs::gc::{RootedTraceableBox, Traceable};
use mozjs::jsapi::{Heap, JSObject, JSScript, JSTracer, ModuleType};
use mozjs::jsval::JSVal;

use crate::loading::import_map::ImportMapState;

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
