//! Text call trees: top-down (callers first) and bottom-up (the running
//! function first), with self and total percentages.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::Profile;

/// What [`call_trees`] prints.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Nodes below this share of all samples (percent) are left out.
    pub min_percent: f64,
    /// Deepest level printed.
    pub max_depth: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            min_percent: 1.0,
            max_depth: 30,
        }
    }
}

#[derive(Default)]
struct Node {
    total: u64,
    self_: u64,
    children: BTreeMap<String, Node>,
}

impl Node {
    fn add(&mut self, path: &[&str], weight: u64) {
        self.total += weight;
        match path.split_first() {
            None => self.self_ += weight,
            Some((first, rest)) => self
                .children
                .entry((*first).to_owned())
                .or_default()
                .add(rest, weight),
        }
    }
}

/// The top-down and bottom-up call trees of `profile` as text. Each line:
/// total %, self %, samples, and the frame (`name resource:line:column`),
/// indented by depth; children by decreasing total. In the bottom-up tree
/// the roots are the running functions and "self" is their own time.
pub fn call_trees(profile: &Profile, options: &ReportOptions) -> String {
    let t = &profile.tables;
    let labels: Vec<String> = t.frames.iter().map(|f| f.describe(&t.resources)).collect();
    let mut top_down = Node::default();
    let mut bottom_up = Node::default();
    for s in &profile.samples {
        let path: Vec<&str> = match s.stack_id {
            Some(id) => t
                .stack_frames_root_first(id)
                .iter()
                .map(|&f| labels[f as usize].as_str())
                .collect(),
            None => vec![super::convert::IDLE],
        };
        top_down.add(&path, s.weight);
        let reversed: Vec<&str> = path.iter().rev().copied().collect();
        // Bottom-up: "self" of a root is the time it was running.
        bottom_up.total += s.weight;
        let leaf = bottom_up
            .children
            .entry(reversed[0].to_owned())
            .or_default();
        leaf.self_ += s.weight;
        leaf.total += s.weight;
        let mut node = leaf;
        for frame in &reversed[1..] {
            node = node.children.entry((*frame).to_owned()).or_default();
            node.total += s.weight;
        }
    }
    let total = top_down.total.max(1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} samples from {} trace(s) at {} ms ({} without a stack)",
        top_down.total, profile.traces, profile.interval_ms, profile.idle_samples
    );
    for (title, root) in [("top-down", &top_down), ("bottom-up", &bottom_up)] {
        let _ = writeln!(
            out,
            "\n{title} call tree:\n  total%   self%  samples  frame"
        );
        print_children(&mut out, root, total, 0, options);
    }
    out
}

fn print_children(
    out: &mut String,
    node: &Node,
    total: u64,
    depth: usize,
    options: &ReportOptions,
) {
    if depth >= options.max_depth {
        return;
    }
    let mut children: Vec<(&String, &Node)> = node.children.iter().collect();
    children.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(b.0)));
    for (name, child) in children {
        let percent = 100.0 * child.total as f64 / total as f64;
        if percent < options.min_percent {
            continue;
        }
        let _ = writeln!(
            out,
            "  {:>6.1} {:>6.1} {:>8}  {}{}",
            percent,
            100.0 * child.self_ as f64 / total as f64,
            child.total,
            "  ".repeat(depth),
            name
        );
        print_children(out, child, total, depth + 1, options);
    }
}
