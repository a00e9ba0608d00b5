//! The event loop of an agent's JS thread
//! (<https://html.spec.whatwg.org/multipage/webappapis.html#event-loop-processing-model>):
//! one task queue, timers, and a microtask checkpoint after each task.
//! Rendering is not modelled ("update the rendering" is skipped).
//!
//! One event loop per thread (one agent), stored in a thread-local while
//! its [`crate::JsRuntime`] lives; tasks and timers hold their JS objects
//! in roots, which the runtime drops before its context.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ptr::NonNull;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::realm::AutoRealm;

use crate::runtime::perform_microtask_checkpoint;

/// A task (<https://html.spec.whatwg.org/multipage/webappapis.html#concept-task>).
pub type Task = Box<dyn FnOnce(&mut JSContext)>;

/// A scheduled timer: when its time comes, a task runs the window's timer
/// `id` (the window keeps the handler in its map of active timers).
struct TimerEntry {
    due: Instant,
    /// Ties are broken by scheduling order.
    seq: u64,
    global: RootedTraceableBox<Heap<*mut JSObject>>,
    id: i32,
}

#[derive(Default)]
pub struct EventLoop {
    tasks: RefCell<VecDeque<Task>>,
    timers: RefCell<Vec<TimerEntry>>,
    seq: Cell<u64>,
    /// Pending loads (fetches whose completion will queue a task).
    pending_loads: Cell<u32>,
    /// When the sampler's captures were last resolved.
    last_profiler_poll: Cell<Option<Instant>>,
}

thread_local! {
    static EVENT_LOOP: RefCell<Option<Rc<EventLoop>>> = const { RefCell::new(None) };
}

impl EventLoop {
    /// The current thread's event loop. Panics if no runtime lives on it.
    pub fn current() -> Rc<EventLoop> {
        EVENT_LOOP.with(|e| {
            e.borrow()
                .clone()
                .expect("no JsRuntime (event loop) on this thread")
        })
    }

    pub(crate) fn install() -> Rc<EventLoop> {
        let event_loop = Rc::new(EventLoop::default());
        EVENT_LOOP.with(|e| *e.borrow_mut() = Some(event_loop.clone()));
        event_loop
    }

    /// Drops every queued task and timer (and their roots) and uninstalls
    /// the event loop; called before the context goes away.
    pub(crate) fn shut_down(&self) {
        let tasks = std::mem::take(&mut *self.tasks.borrow_mut());
        drop(tasks);
        let timers = std::mem::take(&mut *self.timers.borrow_mut());
        drop(timers);
        EVENT_LOOP.with(|e| *e.borrow_mut() = None);
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#queue-a-task>
    pub fn queue_task(&self, task: Task) {
        self.tasks.borrow_mut().push_back(task);
    }

    /// Schedules timer `id` of `global` to run after `delay`.
    pub fn schedule_timer(&self, global: *mut JSObject, id: i32, delay: Duration) {
        let seq = self.seq.get();
        self.seq.set(seq + 1);
        let root = RootedTraceableBox::new(Heap::default());
        root.set(global);
        self.timers.borrow_mut().push(TimerEntry {
            due: Instant::now() + delay,
            seq,
            global: root,
            id,
        });
    }

    pub fn begin_load(&self) {
        self.pending_loads.set(self.pending_loads.get() + 1);
    }

    pub fn end_load(&self) {
        self.pending_loads
            .set(self.pending_loads.get().saturating_sub(1));
    }

    /// Whether nothing is left to run: no task, no timer, no pending load.
    pub fn is_idle(&self) -> bool {
        self.tasks.borrow().is_empty()
            && self.timers.borrow().is_empty()
            && self.pending_loads.get() == 0
    }

    /// Moves due timers to the task queue, in due-time order.
    fn queue_due_timers(&self) {
        let now = Instant::now();
        let mut due = Vec::new();
        self.timers.borrow_mut().retain_mut(|t| {
            if t.due <= now {
                due.push((t.due, t.seq, t.global.get(), t.id));
                false
            } else {
                true
            }
        });
        due.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, _, global, id) in due {
            let root = RootedTraceableBox::new(Heap::default());
            root.set(global);
            self.queue_task(Box::new(move |cx| {
                let Some(global) = NonNull::new(root.get()) else {
                    return;
                };
                let mut realm = AutoRealm::new(cx, global);
                let scope =
                    unsafe { crate::dom::globalscope::GlobalScope::from_global(global.as_ptr()) };
                if let Some(window) = scope.as_window() {
                    window.run_timer(&mut realm, id);
                }
            }));
        }
    }

    /// The earliest timer's due time.
    fn next_timer_due(&self) -> Option<Instant> {
        self.timers.borrow().iter().map(|t| t.due).min()
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#event-loop-processing-model>:
    /// runs tasks (each followed by a microtask checkpoint) until nothing
    /// is left to run or `deadline` passes. Returns false on the deadline.
    pub fn run_until_idle(&self, cx: &mut JSContext, deadline: Option<Instant>) -> bool {
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return false;
            }
            self.queue_due_timers();
            // The sampler's notifications (samplebufferfull, possibly from
            // the sampling thread) become tasks here, on the JS thread; the
            // sampler's pending captures are resolved now and then.
            crate::profiling::deliver_notifications(cx);
            if crate::profiling::poll_due(&self.last_profiler_poll) {
                crate::profiling::poll();
            }
            // Step 1: Let oldestTask be the first runnable task of the
            // chosen task queue, removed from it.
            let task = self.tasks.borrow_mut().pop_front();
            match task {
                Some(task) => {
                    // Step 5: Perform oldestTask's steps.
                    task(cx);
                    // Step 7: Perform a microtask checkpoint.
                    perform_microtask_checkpoint(cx);
                }
                None => {
                    // No task: wait for the next timer, or stop when idle.
                    let Some(next) = self.next_timer_due() else {
                        if self.pending_loads.get() == 0 {
                            return true;
                        }
                        std::thread::sleep(Duration::from_millis(1));
                        continue;
                    };
                    // While a session runs, wake at least every 10 ms so a
                    // samplebufferfull notification is not held back by a
                    // long timer. (std::thread::sleep retries on EINTR, which
                    // the sampler's signal can cause.)
                    let next = if crate::profiling::has_started_sessions() {
                        next.min(Instant::now() + Duration::from_millis(10))
                    } else {
                        next
                    };
                    let mut until = next;
                    if let Some(d) = deadline {
                        until = until.min(d);
                    }
                    let now = Instant::now();
                    if until > now {
                        std::thread::sleep(until - now);
                    }
                }
            }
        }
    }
}
