//! Collapsed stacks and inferno flame graphs.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{label, IDLE};
use crate::Profile;

/// Folded stacks from the profile, one line per distinct stack,
/// `root;caller;leaf count`, sorted. Frames are labelled
/// `name (resource:line:column)`; `;` and line breaks in names are
/// replaced so that every line parses.
pub fn folded_lines(profile: &Profile) -> Vec<String> {
    let t = &profile.tables;
    let labels: Vec<String> = t
        .frames
        .iter()
        .map(|f| folded_label(&label(profile, f)))
        .collect();
    let mut counts: BTreeMap<Option<u64>, u64> = BTreeMap::new();
    for s in &profile.samples {
        *counts.entry(s.stack_id).or_default() += s.weight;
    }
    let mut lines: Vec<String> = counts
        .into_iter()
        .map(|(stack, count)| {
            let path = match stack {
                Some(id) => t
                    .stack_frames_root_first(id)
                    .iter()
                    .map(|&f| labels[f as usize].as_str())
                    .collect::<Vec<_>>()
                    .join(";"),
                None => IDLE.to_owned(),
            };
            format!("{path} {count}")
        })
        .collect();
    lines.sort();
    lines
}

/// A frame label safe in a folded line: no `;` (the separator), no line
/// breaks, no `#` first after leading whitespace (a comment line to flame
/// graph tools, which trim the line first; the fullwidth number sign looks
/// the same), and not only whitespace (trimmed away with the line, it
/// leaves a one-frame stack empty: `(blank)` stands for it).
fn folded_label(label: &str) -> String {
    let label = label.replace(';', ":").replace(['\n', '\r'], " ");
    if label.trim().is_empty() {
        return "(blank)".to_owned();
    }
    let trimmed = label.trim_start();
    match trimmed.strip_prefix('#') {
        Some(rest) => {
            let indent = &label[..label.len() - trimmed.len()];
            format!("{indent}\u{FF03}{rest}")
        }
        None => label,
    }
}

/// Writes folded stacks, one line per distinct stack (`root;caller;leaf
/// count`).
pub fn write_folded(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    for line in folded_lines(profile) {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// Writes an interactive SVG flame graph (inferno): click to zoom, Ctrl+F
/// to search, a title per box with `name (resource:line:column)`, samples
/// and percentage. Samples without a stack are not drawn (a flame graph
/// shows where script time went); the subtitle says how many there were.
pub fn write_svg(profile: &Profile, out: &mut dyn Write) -> io::Result<()> {
    let idle_line = format!("{IDLE} ");
    let lines: Vec<String> = folded_lines(profile)
        .into_iter()
        .filter(|line| !line.starts_with(&idle_line))
        .collect();
    let idle: u64 = profile
        .samples
        .iter()
        .filter(|s| s.stack_id.is_none())
        .map(|s| s.weight)
        .sum();
    let mut options = inferno::flamegraph::Options::default();
    options.title = if profile.name.is_empty() {
        "JS Self-Profiling trace".to_owned()
    } else {
        profile.name.clone()
    };
    options.subtitle = Some(format!(
        "{} samples with script running, {idle} without (not shown), at {} ms, from {} trace(s)",
        profile.total_weight() - idle,
        profile.interval_ms,
        profile.traces
    ));
    // Names first: a box too narrow for its label keeps the function name.
    options.text_truncate_direction = inferno::flamegraph::TextTruncateDirection::Right;
    options.count_name = "samples".to_owned();
    options.name_type = "Function:".to_owned();
    if lines.is_empty() {
        // inferno refuses an empty profile; say so in a valid SVG.
        return write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="40"><text x="10" y="25">{}: no samples</text></svg>"#,
            options.title.replace('&', "&amp;").replace('<', "&lt;")
        );
    }
    inferno::flamegraph::from_lines(&mut options, lines.iter().map(String::as_str), out)
        .map_err(io::Error::other)
}
