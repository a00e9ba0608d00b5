//! What `convert`, `merge`, `report` and `symbolicate` do.

use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::{ConvertArgs, MergeArgs, ReportArgs, SymbolicateArgs};
use crate::convert::{self, Format};
use crate::report::{call_trees, ReportOptions};
use crate::symbolicate::{symbolicate as symbolicate_trace, SourceMaps};
use crate::{Combiner, Mode, Profile, ProfilerTrace};

/// A buffered reader of `path` (- is standard input). The buffer wraps
/// the dynamic reader, not the other way round: the JSON reader pulls one
/// byte at a time, which must not be a dynamic call each.
fn open(path: &str) -> Result<BufReader<Box<dyn std::io::Read>>, String> {
    let inner: Box<dyn std::io::Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?)
    };
    Ok(BufReader::with_capacity(1 << 16, inner))
}

/// Reads and validates one trace (`path`; - is standard input).
pub fn read_trace(path: &str) -> Result<ProfilerTrace, String> {
    crate::from_reader(open(path)?).map_err(|e| format!("{path}: {e}"))
}

/// The files named: directories stand for their `*.json` files (sorted).
fn expand_inputs(inputs: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        if path.is_dir() {
            let mut files: Vec<String> = std::fs::read_dir(path)
                .map_err(|e| format!("cannot list {input}: {e}"))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

/// A progress bar on stderr when it is a terminal, else nothing.
fn progress(length: u64, what: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() || length < 2 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(length);
    let style = indicatif::ProgressStyle::with_template(
        "{msg} [{bar:40}] {pos}/{len} ({per_sec}, {eta} left)",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
    .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(what.to_owned());
    Some(bar)
}

/// `convert`: the traces on one timeline.
pub(super) fn convert(args: &ConvertArgs, prefix: &str) -> Result<(), String> {
    combine_and_write(
        &args.inputs,
        Mode::Timeline,
        args.to,
        args.out.as_deref(),
        args.interval,
        true,
        prefix,
    )
}

/// `merge`: the traces aggregated by stack.
pub(super) fn merge(args: &MergeArgs, prefix: &str) -> Result<(), String> {
    combine_and_write(
        &args.inputs,
        Mode::Aggregate,
        args.to,
        args.out.as_deref(),
        args.interval,
        args.strict,
        prefix,
    )
}

/// Combines `inputs` in `mode` and writes `format` to `out`. A trace that
/// does not read fails the whole run if `strict` (always on a timeline),
/// else it is skipped with a warning.
fn combine_and_write(
    inputs: &[String],
    mode: Mode,
    format: Format,
    out: Option<&str>,
    interval_ms: Option<f64>,
    strict: bool,
    prefix: &str,
) -> Result<(), String> {
    let inputs = expand_inputs(inputs)?;
    if inputs.is_empty() {
        return Err("no *.json trace found".into());
    }
    // Formats without a timeline are written from counts per stack, so
    // even a huge trace streams through in constant memory.
    let combine = if format.needs_timeline() {
        mode
    } else {
        Mode::Aggregate
    };
    let mut combiner = Combiner::new(combine, interval_ms);
    let bar = progress(inputs.len() as u64, "reading traces");
    let mut skipped = 0;
    for input in &inputs {
        let result = open(input).and_then(|reader| {
            combiner
                .add_reader(reader)
                .map_err(|e| format!("{input}: {e}"))
        });
        if let Err(message) = result {
            if strict || mode == Mode::Timeline {
                return Err(message);
            }
            skipped += 1;
            match &bar {
                Some(bar) => bar.println(format!("{prefix}: skipped {message}")),
                None => eprintln!("{prefix}: skipped {message}"),
            }
        }
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let mut profile = combiner.finish();
    profile.name = file_stem(&inputs[0]);
    let out = out
        .map(str::to_owned)
        .unwrap_or_else(|| default_output(&inputs[0], mode, format));
    write_format(&profile, format, &out)?;
    if mode == Mode::Aggregate {
        print!("{}", merge_summary(&profile, skipped));
    }
    if out != "-" {
        eprintln!("wrote {out} ({format})");
    }
    Ok(())
}

/// `dir/trace.json` → `trace`.
pub(super) fn file_stem(path: &str) -> String {
    let name = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_owned());
    name.strip_suffix(".json").unwrap_or(&name).to_owned()
}

/// `trace.json` → `trace.svg` (next to the input); merges are named
/// `merged` in the current directory.
pub(super) fn default_output(first: &str, mode: Mode, format: Format) -> String {
    if mode == Mode::Aggregate || first == "-" {
        return format!("merged{}", format.extension());
    }
    let path = PathBuf::from(first);
    let stem = file_stem(first);
    let name = format!("{stem}{}", format.extension());
    let name = if name == path.file_name().unwrap_or_default().to_string_lossy() {
        format!("{stem}.converted{}", format.extension())
    } else {
        name
    };
    path.with_file_name(name).to_string_lossy().into_owned()
}

/// Writes `profile` in `format` to `out` (- is standard output) through a
/// temporary file renamed at the end, so a failed write leaves no partial
/// file behind.
pub fn write_format(profile: &Profile, format: Format, out: &str) -> Result<(), String> {
    if out == "-" {
        let stdout = std::io::stdout();
        let mut lock = BufWriter::new(stdout.lock());
        return convert::write(profile, format, &mut lock)
            .and_then(|()| lock.flush())
            .map_err(|e| format!("cannot write to standard output: {e}"));
    }
    let temporary = format!("{out}.partial");
    let result = File::create(&temporary).and_then(|file| {
        let mut writer = BufWriter::new(file);
        convert::write(profile, format, &mut writer)?;
        writer.flush()?;
        std::fs::rename(&temporary, out)
    });
    result.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot write {out}: {e}")
    })
}

fn merge_summary(profile: &Profile, skipped: usize) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "merged {} trace(s){}: {} samples ({} without a stack), {} distinct stacks, {} frames",
        profile.traces,
        if skipped > 0 {
            format!(" ({skipped} skipped)")
        } else {
            String::new()
        },
        profile.total_weight(),
        profile.idle_samples,
        profile.tables.stacks.len(),
        profile.tables.frames.len(),
    );
    let mut resources: Vec<(usize, u64)> = profile
        .samples_per_resource
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, n)| *n > 0)
        .collect();
    resources.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let _ = writeln!(out, "samples per resource (the running function's script):");
    for (id, samples) in resources.iter().take(20) {
        let _ = writeln!(out, "  {samples:>10}  {}", profile.tables.resources[*id]);
    }
    if resources.len() > 20 {
        let _ = writeln!(out, "  ... {} more", resources.len() - 20);
    }
    out
}

