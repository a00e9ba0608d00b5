//! The `ProfilerTrace` dictionaries and the trie walk.
//! <https://wicg.github.io/js-self-profiling/#the-profilertrace-dictionary>

use serde::Serialize;

/// A trace as `Profiler.stop()` resolves it: resources, frames, a trie of
/// stacks, and time-ordered samples.
/// <https://wicg.github.io/js-self-profiling/#the-profilertrace-dictionary>
///
/// Serializes to exactly the JSON a page gets from `JSON.stringify(trace)`
/// (absent optional members are left out). Read one with
/// [`crate::from_reader`], [`crate::from_slice`] or [`crate::from_str`],
/// which validate it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ProfilerTrace {
    /// Script URLs, referenced by [`ProfilerFrame::resource_id`].
    pub resources: Vec<String>,
    /// Frames, referenced by [`ProfilerStack::frame_id`].
    pub frames: Vec<ProfilerFrame>,
    /// The stack trie, referenced by [`ProfilerSample::stack_id`] and
    /// [`ProfilerStack::parent_id`].
    pub stacks: Vec<ProfilerStack>,
    /// Samples in time order.
    pub samples: Vec<ProfilerSample>,
}

/// <https://wicg.github.io/js-self-profiling/#the-profilerframe-dictionary>
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfilerFrame {
    /// The function's name (empty for anonymous functions and a script's
    /// top-level code).
    pub name: String,
    /// Index into [`ProfilerTrace::resources`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<u64>,
    /// 1-based line of the function's definition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// 1-based column of the function's definition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}

/// One node of the stack trie: a frame and the stack below it.
/// <https://wicg.github.io/js-self-profiling/#the-profilerstack-dictionary>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfilerStack {
    /// The caller's stack (absent for the outermost frame).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<u64>,
    /// Index into [`ProfilerTrace::frames`].
    pub frame_id: u64,
}

/// <https://wicg.github.io/js-self-profiling/#the-profilersample-dictionary>
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfilerSample {
    /// Milliseconds since the profiler's time origin (a
    /// `DOMHighResTimeStamp`).
    pub timestamp: f64,
    /// The stack at the sample, absent when no script was running.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_id: Option<u64>,
    /// What the agent was doing (the markers proposal,
    /// <https://github.com/WICG/js-self-profiling/blob/main/markers.md>).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marker: Option<ProfilerMarker>,
}

/// <https://github.com/WICG/js-self-profiling/blob/main/markers.md>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProfilerMarker {
    /// Script was running.
    Script,
    /// Garbage collection.
    Gc,
    /// Style recalculation.
    Style,
    /// Layout.
    Layout,
    /// Painting.
    Paint,
    /// Other work of the browser.
    Other,
}

impl ProfilerMarker {
    /// The marker named `name` in JSON, if it is one.
    pub fn from_name(name: &str) -> Option<ProfilerMarker> {
        Some(match name {
            "script" => ProfilerMarker::Script,
            "gc" => ProfilerMarker::Gc,
            "style" => ProfilerMarker::Style,
            "layout" => ProfilerMarker::Layout,
            "paint" => ProfilerMarker::Paint,
            "other" => ProfilerMarker::Other,
            _ => return None,
        })
    }
}

impl ProfilerFrame {
    /// The frame's resource URL, if it has one that exists in `resources`.
    pub fn resource<'a>(&self, resources: &'a [String]) -> Option<&'a str> {
        self.resource_id
            .and_then(|id| resources.get(usize::try_from(id).ok()?))
            .map(String::as_str)
    }

    /// The name to show: the function name, `(top level)` for a script's
    /// top-level code (a resource but no definition position), otherwise
    /// `(anonymous)`.
    pub fn display_name(&self) -> &str {
        match (self.name.is_empty(), self.line) {
            (false, _) => &self.name,
            (true, None) => "(top level)",
            (true, Some(_)) => "(anonymous)",
        }
    }

    /// `name resource:line:column` (the parts that exist).
    pub fn describe(&self, resources: &[String]) -> String {
        let name = self.display_name();
        match (self.resource(resources), self.line) {
            (Some(resource), Some(line)) => match self.column {
                Some(column) => format!("{name} {resource}:{line}:{column}"),
                None => format!("{name} {resource}:{line}"),
            },
            (Some(resource), None) => format!("{name} {resource}"),
            (None, _) => name.to_owned(),
        }
    }
}

