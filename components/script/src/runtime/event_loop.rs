//! The event loop of an agent's JS thread
//! (<https://html.spec.whatwg.org/multipage/webappapis.html#event-loop-processing-model>):
//! one task queue, timers, and a microtask checkpoint after each task. A
//! window event loop (the page's) also has the "update the rendering"
//! step, run at each frame of a 60 Hz frame clock while animation frame
//! callbacks wait, and idle periods for idle callbacks (see
//! [`crate::runtime::rendering`]); there is no layout or painting.
//!
//! One event loop per agent, a field of [`crate::runtime::agent::Agent`] while its
//! [`crate::JsRuntime`] lives; tasks and timers hold their JS objects in
//! roots, which the agent's teardown (step 5 of `OwnedAgent`'s `Drop`)
//! drops before the context.
//!
//! Other agents (a dedicated worker and its owner) reach an event loop
//! through its [`Inbox`]: a channel of [`CrossAgentTask`]s that the loop
//! moves into its task queue at each turn, and a wake-up channel. A loop
//! with nothing to run blocks in [`Inbox::wait`] on exactly three sources
//! (a `select!`): a posted task, a wake-up without a task (a termination,
//! a worker below that went idle or finished, the watchdog), and its next
//! deadline (timers, the frame clock, the profiler's and the loads'
//! polls, the caller's deadline).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::realm::AutoRealm;

use crate::runtime::perform_microtask_checkpoint;

/// A task (<https://html.spec.whatwg.org/multipage/webappapis.html#concept-task>).
pub type Task = Box<dyn FnOnce(&mut JSContext)>;

/// A task queued by another agent (thread): it carries only `Send` data
/// (a serialized message, an error's fields, IDs), never a JS value.
pub type CrossAgentTask = Box<dyn FnOnce(&mut JSContext) + Send>;

/// The thread-safe side of an event loop: tasks queued from other threads,
/// the wake-up of its waits, and whether the loop is idle (blocked with
/// nothing to run; read by the agent that owns this one, see
/// `crate::runtime::workers`).
pub struct Inbox {
    /// Posted tasks. Sent while `state` is locked, so that a task and the
    /// activity count it adds are seen together (see [`Inbox::set_idle`]).
    tasks: (Sender<CrossAgentTask>, Receiver<CrossAgentTask>),
    /// Wake-ups without a task: one pending wake-up is enough.
    wake: (Sender<()>, Receiver<()>),
    state: Mutex<IdleState>,
    /// A dedicated worker's: its owner's inbox (whose own owner is the
    /// next one up, to the page's).
    owner: Option<Arc<Inbox>>,
}

#[derive(Default)]
struct IdleState {
    /// Set by the loop when it blocks with nothing to run and nothing
    /// queued; cleared by every post, here or to a worker below.
    idle: bool,
    /// Counts the posts here and to the workers below (see
    /// [`Inbox::activity`]).
    activity: u64,
    /// No more tasks are accepted (the loop is gone).
    closed: bool,
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox {
            tasks: crossbeam_channel::unbounded(),
            wake: crossbeam_channel::bounded(1),
            state: Mutex::default(),
            owner: None,
        }
    }
}

impl Inbox {
    pub fn new() -> Arc<Inbox> {
        Arc::new(Inbox::default())
    }

    /// The inbox of a dedicated worker whose owner's inbox is `owner`.
    pub fn with_owner(owner: Arc<Inbox>) -> Arc<Inbox> {
        Arc::new(Inbox {
            owner: Some(owner),
            ..Inbox::default()
        })
    }

