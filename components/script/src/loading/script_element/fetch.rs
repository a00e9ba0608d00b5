//! Fetching external scripts off the JS thread: the agent's fetch pool,
//! starting a fetch for a waiting script, and its completion on the event
//! loop ("mark as ready").

use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::Arc;
use std::thread::JoinHandle;

use mozjs::context::JSContext;
use mozjs::realm::AutoRealm;

use super::execute::{execute_the_script_element, run_in_order_scripts};
use super::prepare::queue_error_event;
use super::{
    discarding, with_state, PendingScript, ScriptResult, WaitingScript, WhenReady, FETCH_THREADS,
};
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::loading::script_loading::{
    classic_script_fetch_params, classic_script_from_fetch, Loader,
};
use crate::runtime::event_loop::EventLoop;

type FetchJob = Box<dyn FnOnce() + Send>;

/// The fetch threads of an agent and the loader they share.
pub(super) struct FetchPool {
    /// The page loader this pool was made from (compared by address: a
    /// new page load with another loader gets a new pool).
    source: *const (),
    loader: Arc<dyn Loader + Send + Sync>,
    jobs: Option<crossbeam_channel::Sender<FetchJob>>,
    /// Shared by the threads: each job goes to one idle thread.
    receiver: crossbeam_channel::Receiver<FetchJob>,
    /// Started one per job until there are [`FETCH_THREADS`].
    threads: Vec<JoinHandle<()>>,
}

impl FetchPool {
    fn new(source: *const (), loader: Arc<dyn Loader + Send + Sync>) -> FetchPool {
        let (jobs, receiver) = crossbeam_channel::unbounded::<FetchJob>();
        FetchPool {
            source,
            loader,
            jobs: Some(jobs),
            receiver,
            threads: Vec::new(),
        }
    }

    fn submit(&mut self, job: FetchJob) {
        if self.threads.len() < FETCH_THREADS {
            let receiver = self.receiver.clone();
            let spawned = std::thread::Builder::new()
                .name("js-script-fetch".to_owned())
                // (Until the pool is discarded: its sender dropped.)
                .spawn(move || receiver.iter().for_each(|job| job()));
            if let Ok(handle) = spawned {
                self.threads.push(handle);
            }
        }
        if let Some(jobs) = &self.jobs {
            // (A send fails only when every thread is gone; the job's
            // completion is then never posted, and `discard` ends the
            // wait.)
            let _ = jobs.send(job);
        }
    }

