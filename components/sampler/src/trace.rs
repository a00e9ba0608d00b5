//! The `ProfilerTrace` format and the spec's trace-building algorithms.
//! <https://wicg.github.io/js-self-profiling/#the-profilertrace-dictionary>

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::clock::ns_to_ms;
use crate::marker::{self, ProfilerMarker};

/// The `ProfilerTrace` dictionaries are the `jsprof-trace` crate's model
/// (the one model the shell's trace tools read and write too).
pub use jsprof_trace::{ProfilerFrame, ProfilerSample, ProfilerStack, ProfilerTrace};

/// A frame as the sampler resolved it, before the session's filters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FrameDesc {
    pub name: String,
    pub resource: Option<String>,
    pub line: Option<u64>,
    pub column: Option<u64>,
}

const NO_STACK: u32 = u32::MAX;

/// A session's samples as `(timestamp ns, stack ID or NO_STACK, marker
/// byte)`, 16 bytes each. Shared with the sampling thread, which appends idle samples (no
/// stack, nothing to resolve) directly, so that a page idling under a
/// session does not queue captures for the JS thread.
#[derive(Clone, Debug, Default)]
pub(crate) struct SampleSink(Arc<Mutex<Vec<Sample>>>);

/// `(timestamp ns, stack ID or NO_STACK, marker byte)`.
type Sample = (u64, u32, u8);

impl SampleSink {
    fn lock(&self) -> MutexGuard<'_, Vec<Sample>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Appends a sample without a stack.
    pub(crate) fn push_idle(&self, timestamp_ns: u64, marker: Option<ProfilerMarker>) {
        self.lock()
            .push((timestamp_ns, NO_STACK, marker::encode(marker)));
    }
}

/// Builds one session's trace with O(1) amortised interning per frame.
/// Samples are stored as 16 bytes each until the trace is produced.
#[derive(Debug, Default)]
pub(crate) struct TraceBuilder {
    resources: Vec<String>,
    resource_ids: HashMap<String, u32>,
    frames: Vec<ProfilerFrame>,
    frame_ids: HashMap<ProfilerFrame, u32>,
    /// Agent-wide frame index → this trace's frame ID (a dense cache in
    /// front of `frame_ids`).
    frame_cache: Vec<u32>,
    stacks: Vec<ProfilerStack>,
    stack_ids: HashMap<(u32, u32), u32>,
    samples: SampleSink,
}

impl TraceBuilder {
    pub(crate) fn sample_count(&self) -> usize {
        self.samples.lock().len()
    }

    /// "get an element ID" for a resource string.
    /// <https://wicg.github.io/js-self-profiling/#dfn-get-an-element-id>
    fn resource_id(&mut self, resource: &str) -> u32 {
        // Step 1: an equal element's index, if one exists.
        if let Some(&id) = self.resource_ids.get(resource) {
            return id;
        }
        // Step 2: otherwise append and return the new index.
        let id = self.resources.len() as u32;
        self.resources.push(resource.to_owned());
        self.resource_ids.insert(resource.to_owned(), id);
        id
    }

    /// Steps 8-11 of "get a frame ID" (the realm and muted checks, steps 1-7,
    /// were applied by the caller), cached by the agent-wide frame index.
    /// <https://wicg.github.io/js-self-profiling/#dfn-get-a-frame-id>
    pub(crate) fn frame_id(&mut self, agent_index: u32, desc: &FrameDesc) -> u32 {
        let slot = agent_index as usize;
        if let Some(&id) = self.frame_cache.get(slot) {
            if id != NO_STACK {
                return id;
            }
        }
        // Step 10.3: the resource's ID.
        let resource_id = desc.resource.as_deref().map(|r| self.resource_id(r) as u64);
        // Steps 8-10: a new ProfilerFrame with name, resource, line, column.
        let frame = ProfilerFrame {
            name: desc.name.clone(),
            resource_id,
            line: desc.line,
            column: desc.column,
        };
        // Step 11: get an element ID on the frame and the trace's frames.
        let id = match self.frame_ids.get(&frame) {
            Some(&id) => id,
            None => {
                let id = self.frames.len() as u32;
                self.frames.push(frame.clone());
                self.frame_ids.insert(frame, id);
                id
            }
        };
        if self.frame_cache.len() <= slot {
            self.frame_cache.resize(slot + 1, NO_STACK);
        }
        self.frame_cache[slot] = id;
        id
    }

    /// Steps 6-7 of "get a stack ID": the element ID of `{parentId, frameId}`.
    /// <https://wicg.github.io/js-self-profiling/#dfn-get-a-stack-id>
    pub(crate) fn stack_id(&mut self, parent: Option<u32>, frame_id: u32) -> u32 {
        let key = (parent.unwrap_or(NO_STACK), frame_id);
        if let Some(&id) = self.stack_ids.get(&key) {
            return id;
        }
        let id = self.stacks.len() as u32;
        self.stacks.push(ProfilerStack {
            parent_id: parent.map(u64::from),
            frame_id: frame_id as u64,
        });
        self.stack_ids.insert(key, id);
        id
    }