    fn lock(&self) -> MutexGuard<'_, IdleState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `task` on this event loop (any thread) and wakes it. Returns
    /// false (and drops the task) if the loop is gone.
    pub fn post(&self, task: CrossAgentTask) -> bool {
        let mut state = self.lock();
        if state.closed {
            drop(state);
            drop(task);
            return false;
        }
        // (Cannot fail: this inbox holds the receiver.)
        let _ = self.tasks.0.send(task);
        state.idle = false;
        state.activity += 1;
        drop(state);
        // A task here makes every agent above busy too: an owner is idle
        // only while its workers are, and it found them idle before this
        // task (from its sampling thread or its own worker, not from the
        // owner, which is running then) arrived. (No wake-up: an agent
        // above that is not idle waits for its workers' wake-ups; this one
        // wakes its owner when it is idle again.)
        let mut above = self.owner.as_deref();
        while let Some(inbox) = above {
            let mut state = inbox.lock();
            state.idle = false;
            state.activity += 1;
            drop(state);
            above = inbox.owner.as_deref();
        }
        true
    }

    /// The number of tasks posted here or to a worker below so far: read
    /// before looking at the workers, passed to [`Inbox::set_idle`], which
    /// declares the loop idle only if nothing was posted since.
    fn activity(&self) -> u64 {
        self.lock().activity
    }

    /// Wakes the loop without a task (any thread).
    pub fn wake(&self) {
        // (Full: a wake-up is already pending, which is enough.)
        let _ = self.wake.0.try_send(());
    }

    /// Whether the loop declared itself idle and nothing was posted since.
    pub fn is_idle(&self) -> bool {
        let state = self.lock();
        state.idle && self.tasks.1.is_empty()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.tasks.1.is_empty()
    }

    /// Declares the loop idle unless a task arrived here or below since
    /// [`Inbox::activity`] was `since`; returns whether it is idle, and
    /// whether it just became so (it was not idle before).
    fn set_idle(&self, since: u64) -> (bool, bool) {
        let mut state = self.lock();
        let was_idle = state.idle;
        state.idle = self.tasks.1.is_empty() && state.activity == since;
        (state.idle, state.idle && !was_idle)
    }

    fn set_busy(&self) {
        self.lock().idle = false;
    }

    /// Takes the queued tasks, oldest first.
    fn drain(&self) -> impl Iterator<Item = CrossAgentTask> + '_ {
        self.tasks.1.try_iter()
    }

    /// Blocks until a task is posted (returned, to be run next), a
    /// wake-up, or `until`.
    fn wait(&self, until: Option<Instant>) -> Option<CrossAgentTask> {
        let deadline = until.map_or_else(crossbeam_channel::never, crossbeam_channel::at);
        crossbeam_channel::select! {
            recv(self.tasks.1) -> task => task.ok(),
            recv(self.wake.1) -> _ => None,
            recv(deadline) -> _ => None,
        }
    }

    /// Refuses further tasks and drops the queued ones (outside the lock:
    /// dropping a task may drop more state).
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.drain().for_each(drop);
    }
}

/// A root on a global shared by every timer and timer task of that global
/// (see [`EventLoop::global_root`]): SpiderMonkey's Rust roots live in
/// one list whose removal is linear, so a root per timer would make a
/// page with a million timers quadratic.
pub(crate) type GlobalRoot = Rc<RootedTraceableBox<Heap<*mut JSObject>>>;

