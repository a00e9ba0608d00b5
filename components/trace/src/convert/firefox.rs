//! The Firefox Profiler's Gecko profile format, which the profiler imports
//! directly (it processes Gecko profiles itself; no conversion step).
//! <https://github.com/firefox-devtools/profiler/blob/main/docs-developer/gecko-profile-format.md>

use std::io::{self, Write};

use serde_json::{json, Value};

use super::{expanded, label};
use crate::{Profile, ProfilerMarker};

/// The Gecko profile format version written (the profiler upgrades older
/// versions on import; 28 has the frame table with `relevantForJS`,
/// `innerWindowID`, `implementation`, `optimizations`, `line`, `column`,
/// `category`, `subcategory`, and samples with `eventDelay`).
pub const GECKO_VERSION: u32 = 28;

/// Writes the profile as a Gecko profile: one main thread whose frame table
/// holds one frame per trace frame, located by a
/// `name (resource:line:column)` string (the form the profiler parses into
/// a JS function with its file, line and column), a stack table copying the
/// trie, and samples with their times (ms). Samples without a stack have a
/// `null` stack, as in Firefox's own profiles. Sample markers (the markers
/// extension) become interval markers of the thread: one per run of
/// consecutive samples with the same marker, from its first sample to the
/// next sample, named `script`, `gc`, `other`, ... in the categories
/// JavaScript, GC / CC and Other.
pub fn write_firefox(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    const JAVASCRIPT: u32 = 0;
    let t = &profile.tables;
    let mut strings: Vec<String> = Vec::with_capacity(t.frames.len());
    let frames: Vec<Value> = t
        .frames
        .iter()
        .map(|f| {
            strings.push(label(profile, f));
            json!([
                strings.len() - 1, // location
                false,             // relevantForJS
                0,                 // innerWindowID
                null,              // implementation
                null,              // optimizations
                f.line,
                f.column,
                JAVASCRIPT,
                0 // subcategory
            ])
        })
        .collect();
    let stacks: Vec<Value> = t
        .stacks
        .iter()
        .map(|s| json!([s.parent_id, s.frame_id]))
        .collect();
    // (stack, time, eventDelay): tuples serialize as JSON arrays.
    let samples: Vec<(Option<u64>, f64, u8)> = expanded(profile)
        .map(|(time, stack)| (stack, time, 0))
        .collect();
    let markers = marker_intervals(profile, &mut strings);
    let name = if profile.name.is_empty() {
        "JS Self-Profiling trace"
    } else {
        &profile.name
    };
    let file = json!({
        "meta": {
            "version": GECKO_VERSION,
            "interval": profile.interval_ms,
            "startTime": 0,
            "shutdownTime": null,
            "categories": [
                { "name": "JavaScript", "color": "yellow", "subcategories": ["Other"] },
                { "name": "Other", "color": "grey", "subcategories": ["Other"] },
                { "name": "GC / CC", "color": "orange", "subcategories": ["Other"] },
            ],
            "markerSchema": [],
            "stackwalk": 0,
            "debug": 0,
            "gcpoison": 0,
            "processType": 0,
            "presymbolicated": true,
            "product": name,
            "platform": "",
            "oscpu": "",
            "misc": "",
            "abi": "",
            "toolkit": "",
        },
        "libs": [],
        "pages": [],
        "pausedRanges": [],
        "processes": [],
        "threads": [{
            "name": "GeckoMain",
            "isMainThread": true,
            "processType": "default",
            "processName": name,
            "processStartupTime": 0,
            "processShutdownTime": null,
            "registerTime": 0,
            "unregisterTime": null,
            "pausedRanges": [],
            "pid": 1,
            "tid": 1,
            "stringTable": strings,
            "frameTable": {
                "schema": {
                    "location": 0, "relevantForJS": 1, "innerWindowID": 2,
                    "implementation": 3, "optimizations": 4, "line": 5,
                    "column": 6, "category": 7, "subcategory": 8
                },
                "data": frames,
            },
            "stackTable": { "schema": { "prefix": 0, "frame": 1 }, "data": stacks },
            "samples": { "schema": { "stack": 0, "time": 1, "eventDelay": 2 }, "data": samples },
            "markers": {
                "schema": { "name": 0, "startTime": 1, "endTime": 2, "phase": 3, "category": 4, "data": 5 },
                "data": markers,
            },
        }],
    });
    serde_json::to_writer(&mut *out, &file)?;
    out.flush()
}

/// The samples' markers as Gecko interval markers (`[name, startTime,
/// endTime, phase 1 = interval, category, data]`): one per run of
/// consecutive samples with the same marker, ending at the next sample (or
/// one interval after the last). Names are added to `strings`.
fn marker_intervals(profile: &Profile, strings: &mut Vec<String>) -> Vec<Value> {
    const JAVASCRIPT: u32 = 0;
    const OTHER: u32 = 1;
    const GC: u32 = 2;
    let mut out = Vec::new();
    let mut name_ids: Vec<(ProfilerMarker, usize)> = Vec::new();
    let mut run: Option<(ProfilerMarker, f64)> = None;
    let mut close = |run: Option<(ProfilerMarker, f64)>, end: f64, out: &mut Vec<Value>| {
        let Some((marker, start)) = run else {
            return;
        };
        let name = match name_ids.iter().find(|(m, _)| *m == marker) {
            Some(&(_, id)) => id,
            None => {
                strings.push(marker_name(marker).to_owned());
                name_ids.push((marker, strings.len() - 1));
                strings.len() - 1
            }
        };
        let category = match marker {
            ProfilerMarker::Script => JAVASCRIPT,
            ProfilerMarker::Gc => GC,
            _ => OTHER,
        };
        out.push(json!([name, start, end, 1, category, null]));
    };
    for sample in &profile.samples {
        if run.map(|(m, _)| Some(m)) != Some(sample.marker) {
            close(run.take(), sample.timestamp, &mut out);
            run = sample.marker.map(|m| (m, sample.timestamp));
        }
    }
    let end = profile
        .samples
        .last()
        .map_or(0.0, |s| s.timestamp + profile.interval_ms * s.weight as f64);
    close(run, end, &mut out);
    out
}

fn marker_name(marker: ProfilerMarker) -> &'static str {
    match marker {
        ProfilerMarker::Script => "script",
        ProfilerMarker::Gc => "gc",
        ProfilerMarker::Style => "style",
        ProfilerMarker::Layout => "layout",
        ProfilerMarker::Paint => "paint",
        ProfilerMarker::Other => "other",
    }
}
