//! `WorkerGlobalScope` (<https://html.spec.whatwg.org/multipage/workers.html#the-workerglobalscope-common-interface>):
//! the part of a worker's global that every kind of worker has (the
//! shell only has dedicated workers, whose global is a
//! `DedicatedWorkerGlobalScope` holding this struct). The global object
//! *is* the platform object (see `GlobalScope::create_global`).
//!
//! Holds the worker global scope's URL, the environment settings object's
//! state that the worker's script response decides (origin, document and
//! embedder policy, secure context), the map of active timers, and the
//! lazily made `location`/`console`/`performance`.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::WorkerGlobalScopeBinding::WorkerGlobalScopeMethods;
use crate::dom::bindings::conversions::USVString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::console::Console;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::performance::Performance;
use crate::dom::workers::workerlocation::WorkerLocation;
use crate::loading::script_loading::ClassicScriptRun;
use crate::loading::worker_scripts::ImportError;
use crate::runtime::workers::WorkerShared;

#[derive(JSTraceable)]
pub struct WorkerGlobalScope {
    eventtarget: EventTarget,
    /// <https://html.spec.whatwg.org/multipage/workers.html#concept-workerglobalscope-url>
    #[no_trace]
    url: RefCell<url::Url>,
    location: MutNullableDom<WorkerLocation>,
    console: MutNullableDom<Console>,
    performance: MutNullableDom<Performance>,
    navigator: MutNullableDom<crate::dom::workers::workernavigator::WorkerNavigator>,
    /// <https://html.spec.whatwg.org/multipage/workers.html#set-up-a-worker-environment-settings-object>'s
    /// origin: the owner's, or an opaque one for a `data:` worker.
    #[no_trace]
    origin: RefCell<jsprof_document::Origin>,
    /// The document policy of the worker's policy container (see
    /// `jsprof_document::worker_document_policy`).
    #[no_trace]
    document_policy: Cell<Option<jsprof_document::DocumentPolicy>>,
    /// <https://html.spec.whatwg.org/multipage/workers.html#concept-workerglobalscope-embedder-policy>
    #[no_trace]
    embedder_policy: Cell<jsprof_document::EmbedderPolicyValue>,
    /// Whether the worker's environment is a secure context.
    secure_context: Cell<bool>,
    /// What the worker shares with its owner (its closing flag, the
    /// owner's event loop), set when the worker starts.
    #[no_trace]
    shared: RefCell<Option<Arc<WorkerShared>>>,
}

impl AsRef<EventTarget> for WorkerGlobalScope {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl WorkerGlobalScope {
    pub(crate) fn new_inherited() -> WorkerGlobalScope {
        WorkerGlobalScope {
            eventtarget: EventTarget::new_inherited(),
            url: RefCell::new(url::Url::parse("about:blank").expect("about:blank parses")),
            location: MutNullableDom::default(),
            console: MutNullableDom::default(),
            performance: MutNullableDom::default(),
            navigator: MutNullableDom::default(),
            origin: RefCell::new(jsprof_document::Origin::new_opaque()),
            document_policy: Cell::new(None),
            embedder_policy: Cell::new(Default::default()),
            secure_context: Cell::new(false),
            shared: RefCell::new(None),
        }
    }

    pub(crate) fn global_scope(&self) -> &GlobalScope {
        // SAFETY: this struct lives in its global's DOM slot.
        unsafe { GlobalScope::from_global(self.reflector().get_jsobject()) }
    }

    pub fn upcast_event_target(&self) -> &EventTarget {
        &self.eventtarget
    }

    /// The worker global scope's URL (its script's response URL).
    pub fn url(&self) -> url::Url {
        self.url.borrow().clone()
    }

    pub(crate) fn set_url(&self, url: url::Url) {
        *self.url.borrow_mut() = url;
    }

    pub fn origin(&self) -> jsprof_document::Origin {
        self.origin.borrow().clone()
    }

    pub(crate) fn set_origin(&self, origin: jsprof_document::Origin) {
        *self.origin.borrow_mut() = origin;
    }

    pub fn document_policy(&self) -> Option<jsprof_document::DocumentPolicy> {
        self.document_policy.get()
    }

    pub(crate) fn set_document_policy(&self, policy: jsprof_document::DocumentPolicy) {
        self.document_policy.set(Some(policy));
    }

    pub fn embedder_policy(&self) -> jsprof_document::EmbedderPolicyValue {
        self.embedder_policy.get()
    }

    pub(crate) fn set_embedder_policy(&self, value: jsprof_document::EmbedderPolicyValue) {
        self.embedder_policy.set(value);
    }

    pub fn is_secure_context(&self) -> bool {
        self.secure_context.get()
    }

    pub(crate) fn set_secure_context(&self, secure: bool) {
        self.secure_context.set(secure);
    }

