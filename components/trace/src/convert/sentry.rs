//! Sentry's profiling sample format: the `profile` object of a profile
//! (frames, stacks leaf first, samples with thread IDs and
//! `elapsed_since_start_ns`, thread metadata) in a V1 profile document.
//! <https://develop.sentry.dev/sdk/telemetry/profiles/sample-format-v1/>

use std::io::{self, Write};

use serde_json::{json, Value};

use super::{expanded, resource};
use crate::Profile;

/// Writes the profile as a Sentry V1 profile (`version` "1", platform
/// `javascript`): one frame per trace frame (`function`, `abs_path`,
/// `filename`, `lineno`, `colno`, `in_app`), one stack per trie node that a
/// sample uses (frame indices leaf to root, as Sentry expects), and one
/// sample per trace sample on thread "0" with nanoseconds since the first
/// sample as a string. Samples without a stack have no Sentry equivalent
/// (Sentry's samples are stacks) and are left out; the IDs Sentry requires
/// (`event_id`, `transaction`) are derived from the profile, not random, so
/// the output is reproducible: replace them when sending to Sentry.
pub fn write_sentry(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let t = &profile.tables;
    let frames: Vec<Value> = t
        .frames
        .iter()
        .map(|f| {
            let mut frame = json!({ "function": f.display_name(), "in_app": true });
            if let Some(r) = resource(profile, f) {
                frame["abs_path"] = json!(r);
                frame["filename"] = json!(r.rsplit('/').next().unwrap_or(r));
            }
            if let Some(line) = f.line {
                frame["lineno"] = json!(line);
            }
            if let Some(column) = f.column {
                frame["colno"] = json!(column);
            }
            frame
        })
        .collect();
    // Only the stacks samples use, renumbered densely.
    let mut sentry_stack = vec![None; t.stacks.len()];
    let mut stacks: Vec<Vec<u64>> = Vec::new();
    let mut samples = Vec::new();
    let start = profile.samples.first().map_or(0.0, |s| s.timestamp);
    for (time, stack) in expanded(profile) {
        let Some(id) = stack else { continue };
        let index = *sentry_stack[id as usize].get_or_insert_with(|| {
            stacks.push(t.stack_frames(id).collect());
            stacks.len() - 1
        });
        let elapsed_ns = ((time - start) * 1e6).round().max(0.0) as u64;
        samples.push(json!({
            "stack_id": index,
            "thread_id": "0",
            "elapsed_since_start_ns": elapsed_ns.to_string(),
        }));
    }
    let digest = fingerprint(profile);
    let name = if profile.name.is_empty() {
        "JS Self-Profiling trace"
    } else {
        &profile.name
    };
    let file = json!({
        "version": "1",
        "event_id": digest,
        "platform": "javascript",
        "release": "",
        "environment": "production",
        "device": { "architecture": "unknown" },
        "os": { "name": "unknown", "version": "" },
        "runtime": { "name": "jsprof-trace", "version": env!("CARGO_PKG_VERSION") },
        "transaction": {
            "id": digest,
            "name": name,
            "trace_id": digest,
            "active_thread_id": "0",
        },
        "profile": {
            "frames": frames,
            "stacks": stacks,
            "samples": samples,
            "thread_metadata": { "0": { "name": "main" } },
        },
    });
    serde_json::to_writer(&mut *out, &file)?;
    out.flush()
}

/// 32 lowercase hex digits derived from the profile's contents (FNV-1a over
/// frames and sample count, twice with different seeds).
fn fingerprint(profile: &Profile) -> String {
    let mut hashes = [0xcbf2_9ce4_8422_2325u64, 0x6c62_272e_07bb_0142u64];
    let mut feed = |bytes: &[u8]| {
        for h in hashes.iter_mut() {
            for &b in bytes {
                *h ^= u64::from(b);
                *h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    };
    for f in &profile.tables.frames {
        feed(f.name.as_bytes());
        feed(&f.line.unwrap_or(0).to_le_bytes());
    }
    feed(&profile.total_weight().to_le_bytes());
    format!("{:016x}{:016x}", hashes[0], hashes[1])
}