/// A scheduled timer: when its time comes, a task runs the window's timer
/// `id` (the window keeps the handler in its map of active timers), or the
/// timeout of an idle callback.
struct TimerEntry {
    due: Instant,
    /// Ties are broken by scheduling order.
    seq: u64,
    global: GlobalRoot,
    kind: TimerKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TimerKind {
    /// An entry of the global's map of active timers.
    Timer(i32),
    /// The timeout of idle callback `handle` (`requestIdleCallback`'s
    /// `timeout` option).
    IdleTimeout(u32),
}

pub struct EventLoop {
    tasks: RefCell<VecDeque<Task>>,
    timers: RefCell<Vec<TimerEntry>>,
    seq: Cell<u64>,
    /// Pending loads (fetches whose completion will queue a task).
    pending_loads: Cell<u32>,
    /// When the sampler's captures were last resolved.
    last_profiler_poll: Cell<Option<Instant>>,
    /// Tasks from other agents, and the wake-up of this loop's waits.
    inbox: Arc<Inbox>,
    /// The shared root of each global timers refer to, while any does.
    global_roots: RefCell<Vec<std::rc::Weak<RootedTraceableBox<Heap<*mut JSObject>>>>>,
    /// The origin of the frame clock's 60 Hz grid.
    frame_origin: Instant,
    /// When the next frame is due, while animation frame callbacks wait.
    next_frame: Cell<Option<Instant>>,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#last-render-opportunity-time>
    last_render_opportunity: Cell<Option<Instant>>,
    /// The deadline the current idle period had when it started (until a
    /// frame ends it): no new idle period starts before, so an idle
    /// callback requested by an idle callback runs in the next one.
    idle_period_end: Cell<Option<Instant>>,
}

/// The agent's event loop, while installed (a field of
/// [`crate::runtime::agent::Agent`]).
#[derive(Default)]
pub(crate) struct InstalledEventLoop(RefCell<Option<Rc<EventLoop>>>);

impl InstalledEventLoop {
    /// The installed event loop, if any.
    pub(crate) fn installed(&self) -> Option<Rc<EventLoop>> {
        self.0.borrow().clone()
    }
}

/// This agent's event loop (see [`InstalledEventLoop`]).
static EVENT_LOOP: crate::runtime::agent::AgentLocal<RefCell<Option<Rc<EventLoop>>>> =
    crate::runtime::agent::AgentLocal(|a| &a.event_loop.0);

impl EventLoop {
    /// The current thread's event loop. Panics if no runtime lives on it.
    pub fn current() -> Rc<EventLoop> {
        EVENT_LOOP.with(|e| {
            e.borrow()
                .clone()
                .expect("no JsRuntime (event loop) on this thread")
        })
    }

    /// Installs this thread's event loop, whose cross-agent queue is
    /// `inbox` (made by the creator of a worker before its thread starts,
    /// so messages can be posted to it at once).
    pub(crate) fn install(inbox: Arc<Inbox>) -> Rc<EventLoop> {
        let event_loop = Rc::new(EventLoop {
            tasks: RefCell::new(VecDeque::new()),
            timers: RefCell::new(Vec::new()),
            seq: Cell::new(0),
            pending_loads: Cell::new(0),
            last_profiler_poll: Cell::new(None),
            inbox,
            global_roots: RefCell::new(Vec::new()),
            frame_origin: Instant::now(),
            next_frame: Cell::new(None),
            last_render_opportunity: Cell::new(None),
            idle_period_end: Cell::new(None),
        });
        EVENT_LOOP.with(|e| *e.borrow_mut() = Some(event_loop.clone()));
        event_loop
    }

    /// This loop's cross-agent queue.
    pub fn inbox(&self) -> &Arc<Inbox> {
        &self.inbox
    }

    /// Closes the inbox and drops every queued task (and its roots): the
    /// first part of step 5 of the agent's teardown (`OwnedAgent`'s
    /// `Drop`), before the context goes away.
    pub(crate) fn close(&self) {
        self.inbox.close();
        self.discard_tasks();
    }

    /// Drops every timer (and its roots) and uninstalls the event loop:
    /// the last part of step 5 of the agent's teardown.
    pub(crate) fn uninstall(&self) {
        let timers = std::mem::take(&mut *self.timers.borrow_mut());
        drop(timers);
        EVENT_LOOP.with(|e| *e.borrow_mut() = None);
    }

