//! The map of active timers of a `WindowOrWorkerGlobalScope`
//! (<https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers>):
//! the timer initialization steps and the task they queue, shared by
//! `Window` and `WorkerGlobalScope` (each global's `GlobalScope` owns one
//! [`Timers`]).
//!
//! The event loop keeps only `(global, id)` per scheduled timer; the
//! handler and its arguments live here, traced by the owning global.

use jsprof_script_derive::JSTraceable;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::time::Duration;

use mozjs::context::JSContext;
use mozjs::jsapi::{HandleValueArray, Heap, JSObject};
use mozjs::jsval::{JSVal, ObjectValue, UndefinedValue};
use mozjs::rust::wrappers2::Call;
use mozjs::{rooted, rooted_vec};

use crate::dom::bindings::conversions::{is_callable, RootedJsValue};
use crate::dom::globals::globalscope::report_pending_exception;
use crate::runtime::event_loop::EventLoop;

/// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#map-of-active-timers>
/// entry: the handler and arguments (traced), and what repeats need.
#[derive(JSTraceable)]
struct Timer {
    handler: Box<Heap<JSVal>>,
    // Boxed: a Heap must not move once it holds a pointer.
    #[allow(clippy::vec_box)]
    arguments: Vec<Box<Heap<JSVal>>>,
    timeout: i32,
    repeat: bool,
    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timer-nesting-level>
    nesting_level: u32,
    /// For a string handler whose initiating script has muted errors: that
    /// script's compile file name. The string is code that script wrote,
    /// so it is compiled as part of it (as its eval code is): muted for
    /// error reporting and never shown by the profiler.
    muted_initiator: Option<String>,
}

/// A global's map of active timers.
#[derive(Default, JSTraceable)]
pub(crate) struct Timers {
    timers: RefCell<BTreeMap<i32, Timer>>,
    next_timer_id: Cell<i32>,
    /// The nesting level of the timer task running now (0 outside timers).
    current_nesting_level: Cell<u32>,
}

impl Timers {
    pub(crate) fn new() -> Timers {
        Timers {
            timers: RefCell::new(BTreeMap::new()),
            next_timer_id: Cell::new(1),
            current_nesting_level: Cell::new(0),
        }
    }

    /// `clearTimeout(id)` / `clearInterval(id)`: remove this map's
    /// entry `id`.
    pub(crate) fn clear(&self, id: i32) {
        let removed = self.timers.borrow_mut().remove(&id);
        drop(removed);
    }

    /// Clears the map (a worker's "clear the worker global scope's map of
    /// active timers" when its event loop ends).
    pub(crate) fn clear_all(&self) {
        let removed = std::mem::take(&mut *self.timers.borrow_mut());
        drop(removed);
    }

