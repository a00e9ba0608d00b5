//! Dedicated workers as agents: the thread each worker runs on, what its
//! owner and the worker share ([`WorkerShared`]), the owner's registry of
//! the workers it created, and termination.
//!
//! The owner's registry is a field of its [`crate::runtime::agent::Agent`]; the
//! worker's [`WorkerShared`] is per thread (`thread_local!`), not per
//! agent: it is set before the worker's runtime (and agent) exists and
//! cleared after it is gone.
//!
//! # Threads and runtimes
//!
//! `new Worker(url)` ([`crate::dom::workers::worker`]) spawns one thread per worker
//! ([`spawn`]). The thread makes its own [`crate::JsRuntime`] (a
//! SpiderMonkey context, a child runtime of its owner's, with its own
//! global, event loop, job queue, script registry and, once a `Profiler`
//! is made there, its own `AgentSampler`), fetches and runs the worker's
//! script and then runs its event loop until its closing flag is set
//! ([`crate::dom::workers::dedicatedworkerglobalscope::run_a_worker`]). Nothing of
//! one agent's JS heap is ever touched by another thread: the two sides
//! exchange [`crate::runtime::event_loop::CrossAgentTask`]s that carry serialized
//! messages and plain error fields, posted to the other side's
//! [`Inbox`].
//!
//! # The owner's registry
//!
//! Each thread keeps the workers it created (thread-local): the shared
//! state, the thread's `JoinHandle`, and a root on the `Worker` object
//! while the worker runs (so messages and errors always find their
//! target; HTML keeps a worker's `Worker` object alive while the worker
//! is a protected worker). A worker is forgotten once its thread has been
//! joined and the messages it posted before finishing were delivered.
//!
//! # Termination
//!
//! "Terminate a worker" ([`WorkerShared::terminate`], from `terminate()`,
//! from the owner going away, or from the removal or navigation of the
//! owner's browsing context) sets the closing and terminated flags,
//! requests an interrupt on the worker's context (thread-safe), whose
//! callback then aborts the running script (returning false, re-armed
//! until the script is gone), and wakes the worker's event loop. The
//! worker thread then drops its `JsRuntime` (sessions and sampler before
//! the context) and exits. [`OwnedWorkers::shut_down`] (step 4 of the
//! owner's agent teardown, before its own context goes) terminates every
//! worker it owns and joins their threads, so no thread or context
//! outlives its owner.
//!
//! # Fetches of a terminated worker
//!
//! A worker fetches its script and `importScripts` synchronously on its
//! own thread, where no interrupt reaches. Its loader is a
//! [`WorkerLoader`]: every `http(s)` fetch runs on a short-lived
//! `js-fetch` thread while the worker's thread waits on two channels at
//! once (a `select!`): the result's, and the worker's termination
//! signal, which termination disconnects; and termination aborts the
//! worker's own loader ([`Loader::abort`]: the network fetcher shuts its
//! connections down, which interrupts a blocked read or write at once
//! and fails every later request). So after `terminate()` the worker's
//! thread stops waiting at once, whatever the server does, the fetch thread itself ends at once
//! (or, while still resolving the name or connecting, which the HTTP
//! client cannot interrupt, within the network timeout, touching no JS),
//! and no later redirect hop or `importScripts` URL is fetched (the
//! fetch functions check the flag between hops and URLs). Joining a
//! terminated worker (`OwnedWorkers::shut_down`, the owner's teardown) is
//! bounded accordingly, nested workers included.
//!
//! # What keeps a `Worker` object alive
//!
//! The registry roots a `Worker` object until its worker is terminated or
//! has finished (and its last messages are delivered): an idle worker
//! whose `Worker` object is unreachable stays alive, with its object, for
//! its owner's lifetime. HTML's rule is narrower (a worker is a
//! "protected worker", and its `Worker` object is kept, only while it has
//! pending activity: timers, messages, nested workers...); this is a
//! simplification, not the spec.
//!
//! # Messages
//!
//! No JS value crosses threads. Each event loop has an `Inbox`
//! (`event_loop.rs`): a `crossbeam-channel` of `Send` tasks and one of
//! wake-ups; a loop with nothing to run blocks in a `select!` over the two
//! and its next deadline, the only three things that wake it.
//! `postMessage` on either side structured-clones the message into bytes
//! (SpiderMonkey's different-process clone format) and posts a task to
//! the other side's inbox; the task deserializes in the receiving realm
//! and fires `message` (or `messageerror`). The owner finds the `Worker`
//! object by the worker's ID in its thread-local registry, which roots
//! the object while the worker may still send it something. Messages to a
//! worker wait in its inbox until its script has run (the loop starts
//! then), so none is lost.
//!
//! # Errors
//!
//! "Report an exception" in a worker fires `ErrorEvent` at the worker
//! global; if not canceled, a task fires `ErrorEvent` (cancelable,
//! `error` null, same message/filename/lineno/colno, muted errors already
//! applied) at the `Worker` object; if not canceled there either, the
//! error is reported in the owner's global (window `error` event and
//! console, or one more level up for a nested worker). A script that
//! cannot be fetched (network error, non-ok status, cross-origin,
//! non-JavaScript MIME type over HTTP(S), revoked `blob:`) or does not
//! parse gives a plain `error` event.
//!
//! # The idle rule
//!
//! `run_until_idle` returns true when the page has no task, no timer, no
//! pending load, nothing in its inbox, and every worker it owns is idle:
//! blocked in its loop with nothing to run and nothing posted (decided
//! under its inbox's lock, under which every post is sent, so a post and
//! the idle flag cannot race), with
//! all of its own workers idle, or finished and joined. A worker posts
//! before it declares itself idle and the owner reads the workers' flags
//! before its own inbox, so no message is in flight when the page is
//! declared idle: the rule is exact, not a grace period. A worker that
//! keeps a timer or a busy loop keeps the page running until the deadline
//! (`--timeout`), where the runtime is dropped and the workers
//! terminated.
//!
//! # Document policy
//!
//! A network worker takes the `Document-Policy` of its own script
//! response; a `blob:` or `data:` worker inherits its creator's (the
//! document's, or for a nested worker its parent worker's, transitively):
//! `jsprof_document::worker_document_policy`, applied when the script is
//! fetched. Without the policy `new Profiler()` in the worker throws
//! `NotAllowedError`. An `eager` policy prepares the worker's sampler
//! before its script runs.
//!
//! # Profiling in a worker
//!
//! The worker's sessions run on its own `AgentSampler`, which signals and
//! samples the worker's thread only and keeps frames of the worker's
//! realm only (no page frame can be on that thread's stack); timestamps
//! are relative to the worker's time origin (the time its owner ran `new
//! Worker`).
//!
//! # Settings
//!
//! A worker's origin is its owner's (opaque for `data:`), its secure
//! context its owner's, its cross-origin isolated capability its owner's
//! and-ed with its own COEP (false for `data:`), its COEP its own
//! response's (inherited for local schemes) and checked against its
//! owner's.
//!
//! # Loading
//!
//! Worker threads load through `Loader::for_workers()` (the shell's
//! `Fetcher`, shared; same host rules, CA and blob URL store), or, for an
//! owner without a shareable loader, a default `Fetcher` over the owner's
//! blob URL store. The worker script is fetched on the worker's thread
//! with mode "same-origin" and redirects followed hop by hop;
//! `importScripts` fetches synchronously with mode "no-cors" through the
//! document component's classic-script state machine, so cross-origin
//! imports run with muted errors (registered muted in the worker's script
//! registry: the sampler hides them, their errors read "Script error.",
//! and rethrown they become `NetworkError`).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use mozjs::context::RawJSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::rust::ThreadSafeJSContext;

