//! A profiling session, as the `Profiler` DOM object drives it.
//! <https://wicg.github.io/js-self-profiling/#profiling-sessions>

use std::rc::Weak;
use std::time::Instant;

use crate::agent::{AgentInner, AgentSampler, SessionState};
use crate::clock::SessionClock;
use crate::trace::{ProfilerTrace, TraceBuilder};

/// What a session is created with (the Profiler constructor's step 3).
pub struct SessionOptions {
    /// The sample interval, already rounded by the caller to a supported one.
    pub sample_interval_ms: f64,
    /// `maxBufferSize`.
    pub max_buffer_size: usize,
    /// The `profilerRealmID` of the session's realm (see
    /// [`crate::set_profiler_realm_id`]).
    pub realm_id: u64,
    /// The time origin of the current global (the base of its
    /// `performance.now()`).
    pub time_origin: Instant,
    /// Whether the global is cross-origin isolated (5 µs coarsening).
    pub cross_origin_isolated: bool,
    /// Markers (the spec repository's markers extension): the origin of
    /// the session's global when it is cross-origin isolated, `None`
    /// otherwise (no sample then has a marker). See `marker.rs`.
    pub markers: Option<crate::marker::OriginTag>,
    /// Called once when the sample buffer fills (the session then takes no
    /// more samples). It may run on the sampling thread: it must only queue
    /// the `samplebufferfull` event, never block.
    pub on_buffer_full: Option<Box<dyn FnOnce() + Send>>,
}

/// Why `stop()` could not return a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The session was already stopped (the DOM side rejects with
    /// `InvalidStateError`).
    AlreadyStopped,
    /// The agent (its context) is gone.
    AgentGone,
}

/// The smallest interval the sampler supports, in milliseconds.
pub const MIN_SAMPLE_INTERVAL_MS: f64 = 0.1;

/// A started profiling session. JS thread only. Dropping it cancels it.
pub struct Session {
    agent: Weak<AgentInner>,
    id: Option<u64>,
    interval_ms: f64,
}

impl Session {
    /// Creates a session in the started state (the Profiler constructor's
    /// step 3). The first session of an agent turns the instrumentation on.
    pub fn start(agent: &AgentSampler, options: SessionOptions) -> Session {
        let interval_ms = options.sample_interval_ms.max(MIN_SAMPLE_INTERVAL_MS);
        let inner = agent.inner();
        let state = SessionState {
            realm: options.realm_id,
            markers: options.markers.filter(|_| options.cross_origin_isolated),
            clock: SessionClock::new(options.time_origin, options.cross_origin_isolated),
            builder: TraceBuilder::default(),
        };
        let id = inner.add_session(
            (interval_ms * 1_000_000.0) as u64,
            options.max_buffer_size,
            state,
            options.on_buffer_full,
        );
        Session {
            agent: std::rc::Rc::downgrade(inner),
            id: Some(id),
            interval_ms,
        }
    }

    /// The interval the session samples at, in milliseconds.
    pub fn sample_interval_ms(&self) -> f64 {
        self.interval_ms
    }

    /// Whether the session is stopped (by `stop()`).
    pub fn stopped(&self) -> bool {
        self.id.is_none()
    }

    /// Samples taken so far (resolved ones).
    pub fn sample_count(&self) -> usize {
        let (Some(agent), Some(id)) = (self.agent.upgrade(), self.id) else {
            return 0;
        };
        agent.resolve_pending();
        let sessions = agent.sessions.borrow();
        sessions.get(&id).map_or(0, |s| s.builder.sample_count())
    }

    /// Approximate heap bytes of the session's trace so far.
    pub fn heap_bytes(&self) -> usize {
        let (Some(agent), Some(id)) = (self.agent.upgrade(), self.id) else {
            return 0;
        };
        let sessions = agent.sessions.borrow();
        sessions.get(&id).map_or(0, |s| s.builder.heap_bytes())
    }

    /// Takes a sample now if the session is started (WebDriver's Force
    /// Sample), on the JS thread.
    pub fn force_sample(&self) {
        if let (Some(agent), Some(id)) = (self.agent.upgrade(), self.id) {
            agent.force_sample(id);
        }
    }

    /// The `stop()` method's steps 1, 2 and 4: stops the session and returns
    /// its trace. Samples taken after this call are not included.
    /// <https://wicg.github.io/js-self-profiling/#dom-profiler-stop>
    pub fn stop(&mut self) -> Result<ProfilerTrace, SessionError> {
        // Step 1: a stopped session rejects.
        let id = self.id.take().ok_or(SessionError::AlreadyStopped)?;
        // Steps 2 and 4.1: move to stopped; no sample is assigned afterwards.
        let agent = self.agent.upgrade().ok_or(SessionError::AgentGone)?;
        let builder = agent.remove_session(id).ok_or(SessionError::AgentGone)?;
        // Step 4.2: the trace.
        Ok(builder.finish())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let (Some(agent), Some(id)) = (self.agent.upgrade(), self.id.take()) {
            agent.remove_session(id);
        }
    }
}