    /// Stops the pool: no new job is taken, fetches in flight are aborted
    /// (the loader is this pool's own), and the threads are joined.
    pub(super) fn shut_down(mut self) {
        self.jobs = None;
        self.loader.abort();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Step 31.8-31.11 and 33.2-33.3 of "prepare the script element" for a
/// fetch whose result the event loop waits for: "set el's delaying the
/// load event to true", the element joins its set or list, and the fetch
/// starts (on a fetch thread when the page's loader can be shared, else in
/// a task).
pub(super) fn start_fetch(
    document: &Document,
    script: &HTMLScriptElement,
    url: &url::Url,
    encoding: &'static encoding_rs::Encoding,
    when: WhenReady,
) {
    let Some(loader) = crate::navigation::browsing_context::loader() else {
        // No page loader (a document not loaded by the shell): nothing can
        // be fetched; the result is null.
        queue_error_event(script);
        return;
    };
    let params = classic_script_fetch_params(document, url, script.element());
    let id = start_waiting(document, script, when);
    let event_loop = EventLoop::current();
    let url = url.clone();
    let origin = params.client_origin.clone();
    let shared = pool_loader(&loader);
    match shared {
        Some(shared) => {
            let inbox = event_loop.inbox().clone();
            let job: FetchJob = Box::new(move || {
                let fetched = shared.fetch_classic_script(params);
                inbox.post(Box::new(move |cx| {
                    let result = classic_script_from_fetch(&url, fetched, &origin, encoding);
                    fetch_completed(cx, id, result, None);
                }));
            });
            submit_to_pool(job);
        }
        None => {
            // The loader cannot leave this thread: fetch in a task.
            event_loop.queue_task(Box::new(move |cx| {
                let fetched = loader.fetch_classic_script(params);
                let result = classic_script_from_fetch(&url, fetched, &origin, encoding);
                fetch_completed(cx, id, result, None);
            }));
        }
    }
}

/// Step 31.8 (or 32.2 for a module script) and 33.2-33.3 of "prepare the
/// script element" for `script`, whose result is not ready yet: set el's
/// delaying the load event to true (and hold a pending load of the event
/// loop, released by [`fetch_completed`]), and add el to `document`'s set
/// or list. Returns its ID.
pub(super) fn start_waiting(
    document: &Document,
    script: &HTMLScriptElement,
    when: WhenReady,
) -> u64 {
    document.delay_load();
    EventLoop::current().begin_load();
    with_state(|s| {
        let mut s = s.borrow_mut();
        s.next_id += 1;
        let id = s.next_id;
        s.waiting.insert(
            id,
            WaitingScript {
                element: DomRoot::from_ref(script),
                document: DomRoot::from_ref(document),
                when_ready: when,
                result: None,
                module: None,
            },
        );
        if when == WhenReady::InOrder {
            // Step 33.3.2 (34.3.2): Append el to scripts.
            s.in_order.push_back(id);
        }
        id
    })
}

/// The loader this agent's fetch threads use for the page loader
/// `loader` (its [`Loader::for_workers`] copy), creating the pool on first
/// use; `None` if the loader cannot leave this thread (fetch in a task
/// then). A new page loader gets a new pool (the old pool's fetches are
/// aborted).
fn pool_loader(loader: &Rc<dyn Loader>) -> Option<Arc<dyn Loader + Send + Sync>> {
    let source = Rc::as_ptr(loader) as *const ();
    let old = with_state(|s| {
        let mut s = s.borrow_mut();
        match &s.pool {
            Some(pool) if pool.source != source => s.pool.take(),
            _ => None,
        }
    });
    if let Some(old) = old {
        old.shut_down();
    }
    with_state(|s| {
        let mut s = s.borrow_mut();
        if s.pool.is_none() {
            if let Some(shared) = loader.for_workers() {
                s.pool = Some(FetchPool::new(source, shared));
            }
        }
        s.pool.as_ref().map(|p| p.loader.clone())
    })
}

fn submit_to_pool(job: FetchJob) {
    with_state(|s| {
        if let Some(pool) = s.borrow_mut().pool.as_mut() {
            pool.submit(job);
        }
    });
}

/// Runs `job` on this agent's fetch threads (the pool script elements
/// use), given the pool's copy of `loader`: the network request of
/// `fetch()` and `XMLHttpRequest` runs off the event loop's thread, and
/// the job posts its result back to the loop's inbox. Returns `false`
/// (and drops `job`) if `loader` cannot leave this thread.
pub(crate) fn submit_fetch_job(
    loader: &Rc<dyn Loader>,
    job: impl FnOnce(Arc<dyn Loader + Send + Sync>) + Send + 'static,
) -> bool {
    if discarding() {
        return false;
    }
    let Some(shared) = pool_loader(loader) else {
        return false;
    };
    submit_to_pool(Box::new(move || job(shared)));
    true
}

/// A fetch ended: <https://html.spec.whatwg.org/multipage/scripting.html#mark-as-ready>
/// for its element, given `result` (a classic script's) or `module` (a
/// module script's, then `result` is unused).
pub(super) fn fetch_completed(
    cx: &mut JSContext,
    id: u64,
    result: ScriptResult,
    module: Option<crate::loading::module_loading::ModuleResult>,
) {
    EventLoop::current().end_load();
    let Some((when, document)) = with_state(|s| {
        let mut s = s.borrow_mut();
        let waiting = s.waiting.get_mut(&id)?;
        // Step 1: Set el's result to result.
        waiting.result = Some(result);
        waiting.module = module;
        Some((waiting.when_ready, waiting.document.clone()))
    }) else {
        return;
    };
    let Some(global) = NonNull::new(document.upcast_node().global().global_object()) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global);
    let cx = &mut *realm;
    // Processing the fetch's result is `other` work (markers).
    let _work = crate::runtime::profiling::other_work(document.upcast_node().global());
    // Step 2: If el's steps to run when the result is ready are not null,
    // then run them.
    match when {
        WhenReady::AsSoonAsPossible => {
            // Step 33.2.3: Execute the script element el. Remove el from
            // scripts.
            if let Some(waiting) = with_state(|s| s.borrow_mut().waiting.remove(&id)) {
                let pending = PendingScript {
                    element: waiting.element,
                    result: waiting.result.flatten(),
                    module: waiting.module,
                };
                execute_the_script_element(cx, &document, pending);
                // Step 4: Set el's delaying the load event to false.
                document.undelay_load();
            }
        }
        WhenReady::InOrder => run_in_order_scripts(cx, &document, id),
    }
}