    /// Discards every queued task without running it (a worker's "close a
    /// worker" step 1 and "terminate a worker" step 2).
    pub(crate) fn discard_tasks(&self) {
        let tasks = std::mem::take(&mut *self.tasks.borrow_mut());
        drop(tasks);
        self.inbox.drain().for_each(drop);
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#queue-a-task>
    pub fn queue_task(&self, task: Task) {
        self.tasks.borrow_mut().push_back(task);
    }

    /// The root shared by the timers of `global` (made if none lives).
    pub(crate) fn global_root(&self, global: *mut JSObject) -> GlobalRoot {
        let mut roots = self.global_roots.borrow_mut();
        roots.retain(|r| r.strong_count() > 0);
        if let Some(root) = roots
            .iter()
            .filter_map(|r| r.upgrade())
            .find(|r| r.get() == global)
        {
            return root;
        }
        let root = Rc::new(RootedTraceableBox::new(Heap::default()));
        root.set(global);
        roots.push(Rc::downgrade(&root));
        root
    }

    /// Schedules timer `id` of `global` to run after `delay`.
    pub fn schedule_timer(&self, global: *mut JSObject, id: i32, delay: Duration) {
        self.schedule(global, TimerKind::Timer(id), delay);
    }

    /// Schedules the timeout of idle callback `handle` of `global` after
    /// `delay` (see `crate::runtime::rendering`).
    pub(crate) fn schedule_idle_timeout(
        &self,
        global: *mut JSObject,
        handle: u32,
        delay: Duration,
    ) {
        self.schedule(global, TimerKind::IdleTimeout(handle), delay);
    }

    fn schedule(&self, global: *mut JSObject, kind: TimerKind, delay: Duration) {
        let seq = self.seq.get();
        self.seq.set(seq + 1);
        let root = self.global_root(global);
        self.timers.borrow_mut().push(TimerEntry {
            due: Instant::now() + delay,
            seq,
            global: root,
            kind,
        });
    }

    /// Forgets the timeout of idle callback `handle` of `global` (the
    /// callback was canceled or ran), so that it does not keep the loop
    /// busy.
    pub(crate) fn cancel_idle_timeout(&self, global: *mut JSObject, handle: u32) {
        self.timers
            .borrow_mut()
            .retain(|t| !(t.kind == TimerKind::IdleTimeout(handle) && t.global.get() == global));
    }

    /// The earliest due time of a timer of a map of active timers (idle
    /// callbacks' timeouts left out).
    pub(crate) fn next_active_timer_due(&self) -> Option<Instant> {
        self.timers
            .borrow()
            .iter()
            .filter(|t| matches!(t.kind, TimerKind::Timer(_)))
            .map(|t| t.due)
            .min()
    }

    /// The first tick of the 60 Hz frame grid at or after `at`.
    fn frame_tick_at_or_after(&self, at: Instant) -> Instant {
        let interval = crate::runtime::rendering::FRAME_INTERVAL.as_nanos();
        let since = at.saturating_duration_since(self.frame_origin).as_nanos();
        let ticks = since.div_ceil(interval);
        self.frame_origin + Duration::from_nanos((ticks * interval) as u64)
    }

    /// The time of the next frame after a frame that started at `last`
    /// (the next tick), or, with no recent frame, the first tick at or
    /// after `now`.
    fn next_frame_time(&self, now: Instant) -> Instant {
        let after_last = self.last_render_opportunity.get().map(|last| {
            self.frame_tick_at_or_after(last + crate::runtime::rendering::FRAME_INTERVAL / 2)
        });
        let from_now = self.frame_tick_at_or_after(now);
        match after_last {
            Some(tick) => tick.max(from_now),
            None => from_now,
        }
    }

    /// HTML's nextRenderDeadline for an idle period starting at `now`: the
    /// last render opportunity time plus one frame (the next frame's tick
    /// if no frame ran yet).
    pub(crate) fn next_render_deadline(&self, now: Instant) -> Instant {
        match self.last_render_opportunity.get() {
            Some(last) => last + crate::runtime::rendering::FRAME_INTERVAL,
            None => self
                .next_frame
                .get()
                .unwrap_or_else(|| self.next_frame_time(now)),
        }
    }

    /// Whether an idle period that started before `now` has not reached
    /// the deadline it started with.
    pub(crate) fn in_idle_period(&self, now: Instant) -> bool {
        self.idle_period_end.get().is_some_and(|end| now < end)
    }

    /// Records the start of an idle period ending at `end`.
    pub(crate) fn set_idle_period_end(&self, end: Instant) {
        self.idle_period_end.set(Some(end));
    }

    /// When a frame is due: animation frame callbacks wait and the frame
    /// clock's next tick has come; then the frame's start, the latest tick
    /// (the display's last vsync). The clock is stopped (no frame
    /// scheduled) while no callback waits.
    fn frame_due(&self) -> Option<Instant> {
        if !crate::runtime::rendering::animation_frames_pending() {
            self.next_frame.set(None);
            return None;
        }
        let now = Instant::now();
        let due = match self.next_frame.get() {
            Some(due) => due,
            None => {
                let due = self.next_frame_time(now);
                self.next_frame.set(Some(due));
                due
            }
        };
        if now < due {
            return None;
        }
        let interval = crate::runtime::rendering::FRAME_INTERVAL.as_nanos();
        let since = now.saturating_duration_since(self.frame_origin).as_nanos();
        let latest_tick =
            self.frame_origin + Duration::from_nanos((since / interval * interval) as u64);
        Some(latest_tick.max(due))
    }

    pub fn begin_load(&self) {
        self.pending_loads.set(self.pending_loads.get() + 1);
    }

    pub fn end_load(&self) {
        self.pending_loads
            .set(self.pending_loads.get().saturating_sub(1));
    }

    /// Whether nothing is left to run: no task, no timer, no pending load,
    /// nothing posted by another agent, and every worker of this agent
    /// idle (the condition under which `run_until_idle` returns true).
    pub fn is_idle(&self) -> bool {
        self.tasks.borrow().is_empty()
            && self.timers.borrow().is_empty()
            && self.pending_loads.get() == 0
            && !crate::runtime::rendering::animation_frames_pending()
            && !crate::runtime::rendering::idle_callbacks_pending()
            && crate::runtime::workers::all_idle()
            && self.inbox.is_empty()
    }

    /// Moves due timers to the task queue, in due-time order.
    fn queue_due_timers(&self) {
        let now = Instant::now();
        let mut due = {
            let mut timers = self.timers.borrow_mut();
            // (Nothing due: the common case, with no allocation.)
            if !timers.iter().any(|t| t.due <= now) {
                return;
            }
            let (ready, waiting): (Vec<TimerEntry>, Vec<TimerEntry>) = std::mem::take(&mut *timers)
                .into_iter()
                .partition(|t| t.due <= now);
            *timers = waiting;
            ready
        };
        due.sort_by(|a, b| a.due.cmp(&b.due).then(a.seq.cmp(&b.seq)));
        for TimerEntry {
            global: root, kind, ..
        } in due
        {
            self.queue_task(Box::new(move |cx| {
                let Some(global) = NonNull::new(root.get()) else {
                    return;
                };
                let mut realm = AutoRealm::new(cx, global);
                match kind {
                    TimerKind::Timer(id) => {
                        // SAFETY: the task's root keeps the global alive.
                        let scope = unsafe {
                            crate::dom::globals::globalscope::GlobalScope::from_global(
                                global.as_ptr(),
                            )
                        };
                        scope.run_timer(&mut realm, id);
                    }
                    TimerKind::IdleTimeout(handle) => {
                        crate::runtime::rendering::invoke_idle_callback_timeout(
                            &mut realm, global, handle,
                        )
                    }
                }
            }));
        }
    }

    /// The earliest timer's due time.
    fn next_timer_due(&self) -> Option<Instant> {
        self.timers.borrow().iter().map(|t| t.due).min()
    }

    /// Moves the tasks other agents posted into the task queue.
    fn take_posted_tasks(&self) {
        self.tasks
            .borrow_mut()
            .extend(self.inbox.drain().map(Self::posted));
    }

    /// A task another agent posted, as a task of this loop.
    fn posted(task: CrossAgentTask) -> Task {
        Box::new(move |cx: &mut JSContext| task(cx))
    }

    /// Blocks until another agent posts a task (queued), a wake-up, or
    /// `until` (see [`Inbox::wait`]).
    fn wait(&self, until: Option<Instant>) {
        if let Some(task) = self.inbox.wait(until) {
            self.queue_task(Self::posted(task));
        }
    }

    /// The start of a turn of the loop: posted tasks, finished worker
    /// threads joined, due timers, the sampler's notifications.
    fn prepare_turn(&self, cx: &mut JSContext) {
        // Workers that finished are joined first, then what was posted is
        // taken: a worker posts before it finishes, so its last messages
        // are queued ahead of the task that forgets it (and its `Worker`
        // object's root).
        let finished = crate::runtime::workers::join_finished();
        self.take_posted_tasks();
        for id in finished {
            self.queue_task(Box::new(move |_| crate::runtime::workers::forget(id)));
        }
        self.queue_due_timers();
        // The sampler's notifications (samplebufferfull, possibly from
        // the sampling thread) become tasks here, on the JS thread; the
        // sampler's pending captures are resolved now and then.
        crate::runtime::profiling::deliver_notifications(cx);
        if crate::runtime::profiling::poll_due(&self.last_profiler_poll) {
            crate::runtime::profiling::poll();
        }
    }

    /// When a loop with no task to run should look again: the next timer
    /// (at least every 10 ms while a profiling session runs, so a
    /// samplebufferfull notification is not held back by a long timer),
    /// `deadline` at the latest; `None` is "when woken".
    fn next_wake(&self, deadline: Option<Instant>) -> Option<Instant> {
        let mut until = self.next_timer_due();
        if crate::runtime::profiling::has_started_sessions() {
            let soon = Instant::now() + Duration::from_millis(10);
            until = Some(until.map_or(soon, |u| u.min(soon)));
        }
        if self.pending_loads.get() > 0 {
            let soon = Instant::now() + Duration::from_millis(1);
            until = Some(until.map_or(soon, |u| u.min(soon)));
        }
        // The frame clock's next tick, while it runs.
        if let Some(frame) = self.next_frame.get() {
            until = Some(until.map_or(frame, |u| u.min(frame)));
        }
        match (until, deadline) {
            (Some(u), Some(d)) => Some(u.min(d)),
            (u, d) => u.or(d),
        }
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#event-loop-processing-model>:
    /// runs tasks (each followed by a microtask checkpoint) until nothing
    /// is left to run or `deadline` passes. Returns false on the deadline.
    ///
    /// "Nothing is left to run" (the page is idle): no task, no timer, no
    /// pending load, nothing posted by another agent, and every dedicated
    /// worker this agent owns is idle in the same sense (transitively:
    /// blocked in its own loop with nothing to run, its own workers idle)
    /// or has finished. Then no event can arrive any more, so the answer
    /// is exact, not a guess with a grace period; a worker that keeps a
    /// timer or a busy loop keeps the page running until `deadline`.
    pub fn run_until_idle(&self, cx: &mut JSContext, deadline: Option<Instant>) -> bool {
        loop {
            // The watchdog fired (`crate::runtime::watchdog`): no further task runs.
            if deadline.is_some_and(|d| Instant::now() >= d)
                || crate::runtime::watchdog::interrupting()
            {
                return false;
            }
            self.prepare_turn(cx);
            // Step 1: Let oldestTask be the first runnable task of the
            // chosen task queue, removed from it.
            let task = self.tasks.borrow_mut().pop_front();
            let ran_task = task.is_some();
            if let Some(task) = task {
                crate::runtime::watchdog::collect_after_out_of_memory(cx);
                // Step 5: Perform oldestTask's steps.
                task(cx);
                // Step 7: Perform a microtask checkpoint.
                perform_microtask_checkpoint(cx);
            }
            // Update the rendering: "If this is a window event loop", a
            // rendering opportunity comes at each tick of the frame clock,
            // which runs while animation frame callbacks wait
            // (`crate::runtime::rendering`).
            if let Some(frame_start) = self
                .frame_due()
                .filter(|_| !crate::runtime::watchdog::interrupting())
            {
                // (hasARenderingOpportunity: set eventLoop's last render
                // opportunity time to the frame's start, its tick.)
                self.last_render_opportunity.set(Some(frame_start));
                self.next_frame.set(None);
                // (A rendering opportunity ends the idle period.)
                self.idle_period_end.set(None);
                crate::runtime::watchdog::collect_after_out_of_memory(cx);
                crate::runtime::rendering::update_the_rendering(cx, frame_start);
                continue;
            }
            if ran_task {
                continue;
            }
            // "If this is a window event loop that has no task in the
            // event loop's task queues which is runnable, and this event
            // loop's microtask queue is empty, and hasARenderingOpportunity
            // is false": start an idle period for the idle callbacks.
            if crate::runtime::rendering::start_idle_periods(self, Instant::now()) {
                continue;
            }
            // (In `is_idle`, the workers are read before the inbox: a
            // worker posts before it declares itself idle, so a message
            // from an idle worker is already in the inbox.)
            if self.is_idle() {
                return true;
            }
            // (Waits may return early, e.g. on a worker's wake-up: the
            // loop just looks again. Idle callbacks that
            // could not start an idle period look again when the current
            // one ends, or within a millisecond when a timer was due.)
            let mut until = self.next_wake(deadline);
            if crate::runtime::rendering::idle_callbacks_pending() {
                let now = Instant::now();
                let soon = self
                    .idle_period_end
                    .get()
                    .filter(|end| *end > now)
                    .unwrap_or(now + Duration::from_millis(1));
                until = Some(until.map_or(soon, |u| u.min(soon)));
            }
            self.wait(until);
        }
    }

    /// The event loop of a dedicated worker
    /// (<https://html.spec.whatwg.org/multipage/workers.html#run-a-worker>
    /// step "Event loop: run the responsible event loop ... until it is
    /// destroyed"): runs tasks until `closing` is set (by `close()`,
    /// `terminate()`, or the owner going away). While it has nothing to
    /// run it declares itself idle (see [`EventLoop::run_until_idle`]) and
    /// wakes `owner` so the owner can notice.
    pub(crate) fn run_until_closed(&self, cx: &mut JSContext, closing: &AtomicBool, owner: &Inbox) {
        loop {
            if closing.load(Ordering::Acquire) || crate::runtime::watchdog::interrupting() {
                return;
            }
            self.prepare_turn(cx);
            let task = self.tasks.borrow_mut().pop_front();
            match task {
                Some(task) => {
                    self.inbox.set_busy();
                    crate::runtime::watchdog::collect_after_out_of_memory(cx);
                    task(cx);
                    perform_microtask_checkpoint(cx);
                }
                None => {
                    // (The activity count is read before the workers: a
                    // task posted below after they were found idle makes
                    // `set_idle` refuse, see `Inbox::post`.)
                    let since = self.inbox.activity();
                    let became_idle = self.timers.borrow().is_empty()
                        && self.pending_loads.get() == 0
                        && crate::runtime::workers::all_idle()
                        && self.inbox.set_idle(since).1;
                    // The owner is woken when this loop becomes idle, not
                    // at each look (every 10 ms while a session runs).
                    if became_idle {
                        owner.wake();
                    }
                    if closing.load(Ordering::Acquire) || crate::runtime::watchdog::interrupting() {
                        return;
                    }
                    self.wait(self.next_wake(None));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noop() -> CrossAgentTask {
        Box::new(|_| {})
    }

    /// page → A → B: a task posted to B by anyone but A (B's sampling
    /// thread's samplebufferfull wake-up, B's own worker) makes A busy
    /// too, so that the page does not find A idle while B has work.
    #[test]
    fn a_task_posted_to_a_worker_makes_its_owners_chain_busy() {
        let page = Inbox::new();
        let a = Inbox::with_owner(page.clone());
        let b = Inbox::with_owner(a.clone());
        // B declares itself idle, then A (having found B idle).
        assert_eq!(b.set_idle(b.activity()), (true, true));
        assert_eq!(a.set_idle(a.activity()), (true, true));
        assert!(a.is_idle() && b.is_idle());
        b.post(noop());
        assert!(!b.is_idle());
        assert!(!a.is_idle(), "A is busy while B has a task");
        // B runs it and is idle again; A, looking again, is idle again.
        b.drain().for_each(drop);
        assert_eq!(b.set_idle(b.activity()), (true, true));
        assert_eq!(a.set_idle(a.activity()), (true, true));
        // A task posted below between A's reading of the activity count
        // and its declaration (A found B idle before the post) keeps A
        // busy.
        let since = a.activity();
        b.post(noop());
        assert_eq!(a.set_idle(since), (false, false));
    }

    /// Runs `inbox.wait(None)` on another thread; what it returned, or
    /// `None` if it still blocks after 10 s (a lost wake-up: a hang).
    fn wait_on_thread(inbox: &Arc<Inbox>) -> Option<bool> {
        let inbox = inbox.clone();
        let (sender, receiver) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            let _ = sender.send(inbox.wait(None).is_some());
        });
        receiver.recv_timeout(Duration::from_secs(10)).ok()
    }

    /// A wake-up or a task that comes before the loop blocks is not lost:
    /// the hand-written wait had to look at its `signalled` flag and its
    /// queue under the lock before each condition-variable wait (a wait
    /// that forgot would sleep through a termination); a channel keeps
    /// the wake-up until a wait takes it.
    #[test]
    fn a_wake_up_or_a_task_before_the_wait_ends_it() {
        let inbox = Inbox::new();
        inbox.wake();
        inbox.wake();
        assert_eq!(wait_on_thread(&inbox), Some(false));
        inbox.post(noop());
        assert_eq!(wait_on_thread(&inbox), Some(true), "the task is returned");
        assert!(inbox.is_empty());
        // A deadline in the past ends the wait at once.
        assert!(inbox.wait(Some(Instant::now())).is_none());
    }

    /// A closed inbox refuses tasks and drops the queued ones.
    #[test]
    fn a_closed_inbox_refuses_tasks() {
        let inbox = Inbox::new();
        let dropped = Arc::new(AtomicBool::new(false));
        struct SetOnDrop(Arc<AtomicBool>);
        impl Drop for SetOnDrop {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let guard = SetOnDrop(dropped.clone());
        assert!(inbox.post(Box::new(move |_| drop(guard))));
        inbox.close();
        assert!(dropped.load(Ordering::SeqCst), "the queued task is dropped");
        assert!(inbox.is_empty());
        assert!(!inbox.post(noop()));
        assert!(inbox.is_empty());
    }

    /// The owner is woken when a worker becomes idle, not each time the
    /// worker looks again while idle (every 10 ms with a session).
    #[test]
    fn only_becoming_idle_is_reported() {
        let owner = Inbox::new();
        let worker = Inbox::with_owner(owner);
        assert_eq!(worker.set_idle(worker.activity()), (true, true));
        assert_eq!(worker.set_idle(worker.activity()), (true, false));
        worker.set_busy();
        assert_eq!(worker.set_idle(worker.activity()), (true, true));
    }
}
