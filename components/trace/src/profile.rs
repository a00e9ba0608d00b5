//! Building traces (the spec's "get an element ID" interning) and
//! combining traces into one [`Profile`], the input of every converter.

use std::collections::HashMap;
use std::io::Read;

use crate::model::{ProfilerFrame, ProfilerMarker, ProfilerSample, ProfilerStack, ProfilerTrace};

/// A timeline sample as the combiner reads it: time, stack, marker.
type Timed = (f64, Option<u64>, Option<ProfilerMarker>);
use crate::read::{for_each_sample, Error};

/// Builds a trace's tables with O(1) interning of resources, frames and
/// stacks, as the spec's trace-building algorithms do.
///
/// ```
/// use jsprof_trace::{ProfilerFrame, TraceBuilder};
/// let mut b = TraceBuilder::default();
/// let r = b.resource_id("https://example.com/app.js");
/// let f = b.frame_id(ProfilerFrame { name: "main".into(), resource_id: Some(r), line: Some(1), column: Some(1) });
/// let root = b.stack_id(None, f);
/// assert_eq!(b.stack_id(None, f), root); // interned
/// b.push_sample(0.0, Some(root));
/// let trace = b.finish();
/// assert_eq!(trace.samples.len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct TraceBuilder {
    trace: ProfilerTrace,
    resource_ids: HashMap<String, u64>,
    frame_ids: HashMap<ProfilerFrame, u64>,
    stack_ids: HashMap<(Option<u64>, u64), u64>,
}

impl TraceBuilder {
    /// "get an element ID" for a resource URL.
    /// <https://wicg.github.io/js-self-profiling/#dfn-get-an-element-id>
    pub fn resource_id(&mut self, resource: &str) -> u64 {
        // Step 1: the index of an equal element, if there is one.
        if let Some(&id) = self.resource_ids.get(resource) {
            return id;
        }
        // Step 2: otherwise append the element and return its index.
        let id = self.trace.resources.len() as u64;
        self.trace.resources.push(resource.to_owned());
        self.resource_ids.insert(resource.to_owned(), id);
        id
    }

    /// "get an element ID" for a frame (its `resource_id` must come from
    /// this builder).
    /// <https://wicg.github.io/js-self-profiling/#dfn-get-an-element-id>
    pub fn frame_id(&mut self, frame: ProfilerFrame) -> u64 {
        // Step 1: the index of an equal element, if there is one.
        if let Some(&id) = self.frame_ids.get(&frame) {
            return id;
        }
        // Step 2: otherwise append the element and return its index.
        let id = self.trace.frames.len() as u64;
        self.trace.frames.push(frame.clone());
        self.frame_ids.insert(frame, id);
        id
    }

    /// Steps 6-7 of "get a stack ID": the element ID of
    /// `{parentId, frameId}`.
    /// <https://wicg.github.io/js-self-profiling/#dfn-get-a-stack-id>
    pub fn stack_id(&mut self, parent_id: Option<u64>, frame_id: u64) -> u64 {
        let key = (parent_id, frame_id);
        if let Some(&id) = self.stack_ids.get(&key) {
            return id;
        }
        let id = self.trace.stacks.len() as u64;
        self.trace.stacks.push(ProfilerStack {
            parent_id,
            frame_id,
        });
        self.stack_ids.insert(key, id);
        id
    }

    /// Appends a sample (the caller keeps samples in time order).
    pub fn push_sample(&mut self, timestamp: f64, stack_id: Option<u64>) {
        self.trace.samples.push(ProfilerSample {
            timestamp,
            stack_id,
            marker: None,
        });
    }

    /// The tables built so far.
    pub fn trace(&self) -> &ProfilerTrace {
        &self.trace
    }

    /// The finished trace.
    pub fn finish(self) -> ProfilerTrace {
        self.trace
    }
}

/// A sample of a [`Profile`]: a time, a stack and how many samples it
/// stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightedSample {
    /// Milliseconds on the profile's timeline.
    pub timestamp: f64,
    /// Index into the profile's stacks; `None` when no script ran.
    pub stack_id: Option<u64>,
    /// Number of samples (1 for a sample of a trace; the count of equal
    /// stacks in an aggregated profile).
    pub weight: u64,
    /// The sample's marker (markers extension), on a timeline; `None` in an
    /// aggregated profile.
    pub marker: Option<ProfilerMarker>,
}

