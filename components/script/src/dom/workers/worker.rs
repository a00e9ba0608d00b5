//! `Worker` (<https://html.spec.whatwg.org/multipage/workers.html#dedicated-workers-and-the-worker-interface>):
//! the owner's side of a dedicated worker. Creating one starts the
//! worker's thread (see [`crate::runtime::workers`] and
//! [`crate::dom::workers::dedicatedworkerglobalscope::run_a_worker`]); the tasks
//! the worker posts to its owner ([`Worker::deliver_message`],
//! [`Worker::fire_error_from_worker`], [`Worker::fire_simple_error`]) find
//! this object by the worker's ID in the owner's registry, which roots it
//! while the worker runs.

use std::sync::Arc;
use std::time::Instant;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::jsval::{NullValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::HandleObject;

use crate::dom::bindings::codegen::WorkerBinding::WorkerMethods;
use crate::dom::bindings::codegen::{RequestCredentials, WorkerOptions, WorkerType};
use crate::dom::bindings::conversions::{RootedJsValue, USVString};
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::DomGlobal;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::DomRoot;
use crate::dom::bindings::structuredclone::{
    structured_deserialize, structured_serialize, Serialized,
};
use crate::dom::events::errorevent::ErrorEvent;
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::events::messageevent::MessageEvent;
use crate::dom::globals::globalscope::{report_error_event, GlobalScope};
use crate::dom::workers::dedicatedworkerglobalscope::{
    run_a_worker, DedicatedWorkerGlobalScope, OutsideSettings, WorkerInit,
};
use crate::runtime::event_loop::EventLoop;
use crate::runtime::workers::{self, WorkerShared};
use crate::runtime::ScriptError;

#[derive(JSTraceable)]
pub struct Worker {
    eventtarget: EventTarget,
    /// What this object shares with its worker (the worker's inbox, its
    /// closing and terminated flags).
    #[no_trace]
    shared: Arc<WorkerShared>,
}

impl AsRef<EventTarget> for Worker {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl Drop for Worker {
    /// Collected (only possible once the worker finished or was
    /// terminated, or when its owner's context goes): make sure the worker
    /// does not outlive it. Thread-safe flags only (this runs in the GC's
    /// finalizer).
    fn drop(&mut self) {
        if !self.shared.is_finished() {
            self.shared.terminate();
        }
    }
}

impl Worker {
    /// The `Worker` object of worker `id` in this (the owner's) thread, if
    /// it still receives events, entered in its realm for `f`.
    fn with_worker_object(cx: &mut JSContext, id: u64, f: impl FnOnce(&mut JSContext, &Worker)) {
        let Some(object) = workers::worker_object(id) else {
            return;
        };
        rooted!(&in(cx) let object = object);
        // SAFETY: rooted above; the registry keeps it alive meanwhile.
        let Some(worker) = (unsafe { DomRoot::<Worker>::try_from_object(object.get()) }) else {
            return;
        };
        let mut realm = worker.enter_relevant_realm(cx);
        f(&mut realm, &worker);
    }

    /// The task of the message port post message steps (step 8) for a
    /// message the worker posted: the outside port's message event target
    /// is the `Worker` object. Dropped if the worker was terminated
    /// ("terminate a worker" step 4 empties this port's message queue).
    pub(crate) fn deliver_message(cx: &mut JSContext, id: u64, data: Serialized) {
        Worker::with_worker_object(cx, id, |cx, worker| {
            let global = worker.global_scope();
            // Step 8.3: Let deserializeRecord be
            // StructuredDeserializeWithTransfer(serializeWithTransferResult,
            // targetRealm). If this throws an exception, catch it, fire an
            // event named messageerror at finalTargetPort, using
            // MessageEvent, and then return.
            rooted!(&in(cx) let mut value = UndefinedValue());
            if structured_deserialize(cx, &data, value.handle_mut()).is_err() {
                let event = MessageEvent::new_message(
                    cx,
                    global,
                    UndefinedValue(),
                    "",
                    std::ptr::null_mut(),
                );
                event
                    .upcast_event()
                    .initialize("messageerror", false, false);
                worker.eventtarget.dispatch(cx, event.upcast_event());
                return;
            }
            // Step 8.4-8.6: Fire an event named message at finalTargetPort,
            // using MessageEvent, with the data attribute initialized to
            // messageClone.
            let event =
                MessageEvent::new_message(cx, global, value.get(), "", std::ptr::null_mut());
            worker.eventtarget.dispatch(cx, event.upcast_event());
        });
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#runtime-script-errors-2>:
    /// the task firing an `ErrorEvent` at the `Worker` for an error the
    /// worker did not handle; if it is not canceled, the error is reported
    /// as if it had occurred in the global scope this `Worker` object is in
    /// ("report an exception" one level up: the window's `error` event and
    /// the console, or the parent worker's global and its `Worker`).
    pub(crate) fn fire_error_from_worker(cx: &mut JSContext, id: u64, error: ScriptError) {
        Worker::with_worker_object(cx, id, |cx, worker| {
            let global = worker.global_scope();
            // Fire an event named error at the worker's associated Worker
            // object, using ErrorEvent, with the cancelable attribute
            // initialized to true, the message, filename, lineno, and colno
            // attributes initialized appropriately, and the error attribute
            // initialized to null.
            // (Not canceled if the event cannot be made: the page's heap is
            // at its ceiling.)
            let not_canceled = ErrorEvent::new_error(cx, global, &error, NullValue())
                .is_none_or(|event| worker.eventtarget.dispatch(cx, event.upcast_event()));
            // If the event is not canceled, the user agent must act as if
            // the uncaught runtime script error had occurred in the global
            // scope that the Worker object is in.
            if not_canceled {
                report_error_event(cx, global, error, NullValue());
            }
        });
    }

    /// The task of "run a worker"'s onComplete step 1: "fire an event named
    /// error at worker" (the script could not be fetched or parsed).
    pub(crate) fn fire_simple_error(cx: &mut JSContext, id: u64) {
        Worker::with_worker_object(cx, id, |cx, worker| {
            let event = Event::new(cx, worker.global_scope(), "error", false, false);
            event.set_trusted(true);
            worker.eventtarget.dispatch(cx, &event);
        });
    }
}

impl WorkerMethods for Worker {
    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-worker>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        script_url: USVString,
        options: WorkerOptions,
    ) -> Fallible<DomRoot<Worker>> {
        // Step 1: Let compliantScriptURL be the result of invoking the get
        // trusted type compliant string algorithm (no Trusted Types: the
        // string itself).
        // Step 2: Let outsideSettings be this's relevant settings object.
        // Step 3: Let workerURL be the result of encoding-parsing a URL
        // given compliantScriptURL, relative to outsideSettings.
        // Step 4: If workerURL is failure, then throw a "SyntaxError"
        // DOMException.
        let worker_url = global.api_base_url().join(&script_url.0).map_err(|_| {
            Error::dom_with_message(
                DomExceptionName::SyntaxError,
                format!("Worker: {:?} is not a valid URL", script_url.0),
            )
        })?;
        // Run a worker, step 3: Let unsafeWorkerCreationTime be the unsafe
        // shared current time.
        let worker_creation_time = Instant::now();
        let parent = crate::runtime::parent_for_new_worker().ok_or_else(|| {
            Error::dom_with_message(
                DomExceptionName::InvalidStateError,
                "Worker: this thread has no runtime to create a worker from",
            )
        })?;
        let loader = workers::loader_for_workers().map_err(|reason| {
            Error::dom_with_message(DomExceptionName::NetworkError, format!("Worker: {reason}"))
        })?;
        // Step 5: Let worker be a new Worker object.
        // Step 6-8: Let outsidePort be a new MessagePort in outsideSettings's
        // realm, whose message event target is worker (this thread's event
        // loop inbox, whose tasks find worker by its ID).
        let shared = WorkerShared::new(EventLoop::current().inbox().clone());
        let worker = reflect_dom_object(
            cx,
            global,
            Box::new(Worker {
                eventtarget: EventTarget::new_inherited(),
                shared: shared.clone(),
            }),
            proto,
        );
        // Step 9: Run this step in parallel: run a worker given worker,
        // workerURL, outsideSettings, outsidePort, and options.
        // Step 3 (encoding-parsing workerURL): the URL parser resolves a
        // blob URL's entry now, on this thread
        // (<https://url.spec.whatwg.org/#concept-url-blob-entry>): a
        // revokeObjectURL() after this does not affect the worker.
        let blob_entry = if worker_url.scheme() == "blob" {
            loader.blob_store().resolve(&worker_url)
        } else {
            None
        };
        let init = WorkerInit {
            parent,
            url: worker_url,
            name: options.name,
            // options["type"] and, for a module worker, options["credentials"]
            // (the credentials mode of its static imports).
            module: (options.type_ == WorkerType::Module).then_some(match options.credentials {
                RequestCredentials::Include => jsprof_document::CorsSettings::UseCredentials,
                _ => jsprof_document::CorsSettings::Anonymous,
            }),
            prefs: global.prefs().clone(),
            loader,
            blob_entry,
            outside: OutsideSettings {
                origin: global.origin(),
                document_policy: global.document_policy().unwrap_or_default(),
                embedder_policy: global.embedder_policy(),
                secure_context: global.is_secure_context(),
                cross_origin_isolated: global.cross_origin_isolated(),
                worker_creation_time,
            },
        };
        let spawned = workers::spawn(
            shared,
            worker.reflector().get_jsobject(),
            global.profiler_realm_id(),
            move |shared| run_a_worker(init, shared),
        );
        if let Err(reason) = spawned {
            // The worker cannot run (no thread): as for a script that could
            // not be fetched, the Worker gets an error event.
            eprintln!("Worker: {reason}");
            let target = worker.clone();
            EventLoop::current().queue_task(Box::new(move |cx| {
                let mut realm = target.enter_relevant_realm(cx);
                let event = Event::new(&mut realm, target.global_scope(), "error", false, false);
                event.set_trusted(true);
                target.eventtarget.dispatch(&mut realm, &event);
            }));
        }
        // Step 10: Return worker.
        Ok(worker)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-worker-terminate>:
    /// terminate a worker given this's worker.
    fn Terminate(&self, _cx: &mut JSContext) -> Fallible<()> {
        workers::terminate(&self.shared);
        Ok(())
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-worker-postmessage>:
    /// post a message on this's outside port
    /// (<https://html.spec.whatwg.org/multipage/web-messaging.html#message-port-post-message-steps>).
    fn PostMessage(&self, cx: &mut JSContext, message: RootedJsValue) -> Fallible<()> {
        // Step 1: Let targetPort be the port with which sourcePort is
        // entangled (the worker's inside port), if any; otherwise null.
        let entangled = !self.shared.is_closing();
        // Step 2-5: transfer (none here).
        // Step 6: Let serializeWithTransferResult be
        // StructuredSerializeWithTransfer(message, transfer). Rethrow any
        // exceptions.
        rooted!(&in(cx) let value = message.get());
        let data = structured_serialize(cx, value.handle())?;
        // Step 7: If targetPort is null, or if doomed is true, then return.
        if !entangled {
            return Ok(());
        }
        // Step 8: Add a task that runs the following steps to the port
        // message queue of targetPort (the worker delivers it once its
        // script has run).
        self.shared.inbox.post(Box::new(move |cx| {
            DedicatedWorkerGlobalScope::deliver_message_from_owner(cx, data)
        }));
        Ok(())
    }
}
