//! `DedicatedWorkerGlobalScope`
//! (<https://html.spec.whatwg.org/multipage/workers.html#dedicated-workers-and-the-dedicatedworkerglobalscope-interface>),
//! the `[Global]` interface of a dedicated worker's realm, and
//! [`run_a_worker`], the body of a worker's thread.
//!
//! A worker's implicit message ports are not objects here: the worker
//! global scope's inside port is its event loop's inbox (what the owner
//! posts arrives there) and the outside port is its owner's inbox, whose
//! tasks find the `Worker` object by the worker's ID
//! ([`crate::dom::workers::worker::Worker`]). Both port message queues are enabled
//! once the worker's script has run: the worker's loop, which delivers
//! the owner's messages, starts only then.

use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::DedicatedWorkerGlobalScopeBinding::DedicatedWorkerGlobalScopeMethods;
use crate::dom::bindings::conversions::{DOMString, RootedJsValue};
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::structuredclone::{
    structured_deserialize, structured_serialize, Serialized,
};
use crate::dom::events::eventtarget::AsEventTarget;
use crate::dom::events::messageevent::MessageEvent;
use crate::dom::globals::globalscope::{GlobalKind, GlobalScope, Prefs};
use crate::dom::workers::worker::Worker;
use crate::dom::workers::workerglobalscope::WorkerGlobalScope;
use crate::loading::script_loading::{ClassicScriptRun, Loader, SharedLoader};
use crate::loading::script_registry::ScriptRecord;
use crate::runtime::event_loop::EventLoop;
use crate::runtime::workers::{PublishedContext, WorkerShared};
use crate::runtime::{JsRuntime, RuntimeOptions, ScriptError};

#[derive(JSTraceable)]
pub struct DedicatedWorkerGlobalScope {
    workerglobalscope: WorkerGlobalScope,
    /// <https://html.spec.whatwg.org/multipage/workers.html#concept-workerglobalscope-name>
    name: std::cell::RefCell<String>,
}

impl AsRef<WorkerGlobalScope> for DedicatedWorkerGlobalScope {
    fn as_ref(&self) -> &WorkerGlobalScope {
        &self.workerglobalscope
    }
}

impl DedicatedWorkerGlobalScope {
    /// Makes `global` the DedicatedWorkerGlobalScope platform object:
    /// stores a new struct in its DOM slot, sets its \[\[Prototype]] to
    /// `DedicatedWorkerGlobalScope.prototype`
    /// (<https://webidl.spec.whatwg.org/#internally-create-a-new-object-implementing-the-interface>
    /// for a `[Global]` interface).
    pub(crate) fn attach_to_global(cx: &mut JSContext, global: HandleObject) -> Result<(), String> {
        let scope = Box::new(DedicatedWorkerGlobalScope {
            workerglobalscope: WorkerGlobalScope::new_inherited(),
            name: std::cell::RefCell::new(String::new()),
        });
        GlobalScope::attach_platform_object(cx, global, scope)
    }