/// One or more traces in the form converters take: interned tables, and
/// samples on one timeline with weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Resources, frames and stacks (`samples` is empty: see
    /// [`Profile::samples`]).
    pub tables: ProfilerTrace,
    /// Samples in time order.
    pub samples: Vec<WeightedSample>,
    /// The sample interval in milliseconds.
    pub interval_ms: f64,
    /// Number of traces combined.
    pub traces: usize,
    /// Samples per resource, by the resource of the sample's leaf frame
    /// (parallel to `tables.resources`).
    pub samples_per_resource: Vec<u64>,
    /// Samples without a stack.
    pub idle_samples: u64,
    /// A name for the profile (the first input's file name, say).
    pub name: String,
}

impl Profile {
    /// A profile of one trace. `interval_ms` is the sample interval if
    /// known; otherwise it is estimated from the samples
    /// ([`estimate_interval_ms`]).
    pub fn from_trace(trace: &ProfilerTrace, interval_ms: Option<f64>) -> Profile {
        let mut combiner = Combiner::new(Mode::Timeline, interval_ms);
        combiner.add_trace(trace);
        combiner.finish()
    }

    /// Total weight of the samples.
    pub fn total_weight(&self) -> u64 {
        self.samples.iter().map(|s| s.weight).sum()
    }

    /// The end of the timeline: the last sample plus one interval.
    pub fn end_ms(&self) -> f64 {
        self.samples
            .last()
            .map_or(0.0, |s| s.timestamp + self.interval_ms * s.weight as f64)
    }

    /// Each sample's duration in milliseconds: the time to the next sample
    /// (at most 10 intervals: a gap after a stop or an idle wait is not all
    /// attributed to one stack) or `interval × weight` for the last one and
    /// for aggregated samples.
    pub fn durations_ms(&self) -> Vec<f64> {
        let cap = self.interval_ms * 10.0;
        self.samples
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if s.weight != 1 {
                    return self.interval_ms * s.weight as f64;
                }
                match self.samples.get(i + 1) {
                    Some(next) => (next.timestamp - s.timestamp).clamp(0.0, cap),
                    None => self.interval_ms,
                }
            })
            .collect()
    }
}

/// The sample interval a trace was most likely recorded at: the median
/// gap between consecutive samples, rounded to 0.1 ms (10 ms when there
/// are fewer than two samples).
pub fn estimate_interval_ms(samples: &[ProfilerSample]) -> f64 {
    let mut gaps: Vec<f64> = samples
        .windows(2)
        .map(|w| w[1].timestamp - w[0].timestamp)
        .filter(|gap| *gap > 0.0)
        .collect();
    if gaps.is_empty() {
        return 10.0;
    }
    let middle = gaps.len() / 2;
    let (_, median, _) = gaps.select_nth_unstable_by(middle, f64::total_cmp);
    ((*median * 10.0).round() / 10.0).max(0.1)
}

/// How a [`Combiner`] lays out samples of several traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every sample kept, traces one after the other on the timeline (each
    /// shifted to start one interval after the previous one ended).
    Timeline,
    /// One weighted sample per distinct stack (memory grows with the
    /// number of distinct stacks, not with traces or samples).
    Aggregate,
}

/// Combines traces into a [`Profile`], one trace at a time, streaming
/// ([`Combiner::add_reader`] never holds a trace's samples).
///
/// ```
/// use jsprof_trace::{Combiner, Mode};
/// let trace = r#"{"resources":[],"frames":[{"name":"f"}],"stacks":[{"frameId":0}],
///                 "samples":[{"timestamp":1,"stackId":0},{"timestamp":2}]}"#;
/// let mut combiner = Combiner::new(Mode::Aggregate, Some(1.0));
/// combiner.add_reader(trace.as_bytes()).unwrap();
/// combiner.add_reader(trace.as_bytes()).unwrap();
/// let profile = combiner.finish();
/// assert_eq!((profile.traces, profile.total_weight(), profile.idle_samples), (2, 4, 2));
/// ```
#[derive(Debug)]
pub struct Combiner {
    mode: Mode,
    interval_ms: Option<f64>,
    builder: TraceBuilder,
    samples: Vec<WeightedSample>,
    /// Aggregate mode: weight per combined stack (and idle).
    weights: Vec<u64>,
    idle_weight: u64,
    /// The current trace's stack ID → combined stack ID.
    stack_map: Vec<Option<u64>>,
    /// The current trace's frame ID → combined frame ID.
    frame_map: Vec<Option<u64>>,
    /// Timeline mode: the last sample's time so far.
    end: f64,
    traces: usize,
    samples_per_resource: Vec<u64>,
    idle_samples: u64,
}