    /// Step 6 of "take a sample": appends a sample.
    /// <https://wicg.github.io/js-self-profiling/#dfn-take-a-sample>
    pub(crate) fn push_sample(&mut self, timestamp_ns: u64, stack: Option<u32>) {
        self.samples
            .lock()
            .push((timestamp_ns, stack.unwrap_or(NO_STACK), 0));
    }

    /// Sets the marker of the sample just pushed (markers extension: the
    /// sample's `marker` member).
    pub(crate) fn set_last_marker(&mut self, marker: Option<ProfilerMarker>) {
        if let Some(last) = self.samples.lock().last_mut() {
            last.2 = marker::encode(marker);
        }
    }

    /// The sink the sampling thread appends idle samples to.
    pub(crate) fn sink(&self) -> SampleSink {
        self.samples.clone()
    }

    /// Approximate heap bytes used by this builder.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.samples.lock().capacity() * std::mem::size_of::<Sample>()
            + self.stacks.capacity() * std::mem::size_of::<ProfilerStack>()
            + self.stack_ids.capacity() * 16
            + self.frames.capacity() * std::mem::size_of::<ProfilerFrame>()
            + self.frame_ids.capacity() * (std::mem::size_of::<ProfilerFrame>() + 4)
            + self.frame_cache.capacity() * 4
            + self
                .resources
                .iter()
                .map(|r| r.len() * 2 + 48)
                .sum::<usize>()
    }

    pub(crate) fn finish(self) -> ProfilerTrace {
        ProfilerTrace {
            resources: self.resources,
            frames: self.frames,
            stacks: self.stacks,
            samples: sorted(std::mem::take(&mut *self.samples.lock()))
                .into_iter()
                .map(|(ts, stack, marker)| ProfilerSample {
                    timestamp: ns_to_ms(ts),
                    stack_id: (stack != NO_STACK).then_some(stack as u64),
                    marker: marker::decode(marker),
                })
                .collect(),
        }
    }
}

/// Samples in time order: idle samples appended by the sampling thread can
/// overtake captures still waiting for resolution. Stable, so samples with
/// the same coarsened time keep their order; a no-op when already sorted.
fn sorted(mut samples: Vec<Sample>) -> Vec<Sample> {
    if !samples.is_sorted_by_key(|s| s.0) {
        samples.sort_by_key(|s| s.0);
    }
    samples
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_samples_are_put_in_time_order() {
        let mut b = TraceBuilder::default();
        let f = b.frame_id(
            0,
            &FrameDesc {
                name: "f".into(),
                resource: None,
                line: None,
                column: None,
            },
        );
        let s0 = b.stack_id(None, f);
        b.sink().push_idle(300_000, None);
        b.push_sample(100_000, Some(s0));
        b.sink().push_idle(200_000, Some(ProfilerMarker::Gc));
        let t = b.finish();
        let times: Vec<f64> = t.samples.iter().map(|s| s.timestamp).collect();
        assert_eq!(times, vec![0.1, 0.2, 0.3]);
        assert_eq!(t.samples[0].stack_id, Some(0));
        assert_eq!(t.samples[1].stack_id, None);
        assert_eq!(t.samples[1].marker, Some(ProfilerMarker::Gc));
        assert_eq!(t.samples[0].marker, None);
    }

    #[test]
    fn trie_and_json() {
        let mut b = TraceBuilder::default();
        let d = FrameDesc {
            name: "f".into(),
            resource: Some("https://a/x.js".into()),
            line: Some(1),
            column: Some(11),
        };
        let f = b.frame_id(0, &d);
        let g = b.frame_id(
            1,
            &FrameDesc {
                name: "g".into(),
                ..d.clone()
            },
        );
        let s0 = b.stack_id(None, f);
        let s1 = b.stack_id(Some(s0), g);
        assert_eq!(b.stack_id(Some(s0), g), s1);
        b.push_sample(643_700_000, Some(s1));
        b.push_sample(643_800_000, None);
        let json = serde_json::to_string(&b.finish()).unwrap();
        // (Idle samples appended out of order are put in time order below.)
        assert_eq!(
            json,
            r#"{"resources":["https://a/x.js"],"frames":[{"name":"f","resourceId":0,"line":1,"column":11},{"name":"g","resourceId":0,"line":1,"column":11}],"stacks":[{"frameId":0},{"parentId":0,"frameId":1}],"samples":[{"timestamp":643.7,"stackId":1},{"timestamp":643.8}]}"#
        );
    }
}
