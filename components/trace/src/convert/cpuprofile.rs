//! Chrome DevTools' `.cpuprofile` (the V8 `Profiler.Profile` of the Chrome
//! DevTools Protocol).
//! <https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile>

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::{json, Value};

use super::{expanded, resource, IDLE};
use crate::Profile;

/// Writes the profile as a `.cpuprofile`: node 1 is `(root)`, one node per
/// stack of the trie (its `callFrame` with `functionName`, `scriptId`,
/// `url`, and 0-based `lineNumber`/`columnNumber`, -1 when unknown, as
/// DevTools expects), an `(idle)` node for samples without a stack,
/// `hitCount`s, `children`, `samples` (node IDs) and `timeDeltas`
/// (integer microseconds). `startTime`/`endTime` are microseconds on the
/// trace's timeline.
pub fn write_cpuprofile(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let t = &profile.tables;
    let stack_node = |id: u64| id + 2;
    let idle_node = t.stacks.len() as u64 + 2;
    let mut hit_counts = vec![0u64; t.stacks.len() + 3];
    let mut children: Vec<Vec<u64>> = vec![Vec::new(); t.stacks.len() + 3];
    for (i, stack) in t.stacks.iter().enumerate() {
        let parent = stack.parent_id.map_or(1, stack_node);
        children[parent as usize].push(stack_node(i as u64));
    }
    children[1].push(idle_node);
    // Script IDs: one per resource, "0" for frames without one.
    let script_ids: HashMap<&str, usize> = t
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| (r.as_str(), i + 1))
        .collect();
    let call_frame = |name: &str, url: Option<&str>, line: Option<u64>, column: Option<u64>| {
        json!({
            "functionName": name,
            "scriptId": url.and_then(|u| script_ids.get(u)).map_or("0".to_owned(), |i| i.to_string()),
            "url": url.unwrap_or(""),
            "lineNumber": line.map_or(-1, zero_based),
            "columnNumber": column.map_or(-1, zero_based),
        })
    };
    let mut samples = Vec::new();
    let mut deltas = Vec::new();
    let mut previous_us: Option<i64> = None;
    let mut first_us = 0;
    for (time, stack) in expanded(profile) {
        let node = stack.map_or(idle_node, stack_node);
        hit_counts[node as usize] += 1;
        samples.push(node);
        let us = (time * 1000.0).round() as i64;
        match previous_us {
            None => {
                first_us = us;
                deltas.push(0);
            }
            Some(p) => deltas.push(us.saturating_sub(p)),
        }
        previous_us = Some(us);
    }
    let mut nodes: Vec<Value> = Vec::with_capacity(t.stacks.len() + 2);
    nodes.push(json!({
        "id": 1,
        "callFrame": call_frame("(root)", None, None, None),
        "hitCount": hit_counts[1],
        "children": children[1],
    }));
    for (i, stack) in t.stacks.iter().enumerate() {
        let f = &t.frames[stack.frame_id as usize];
        let node = stack_node(i as u64) as usize;
        let mut value = json!({
            "id": node,
            "callFrame": call_frame(f.display_name(), resource(profile, f), f.line, f.column),
            "hitCount": hit_counts[node],
        });
        if !children[node].is_empty() {
            value["children"] = json!(children[node]);
        }
        nodes.push(value);
    }
    nodes.push(json!({
        "id": idle_node,
        "callFrame": call_frame(IDLE, None, None, None),
        "hitCount": hit_counts[idle_node as usize],
    }));
    let end_us = previous_us
        .unwrap_or(0)
        .saturating_add((profile.interval_ms * 1000.0).round() as i64);
    // Typed, so the sample arrays are written without a JSON tree copy.
    let file = CpuProfile {
        nodes,
        start_time: first_us,
        end_time: end_us,
        samples,
        time_deltas: deltas,
    };
    serde_json::to_writer(&mut *out, &file)?;
    out.flush()
}

/// A 1-based position as DevTools' 0-based one (saturating: absurd
/// inputs must not wrap).
fn zero_based(position: u64) -> i64 {
    i64::try_from(position)
        .unwrap_or(i64::MAX)
        .saturating_sub(1)
}

/// The top level of a `.cpuprofile`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CpuProfile {
    nodes: Vec<Value>,
    start_time: i64,
    end_time: i64,
    samples: Vec<u64>,
    time_deltas: Vec<i64>,
}
