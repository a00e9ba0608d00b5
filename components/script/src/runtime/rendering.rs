//! The frame and idle steps of a window event loop: the map of animation
//! frame callbacks (`requestAnimationFrame`, HTML's
//! <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#animation-frames>)
//! run by the event loop's "update the rendering" step, and the idle
//! callbacks (`requestIdleCallback`,
//! <https://w3c.github.io/requestidlecallback/>) run in the event loop's
//! idle periods.
//!
//! Each `Window` owns one [`FrameCallbacks`]; the event loop
//! ([`crate::runtime::event_loop::EventLoop::run_until_idle`]) calls
//! [`update_the_rendering`] when a frame of its 60 Hz frame clock is due
//! and [`start_idle_periods`] when it has no task to run.
//!
//! The frame clock runs only while some window of the event loop has an
//! animation frame callback: a frame is due at each tick of a 60 Hz grid
//! (a display's vsync), the first tick at or after the time a callback
//! was requested. With no callback waiting no frame is scheduled, and an
//! event loop with nothing else to run is idle. There is no layout or
//! painting: a frame runs the animation frame callbacks (the steps of
//! "update the rendering" that have no effect without layout are not
//! modelled), and "unnecessary rendering" removes every document without
//! callbacks. A frame's timestamp is its tick (the vsync it started at),
//! which is also the last render opportunity time.
//!
//! An idle period starts when the event loop has no task and no frame is
//! due; its deadline (computeDeadline: 50 ms, the next timer, the next
//! frame) is fixed when it starts and may only get shorter. No new idle
//! period starts before that deadline unless a frame ran (a frame ends
//! it), so an idle callback requested by an idle callback runs in the next
//! idle period, as the standard requires.

use jsprof_script_derive::JSTraceable;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::ptr::NonNull;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mozjs::context::JSContext;
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;

use crate::dom::bindings::callback::ExceptionHandling;
use crate::dom::bindings::codegen::{FrameRequestCallback, IdleRequestCallback};
use crate::dom::bindings::conversions::Finite;
use crate::dom::globals::globalscope::GlobalScope;
use crate::dom::globals::idledeadline::{DeadlineTime, IdleDeadline};
use crate::dom::globals::window::Window;
use crate::navigation::browsing_context::{self, NavigableId};
use crate::runtime::event_loop::EventLoop;
use crate::runtime::perform_microtask_checkpoint;

/// The interval of the frame clock: a 60 Hz display's refresh.
pub const FRAME_INTERVAL: Duration = Duration::from_nanos(16_666_667);

/// The longest idle period
/// (<https://w3c.github.io/requestidlecallback/#idle-periods>: "the user
/// agent should ensure that the deadline is no more than 50 ms in the
/// future").
pub const MAX_IDLE_PERIOD: Duration = Duration::from_millis(50);

/// An idle callback and its handle.
type IdleEntry = (u32, Rc<IdleRequestCallback>);

/// A window's animation frame and idle callbacks.
#[derive(Default, JSTraceable)]
pub(crate) struct FrameCallbacks {
    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#list-of-animation-frame-callbacks>
    /// (an ordered map: handles only increase, so key order is insertion
    /// order).
    animation_frame_callbacks: RefCell<BTreeMap<u32, Rc<FrameRequestCallback>>>,
    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#animation-frame-callback-identifier>
    animation_frame_callback_identifier: Cell<u32>,
    /// <https://w3c.github.io/requestidlecallback/#dfn-list-of-idle-request-callbacks>
    idle_request_callbacks: RefCell<VecDeque<IdleEntry>>,
    /// <https://w3c.github.io/requestidlecallback/#dfn-list-of-runnable-idle-callbacks>
    runnable_idle_callbacks: RefCell<VecDeque<IdleEntry>>,
    /// <https://w3c.github.io/requestidlecallback/#dfn-idle-callback-identifier>
    idle_callback_identifier: Cell<u32>,
}