use jsprof_net::{HopRequest, NetError};

use crate::loading::script_loading::Loader;
use crate::runtime::event_loop::Inbox;

/// The stack of a worker thread (SpiderMonkey's native stack quota is
/// 1 MiB; the rest is headroom for the Rust frames around it).
const WORKER_STACK_SIZE: usize = 4 * 1024 * 1024;

/// What a worker and its owner share (both threads hold it).
pub(crate) struct WorkerShared {
    /// Process-unique ID of the worker.
    pub(crate) id: u64,
    /// The worker's event loop's inbox: its owner posts messages there.
    pub(crate) inbox: Arc<Inbox>,
    /// The owner's event loop's inbox: the worker posts its messages and
    /// errors there, and wakes it when it goes idle or finishes.
    pub(crate) owner_inbox: Arc<Inbox>,
    /// <https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-closing>
    closing: AtomicBool,
    /// "Terminate a worker" ran: running script is aborted, the owner
    /// drops every message or error from the worker still queued.
    terminated: AtomicBool,
    /// The worker's context while it lives (for interrupts).
    context: Mutex<Option<ThreadSafeJSContext>>,
    /// The worker thread is done (its runtime is gone).
    finished: AtomicBool,
    /// The loader the worker fetches with, once it fetched: "terminate a
    /// worker" aborts its fetches (see the module comment).
    loader: Mutex<Option<Arc<dyn Loader + Send + Sync>>>,
    /// The termination signal: nothing is ever sent; "terminate a worker"
    /// drops the sender, which disconnects the channel and so wakes every
    /// wait on it, now and later (see [`WorkerLoader`]).
    termination: Receiver<()>,
    termination_sender: Mutex<Option<Sender<()>>>,
}