    pub(crate) fn shared(&self) -> Option<Arc<WorkerShared>> {
        self.shared.borrow().clone()
    }

    pub(crate) fn set_shared(&self, shared: Arc<WorkerShared>) {
        *self.shared.borrow_mut() = Some(shared);
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-closing>
    pub fn closing(&self) -> bool {
        self.shared().is_some_and(|s| s.is_closing())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#import-scripts-into-worker-global-scope>
    fn import_scripts(&self, cx: &mut JSContext, urls: Vec<USVString>) -> Fallible<()> {
        // Step 2: Let settings object be the current settings object.
        let global = self.global_scope();
        // Step 1: If worker global scope's type is "module", throw a
        // TypeError exception.
        if global.modules().is_module_worker() {
            return Err(Error::Type(
                "importScripts() cannot be used in a module worker (use import)".to_owned(),
            ));
        }
        // Step 3: If urls is empty, return.
        if urls.is_empty() {
            return Ok(());
        }
        // Step 4: Let urlRecords be « ».
        // Step 5: For each url of urls:
        let base = global.api_base_url();
        let mut url_records = Vec::with_capacity(urls.len());
        for url in &urls {
            // Step 5.1: Let urlRecord be the result of encoding-parsing a
            // URL given url, relative to settings object.
            // Step 5.2: If urlRecord is failure, then throw a "SyntaxError"
            // DOMException.
            let record = base.join(&url.0).map_err(|_| {
                Error::dom_with_message(
                    DomExceptionName::SyntaxError,
                    format!("importScripts: {:?} is not a valid URL", url.0),
                )
            })?;
            // Step 5.3: Append urlRecord to urlRecords.
            url_records.push(record);
        }
        let loader = crate::navigation::browsing_context::loader().ok_or_else(|| {
            Error::dom_with_message(
                DomExceptionName::NetworkError,
                "importScripts: this worker has no loader",
            )
        })?;
        // Step 6: For each urlRecord of urlRecords:
        for url in url_records {
            // A terminated worker fetches no further URL: its script is
            // being aborted ("terminate a worker" step 3; an uncatchable
            // termination, nothing pending).
            if crate::runtime::workers::current_worker_terminated() {
                return Err(Error::JSFailed);
            }
            // Step 6.1: Fetch a classic worker-imported script given
            // urlRecord and settings object. If this succeeds, let script
            // be the result. Otherwise, rethrow the exception.
            let (source, record) =
                crate::loading::worker_scripts::fetch_classic_worker_imported_script(
                    &*loader,
                    &url,
                    &global.origin(),
                    global.embedder_policy(),
                )
                .map_err(|ImportError::Network(reason)| {
                    Error::dom_with_message(
                        DomExceptionName::NetworkError,
                        format!("importScripts: {reason}"),
                    )
                })?;
            // Step 6.2: Run the classic script script, with rethrow errors
            // set to true. If an exception was thrown or if the script was
            // prematurely aborted, then abort all these steps, letting the
            // exception or aborting continue to be processed by the calling
            // script.
            match crate::loading::script_loading::run_classic_script_with(cx, &source, record, true)
            {
                ClassicScriptRun::Completed => {}
                ClassicScriptRun::ParseError(_)
                | ClassicScriptRun::Threw
                | ClassicScriptRun::Aborted => return Err(Error::JSFailed),
            }
        }
        Ok(())
    }
}

impl WorkerGlobalScopeMethods for WorkerGlobalScope {
    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-self>
    fn Self_(&self, _cx: &mut JSContext) -> DomRoot<WorkerGlobalScope> {
        DomRoot::from_ref(self)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-location>:
    /// this's WorkerLocation object.
    fn Location(&self, cx: &mut JSContext) -> DomRoot<WorkerLocation> {
        self.location
            .or_init(|| WorkerLocation::new(cx, self.global_scope(), self.url()))
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-worker-navigator>:
    /// this's WorkerNavigator object.
    fn Navigator(
        &self,
        cx: &mut JSContext,
    ) -> DomRoot<crate::dom::workers::workernavigator::WorkerNavigator> {
        self.navigator.or_init(|| {
            crate::dom::workers::workernavigator::WorkerNavigator::new(cx, self.global_scope())
        })
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-importscripts>:
    /// import scripts into worker global scope given this and urls.
    fn ImportScripts(&self, cx: &mut JSContext, urls: Vec<USVString>) -> Fallible<()> {
        self.import_scripts(cx, urls)
    }

    // The WindowOrWorkerGlobalScope mixin (webidl/WindowOrWorkerGlobalScope.webidl),
    // implemented once by `GlobalScope`.
    crate::window_or_worker_global_scope_methods!();

    /// `console` (see the deviation in `WorkerGlobalScope.webidl`).
    fn Console(&self, cx: &mut JSContext) -> DomRoot<Console> {
        self.console
            .or_init(|| Console::new(cx, self.global_scope()))
    }
}