impl FrameCallbacks {
    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#dom-animationframeprovider-requestanimationframe>
    /// (steps 2-6; `window` is this object, a Window, for which it is
    /// always supported).
    pub(crate) fn request_animation_frame(
        &self,
        window: &Window,
        callback: Rc<FrameRequestCallback>,
    ) -> u32 {
        // (The frame clock finds the window through its navigable.)
        window.navigable_id();
        // Step 2: Let target be this's relevant global object.
        // Step 3: Increment target's animation frame callback identifier
        // by one, and let handle be the result.
        let handle = self
            .animation_frame_callback_identifier
            .get()
            .wrapping_add(1);
        self.animation_frame_callback_identifier.set(handle);
        // Step 4: Let callbacks be target's map of animation frame
        // callbacks.
        // Step 5: Set callbacks[handle] to callback.
        self.animation_frame_callbacks
            .borrow_mut()
            .insert(handle, callback);
        // Step 6: Return handle.
        handle
    }

    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#animationframeprovider-cancelanimationframe>
    /// (steps 2-3).
    pub(crate) fn cancel_animation_frame(&self, handle: u32) {
        // Step 2: Let callbacks be this's target object's map of animation
        // frame callbacks.
        // Step 3: Remove callbacks[handle].
        self.animation_frame_callbacks.borrow_mut().remove(&handle);
    }

    /// Forgets every callback (the window's realm is discarded: its
    /// navigable was destroyed or navigated away); a pending idle timeout
    /// then finds no callback.
    pub(crate) fn clear(&self) {
        let animation = std::mem::take(&mut *self.animation_frame_callbacks.borrow_mut());
        let pending = std::mem::take(&mut *self.idle_request_callbacks.borrow_mut());
        let runnable = std::mem::take(&mut *self.runnable_idle_callbacks.borrow_mut());
        drop((animation, pending, runnable));
    }

    fn has_animation_frame_callbacks(&self) -> bool {
        !self.animation_frame_callbacks.borrow().is_empty()
    }

    fn has_idle_callbacks(&self) -> bool {
        !self.idle_request_callbacks.borrow().is_empty()
            || !self.runnable_idle_callbacks.borrow().is_empty()
    }

    /// <https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#run-the-animation-frame-callbacks>
    /// given the window's global (`cx` in its realm) and `now`.
    fn run_animation_frame_callbacks(&self, cx: &mut JSContext, now: f64) {
        // Step 1: Let callbacks be target's map of animation frame
        // callbacks.
        // Step 2: Let callbackHandles be the result of getting the keys of
        // callbacks.
        let handles: Vec<u32> = self
            .animation_frame_callbacks
            .borrow()
            .keys()
            .copied()
            .collect();
        // Step 3: For each handle in callbackHandles, if handle exists in
        // callbacks:
        for handle in handles {
            if crate::runtime::watchdog::interrupting() {
                return;
            }
            // Step 3.1: Let callback be callbacks[handle].
            // Step 3.2: Remove callbacks[handle].
            let Some(callback) = self.animation_frame_callbacks.borrow_mut().remove(&handle) else {
                continue;
            };
            // Step 3.3: Invoke callback with « now » and "report".
            rooted!(&in(cx) let this = UndefinedValue());
            let _ = callback.Call_(
                cx,
                this.handle(),
                Finite::<f64>::wrap(now),
                ExceptionHandling::Report,
            );
            // (Clean up after running script: a microtask checkpoint.)
            perform_microtask_checkpoint(cx);
        }
    }