impl WorkerShared {
    pub(crate) fn new(owner_inbox: Arc<Inbox>) -> Arc<WorkerShared> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let (termination_sender, termination) = crossbeam_channel::bounded(0);
        Arc::new(WorkerShared {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            // A task posted to the worker by anyone but its owner (its own
            // workers, its sampling thread) makes its owner's chain busy
            // too (see `Inbox::post`).
            inbox: Inbox::with_owner(owner_inbox.clone()),
            owner_inbox,
            closing: AtomicBool::new(false),
            terminated: AtomicBool::new(false),
            context: Mutex::new(None),
            finished: AtomicBool::new(false),
            loader: Mutex::new(None),
            termination,
            termination_sender: Mutex::new(Some(termination_sender)),
        })
    }

    pub(crate) fn closing_flag(&self) -> &AtomicBool {
        &self.closing
    }

    pub(crate) fn is_closing(&self) -> bool {
        self.closing.load(Ordering::Acquire)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#close-a-worker>
    /// step 2 (the worker's own `close()`): set the closing flag.
    pub(crate) fn set_closing(&self) {
        self.closing.store(true, Ordering::Release);
    }

    pub(crate) fn is_terminated(&self) -> bool {
        self.terminated.load(Ordering::Acquire)
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// <https://html.spec.whatwg.org/multipage/workers.html#terminate-a-worker>,
    /// the part any thread can do: step 1 (set the closing flag), step 3
    /// (abort the running script: an interrupt on the worker's context,
    /// whose callback then refuses to continue). Step 2 (discard the
    /// queued tasks) and 4 (empty the owner-side port queue) follow from
    /// the flags: the worker's loop discards its tasks when it sees them,
    /// the owner drops queued messages of a terminated worker.
    pub(crate) fn terminate(&self) {
        // Step 1: Set the worker's WorkerGlobalScope object's closing flag
        // to true.
        self.terminated.store(true, Ordering::Release);
        self.closing.store(true, Ordering::Release);
        // Step 3: Abort the script currently running in the worker.
        if let Some(context) = self
            .context
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            context.request_interrupt_callback();
        }
        // (And the fetch it may be waiting for: see the module comment.)
        let loader = self
            .loader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(loader) = loader {
            loader.abort();
        }
        drop(
            self.termination_sender
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        self.inbox.wake();
    }

    /// Records the loader this worker fetches with (for "terminate a
    /// worker" to abort), if none is recorded yet.
    fn set_loader(&self, loader: &Arc<dyn Loader + Send + Sync>) {
        let mut slot = self.loader.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(loader.clone());
        }
    }

    /// Publishes the worker's context (on the worker thread, once its
    /// interrupt callback is installed); `None` when it goes away.
    pub(crate) fn set_context(&self, context: Option<ThreadSafeJSContext>) {
        *self.context.lock().unwrap_or_else(|e| e.into_inner()) = context;
    }

    fn has_context(&self) -> bool {
        self.context
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

/// The worker's context as published for [`WorkerShared::terminate`]'s
/// interrupt: unpublished when this guard drops. Declared after the
/// worker's `JsRuntime`, it drops before it, on every path out of
/// `run_a_worker` (a panic's unwinding included), so no other thread ever
/// requests an interrupt on a destroyed context.
pub(crate) struct PublishedContext(Arc<WorkerShared>);

impl PublishedContext {
    pub(crate) fn publish(shared: &Arc<WorkerShared>, context: ThreadSafeJSContext) -> Self {
        shared.set_context(Some(context));
        PublishedContext(shared.clone())
    }
}

impl Drop for PublishedContext {
    fn drop(&mut self) {
        self.0.set_context(None);
    }
}

/// How many worker runtimes were dropped while their context was still
/// published (a use-after-free waiting for a `terminate()`); see
/// [`runtime_dropping`].
static CONTEXTS_DROPPED_WHILE_PUBLISHED: AtomicUsize = AtomicUsize::new(0);

/// Step 2 of the agent's teardown (`OwnedAgent`'s `Drop`): on a worker
/// thread, the context must no longer be published. Counts the violations (for tests: see
/// [`contexts_dropped_while_published`]) and unpublishes it.
pub(crate) fn runtime_dropping() {
    let shared = CURRENT.try_with(|c| c.borrow().clone()).ok().flatten();
    if let Some(shared) = shared {
        if shared.has_context() {
            CONTEXTS_DROPPED_WHILE_PUBLISHED.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// How many worker runtimes of the process were dropped while their
/// context was still published for interrupts (always 0; a test checks).
pub fn contexts_dropped_while_published() -> usize {
    CONTEXTS_DROPPED_WHILE_PUBLISHED.load(Ordering::SeqCst)
}

/// Set by [`panic_in_next_worker_after_publishing_its_context`].
static PANIC_AFTER_PUBLISHING: AtomicBool = AtomicBool::new(false);

/// For tests: the next worker to start panics right after it published
/// its context (exercises the unwinding path of `run_a_worker`).
#[doc(hidden)]
pub fn panic_in_next_worker_after_publishing_its_context() {
    PANIC_AFTER_PUBLISHING.store(true, Ordering::SeqCst);
}

/// The injection point of [`panic_in_next_worker_after_publishing_its_context`].
pub(crate) fn injected_panic_point() {
    if PANIC_AFTER_PUBLISHING.swap(false, Ordering::SeqCst) {
        panic!("injected panic (panic_in_next_worker_after_publishing_its_context)");
    }
}

/// A worker this thread created.
struct OwnedWorker {
    shared: Arc<WorkerShared>,
    thread: Option<JoinHandle<()>>,
    /// The `Worker` object, rooted while the worker may still send it
    /// messages or errors.
    object: Option<RootedTraceableBox<Heap<*mut JSObject>>>,
    /// The `profilerRealmID` of the realm the `Worker` object was made in
    /// (its owner's).
    owner_realm: u64,
}

/// The workers this agent created (a field of
/// [`Agent`](crate::runtime::agent::Agent): terminated and joined before its
/// context goes).
#[derive(Default)]
pub(crate) struct OwnedWorkers {
    owned: RefCell<Vec<OwnedWorker>>,
    /// The loader of new workers when the page's cannot be shared (see
    /// [`loader_for_workers`]; over the agent's blob URL store).
    fallback_loader: RefCell<Option<Arc<dyn Loader + Send + Sync>>>,
}

impl OwnedWorkers {
    /// The owner goes away: terminates every worker and joins its thread
    /// (each worker does the same with its own workers first). Step 4 of
    /// the agent's teardown, before its context is destroyed.
    pub(crate) fn shut_down(&self) {
        let owned: Vec<OwnedWorker> = std::mem::take(&mut *self.owned.borrow_mut());
        for worker in &owned {
            worker.shared.terminate();
        }
        for mut worker in owned {
            if let Some(thread) = worker.thread.take() {
                let _ = thread.join();
            }
            drop(worker.object.take());
        }
    }
}

/// Runs `f` on this agent's workers; without an agent (it shut down) `f`
/// does not run and the result is the default.
fn with_owned<R: Default>(f: impl FnOnce(&RefCell<Vec<OwnedWorker>>) -> R) -> R {
    crate::runtime::agent::existing().map_or_else(R::default, |a| f(&a.workers.owned))
}

thread_local! {
    /// On a worker thread (per thread, not per agent: set before the
    /// worker's runtime exists and cleared after it is gone): that worker's shared state.
    static CURRENT: RefCell<Option<Arc<WorkerShared>>> = const { RefCell::new(None) };
}

/// Worker threads alive in the process (spawned and not yet exited).
static LIVE_WORKER_THREADS: AtomicUsize = AtomicUsize::new(0);

/// How many worker threads are alive in the process right now (started
/// and not yet finished; a joined thread is no longer counted).
pub fn live_worker_threads() -> usize {
    LIVE_WORKER_THREADS.load(Ordering::SeqCst)
}

/// How many workers this thread created that are not yet forgotten
/// (running, or finished with messages still to deliver).
pub fn owned_worker_count() -> usize {
    with_owned(|o| o.borrow().len())
}

/// Starts the thread of the worker `shared`, running `body`, and records
/// it (with its `Worker` object `object`, made in the realm `owner_realm`)
/// in this thread's registry.
pub(crate) fn spawn(
    shared: Arc<WorkerShared>,
    object: *mut JSObject,
    owner_realm: u64,
    body: impl FnOnce(Arc<WorkerShared>) + Send + 'static,
) -> Result<(), String> {
    let for_thread = shared.clone();
    // The worker runs under its owner's limits (watchdog, heap ceiling).
    let limits = crate::runtime::watchdog::current_limits();
    LIVE_WORKER_THREADS.fetch_add(1, Ordering::SeqCst);
    let thread = std::thread::Builder::new()
        .name(format!("js-worker-{}", shared.id))
        .stack_size(WORKER_STACK_SIZE)
        .spawn(move || {
            let shared = for_thread;
            crate::runtime::watchdog::install_limits(limits);
            CURRENT.with(|c| *c.borrow_mut() = Some(shared.clone()));
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(shared.clone())));
            if outcome.is_err() {
                eprintln!(
                    "worker {}: the worker thread panicked; the worker is closed",
                    shared.id
                );
            }
            CURRENT.with(|c| c.borrow_mut().take());
            shared.set_context(None);
            shared.inbox.close();
            LIVE_WORKER_THREADS.fetch_sub(1, Ordering::SeqCst);
            shared.finished.store(true, Ordering::Release);
            shared.owner_inbox.wake();
        });
    let thread = match thread {
        Ok(thread) => thread,
        Err(e) => {
            LIVE_WORKER_THREADS.fetch_sub(1, Ordering::SeqCst);
            return Err(format!("could not start the worker thread: {e}"));
        }
    };
    let root = RootedTraceableBox::new(Heap::default());
    root.set(object);
    crate::runtime::agent::current()
        .workers
        .owned
        .borrow_mut()
        .push(OwnedWorker {
            shared,
            thread: Some(thread),
            object: Some(root),
            owner_realm,
        });
    Ok(())
}

/// The `Worker` object of worker `id`, if it is still to receive events
/// (the worker was not terminated).
pub(crate) fn worker_object(id: u64) -> Option<*mut JSObject> {
    with_owned(|o| {
        o.borrow()
            .iter()
            .find(|w| w.shared.id == id && !w.shared.is_terminated())
            .and_then(|w| w.object.as_ref().map(|r| r.get()))
    })
}

/// Terminates worker `id` (a `Worker`'s `terminate()`): nothing more of it
/// reaches its `Worker` object, whose root is dropped now; the thread is
/// joined by [`join_finished`] once it has exited.
pub(crate) fn terminate(shared: &WorkerShared) {
    shared.terminate();
    let root = with_owned(|o| {
        o.borrow_mut()
            .iter_mut()
            .find(|w| w.shared.id == shared.id)
            .and_then(|w| w.object.take())
    });
    drop(root);
}

/// Terminates every worker whose `Worker` object was made in the realm
/// `realm_id` (its document is being discarded: a navigation or the
/// removal of its iframe), and removes the blob URL entries its document
/// created ("when an environment settings object is destroyed, remove its
/// blob URL entries", <https://w3c.github.io/FileAPI/#lifeTime>; the
/// realm's ID is the environment's, see `BlobCreator::environment`).
pub(crate) fn terminate_workers_of_realm(realm_id: u64) {
    crate::navigation::browsing_context::blob_store().revoke_environment(realm_id);
    let shared: Vec<Arc<WorkerShared>> = with_owned(|o| {
        o.borrow()
            .iter()
            .filter(|w| w.owner_realm == realm_id)
            .map(|w| w.shared.clone())
            .collect()
    });
    for worker in shared {
        terminate(&worker);
    }
}

/// Joins the threads of this thread's workers that have finished and
/// returns their IDs (their entries stay until [`forget`], so the messages
/// they posted before finishing still find their `Worker` object).
pub(crate) fn join_finished() -> Vec<u64> {
    let finished: Vec<(u64, JoinHandle<()>)> = with_owned(|o| {
        o.borrow_mut()
            .iter_mut()
            .filter(|w| w.shared.is_finished())
            .filter_map(|w| w.thread.take().map(|t| (w.shared.id, t)))
            .collect()
    });
    finished
        .into_iter()
        .map(|(id, thread)| {
            // The thread set `finished` as its last step: this returns at
            // once (a panic was already caught and reported inside).
            let _ = thread.join();
            id
        })
        .collect()
}

/// Forgets a joined worker (drops the root on its `Worker` object).
pub(crate) fn forget(id: u64) {
    let removed: Vec<OwnedWorker> = with_owned(|o| {
        let mut o = o.borrow_mut();
        let (gone, kept) = std::mem::take(&mut *o)
            .into_iter()
            .partition(|w| w.shared.id == id && w.thread.is_none());
        *o = kept;
        gone
    });
    drop(removed);
}

/// Whether every worker this thread owns is idle: finished and joined, or
/// blocked in its event loop with nothing to run and every worker it owns
/// idle (see `EventLoop::run_until_idle`). A terminated worker whose
/// thread has not exited yet is not idle.
pub(crate) fn all_idle() -> bool {
    crate::runtime::agent::existing().is_none_or(|a| {
        a.workers.owned.borrow().iter().all(|w| {
            if w.thread.is_none() {
                return true;
            }
            !w.shared.is_terminated() && !w.shared.is_finished() && w.shared.inbox.is_idle()
        })
    })
}

/// The loader a new worker of this thread loads with: a [`WorkerLoader`]
/// over this thread's loader's form for workers (its own connections), or
/// else (no page loader, or one that cannot be shared) over a fetcher with
/// the default network configuration over this thread's blob URL store,
/// so `data:` and `blob:` workers still load.
pub(crate) fn loader_for_workers() -> Result<Arc<dyn Loader + Send + Sync>, String> {
    if let Some(loader) =
        crate::navigation::browsing_context::loader().and_then(|l| l.for_workers())
    {
        return Ok(Arc::new(WorkerLoader { inner: loader }));
    }
    let agent = crate::runtime::agent::current();
    let fallback_slot = &agent.workers.fallback_loader;
    let cached = fallback_slot.borrow().clone();
    let fallback = match cached {
        Some(loader) => loader,
        None => {
            let fetcher = jsprof_net::Fetcher::new(jsprof_net::NetConfig {
                blob_store: crate::navigation::browsing_context::blob_store(),
                ..jsprof_net::NetConfig::default()
            })
            .map_err(|e| e.to_string())?;
            let loader: Arc<dyn Loader + Send + Sync> = Arc::new(fetcher);
            *fallback_slot.borrow_mut() = Some(loader.clone());
            loader
        }
    };
    let inner = fallback.for_workers().unwrap_or(fallback);
    Ok(Arc::new(WorkerLoader { inner }))
}

/// A dedicated worker's loader (see the module comment, "Fetches of a
/// terminated worker"): on the worker's thread, an `http(s)` fetch runs on
/// a `js-fetch` thread while the worker's thread waits for its result or
/// the worker's termination, whichever comes first; the inner loader is
/// recorded in the worker's [`WorkerShared`], whose termination aborts it.
/// A terminated worker's fetches fail with `NetError::Aborted`.
pub(crate) struct WorkerLoader {
    inner: Arc<dyn Loader + Send + Sync>,
}

impl WorkerLoader {
    /// Runs `fetch` (of `url`) on the inner loader, abortable by the
    /// termination of the current thread's worker.
    fn run<T: Send + 'static>(
        &self,
        url: &url::Url,
        fetch: impl FnOnce(&dyn Loader) -> Result<T, NetError> + Send + 'static,
    ) -> Result<T, NetError> {
        let Some(shared) = CURRENT.try_with(|c| c.borrow().clone()).ok().flatten() else {
            // Not on a worker's thread: nothing can terminate this fetch.
            return fetch(&*self.inner);
        };
        // Recorded before the flag is read: a terminate() from now on
        // aborts this loader, one before it is seen here.
        shared.set_loader(&self.inner);
        let aborted = || NetError::Aborted { url: url.clone() };
        if shared.is_terminated() {
            return Err(aborted());
        }
        // Local schemes answer at once, from memory or a file.
        if !matches!(url.scheme(), "http" | "https") {
            return fetch(&*self.inner);
        }
        let (sender, receiver) = crossbeam_channel::bounded(1);
        let inner = self.inner.clone();
        let spawned = std::thread::Builder::new()
            .name("js-fetch".to_owned())
            .spawn(move || {
                let _ = sender.send(fetch(&*inner));
            });
        if let Err(e) = spawned {
            return Err(NetError::Connection {
                url: url.clone(),
                detail: format!("could not start the fetch thread: {e}"),
            });
        }
        let failed = || NetError::Connection {
            url: url.clone(),
            detail: "the fetch thread failed".to_owned(),
        };
        crossbeam_channel::select! {
            recv(receiver) -> result => result.unwrap_or_else(|_| Err(failed())),
            // Terminated (the channel disconnected): the result if it is
            // already there, else aborted.
            recv(shared.termination) -> _ => receiver.try_recv().unwrap_or_else(|_| Err(aborted())),
        }
    }
}

impl Loader for WorkerLoader {
    fn fetch_document(&self, url: &url::Url) -> Result<jsprof_net::FollowedResponse, NetError> {
        let target = url.clone();
        self.run(url, move |l| l.fetch_document(&target))
    }

    fn fetch_classic_script(
        &self,
        params: jsprof_document::ScriptFetchParams,
    ) -> Result<jsprof_net::ClassicScriptFetch, NetError> {
        let url = params.url.clone();
        self.run(&url, move |l| l.fetch_classic_script(params))
    }

    fn blob_store(&self) -> Arc<jsprof_net::BlobStore> {
        self.inner.blob_store()
    }

    fn fetch_hop(&self, request: &HopRequest) -> Result<jsprof_net::RawResponse, NetError> {
        let request = request.clone();
        let url = request.url.clone();
        self.run(&url, move |l| l.fetch_hop(&request))
    }

    fn cookie_jar(&self) -> Option<Arc<jsprof_net::CookieJar>> {
        self.inner.cookie_jar()
    }

    /// A nested worker's: a loader of its own (which
    /// [`loader_for_workers`] wraps in a `WorkerLoader` of its own).
    fn for_workers(&self) -> Option<Arc<dyn Loader + Send + Sync>> {
        self.inner.for_workers()
    }

    fn abort(&self) {
        self.inner.abort()
    }
}

/// Whether this thread is a dedicated worker's.
pub(crate) fn on_worker_thread() -> bool {
    CURRENT.try_with(|c| c.borrow().is_some()).unwrap_or(false)
}

/// Whether this thread is a worker that was terminated (its script must
/// not continue).
pub(crate) fn current_worker_terminated() -> bool {
    CURRENT
        .try_with(|c| c.borrow().as_ref().is_some_and(|w| w.is_terminated()))
        .unwrap_or(false)
}

/// The worker context's interrupt callback: aborts script (an uncatchable
/// termination) once the worker is terminated, and asks for the next
/// interrupt at once so that no further script runs on this context.
pub(crate) unsafe extern "C" fn interrupt_callback(cx: *mut RawJSContext) -> bool {
    if current_worker_terminated() {
        // SAFETY: the live context of this thread.
        unsafe { mozjs::jsapi::JS_RequestInterruptCallback(cx) };
        return false;
    }
    true
}