    pub fn upcast_worker(&self) -> &WorkerGlobalScope {
        &self.workerglobalscope
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2>:
    /// an error not handled in the worker is reported to the worker's
    /// `Worker` object: queues (in the owner) the task that fires
    /// `ErrorEvent` at it. Returns false if there is no owner to report to
    /// any more.
    pub(crate) fn report_error_to_owner(&self, error: &ScriptError) -> bool {
        let Some(shared) = self.workerglobalscope.shared() else {
            return false;
        };
        let id = shared.id;
        let error = error.clone();
        shared.owner_inbox.post(Box::new(move |cx| {
            Worker::fire_error_from_worker(cx, id, error)
        }))
    }

    /// The task of the message port post message steps (step 8) for a
    /// message the owner posted: deserialize in this realm and fire
    /// `message` (or `messageerror`) at this global. `cx` is in this
    /// global's realm.
    fn deliver_message(&self, cx: &mut JSContext, data: Serialized) {
        // Step 8.1-8.2: finalTargetPort is the inside port; its message
        // event target is this global, targetRealm its realm.
        let scope = self.workerglobalscope.global_scope();
        // Step 8.3: Let deserializeRecord be
        // StructuredDeserializeWithTransfer(serializeWithTransferResult,
        // targetRealm). If this throws an exception, catch it, fire an
        // event named messageerror at finalTargetPort, using MessageEvent,
        // and then return.
        rooted!(&in(cx) let mut value = UndefinedValue());
        if structured_deserialize(cx, &data, value.handle_mut()).is_err() {
            let event =
                MessageEvent::new_message(cx, scope, UndefinedValue(), "", std::ptr::null_mut());
            event
                .upcast_event()
                .initialize("messageerror", false, false);
            self.as_event_target().dispatch(cx, event.upcast_event());
            return;
        }
        // Step 8.4-8.6: Fire an event named message at finalTargetPort,
        // using MessageEvent, with the data attribute initialized to
        // messageClone and the ports attribute initialized to newPorts.
        let event = MessageEvent::new_message(cx, scope, value.get(), "", std::ptr::null_mut());
        self.as_event_target().dispatch(cx, event.upcast_event());
    }

    /// Delivers a message from the owner to the worker of this thread (a
    /// task of its event loop, queued by `Worker.postMessage`).
    pub(crate) fn deliver_message_from_owner(cx: &mut JSContext, data: Serialized) {
        // The event loop runs tasks in the worker global's realm.
        // SAFETY: the current global lives while its realm is entered, which outlasts this
        // call.
        let Some(scope) = (unsafe { GlobalScope::current(cx) }) else {
            return;
        };
        let Some(worker) = scope.as_dedicated_worker() else {
            return;
        };
        // A closing worker runs no more tasks from its owner.
        if worker.workerglobalscope.closing() {
            return;
        }
        worker.deliver_message(cx, data);
    }
}

impl DedicatedWorkerGlobalScopeMethods for DedicatedWorkerGlobalScope {
    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-dedicatedworkerglobalscope-name>:
    /// this's name (the `name` member of the `Worker`'s options).
    fn Name(&self, _cx: &mut JSContext) -> DOMString {
        self.name.borrow().clone()
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-dedicatedworkerglobalscope-postmessage>:
    /// post a message on this's inside port
    /// (<https://html.spec.whatwg.org/multipage/web-messaging.html#message-port-post-message-steps>).
    fn PostMessage(&self, cx: &mut JSContext, message: RootedJsValue) -> Fallible<()> {
        // Step 1: Let targetPort be the port with which sourcePort is
        // entangled (the Worker's outside port, in the owner), if any.
        let target = self.workerglobalscope.shared();
        // Step 2-5: transfer (none here).
        // Step 6: Let serializeWithTransferResult be
        // StructuredSerializeWithTransfer(message, transfer). Rethrow any
        // exceptions.
        rooted!(&in(cx) let value = message.get());
        let data = structured_serialize(cx, value.handle())?;
        // Step 7: If targetPort is null, or if doomed is true, then return.
        let Some(target) = target else {
            return Ok(());
        };
        // Step 8: Add a task that runs the following steps to the port
        // message queue of targetPort (see `Worker::deliver_message`).
        let id = target.id;
        target
            .owner_inbox
            .post(Box::new(move |cx| Worker::deliver_message(cx, id, data)));
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-dedicatedworkerglobalscope-close>:
    /// close a worker given this
    /// (<https://html.spec.whatwg.org/multipage/workers.html#close-a-worker>).
    fn Close(&self, _cx: &mut JSContext) -> Fallible<()> {
        // Step 1: Discard any tasks that have been added to workerGlobal's
        // relevant agent's event loop's task queues.
        EventLoop::current().discard_tasks();
        // Step 2: Set workerGlobal's closing flag to true. (This prevents
        // any further tasks from being queued; the event loop ends after
        // the current task.)
        if let Some(shared) = self.workerglobalscope.shared() {
            shared.set_closing();
        }
        Ok(())
    }
}

/// The outside settings object's state a new worker needs
/// (<https://html.spec.whatwg.org/multipage/workers.html#set-up-a-worker-environment-settings-object>).
#[derive(Clone, Debug)]
pub(crate) struct OutsideSettings {
    pub(crate) origin: jsprof_document::Origin,
    /// The creator's document policy (its document's, or its own for a
    /// worker): what a `blob:` or `data:` worker inherits.
    pub(crate) document_policy: jsprof_document::DocumentPolicy,
    pub(crate) embedder_policy: jsprof_document::EmbedderPolicyValue,
    pub(crate) secure_context: bool,
    pub(crate) cross_origin_isolated: bool,
    /// `unsafeWorkerCreationTime`: the worker's time origin.
    pub(crate) worker_creation_time: Instant,
}

/// What `new Worker()` hands to the worker's thread.
pub(crate) struct WorkerInit {
    /// The owner's runtime, this worker's runtime's parent.
    pub(crate) parent: mozjs::rust::ParentRuntime,
    pub(crate) url: url::Url,
    pub(crate) name: String,
    /// A module worker (`{ type: "module" }`): the credentials mode of its
    /// module fetches; `None` for a classic worker.
    pub(crate) module: Option<jsprof_document::CorsSettings>,
    pub(crate) prefs: Prefs,
    pub(crate) loader: Arc<dyn Loader + Send + Sync>,
    pub(crate) outside: OutsideSettings,
    /// The blob URL entry of a `blob:` `url`, resolved when `new Worker()`
    /// parsed it (<https://url.spec.whatwg.org/#concept-url-blob-entry>).
    pub(crate) blob_entry: Option<jsprof_net::BlobEntry>,
}

/// Queues, in the owner, the task firing a plain `error` event at the
/// `Worker` (its script could not be fetched, did not parse, or the worker
/// could not start).
fn queue_simple_error(shared: &WorkerShared) {
    let id = shared.id;
    shared
        .owner_inbox
        .post(Box::new(move |cx| Worker::fire_simple_error(cx, id)));
}

/// <https://html.spec.whatwg.org/multipage/workers.html#run-a-worker> for
/// a dedicated worker, from step 4 on: the body of the worker's thread.
/// Returns when the worker's event loop is destroyed (the worker closed
/// itself, was terminated, or its owner went away), after dropping the
/// worker's runtime.
pub(crate) fn run_a_worker(init: WorkerInit, shared: Arc<WorkerShared>) {
    let WorkerInit {
        parent,
        url,
        name,
        module,
        prefs,
        loader,
        outside,
        blob_entry,
    } = init;
    // Step 4: Let agent be the result of obtaining a dedicated/shared
    // worker agent given outside settings and is shared. Run the rest of
    // these steps in that agent (this thread, with its own SpiderMonkey
    // context).
    // Step 5-6: Let realm execution context be the result of creating a
    // new realm given agent and the customization: create a new
    // DedicatedWorkerGlobalScope object for the global object.
    let options = RuntimeOptions {
        global: GlobalKind::DedicatedWorker,
        prefs,
    };
    let mut runtime = match JsRuntime::new_for_worker(options, parent, shared.inbox.clone()) {
        Ok(runtime) => runtime,
        Err(message) => {
            eprintln!("{url}: the worker could not be started: {message}");
            queue_simple_error(&shared);
            return;
        }
    };
    // "Terminate a worker" may come at any time from now on: its
    // interrupt aborts this context's script.
    runtime.add_interrupt_callback(crate::runtime::workers::interrupt_callback);
    // (Unpublished when `published` drops: before `runtime`, declared
    // earlier, on every way out of this function, unwinding included.)
    let published = PublishedContext::publish(&shared, runtime.thread_safe_context());
    crate::runtime::workers::injected_panic_point();
    crate::navigation::browsing_context::set_loader(Rc::new(SharedLoader(loader.clone())));

    let closing = shared.closing_flag();
    let started = runtime.enter(|cx, global| {
        // SAFETY: `global` is this runtime's global (made by `create_global`), rooted by the
        // runtime for the closure.
        let scope = unsafe { GlobalScope::from_global(global.get()) };
        let Some(worker_global) = scope.as_dedicated_worker() else {
            return false;
        };
        let worker_scope = worker_global.upcast_worker();
        // Step 7: Set up a worker environment settings object with realm
        // execution context, outside settings, and
        // unsafeWorkerCreationTime: its time origin is the worker's
        // creation time, its origin the owner's (until the URL is known).
        scope.set_time_origin(outside.worker_creation_time);
        worker_scope.set_origin(outside.origin.clone());
        crate::runtime::profiling::note_realm_origin(scope);
        // Step 8: Set worker global scope's name to options["name"].
        *worker_global.name.borrow_mut() = name;
        // Step 9: Append owner to worker global scope's owner set.
        worker_scope.set_shared(shared.clone());
        if shared.is_closing() {
            return false;
        }
        // Step 12: Obtain script: fetch a classic worker script given url,
        // outside settings, destination "worker", inside settings, and
        // performFetch.
        let response = match crate::loading::worker_scripts::fetch_classic_worker_script(
            &*loader,
            &url,
            &outside.origin,
            blob_entry.as_ref(),
        ) {
            Ok(response) => response,
            Err(reason) => {
                // onComplete, step 1: If script is null, queue a global
                // task to fire an event named error at worker, run the
                // environment discarding steps, and abort these steps.
                eprintln!("worker script not loaded: {reason}");
                queue_simple_error(&shared);
                return false;
            }
        };
        // performFetch, step 3.1: Set worker global scope's url to
        // response's url.
        worker_scope.set_url(response.url.clone());
        // Step 3.2: Set inside settings's creation URL to response's url.
        // (The settings object's origin: a data: worker has a new opaque
        // origin, any other the owner's.)
        if response.url.scheme() == "data" {
            worker_scope.set_origin(jsprof_document::Origin::new_opaque());
            crate::runtime::profiling::note_realm_origin(scope);
        }
        // (What a local-scheme worker inherits: a blob: worker its blob
        // URL entry's environment's policy container, "creating a policy
        // container from a fetch response" step 1,
        // <https://html.spec.whatwg.org/multipage/browsers.html#creating-a-policy-container-from-a-fetch-response>;
        // a data: worker its owner's.)
        let inherited = response
            .blob_creator_policy
            .unwrap_or(jsprof_document::PolicyContainer {
                document_policy: outside.document_policy,
                embedder_policy: outside.embedder_policy,
            });
        // Step 3.3: Initialize worker global scope's policy container given
        // worker global scope, response, and inside settings: the
        // Document-Policy of a network worker's own response, its
        // creator's for a blob: or data: worker (transitively).
        let policy = jsprof_document::worker_document_policy(
            &response.url,
            &response.headers,
            &inherited.document_policy,
        );
        if let Some(warning) = &policy.outcome.warning {
            eprintln!("{}: {warning}", response.url);
        }
        worker_scope.set_document_policy(policy.outcome.policy);
        let embedder_policy = match policy.source {
            jsprof_document::WorkerPolicySource::Inherited => inherited.embedder_policy,
            jsprof_document::WorkerPolicySource::OwnResponse => {
                jsprof_document::obtain_embedder_policy(&response.headers, outside.secure_context)
                    .value
            }
        };
        worker_scope.set_embedder_policy(embedder_policy);
        // Step 3.6: If the result of checking a global object's embedder
        // policy with worker global scope, outside settings, and response
        // is false, then set response to a network error.
        if !check_embedder_policy(outside.embedder_policy, embedder_policy) {
            eprintln!(
                "{}: worker script blocked: its Cross-Origin-Embedder-Policy is not compatible with its owner's",
                response.url
            );
            queue_simple_error(&shared);
            return false;
        }
        // Step 3.7-3.9: the cross-origin isolated capability: the owner's
        // (the agent cluster's isolation is concrete), and false for a
        // data: worker.
        scope.set_cross_origin_isolated(
            jsprof_document::CrossOriginIsolation::dedicated_worker_is_cross_origin_isolated(
                outside.cross_origin_isolated,
                embedder_policy,
            ) && response.url.scheme() != "data",
        );
        // https://html.spec.whatwg.org/multipage/webappapis.html#secure-context:
        // a worker's environment is secure if its owner's is.
        worker_scope.set_secure_context(jsprof_document::is_secure_context(
            jsprof_document::Environment::Worker {
                owner_is_secure_context: outside.secure_context,
            },
        ));
        // https://webidl.spec.whatwg.org/#SecureContext: the [SecureContext]
        // interfaces and members exist from now on.
        if crate::dom::bindings::glue::expose_secure_context_members_if_secure(cx, scope)
            .is_err()
        {
            queue_simple_error(&shared);
            return false;
        }
        // The JS Self-Profiling API: an eager policy prepares this agent's
        // sampler now, as for a document.
        crate::runtime::profiling::worker_global_created(cx, &policy.outcome.policy);
        // A worker terminated while its script was being fetched runs none
        // of it.
        if shared.is_closing() {
            return false;
        }
        // A module worker: "fetch a module worker script graph" (the root
        // as fetched above, its imports in CORS mode), then run the module
        // script (`module_loading`).
        if let Some(credentials) = module {
            let run = crate::loading::module_loading::run_module_worker_script(
                cx,
                &response.source,
                &url,
                &response.url,
                credentials,
            );
            crate::runtime::perform_microtask_checkpoint(cx);
            return match run {
                Ok(()) => true,
                Err(crate::loading::module_loading::WorkerModuleError::NotRunnable(reason)) => {
                    // onComplete, step 1: fire a plain error event at the
                    // worker (the details go to the console).
                    eprintln!("worker module script not run: {reason}");
                    queue_simple_error(&shared);
                    false
                }
            };
        }
        // Step 3.10 / "fetch a classic worker script" step 4: create a
        // classic script; onComplete step 10: run it.
        let record = ScriptRecord {
            url: response.url.to_string(),
            start_line: 1,
            cors_status: "basic".to_owned(),
            muted_errors: false,
        };
        let run = crate::loading::script_loading::run_classic_script_with(cx, &response.source, record, false);
        // Clean up after running script: a microtask checkpoint.
        crate::runtime::perform_microtask_checkpoint(cx);
        match run {
            ClassicScriptRun::Completed | ClassicScriptRun::Threw => true,
            ClassicScriptRun::ParseError(error) => {
                // onComplete, step 1: script's error to rethrow is non-null:
                // fire a plain error event at the worker (the details go to
                // the console).
                if let Some(error) = error {
                    eprintln!("{error}");
                }
                queue_simple_error(&shared);
                false
            }
            ClassicScriptRun::Aborted => false,
        }
    });
    if started {
        // onComplete, step 11-12: enable the port message queues (the loop
        // delivers the owner's messages from now on).
        // Step 15: Event loop: Run the responsible event loop specified by
        // inside settings until it is destroyed.
        runtime.run_until_closed(closing, &shared.owner_inbox);
    }
    // "Terminate a worker" step 2 / "close a worker" step 1: the tasks left
    // in the queues are discarded.
    // Step 16: Clear the worker global scope's map of active timers.
    runtime.enter(|_cx, global| {
        EventLoop::current().discard_tasks();
        // SAFETY: `global` is this runtime's global (made by `create_global`), rooted by the
        // runtime for the closure.
        let scope = unsafe { GlobalScope::from_global(global.get()) };
        scope.clear_timers();
    });
    // Step 17-18: disentangle the ports, empty the owner set: the worker
    // posts nothing more, and its runtime (its workers, sessions and
    // sampler first) goes.
    drop(published);
    drop(runtime);
}

/// <https://html.spec.whatwg.org/multipage/browsers.html#check-a-global-object's-embedder-policy>
/// for a dedicated worker whose owner's embedder policy value is
/// `owner_policy` and whose own is `policy`.
fn check_embedder_policy(
    owner_policy: jsprof_document::EmbedderPolicyValue,
    policy: jsprof_document::EmbedderPolicyValue,
) -> bool {
    // Step 1: If global is not a DedicatedWorkerGlobalScope object, then
    // return true.
    // Step 2-3: policy and ownerPolicy.
    // Step 4: (report-only values are not implemented.)
    // Step 5: If ownerPolicy's value is not compatible with cross-origin
    // isolation or policy's value is compatible with cross-origin
    // isolation, then return true.
    if !owner_policy.is_compatible_with_cross_origin_isolation()
        || policy.is_compatible_with_cross_origin_isolation()
    {
        return true;
    }
    // Step 6: (violation report not implemented.)
    // Step 7: Return false.
    false
}
