//! The [JS Self-Profiling API](https://wicg.github.io/js-self-profiling/)'s
//! `ProfilerTrace` format, for reading traces that pages post from users'
//! browsers (Chromium's `Profiler`, or any implementation of the spec) and
//! turning them into something people can read.
//!
//! * [`ProfilerTrace`] and its dictionaries, serializing to the JSON a page
//!   gets from `JSON.stringify(await profiler.stop())`;
//! * a strict, streaming reader ([`from_reader`], [`for_each_sample`]):
//!   every ID is range-checked, the stack trie must be acyclic, timestamps
//!   finite and in order, and every error is one line naming the JSON path
//!   (`$.stacks[7].parentId: 12 is out of range (the trace has 9 stacks)`);
//! * the trie walk ([`ProfilerTrace::stack_frames`]) and the spec's
//!   interning ([`TraceBuilder`]);
//! * [`Combiner`]: many traces into one [`Profile`], on one timeline or
//!   aggregated by stack (streaming, for thousands of traces from the
//!   field);
//! * converters ([`convert`]) to the Firefox Profiler, Chrome DevTools'
//!   `.cpuprofile`, speedscope, pprof, Sentry, folded stacks and SVG flame
//!   graphs;
//! * [`symbolicate`]: frames mapped through source maps to original
//!   files, lines and function names;
//! * [`report`]: top-down and bottom-up call trees as text;
//! * [`cli`] (the `cli` feature, on by default): the command-line tools
//!   `convert`, `merge`, `report` and `symbolicate`, the `jsprof-trace`
//!   binary and the same subcommands of the `jsprof` shell.
//!
//! ```
//! let json = r#"{"resources":["https://example.com/app.js"],
//!   "frames":[{"name":"main","resourceId":0,"line":1,"column":1},
//!             {"name":"work","resourceId":0,"line":5,"column":10}],
//!   "stacks":[{"frameId":0},{"parentId":0,"frameId":1}],
//!   "samples":[{"timestamp":10,"stackId":1},{"timestamp":20,"stackId":0},{"timestamp":30}]}"#;
//! let trace = jsprof_trace::from_str(json).unwrap();
//! let profile = jsprof_trace::Profile::from_trace(&trace, Some(10.0));
//! let mut folded = Vec::new();
//! jsprof_trace::convert::write(&profile, jsprof_trace::convert::Format::Folded, &mut folded).unwrap();
//! assert_eq!(
//!     String::from_utf8(folded).unwrap(),
//!     "(idle) 1\nmain (https://example.com/app.js:1:1) 1\n\
//!      main (https://example.com/app.js:1:1);work (https://example.com/app.js:5:10) 1\n"
//! );
//!
//! let error = jsprof_trace::from_str(r#"{"resources":[],"frames":[],"stacks":[{"frameId":3}],"samples":[]}"#)
//!     .unwrap_err();
//! assert_eq!(error.to_string(), "$.stacks[0].frameId: 3 is out of range (the trace has 0 frames)");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod convert;
mod model;
mod profile;
mod read;
pub mod report;
pub mod symbolicate;
#[doc(hidden)]
pub mod testing;

pub use model::{
    ProfilerFrame, ProfilerMarker, ProfilerSample, ProfilerStack, ProfilerTrace, StackWalk,
};
pub use profile::{estimate_interval_ms, Combiner, Mode, Profile, TraceBuilder, WeightedSample};
pub use read::{for_each_sample, from_reader, from_slice, from_str, Error};
