//! The agent's sampling thread: sleeps until the next due session (absolute
//! deadlines, missed ticks skipped rather than drifting), serves every due
//! session with one tick, and never waits for the JS thread. A tick with no
//! JS on the stack is an idle sample, taken here without signalling; a tick
//! with JS posts a capture request to the JS thread's signal handler (or, in
//! the fallback mode, asks for an on-thread capture at its next interrupt
//! check) and collects it at a later tick. It asks the JS thread, through an
//! interrupt, to resolve when captures pile up, when a session filled its
//! buffer, and when no session is due any more. It touches the agent only
//! through [`Shared`], under its mutex.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::{
    admit, collect_flight, deliver_without_stack, markers_wanted, observe_without_stack, Admit,
    BufferFullCallback, CaptureMode, Request, Shared, SharedState,
};
use crate::glue::{self, Requested};

/// Pending captures that make the sampling thread ask for a resolution.
const RESOLVE_THRESHOLD: usize = 256;

/// Slack for considering a session due at a tick.
const DUE_SLACK_NS: u64 = 50_000;
/// How long a sent signal may stay unhandled before the request is
/// abandoned (a thread that blocks the signal must not stall sampling).
const ABANDON_AFTER_NS: u64 = 200_000_000;

/// The thread's body, until the JS thread asks it to shut down.
pub(super) fn run(shared: Arc<Shared>) {
    let mut fired: Vec<BufferFullCallback> = Vec::new();
    let mut st = shared.lock();
    loop {
        if st.shutdown {
            shared
                .sampler_cpu_ns
                .fetch_add(glue::thread_cpu_ns(), Ordering::Relaxed);
            return;
        }
        let Some(next_due) = st
            .sessions
            .iter()
            .filter(|s| !s.full)
            .map(|s| s.next_due_ns)
            .min()
        else {
            st = shared.wake.wait(st).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let now = glue::monotonic_ns();
        if next_due > now + DUE_SLACK_NS / 5 {
            let wait = Duration::from_nanos(next_due - now);
            st = shared
                .wake
                .wait_timeout(st, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            continue;
        }
        // The previous tick's capture, if its handler is done (one wake-up
        // per tick: the sampling thread never waits for the handler).
        collect_flight(&shared, &mut st);
        abandon_if_stale(&shared, &mut st, now);
        // One tick serves every due session.
        let mut due = Vec::new();
        for active in st.sessions.iter_mut().filter(|s| !s.full) {
            if active.next_due_ns > now + DUE_SLACK_NS {
                continue;
            }
            // Absolute deadlines: skip missed ticks instead of drifting.
            while active.next_due_ns <= now + DUE_SLACK_NS {
                active.next_due_ns = active.next_due_ns.saturating_add(active.interval_ns);
            }
            match admit(active) {
                Admit::Take => due.push(active.id),
                Admit::Full(cb) => fired.extend(cb),
                Admit::Skip => {}
            }
        }
        if due.is_empty() {
            drop(st);
            // Let the JS thread turn the instrumentation off.
            fire_and_request_resolution(&shared, &mut fired);
            st = shared.lock();
            continue;
        }
        let position = st.next_position;
        st.next_position += 1;
        shared.ticks.fetch_add(1, Ordering::Relaxed);
        tick(&shared, &mut st, position, due, now);
        let many = st.pending.len() >= RESOLVE_THRESHOLD;
        if many || !fired.is_empty() {
            drop(st);
            fire_and_request_resolution(&shared, &mut fired);
            st = shared.lock();
        }
    }
}

/// Outside the agent's mutex: runs the buffer-full callbacks of the
/// sessions that filled up, then asks the JS thread, through an interrupt,
/// to resolve (and, once no session samples, to turn the instrumentation
/// off).
fn fire_and_request_resolution(shared: &Shared, fired: &mut Vec<BufferFullCallback>) {
    for cb in fired.drain(..) {
        cb();
    }
    shared.resolve_requested.store(true, Ordering::Release);
    shared.cx.request_interrupt();
}

/// Serves one tick (sampling thread, under the agent's mutex): an idle
/// sample when no JS is on the stack; otherwise a capture request to the
/// JS thread's signal handler, collected later (or, on platforms without
/// signals, a request for an on-thread capture).
fn tick(shared: &Shared, st: &mut SharedState, position: u64, sessions: Vec<u64>, now: u64) {
    // No JS on the stack: an idle sample, without signalling.
    if shared.stack.depth() == 0 {
        let marker = observe_without_stack(shared, false);
        deliver_without_stack(st, position, now, sessions, marker);
        return;
    }
    match shared.mode {
        CaptureMode::SignalHandler => {
            let markers = markers_wanted(st, shared);
            let sent = st.request.is_none()
                && st
                    .capture
                    .request(&shared.slot, &shared.gc, markers, position)
                    == Requested::Sent;
            if sent {
                st.request = Some(Request {
                    position,
                    sessions,
                    sent_at_ns: now,
                    riders: Vec::new(),
                });
            } else if let Some(request) = st.request.as_mut() {
                // The previous request is still in flight: a sample without
                // stack whose marker is the late capture's (see `ride`).
                ride(request, position, now, sessions);
            } else {
                // The previous request is still in flight, or the signal
                // could not be sent: a sample without stack.
                let marker = observe_without_stack(shared, true);
                deliver_without_stack(st, position, now, sessions, marker);
            }
        }
        CaptureMode::OnThreadInterrupt => {
            st.on_thread_ticks.push((position, now, sessions));
            shared.cx.request_interrupt();
        }
    }
}

/// Markers: a tick served while the previous capture request is still in
/// flight gets a sample without stack, whose marker is the one that
/// capture reads when its handler runs. Sound because a pending signal is
/// handled before the thread runs any more user code: between the request
/// and the handler the thread did no work of its own (it waited in the
/// kernel or for a CPU, typically in a GC's parallel phases), so its state
/// at these ticks is the state the handler reads. Without this, such ticks
/// would fall mostly inside GCs and bias the `gc` share down.
pub(super) fn ride(request: &mut Request, position: u64, now: u64, sessions: Vec<u64>) {
    request.riders.push((position, now, sessions));
}

/// Gives up a request whose signal has not been handled for
/// [`ABANDON_AFTER_NS`]: its tick gets a sample without stack.
fn abandon_if_stale(shared: &Shared, st: &mut SharedState, now: u64) {
    let stale = st
        .request
        .as_ref()
        .is_some_and(|r| now.saturating_sub(r.sent_at_ns) > ABANDON_AFTER_NS);
    if stale && st.capture.abandon(&shared.slot) {
        if let Some(request) = st.request.take() {
            let marker = observe_without_stack(shared, true);
            deliver_without_stack(
                st,
                request.position,
                request.sent_at_ns,
                request.sessions,
                marker,
            );
            for (position, time_ns, sessions) in request.riders {
                deliver_without_stack(st, position, time_ns, sessions, marker);
            }
        }
    }
}