impl ProfilerTrace {
    /// The frame IDs of `stack_id` from the leaf (the running function) to
    /// the root (the outermost caller). The walk is bounded by the number
    /// of stacks, so it ends even on an unvalidated trace with a cycle, and
    /// it stops at an out-of-range ID.
    pub fn stack_frames(&self, stack_id: u64) -> StackWalk<'_> {
        StackWalk {
            stacks: &self.stacks,
            next: Some(stack_id),
            budget: self.stacks.len(),
        }
    }

    /// Like [`ProfilerTrace::stack_frames`], root first.
    pub fn stack_frames_root_first(&self, stack_id: u64) -> Vec<u64> {
        let mut frames: Vec<u64> = self.stack_frames(stack_id).collect();
        frames.reverse();
        frames
    }

    /// The depth (number of frames) of every stack, or `None` for a stack
    /// whose chain is cut or cyclic. Linear in the number of stacks.
    pub fn stack_depths(&self) -> Vec<Option<u32>> {
        stack_depths(&self.stacks).unwrap_or_else(|(_, depths)| depths)
    }
}

/// Each stack's depth, `None` where its chain is cut or cyclic.
pub(crate) type Depths = Vec<Option<u32>>;

/// Depth of every stack; on a cycle or out-of-range parent, the first
/// offending stack index and the partial depths.
pub(crate) fn stack_depths(stacks: &[ProfilerStack]) -> Result<Depths, (usize, Depths)> {
    const UNKNOWN: u32 = 0;
    const VISITING: u32 = u32::MAX;
    // 0 = unknown, VISITING = on the current chain, else depth.
    let mut depth = vec![UNKNOWN; stacks.len()];
    let mut chain = Vec::new();
    let mut bad = None;
    for start in 0..stacks.len() {
        if depth[start] != UNKNOWN {
            continue;
        }
        let mut current = start;
        // Follow parents until a known stack or the root.
        let base = loop {
            if depth[current] == VISITING {
                bad.get_or_insert(current);
                break None;
            }
            if depth[current] != UNKNOWN {
                break Some(depth[current]);
            }
            depth[current] = VISITING;
            chain.push(current);
            match stacks[current].parent_id {
                None => break Some(0),
                Some(parent) => match usize::try_from(parent).ok().filter(|&p| p < stacks.len()) {
                    Some(parent) => current = parent,
                    None => {
                        bad.get_or_insert(current);
                        break None;
                    }
                },
            }
        };
        // Assign depths back down the chain (VISITING - 1 marks "broken").
        let mut next = base;
        while let Some(index) = chain.pop() {
            next = next
                .and_then(|d| d.checked_add(1))
                .filter(|&d| d < VISITING - 1);
            depth[index] = next.unwrap_or(VISITING - 1);
        }
    }
    let depths: Vec<Option<u32>> = depth
        .into_iter()
        .map(|d| (d != VISITING - 1 && d != UNKNOWN).then_some(d))
        .collect();
    match bad {
        None => Ok(depths),
        Some(index) => Err((index, depths)),
    }
}

/// Iterator over a stack's frame IDs, leaf to root
/// ([`ProfilerTrace::stack_frames`]).
#[derive(Clone, Debug)]
pub struct StackWalk<'a> {
    stacks: &'a [ProfilerStack],
    next: Option<u64>,
    budget: usize,
}

impl Iterator for StackWalk<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        let id = self.next.take()?;
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let stack = self.stacks.get(usize::try_from(id).ok()?)?;
        self.next = stack.parent_id;
        Some(stack.frame_id)
    }
}
