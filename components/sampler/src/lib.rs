//! The sampler component of the JS Self-Profiling API: unbiased samples from
//! SpiderMonkey's profiling stack, traces per realm.
//!
//! # Architecture
//!
//! * [`AgentSampler`] (one per SpiderMonkey context = agent) installs a
//!   `ProfilingStack`, owns one sampling thread serving every session of the
//!   agent, and turns SpiderMonkey's profiler instrumentation on with the
//!   first started session and off after the last ([`Preparation::Lazy`]),
//!   or keeps it on from its creation ([`Preparation::Eager`]).
//! * The sampling thread signals the JS thread with a real-time signal; the
//!   handler copies the `ProfilingStack` and walks
//!   `JS::ProfilingFrameIterator` from the interrupted registers into
//!   preallocated buffers (`glue.rs`, `glue_capture.cpp`), which the
//!   sampling thread collects at its next tick. With no JS on the stack it
//!   records an idle sample without signalling.
//! * Resolution runs on the JS thread (`resolve.rs`): at `stop()`,
//!   `force_sample()`, [`AgentSampler::poll`], and from an interrupt
//!   callback during long sessions. Frames are filtered per session (realm,
//!   muted errors via the [`ScriptRegistry`], the built-in rule) and traces
//!   are built per the spec (`trace.rs`).
//!
//! * Markers (the spec repository's markers extension, `marker.rs`): each
//!   sample of a cross-origin isolated session says whether the agent ran
//!   script, collected garbage or did the embedder's own work, for work
//!   of the session's origin only.
//!
//! # What the embedder does
//!
//! * Give every global a unique realm ID before `JS_NewGlobalObject`:
//!   [`set_profiler_realm_id`].
//! * Register each compiled script with [`ScriptRegistry::register`], keyed
//!   by the file name passed to `CompileOptions`, with its response URL and
//!   muted-errors flag, and each event-handler content attribute with
//!   [`ScriptRegistry::register_event_handler`]. Unknown sources are muted
//!   (fail closed).
//! * Call [`install_wasm_compile_hook`] once per context before any script
//!   runs: WebAssembly frames are attributed only to compilations it saw.
//! * Record each global's origin with [`set_realm_origin`], and mark the
//!   embedder's own work outside script with [`marker::other_work_for_realm`].
//! * Create an [`AgentSampler`] per context, [`Session::start`] per
//!   `Profiler`, and call [`Session::stop`] for the trace.
//!
//! See `README.md` for the design in detail (WebAssembly frames: realm and
//! visibility of a module from its recorded compilation), the measured
//! figures (overhead of each state, intervals, attribution, `stop()` cost,
//! bytes per sample), how to run the benchmark and the stress run, and what
//! is not done yet.

#![warn(missing_docs)]

mod agent;
pub mod clock;
mod glue;
pub mod marker;
mod registry;
mod resolve;
mod session;
pub mod trace;
mod wasm;

pub use agent::{AgentSampler, CaptureMode, Preparation, SamplerStats};
pub use glue::{
    allocate_profiler_realm_id, gc_total_ns, install_wasm_compile_hook,
    jit_register_walk_available, jit_register_walk_selected, jit_walk_counts, set_jit_options,
    set_profiler_realm_id, Context, JIT_WALK_STARTS,
};
pub use marker::{other_work, set_realm_origin, OriginTag, OtherWork, ProfilerMarker};
pub use registry::{ScriptInfo, ScriptRegistry};
pub use session::{Session, SessionError, SessionOptions, MIN_SAMPLE_INTERVAL_MS};
pub use trace::{ProfilerFrame, ProfilerSample, ProfilerStack, ProfilerTrace};

/// Hooks for the sampler's own tests (not an embedder's API): checks that
/// the C++ glue was built against the SpiderMonkey that is linked.
#[doc(hidden)]
pub mod test_hooks {
    pub use crate::glue::{
        implementation_version, profiling_stack_layout_matches, record_layouts_match,
    };
}