    /// <https://w3c.github.io/requestidlecallback/#the-requestidlecallback-method>
    /// for `window` (this).
    pub(crate) fn request_idle_callback(
        &self,
        window: &Window,
        callback: Rc<IdleRequestCallback>,
        timeout: Option<u32>,
    ) -> u32 {
        // (Idle periods find the window through its navigable.)
        window.navigable_id();
        // Step 1: Let window be this Window object.
        // Step 2: Increment the window's idle callback identifier by one.
        let handle = self.idle_callback_identifier.get().wrapping_add(1);
        self.idle_callback_identifier.set(handle);
        // Step 3: Let handle be the current value of window's idle
        // callback identifier.
        // Step 4: Push callback to the end of window's list of idle
        // request callbacks, associated with handle.
        self.idle_request_callbacks
            .borrow_mut()
            .push_back((handle, callback));
        // Step 5: Return handle and then continue running this algorithm
        // asynchronously.
        // Step 6: If the timeout property is present in options and has a
        // positive value:
        if let Some(timeout) = timeout.filter(|t| *t > 0) {
            // Step 6.1: Wait for timeout milliseconds.
            // Step 6.2: Wait until all invocations of this algorithm, whose
            // timeout added to their posted time occurred before this
            // one's, have completed (the event loop orders them by due
            // time, then by posting order).
            // Step 6.3: Optionally, wait a further user-agent defined
            // length of time (none).
            // Step 6.4: Queue a task on the queue associated with the
            // idle-task task source, which performs the invoke idle
            // callback timeout algorithm, passing handle and window as
            // arguments.
            EventLoop::current().schedule_idle_timeout(
                window.global_object(),
                handle,
                Duration::from_millis(u64::from(timeout)),
            );
        }
        handle
    }

    /// <https://w3c.github.io/requestidlecallback/#the-cancelidlecallback-method>
    pub(crate) fn cancel_idle_callback(&self, window: &Window, handle: u32) {
        // Step 1: Let window be this Window object.
        // Step 2: Find the entry in either the window's list of idle
        // request callbacks or list of runnable idle callbacks that is
        // associated with the value handle.
        // Step 3: If there is such an entry, remove it from both window's
        // list of idle request callbacks and the list of runnable idle
        // callbacks.
        if self.take_idle_callback(handle).is_some() {
            // (Its timeout, if any, no longer keeps the event loop busy.)
            EventLoop::current().cancel_idle_timeout(window.global_object(), handle);
        }
    }

    /// Removes the entry of `handle` from either list.
    fn take_idle_callback(&self, handle: u32) -> Option<Rc<IdleRequestCallback>> {
        for list in [&self.idle_request_callbacks, &self.runnable_idle_callbacks] {
            let mut list = list.borrow_mut();
            if let Some(index) = list.iter().position(|(h, _)| *h == handle) {
                return list.remove(index).map(|(_, callback)| callback);
            }
        }
        None
    }

    /// <https://w3c.github.io/requestidlecallback/#start-an-idle-period-algorithm>
    /// (steps 2-5; the caller queues the task of step 6). Returns whether
    /// callbacks are runnable.
    fn start_idle_period(&self) -> bool {
        // Step 1: Optionally, if the user agent determines the idle period
        // should be delayed, return without performing any of the
        // subsequent steps (never).
        // Step 2: Let pending_list be window's list of idle request
        // callbacks.
        // Step 3: Let run_list be window's list of runnable idle
        // callbacks.
        // Step 4: Append all entries from pending_list into run_list
        // preserving order.
        // Step 5: Clear pending_list.
        let pending = std::mem::take(&mut *self.idle_request_callbacks.borrow_mut());
        let mut run_list = self.runnable_idle_callbacks.borrow_mut();
        run_list.extend(pending);
        !run_list.is_empty()
    }
}

/// The windows of this event loop's navigables that are not destroyed,
/// each parent before its children (in the order of their creation, which
/// is the tree order of their containers when iframes are inserted in
/// document order): the "docs" of "update the rendering" and the
/// same-loop windows.
fn windows_in_order() -> Vec<NavigableId> {
    let mut order = Vec::new();
    let mut pending: Vec<NavigableId> = browsing_context::top_level_navigables();
    pending.reverse();
    while let Some(id) = pending.pop() {
        order.push(id);
        let mut children = browsing_context::children_of(id);
        children.reverse();
        pending.extend(children);
    }
    order
}

/// Whether some window of this event loop has an animation frame
/// callback (the frame clock runs).
pub(crate) fn animation_frames_pending() -> bool {
    windows_in_order().into_iter().any(|id| {
        browsing_context::window_of(id)
            .is_some_and(|w| w.frame_callbacks().has_animation_frame_callbacks())
    })
}