    /// <https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timer-initialisation-steps>
    /// for `global` (the global object owning this map).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn initialize(
        &self,
        cx: &mut JSContext,
        global: *mut JSObject,
        handler: RootedJsValue,
        timeout: i32,
        arguments: Vec<RootedJsValue>,
        repeat: bool,
        previous_id: Option<i32>,
    ) -> i32 {
        // Step 1: Let thisArg be global (the task calls the handler with
        // the global).
        // Step 2: If previousId was given, let id be previousId; otherwise,
        // let id be an implementation-defined integer that is greater than
        // zero and does not already exist in global's map of active timers.
        let id = previous_id.unwrap_or_else(|| {
            let id = self.next_timer_id.get();
            self.next_timer_id.set(id.wrapping_add(1).max(1));
            id
        });
        // Step 3: If the surrounding agent's event loop's currently running
        // task is a task that was created by this algorithm, then let
        // nesting level be the task's timer nesting level. Otherwise, let
        // nesting level be 0.
        let nesting_level = self.current_nesting_level.get();
        // Step 4: If timeout is less than 0, then set timeout to 0.
        let mut timeout = timeout.max(0);
        // Step 5: If nesting level is greater than 5, and timeout is less
        // than 4, then set timeout to 4.
        if nesting_level > 5 && timeout < 4 {
            timeout = 4;
        }
        // Step 6-7: realm and initiating script (the handler runs in this
        // global's realm). A string handler from a script with muted errors
        // keeps that script's file name (see `Timer::muted_initiator`).
        // (A repeat keeps the first run's: `run` sets it again.)
        rooted!(&in(cx) let handler_value = handler.get());
        let muted_initiator = if previous_id.is_some() || is_callable(handler_value.handle()) {
            None
        } else {
            mozjs::rust::describe_scripted_caller(cx)
                .ok()
                .map(|caller| caller.filename)
                .filter(|filename| crate::loading::script_registry::is_muted(filename))
        };
        // Step 8-9: the task (run by `run`), with nesting level + 1.
        let timer = Timer {
            handler: Heap::boxed(handler.get()),
            arguments: arguments.iter().map(|a| Heap::boxed(a.get())).collect(),
            timeout,
            repeat,
            nesting_level: nesting_level + 1,
            muted_initiator,
        };
        // Step 11: Set global's map of active timers[id] to uniqueHandle.
        let replaced = self.timers.borrow_mut().insert(id, timer);
        drop(replaced);
        // Step 12: Run steps after a timeout given global, "setTimeout/
        // setInterval", timeout, and completionStep.
        EventLoop::current().schedule_timer(global, id, Duration::from_millis(timeout as u64));
        // Step 13: Return id.
        id
    }

    /// The task of step 8 of the timer initialization steps, for timer `id`
    /// of `global`. `cx` is in `global`'s realm; `script_url` is the file
    /// name a string handler is compiled with (the document's or the
    /// worker's URL).
    pub(crate) fn run(&self, cx: &mut JSContext, global: *mut JSObject, script_url: &str, id: i32) {
        // Step 8.1: If id does not exist in global's map of active timers,
        // then abort these steps.
        let (handler, arguments, timeout, repeat, nesting_level, muted_initiator) = {
            let timers = self.timers.borrow();
            let Some(timer) = timers.get(&id) else {
                return;
            };
            let handler = RootedJsValue::new(Heap::default());
            handler.set(timer.handler.get());
            (
                handler,
                timer.arguments.iter().map(|a| a.get()).collect::<Vec<_>>(),
                timer.timeout,
                timer.repeat,
                timer.nesting_level,
                timer.muted_initiator.clone(),
            )
        };
        rooted!(&in(cx) let handler_value = handler.get());
        let arguments: Vec<RootedJsValue> = arguments
            .into_iter()
            .map(|v| {
                let r = RootedJsValue::new(Heap::default());
                r.set(v);
                r
            })
            .collect();
        let previous_level = self.current_nesting_level.replace(nesting_level);
        // Step 8.4: If handler is a Function, then invoke handler given
        // arguments and "report", and with callback this value set to
        // thisArg.
        if is_callable(handler_value.handle()) {
            rooted!(&in(cx) let this = ObjectValue(global));
            let argv: Vec<JSVal> = arguments.iter().map(|a| a.get()).collect();
            rooted!(&in(cx) let mut rval = UndefinedValue());
            rooted_vec!(let argv_root <- argv.into_iter());
            let args = HandleValueArray::from(&argv_root);
            // SAFETY: the handler, `this` and the arguments are rooted, and we are in the
            // global's realm.
            let ok = unsafe {
                Call(
                    cx,
                    this.handle(),
                    handler_value.handle(),
                    &args,
                    rval.handle_mut(),
                )
            };
            if !ok {
                report_pending_exception(cx);
            }
        } else {
            // Step 8.5: Otherwise: ToString the handler and run it as a
            // classic script (the global's URL as the file name, or the
            // muted initiating script's).
            let source =
                crate::dom::bindings::conversions::to_rust_string(cx, handler_value.handle());
            match source {
                Ok(source) => {
                    let (url, record) = match muted_initiator.clone() {
                        Some(filename) => {
                            let record = crate::loading::script_registry::ScriptRecord {
                                url: filename.clone(),
                                start_line: 1,
                                cors_status: "opaque".to_owned(),
                                muted_errors: true,
                            };
                            (filename, record)
                        }
                        None => {
                            let url = script_url.to_owned();
                            let record =
                                crate::loading::script_registry::ScriptRecord::inline(&url, 1);
                            (url, record)
                        }
                    };
                    crate::loading::script_loading::run_classic_script(
                        cx, &source, &url, 1, record,
                    );
                }
                Err(()) => report_pending_exception(cx),
            }
        }
        self.current_nesting_level.set(previous_level);
        // Step 8.6: If id does not exist in global's map of active timers,
        // then abort these steps.
        if !self.timers.borrow().contains_key(&id) {
            return;
        }
        // Step 8.8: If repeat is true, then perform the timer
        // initialization steps again, given global, handler, timeout,
        // arguments, true, and id.
        if repeat {
            let removed = self.timers.borrow_mut().remove(&id);
            drop(removed);
            self.current_nesting_level.set(nesting_level);
            self.initialize(cx, global, handler, timeout, arguments, true, Some(id));
            if let Some(timer) = self.timers.borrow_mut().get_mut(&id) {
                timer.muted_initiator = muted_initiator;
            }
            self.current_nesting_level.set(previous_level);
        } else {
            // Step 8.9: Otherwise, remove global's map of active timers[id].
            let removed = self.timers.borrow_mut().remove(&id);
            drop(removed);
        }
    }
}