/// `report`: both call trees on standard output.
pub(super) fn report(args: &ReportArgs) -> Result<(), String> {
    // Call trees need counts per stack only.
    let mut combiner = Combiner::new(Mode::Aggregate, args.interval);
    for input in expand_inputs(&args.inputs)? {
        combiner
            .add_reader(open(&input)?)
            .map_err(|e| format!("{input}: {e}"))?;
    }
    let profile = combiner.finish();
    let options = ReportOptions {
        min_percent: args.min_percent,
        max_depth: args.depth,
    };
    print!("{}", call_trees(&profile, &options));
    Ok(())
}

/// `symbolicate`: the trace with its frames mapped through source maps.
pub(super) fn symbolicate(args: &SymbolicateArgs, prefix: &str) -> Result<(), String> {
    let input = &args.input;
    let trace = read_trace(input)?;
    let mut maps = SourceMaps::new();
    for (url, file) in &args.sourcemaps {
        let json = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let file_url = url::Url::from_file_path(std::path::absolute(file).unwrap_or_default())
            .map(String::from)
            .ok();
        maps.add(url, &json, file_url.as_deref())
            .map_err(|e| e.to_string())?;
    }
    // A trace from the field names URLs its sender chose: they are
    // fetched (local files included) only when asked for.
    if args.fetch_maps {
        let fetcher = jsprof_net::Fetcher::new(jsprof_net::NetConfig::default())
            .map_err(|e| e.to_string())?;
        let found = super::discover_maps(&trace, &mut maps, &fetcher);
        for warning in found.warnings {
            eprintln!("{prefix}: {warning}");
        }
    }
    let out = args.out.clone().unwrap_or_else(|| {
        let path = PathBuf::from(input);
        let stem = file_stem(input);
        path.with_file_name(format!("{stem}.symbolicated.json"))
            .to_string_lossy()
            .into_owned()
    });
    let symbolicated = symbolicate_trace(&trace, &maps);
    let text = serde_json::to_string(&symbolicated).map_err(|e| e.to_string())?;
    write_text(&out, &text)?;
    eprintln!(
        "{} of {} scripts had a source map; wrote {out}",
        maps.len(),
        trace.resources.len()
    );
    Ok(())
}

/// Writes `text` to `out` (- is standard output, with a newline).
pub(super) fn write_text(out: &str, text: &str) -> Result<(), String> {
    if out == "-" {
        println!("{text}");
        return Ok(());
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {out}: {e}"))
}
