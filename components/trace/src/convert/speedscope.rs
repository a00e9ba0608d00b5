//! speedscope's file format: one sampled profile over shared frames.
//! <https://github.com/jlfwong/speedscope/wiki/Importing-from-custom-sources>
//! (schema: <https://www.speedscope.app/file-format-schema.json>)

use std::io::{self, Write};

use serde_json::{json, Value};

use super::resource;
use crate::Profile;

/// Writes the profile as a speedscope file: `shared.frames` from the
/// trace's frames (`name`, `file`, `line`, `col`), one `sampled` profile in
/// milliseconds whose samples list frame indices root first, weighted by
/// each sample's duration. Samples without a stack are empty stacks.
pub fn write_speedscope(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let t = &profile.tables;
    let frames: Vec<Value> = t
        .frames
        .iter()
        .map(|f| {
            let mut frame = json!({ "name": f.display_name() });
            if let Some(r) = resource(profile, f) {
                frame["file"] = json!(r);
            }
            if let Some(line) = f.line {
                frame["line"] = json!(line);
            }
            if let Some(column) = f.column {
                frame["col"] = json!(column);
            }
            frame
        })
        .collect();
    let samples: Vec<Vec<u64>> = profile
        .samples
        .iter()
        .map(|s| {
            s.stack_id
                .map_or_else(Vec::new, |id| t.stack_frames_root_first(id))
        })
        .collect();
    let weights = profile.durations_ms();
    let start = profile.samples.first().map_or(0.0, |s| s.timestamp);
    let end = start + weights.iter().sum::<f64>();
    let name = if profile.name.is_empty() {
        "JS Self-Profiling trace"
    } else {
        &profile.name
    };
    let file = json!({
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": { "frames": frames },
        "profiles": [{
            "type": "sampled",
            "name": name,
            "unit": "milliseconds",
            "startValue": start,
            "endValue": end,
            "samples": samples,
            "weights": weights,
        }],
        "name": name,
        "activeProfileIndex": 0,
        "exporter": concat!("jsprof-trace ", env!("CARGO_PKG_VERSION")),
    });
    serde_json::to_writer(&mut *out, &file)?;
    out.flush()
}
