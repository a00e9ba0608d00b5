//! Shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use jsprof_trace::{from_slice, Profile, ProfilerTrace};

/// The fixtures: a trace recorded by headless Chromium
/// (`tests/chromium/record.py`) and one recorded by `jsprof profile`.
pub fn fixtures() -> Vec<(&'static str, ProfilerTrace)> {
    vec![
        (
            "chromium",
            from_slice(include_bytes!("../data/chromium.json")).unwrap(),
        ),
        (
            "jsprof",
            from_slice(include_bytes!("../data/jsprof.json")).unwrap(),
        ),
    ]
}

/// Samples per leaf function (display name; `(idle)` without a stack),
/// counted straight from the trace with the trie walk.
pub fn self_samples(trace: &ProfilerTrace) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for s in &trace.samples {
        let name = match s.stack_id {
            Some(id) => {
                let leaf = trace.stack_frames(id).next().unwrap();
                trace.frames[leaf as usize].display_name().to_owned()
            }
            None => "(idle)".to_owned(),
        };
        *out.entry(name).or_default() += 1;
    }
    out
}

/// Named frames with a unique name and a position: `(name, line, column)`.
pub fn positions(trace: &ProfilerTrace) -> Vec<(String, u64, u64)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &trace.frames {
        *counts.entry(f.display_name()).or_default() += 1;
    }
    trace
        .frames
        .iter()
        .filter(|f| !f.name.is_empty() && counts[f.display_name()] == 1)
        .filter_map(|f| Some((f.name.clone(), f.line?, f.column?)))
        .collect()
}

pub fn profile(trace: &ProfilerTrace) -> Profile {
    Profile::from_trace(trace, None)
}

/// This crate's directory, read at run time: the compiled-in path is the
/// checkout that built the binary, which a target directory shared between
/// checkouts (see README.md) may have taken from another, since deleted, one.
pub fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}
