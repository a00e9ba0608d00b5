//! Converters from a [`Profile`] to the formats of the profilers developers
//! already use. Each takes a profile (one trace, or many combined by a
//! [`crate::Combiner`]) and writes the target format.
//!
//! | [`Format`] | consumer | file |
//! |---|---|---|
//! | `firefox` | [Firefox Profiler](https://profiler.firefox.com) (Gecko profile format, imported directly) | `.json` |
//! | `cpuprofile` | Chrome DevTools Performance panel, VS Code, `speedscope` | `.cpuprofile` |
//! | `speedscope` | [speedscope](https://www.speedscope.app) (its file format schema) | `.speedscope.json` |
//! | `pprof` | `go tool pprof`, Grafana Pyroscope, Parca, Cloud Profiler (gzipped `profile.proto`) | `.pb.gz` |
//! | `sentry` | Sentry's profiling sample format (`profile` object with `elapsed_since_start_ns`) | `.json` |
//! | `folded` | collapsed stacks (`a;b;c 42`) for `flamegraph.pl`, inferno and others | `.folded` |
//! | `svg` | an interactive flame graph (inferno: search, zoom, titles) | `.svg` |
//! | `trace` | the `ProfilerTrace` JSON itself (traces combined into one) | `.json` |

use std::io::{self, Write};

use crate::model::ProfilerFrame;
use crate::Profile;

mod cpuprofile;
mod firefox;
mod folded;
pub mod pprof;
mod sentry;
mod speedscope;

pub use cpuprofile::write_cpuprofile;
pub use firefox::write_firefox;
pub use folded::{write_folded, write_svg};
pub use pprof::{encode_pprof, write_pprof, PprofProfile};
pub use sentry::write_sentry;
pub use speedscope::write_speedscope;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The Firefox Profiler's Gecko profile format.
    Firefox,
    /// Chrome DevTools' `.cpuprofile`.
    Cpuprofile,
    /// speedscope's file format.
    Speedscope,
    /// pprof: gzipped `profile.proto`.
    Pprof,
    /// Sentry's profiling sample format.
    Sentry,
    /// Folded (collapsed) stacks: `a;b;c 42`.
    Folded,
    /// An interactive SVG flame graph.
    Svg,
    /// The `ProfilerTrace` JSON itself.
    Trace,
}

impl Format {
    /// Every format, in the order of the table above.
    pub const ALL: [Format; 8] = [
        Format::Firefox,
        Format::Cpuprofile,
        Format::Speedscope,
        Format::Pprof,
        Format::Sentry,
        Format::Folded,
        Format::Svg,
        Format::Trace,
    ];

    /// The format's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Firefox => "firefox",
            Format::Cpuprofile => "cpuprofile",
            Format::Speedscope => "speedscope",
            Format::Pprof => "pprof",
            Format::Sentry => "sentry",
            Format::Folded => "folded",
            Format::Svg => "svg",
            Format::Trace => "trace",
        }
    }

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the format keeps each sample's time (a timeline), rather
    /// than only how often each stack was sampled. Formats that do not can
    /// be written from a [`crate::Mode::Aggregate`] profile, whose memory
    /// does not grow with the number of samples.
    pub fn needs_timeline(self) -> bool {
        !matches!(self, Format::Pprof | Format::Folded | Format::Svg)
    }

    /// The usual file name ending.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Firefox => ".firefox.json",
            Format::Cpuprofile => ".cpuprofile",
            Format::Speedscope => ".speedscope.json",
            Format::Pprof => ".pb.gz",
            Format::Sentry => ".sentry.json",
            Format::Folded => ".folded",
            Format::Svg => ".svg",
            Format::Trace => ".json",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes `profile` in `format`.
pub fn write(profile: &Profile, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Firefox => write_firefox(profile, out),
        Format::Cpuprofile => write_cpuprofile(profile, out),
        Format::Speedscope => write_speedscope(profile, out),
        Format::Pprof => write_pprof(profile, out),
        Format::Sentry => write_sentry(profile, out),
        Format::Folded => write_folded(profile, out),
        Format::Svg => write_svg(profile, out),
        Format::Trace => write_trace(profile, out),
    }
}

/// The profile as one `ProfilerTrace` (aggregated samples are repeated
/// `weight` times, one interval apart).
pub fn write_trace(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let mut trace = profile.tables.clone();
    for (timestamp, stack_id) in expanded(profile) {
        trace.samples.push(crate::ProfilerSample {
            timestamp,
            stack_id,
            marker: None,
        });
    }
    serde_json::to_writer(&mut *out, &trace)?;
    out.flush()
}

/// The profile's samples one by one as `(time ms, stack)`: aggregated
/// samples repeated `weight` times, one interval apart (for formats
/// without weights).
pub(crate) fn expanded(profile: &Profile) -> impl Iterator<Item = (f64, Option<u64>)> + '_ {
    profile.samples.iter().flat_map(move |s| {
        (0..s.weight).map(move |k| (s.timestamp + profile.interval_ms * k as f64, s.stack_id))
    })
}

/// The frame's resource, or `None`.
pub(crate) fn resource<'a>(profile: &'a Profile, frame: &ProfilerFrame) -> Option<&'a str> {
    frame.resource(&profile.tables.resources)
}

/// `name (resource:line:column)`, the label used by folded stacks, flame
/// graphs and the Gecko format's location strings.
pub(crate) fn label(profile: &Profile, frame: &ProfilerFrame) -> String {
    let name = frame.display_name();
    match (resource(profile, frame), frame.line, frame.column) {
        (Some(r), Some(l), Some(c)) => format!("{name} ({r}:{l}:{c})"),
        (Some(r), Some(l), None) => format!("{name} ({r}:{l})"),
        (Some(r), None, _) => format!("{name} ({r})"),
        (None, _, _) => name.to_owned(),
    }
}

/// Name of the pseudo-frame for samples without a stack.
pub(crate) const IDLE: &str = "(idle)";