impl Combiner {
    /// A combiner; `interval_ms` is the sample interval if known
    /// (otherwise estimated from the first trace's samples).
    pub fn new(mode: Mode, interval_ms: Option<f64>) -> Combiner {
        Combiner {
            mode,
            interval_ms,
            builder: TraceBuilder::default(),
            samples: Vec::new(),
            weights: Vec::new(),
            idle_weight: 0,
            stack_map: Vec::new(),
            frame_map: Vec::new(),
            end: 0.0,
            traces: 0,
            samples_per_resource: Vec::new(),
            idle_samples: 0,
        }
    }

    /// Reads, validates and adds one trace. On an error nothing of this
    /// trace is added. In [`Mode::Aggregate`] the trace's samples are
    /// counted per stack as they stream by, so memory does not grow with
    /// them; in [`Mode::Timeline`] they are kept (they are the output).
    pub fn add_reader<R: Read>(&mut self, reader: R) -> Result<(), Error> {
        let mut counts: Vec<u64> = Vec::new();
        let mut idle = 0u64;
        let mut timed: Vec<Timed> = Vec::new();
        let mode = self.mode;
        // Timestamps for the interval estimate, when it is needed.
        let mut head: Vec<ProfilerSample> = Vec::new();
        let estimate = mode == Mode::Aggregate && self.interval_ms.is_none();
        let tables = for_each_sample(reader, |tables, sample| {
            if estimate && head.len() < 1000 {
                head.push(sample.clone());
            }
            match mode {
                Mode::Aggregate => match sample.stack_id {
                    Some(id) => {
                        if counts.len() < tables.stacks.len() {
                            counts.resize(tables.stacks.len(), 0);
                        }
                        counts[id as usize] += 1;
                    }
                    None => idle += 1,
                },
                Mode::Timeline => timed.push((sample.timestamp, sample.stack_id, sample.marker)),
            }
        })?;
        if estimate && head.len() > 1 {
            self.interval_ms = Some(estimate_interval_ms(&head));
        }
        match mode {
            Mode::Aggregate => self.add_counts(&tables, &counts, idle),
            Mode::Timeline => self.add_timeline(&tables, timed.into_iter()),
        }
        Ok(())
    }

    /// Adds a trace that is already in memory (validated: see
    /// [`crate::from_reader`]).
    pub fn add_trace(&mut self, trace: &ProfilerTrace) {
        match self.mode {
            Mode::Aggregate => {
                let mut counts = vec![0u64; trace.stacks.len()];
                let mut idle = 0;
                for sample in &trace.samples {
                    match sample.stack_id {
                        Some(id) => counts[id as usize] += 1,
                        None => idle += 1,
                    }
                }
                self.add_counts(trace, &counts, idle);
            }
            Mode::Timeline => self.add_timeline(
                trace,
                trace
                    .samples
                    .iter()
                    .map(|s| (s.timestamp, s.stack_id, s.marker)),
            ),
        }
    }

    fn begin_trace(&mut self) {
        self.stack_map.clear();
        self.frame_map.clear();
    }

    /// Counts a sample for its leaf frame's resource.
    fn count_resource(&mut self, stack: Option<u64>, weight: u64) {
        let Some(id) = stack else {
            self.idle_samples += weight;
            return;
        };
        let trace = self.builder.trace();
        let leaf = &trace.frames[trace.stacks[id as usize].frame_id as usize];
        if let Some(r) = leaf.resource_id {
            let r = r as usize;
            if self.samples_per_resource.len() <= r {
                self.samples_per_resource.resize(r + 1, 0);
            }
            self.samples_per_resource[r] += weight;
        }
    }