/// Whether some window of this event loop has an idle callback waiting.
pub(crate) fn idle_callbacks_pending() -> bool {
    windows_in_order().into_iter().any(|id| {
        browsing_context::window_of(id).is_some_and(|w| w.frame_callbacks().has_idle_callbacks())
    })
}

/// The `GlobalScope` and `Window` of `global`, a live global of this
/// thread (rooted by the navigable registry, or by the task or timer that
/// holds it), if it is a window's.
fn window_of_global<'a>(
    global: NonNull<mozjs::jsapi::JSObject>,
) -> Option<(&'a GlobalScope, &'a Window)> {
    // SAFETY: the callers hold `global` rooted for the duration of their
    // use of the references.
    let scope = unsafe { GlobalScope::from_global(global.as_ptr()) };
    Some((scope, scope.as_window()?))
}

/// <https://w3c.github.io/hr-time/#dfn-relative-high-resolution-time>
/// given `time` and `global`: the duration from its time origin, coarsened
/// for it.
fn relative_high_resolution_time(time: Instant, global: &GlobalScope) -> f64 {
    let unsafe_time = time
        .saturating_duration_since(global.time_origin())
        .as_secs_f64()
        * 1000.0;
    jsprof_document::coarsen_time(unsafe_time, global.cross_origin_isolated())
}

/// The steps of
/// <https://html.spec.whatwg.org/multipage/webappapis.html#update-the-rendering>
/// a frame without layout has, at `frame_timestamp` (the frame's start,
/// the event loop's last render opportunity time).
pub(crate) fn update_the_rendering(cx: &mut JSContext, frame_timestamp: Instant) {
    // "Let docs be all fully active Document objects whose relevant
    // agent's event loop is eventLoop, sorted arbitrarily except that ...
    // any Document B whose container document is A must be listed after A
    // in the list."
    // "Unnecessary rendering: remove from docs any Document object doc for
    // which ... updating the rendering of doc's node navigable would have
    // no visible effect, and doc's map of animation frame callbacks is
    // empty" (no layout: no update has a visible effect).
    let docs: Vec<NavigableId> = windows_in_order()
        .into_iter()
        .filter(|id| {
            browsing_context::window_of(*id)
                .is_some_and(|w| w.frame_callbacks().has_animation_frame_callbacks())
        })
        .collect();
    // "For each doc of docs, run the animation frame callbacks for doc,
    // passing in the relative high resolution time given frameTimestamp
    // and doc's relevant global object as the timestamp."
    for id in docs {
        if crate::runtime::watchdog::interrupting() {
            return;
        }
        // (A callback of an earlier document may have removed this one.)
        let Some(global) = browsing_context::global_ptr(id) else {
            continue;
        };
        let Some((scope, window)) = window_of_global(global) else {
            continue;
        };
        let mut realm = AutoRealm::new(cx, global);
        let now = relative_high_resolution_time(frame_timestamp, scope);
        window
            .frame_callbacks()
            .run_animation_frame_callbacks(&mut realm, now);
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#event-loop-processing-model>,
/// the idle step ("If this is a window event loop that has no task in the
/// event loop's task queues which is runnable, and this event loop's
/// microtask queue is empty, and hasARenderingOpportunity is false"):
/// starts an idle period at `idle_start` for every window with idle
/// callbacks, each queueing its "invoke idle callbacks" task. Returns
/// whether a task was queued (false also when the period would end at
/// once: a timer or a frame is due).
pub(crate) fn start_idle_periods(event_loop: &EventLoop, idle_start: Instant) -> bool {
    // (An idle period lasts until its deadline: the idle callbacks
    // requested during it wait for the next one. A frame ends it.)
    if event_loop.in_idle_period(idle_start) {
        return false;
    }
    // Step 1: Set this event loop's last idle period start time to the
    // current high resolution time.
    // Step 2: Let computeDeadline be the steps of [`compute_deadline`].
    let deadline = compute_deadline(event_loop, idle_start);
    if deadline <= idle_start {
        return false;
    }
    // Step 3: For each win of the same-loop windows for this event loop,
    // perform the start an idle period algorithm for win with computeDeadline.
    let mut queued = false;
    for id in windows_in_order() {
        let Some(global) = browsing_context::global_ptr(id) else {
            continue;
        };
        let Some((_, window)) = window_of_global(global) else {
            continue;
        };
        if !window.frame_callbacks().start_idle_period() {
            continue;
        }
        // Start an idle period, step 6: Queue a task on the queue
        // associated with the idle-task task source, which performs the
        // steps defined in the invoke idle callbacks algorithm with window
        // and getDeadline as parameters.
        queue_invoke_idle_callbacks(event_loop, global, idle_start, deadline);
        queued = true;
    }
    if queued {
        event_loop.set_idle_period_end(deadline);
    }
    queued
}

/// Queues the task that runs "invoke idle callbacks" for the window whose
/// global is `global`, in the idle period that started at `idle_start`
/// with the deadline `end`.
fn queue_invoke_idle_callbacks(
    event_loop: &EventLoop,
    global: NonNull<mozjs::jsapi::JSObject>,
    idle_start: Instant,
    end: Instant,
) {
    let root = event_loop.global_root(global.as_ptr());
    event_loop.queue_task(Box::new(move |cx| {
        let Some(global) = NonNull::new(root.get()) else {
            return;
        };
        let mut realm = AutoRealm::new(cx, global);
        invoke_idle_callbacks(&mut realm, global, idle_start, end);
    }));
}

/// The getDeadline of an idle period that started at `start` with the
/// deadline `end`: computeDeadline again (a timer scheduled or a frame
/// requested since shortens it), never later than `end` (a timer that ran
/// since does not lengthen it: the event loop starts no new idle period
/// before `end`, so every callback of a period sees a deadline before the
/// next period's callbacks run).
pub(crate) fn idle_period_deadline(
    event_loop: &EventLoop,
    start: Instant,
    end: Instant,
) -> Instant {
    compute_deadline(event_loop, start).min(end)
}

/// The deadline of an idle period that started at `idle_start` (HTML's
/// computeDeadline, in the event loop processing model's idle step).
pub(crate) fn compute_deadline(event_loop: &EventLoop, idle_start: Instant) -> Instant {
    // Step 1: Let deadline be this event loop's last idle period start
    // time plus 50.
    let mut deadline = idle_start + MAX_IDLE_PERIOD;
    // Step 2: Let hasPendingRenders be false.
    let mut has_pending_renders = false;
    // Step 3: For each windowInSameLoop of the same-loop windows for this
    // event loop, perform the following steps:
    for id in windows_in_order() {
        // Step 3.1: If windowInSameLoop's map of animation frame callbacks
        // is not empty, or if the user agent believes that the
        // windowInSameLoop might have pending rendering updates, set
        // hasPendingRenders to true.
        if browsing_context::window_of(id)
            .is_some_and(|w| w.frame_callbacks().has_animation_frame_callbacks())
        {
            has_pending_renders = true;
        }
    }
    // Step 3.2: Let timerCallbackEstimates be the result of getting the
    // values of windowInSameLoop's map of active timers.
    // Step 3.3: For each timeoutDeadline of timerCallbackEstimates, if
    // timeoutDeadline is less than deadline, set deadline to
    // timeoutDeadline. (The event loop holds the due times of every
    // window's timers.)
    if let Some(timer) = event_loop.next_active_timer_due() {
        deadline = deadline.min(timer);
    }
    // Step 4: If hasPendingRenders is true, then:
    if has_pending_renders {
        // Step 4.1: Let nextRenderDeadline be this event loop's last
        // render opportunity time plus (1000 divided by the current
        // refresh rate).
        let next_render_deadline = event_loop.next_render_deadline(idle_start);
        // Step 4.2: If nextRenderDeadline is less than deadline, then
        // return nextRenderDeadline.
        if next_render_deadline < deadline {
            return next_render_deadline;
        }
    }
    // Step 5: Return deadline.
    deadline
}

/// <https://w3c.github.io/requestidlecallback/#invoke-idle-callbacks-algorithm>
/// for the window whose global is `global` (`cx` in its realm).
fn invoke_idle_callbacks(
    cx: &mut JSContext,
    global: NonNull<mozjs::jsapi::JSObject>,
    idle_start: Instant,
    end: Instant,
) {
    let Some((scope, window)) = window_of_global(global) else {
        return;
    };
    let callbacks = window.frame_callbacks();
    let event_loop = EventLoop::current();
    // Step 1: If the user agent believes it should end the idle period
    // early due to newly scheduled high-priority work, return from the
    // algorithm (a task or a due frame: the next idle period runs the
    // rest).
    // Step 2: Let now be the current time.
    let now = Instant::now();
    // Step 3: If now is less than the result of calling getDeadline and
    // the window's list of runnable idle callbacks is not empty:
    if now >= idle_period_deadline(&event_loop, idle_start, end) {
        return;
    }
    // Step 3.1: Pop the top callback from window's list of runnable idle
    // callbacks.
    let Some((handle, callback)) = callbacks.runnable_idle_callbacks.borrow_mut().pop_front()
    else {
        return;
    };
    event_loop.cancel_idle_timeout(global.as_ptr(), handle);
    // Step 3.2: Let deadlineArg be a new IdleDeadline whose get deadline
    // time algorithm is getDeadline.
    let deadline = IdleDeadline::new(
        cx,
        scope,
        DeadlineTime::IdlePeriod {
            start: idle_start,
            end,
        },
        false,
    );
    // Step 3.3: Call callback with deadlineArg as its argument. If an
    // uncaught runtime script error occurs, then report the exception.
    rooted!(&in(cx) let this = UndefinedValue());
    let _ = callback.Call_(cx, this.handle(), &deadline, ExceptionHandling::Report);
    // Step 3.4: If window's list of runnable idle callbacks is not empty,
    // queue a task which performs the steps in the invoke idle callbacks
    // algorithm with getDeadline and window as a parameters and return
    // from this algorithm.
    if !callbacks.runnable_idle_callbacks.borrow().is_empty() {
        queue_invoke_idle_callbacks(&event_loop, global, idle_start, end);
    }
}

/// <https://w3c.github.io/requestidlecallback/#invoke-idle-callback-timeout-algorithm>
/// for handle `handle` of the window whose global is `global` (`cx` in
/// its realm).
pub(crate) fn invoke_idle_callback_timeout(
    cx: &mut JSContext,
    global: NonNull<mozjs::jsapi::JSObject>,
    handle: u32,
) {
    let Some((scope, window)) = window_of_global(global) else {
        return;
    };
    // Step 1: Let callback be the result of finding the entry in window's
    // list of idle request callbacks or the list of runnable idle
    // callbacks that is associated with the value given by the handle
    // argument passed to the algorithm.
    // Step 2: If callback is not undefined:
    // Step 2.1: Remove callback from both window's list of idle request
    // callbacks and the list of runnable idle callbacks.
    let Some(callback) = window.frame_callbacks().take_idle_callback(handle) else {
        return;
    };
    // Step 2.2: Let now be the current time.
    let now = Instant::now();
    // Step 2.3: Let deadlineArg be a new IdleDeadline. Set the get
    // deadline time algorithm associated with deadlineArg to an algorithm
    // returning now and set the timeout associated with deadlineArg to
    // true.
    let deadline = IdleDeadline::new(cx, scope, DeadlineTime::Fixed(now), true);
    // Step 2.4: Call callback with deadlineArg as its argument. If an
    // uncaught runtime script error occurs, then report the exception.
    rooted!(&in(cx) let this = UndefinedValue());
    let _ = callback.Call_(cx, this.handle(), &deadline, ExceptionHandling::Report);
}

/// The deadline `time` of an `IdleDeadline` of `global`, in milliseconds
/// from its time origin, coarsened.
pub(crate) fn deadline_ms(time: &DeadlineTime, global: &GlobalScope) -> f64 {
    let instant = match time {
        DeadlineTime::Fixed(at) => *at,
        DeadlineTime::IdlePeriod { start, end } => {
            idle_period_deadline(&EventLoop::current(), *start, *end)
        }
    };
    relative_high_resolution_time(instant, global)
}