    fn add_counts(&mut self, tables: &ProfilerTrace, counts: &[u64], idle: u64) {
        self.begin_trace();
        for (id, &count) in counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            if let Some(combined) = self.map_stack(tables, id as u64) {
                let c = combined as usize;
                if self.weights.len() <= c {
                    self.weights.resize(c + 1, 0);
                }
                self.weights[c] += count;
                self.count_resource(Some(combined), count);
            }
        }
        self.idle_weight += idle;
        self.count_resource(None, idle);
        self.traces += 1;
    }

    fn add_timeline(&mut self, tables: &ProfilerTrace, samples: impl Iterator<Item = Timed>) {
        self.begin_trace();
        let mut samples = samples.peekable();
        let first_trace = self.traces == 0;
        if first_trace && self.interval_ms.is_none() {
            // Estimate the interval from the first trace's samples.
            let head: Vec<Timed> = samples.by_ref().take(100_000).collect();
            let estimate: Vec<ProfilerSample> = head
                .iter()
                .map(|&(timestamp, stack_id, marker)| ProfilerSample {
                    timestamp,
                    stack_id,
                    marker,
                })
                .collect();
            self.interval_ms = Some(estimate_interval_ms(&estimate));
            return self.push_timeline(tables, head.into_iter().chain(samples), first_trace);
        }
        self.push_timeline(tables, samples, first_trace)
    }

    fn push_timeline(
        &mut self,
        tables: &ProfilerTrace,
        samples: impl Iterator<Item = Timed>,
        first_trace: bool,
    ) {
        let mut offset = None;
        for (timestamp, stack_id, marker) in samples {
            // The first trace keeps its times; each later one starts one
            // interval after the previous one's last sample.
            let offset = *offset.get_or_insert(if first_trace {
                0.0
            } else {
                self.end + self.interval() - timestamp
            });
            let stack = stack_id.and_then(|id| self.map_stack(tables, id));
            self.count_resource(stack, 1);
            let timestamp = timestamp + offset;
            self.end = timestamp;
            self.samples.push(WeightedSample {
                timestamp,
                stack_id: stack,
                weight: 1,
                marker,
            });
        }
        self.traces += 1;
    }

    fn interval(&self) -> f64 {
        self.interval_ms.unwrap_or(10.0)
    }

    /// The combined stack ID of the current trace's `stack_id`, creating
    /// combined frames and stacks on the way (root first).
    fn map_stack(&mut self, tables: &ProfilerTrace, stack_id: u64) -> Option<u64> {
        let index = usize::try_from(stack_id).ok()?;
        if let Some(Some(id)) = self.stack_map.get(index) {
            return Some(*id);
        }
        if self.stack_map.len() < tables.stacks.len() {
            self.stack_map.resize(tables.stacks.len(), None);
        }
        // Collect the unmapped chain, leaf to root.
        let mut chain = Vec::new();
        let mut current = Some(stack_id);
        let mut parent = None;
        while let Some(id) = current {
            let i = usize::try_from(id).ok()?;
            if let Some(mapped) = self.stack_map.get(i).copied().flatten() {
                parent = Some(mapped);
                break;
            }
            chain.push(i);
            if chain.len() > tables.stacks.len() {
                return None; // a cycle (not in a validated trace)
            }
            current = tables.stacks.get(i)?.parent_id;
        }
        for &i in chain.iter().rev() {
            let frame = self.map_frame(tables, tables.stacks[i].frame_id)?;
            let id = self.builder.stack_id(parent, frame);
            self.stack_map[i] = Some(id);
            parent = Some(id);
        }
        parent
    }

    fn map_frame(&mut self, tables: &ProfilerTrace, frame_id: u64) -> Option<u64> {
        let index = usize::try_from(frame_id).ok()?;
        if let Some(Some(id)) = self.frame_map.get(index) {
            return Some(*id);
        }
        if self.frame_map.len() < tables.frames.len() {
            self.frame_map.resize(tables.frames.len(), None);
        }
        let frame = tables.frames.get(index)?;
        let resource_id = frame
            .resource(&tables.resources)
            .map(|r| self.builder.resource_id(r));
        let id = self.builder.frame_id(ProfilerFrame {
            resource_id,
            ..frame.clone()
        });
        self.frame_map[index] = Some(id);
        Some(id)
    }

    /// The combined profile.
    pub fn finish(self) -> Profile {
        let interval_ms = self.interval();
        let mut samples_per_resource = self.samples_per_resource;
        let tables = self.builder.finish();
        samples_per_resource.resize(tables.resources.len(), 0);
        let samples = match self.mode {
            Mode::Timeline => self.samples,
            Mode::Aggregate => {
                let mut samples = Vec::new();
                let mut time = 0.0;
                let weighted = self
                    .weights
                    .iter()
                    .enumerate()
                    .filter(|(_, &w)| w > 0)
                    .map(|(id, &w)| (Some(id as u64), w))
                    .chain((self.idle_weight > 0).then_some((None, self.idle_weight)));
                for (stack_id, weight) in weighted {
                    samples.push(WeightedSample {
                        timestamp: time,
                        stack_id,
                        weight,
                        marker: None,
                    });
                    time += interval_ms * weight as f64;
                }
                samples
            }
        };
        Profile {
            tables,
            samples,
            interval_ms,
            traces: self.traces,
            samples_per_resource,
            idle_samples: self.idle_samples,
            name: String::new(),
        }
    }
}
