//! The trace tools of the command line: `jsprof convert`, `merge`,
//! `report` and `symbolicate`, and the outputs `jsprof profile` writes
//! next to its trace (flame graph, other formats, source maps). All of
//! them work on the `jsprof-trace` crate's model and never start the
//! engine.

use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jsprof_trace::convert::{self, Format};
use jsprof_trace::symbolicate::{data_url_bytes, source_mapping_url, SourceMaps};
use jsprof_trace::{Combiner, Mode, Profile, ProfilerTrace};

pub const USAGE: &str = "\
trace tools (no page is run):
  jsprof convert TRACE.json... --to FORMAT [-o OUT] [--interval MS]
        convert traces (several: one after the other on one timeline) to
        FORMAT: firefox, cpuprofile, speedscope, pprof, sentry, folded, svg,
        trace; OUT defaults to the first trace's name with the format's
        ending, - is standard output
  jsprof merge TRACE.json|DIR... [--to FORMAT] [-o OUT] [--interval MS] [--strict]
        aggregate many traces (a directory: its *.json files) into one
        weighted profile (default pprof), streaming; invalid traces are
        skipped with a warning unless --strict
  jsprof report TRACE.json... [--min-percent P] [--depth N]
        top-down and bottom-up call trees with total and self percentages
  jsprof symbolicate TRACE.json [--sourcemap URL=FILE]... [--fetch-maps] [-o OUT]
        map frames through source maps to original files, lines, columns
        and function names; with --fetch-maps, scripts without --sourcemap
        are fetched and their sourceMappingURL comment or SourceMap header
        followed (only for traces you trust: their URLs are fetched)";

/// Runs a trace tool if `verb` names one.
pub fn run(verb: &str, args: &[String]) -> Option<ExitCode> {
    let result = match verb {
        "convert" => convert_command(args, Mode::Timeline),
        "merge" => convert_command(args, Mode::Aggregate),
        "report" => report_command(args),
        "symbolicate" => symbolicate_command(args),
        _ => return None,
    };
    Some(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("jsprof {verb}: {message}");
            ExitCode::FAILURE
        }
    })
}

/// Options shared by the tools.
#[derive(Default)]
struct Options {
    inputs: Vec<String>,
    format: Option<Format>,
    out: Option<String>,
    interval_ms: Option<f64>,
    strict: bool,
    min_percent: Option<f64>,
    depth: Option<usize>,
    sourcemaps: Vec<(String, String)>,
    fetch_maps: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |what: &str| {
            iter.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        match arg.as_str() {
            "--to" | "--format" => {
                let name = value("a format")?;
                o.format =
                    Some(Format::from_name(&name).ok_or_else(|| {
                        format!("unknown format {name} (one of {})", format_names())
                    })?);
            }
            "-o" | "--out" => o.out = Some(value("a file name")?),
            "--interval" => o.interval_ms = Some(positive(&value("a number")?, arg)?),
            "--min-percent" => o.min_percent = Some(positive(&value("a number")?, arg)?),
            "--depth" => {
                let v = value("a number")?;
                o.depth = Some(v.parse().map_err(|_| format!("{arg}: not a number: {v}"))?);
            }
            "--sourcemap" => {
                let v = value("URL=FILE")?;
                let (url, file) = v
                    .rsplit_once('=')
                    .ok_or_else(|| format!("--sourcemap expects URL=FILE, got {v}"))?;
                o.sourcemaps.push((url.to_owned(), file.to_owned()));
            }
            "--strict" => o.strict = true,
            "--fetch-maps" => o.fetch_maps = true,
            "-" => o.inputs.push(arg.clone()),
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            _ => o.inputs.push(arg.clone()),
        }
    }
    if o.inputs.is_empty() {
        return Err("no trace given".into());
    }
    Ok(o)
}

fn positive(value: &str, option: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 0.0 => Ok(n),
        _ => Err(format!("{option}: not a non-negative number: {value}")),
    }
}

fn format_names() -> String {
    Format::ALL.map(Format::name).join(", ")
}

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

/// Reads and validates one trace.
pub fn read_trace(path: &str) -> Result<ProfilerTrace, String> {
    jsprof_trace::from_reader(open(path)?).map_err(|e| format!("{path}: {e}"))
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

fn convert_command(args: &[String], mode: Mode) -> Result<(), String> {
    let options = parse(args)?;
    let inputs = expand_inputs(&options.inputs)?;
    if inputs.is_empty() {
        return Err("no *.json trace found".into());
    }
    let format = match (options.format, mode) {
        (Some(format), _) => format,
        (None, Mode::Aggregate) => Format::Pprof,
        (None, Mode::Timeline) => {
            return Err(format!("--to FORMAT is required ({})", format_names()))
        }
    };
    // Formats without a timeline are written from counts per stack, so
    // even a huge trace streams through in constant memory.
    let combine = if format.needs_timeline() {
        mode
    } else {
        Mode::Aggregate
    };
    let mut combiner = Combiner::new(combine, options.interval_ms);
    let bar = progress(inputs.len() as u64, "reading traces");
    let mut skipped = 0;
    for input in &inputs {
        let result = open(input).and_then(|reader| {
            combiner
                .add_reader(reader)
                .map_err(|e| format!("{input}: {e}"))
        });
        if let Err(message) = result {
            if options.strict || mode == Mode::Timeline {
                return Err(message);
            }
            skipped += 1;
            match &bar {
                Some(bar) => bar.println(format!("jsprof merge: skipped {message}")),
                None => eprintln!("jsprof merge: skipped {message}"),
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
    let out = options
        .out
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

fn file_stem(path: &str) -> String {
    let name = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_owned());
    name.strip_suffix(".json").unwrap_or(&name).to_owned()
}

/// `trace.json` → `trace.svg` (next to the input); merges are named
/// `merged` in the current directory.
fn default_output(first: &str, mode: Mode, format: Format) -> String {
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

fn report_command(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    // Call trees need counts per stack only.
    let mut combiner = Combiner::new(Mode::Aggregate, options.interval_ms);
    for input in expand_inputs(&options.inputs)? {
        combiner
            .add_reader(open(&input)?)
            .map_err(|e| format!("{input}: {e}"))?;
    }
    let profile = combiner.finish();
    let mut report = jsprof_trace::report::ReportOptions::default();
    if let Some(p) = options.min_percent {
        report.min_percent = p;
    }
    if let Some(d) = options.depth {
        report.max_depth = d;
    }
    print!("{}", jsprof_trace::report::call_trees(&profile, &report));
    Ok(())
}

fn symbolicate_command(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let [input] = options.inputs.as_slice() else {
        return Err("one trace at a time".into());
    };
    let trace = read_trace(input)?;
    let mut maps = SourceMaps::new();
    for (url, file) in &options.sourcemaps {
        let json = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let file_url = url::Url::from_file_path(std::path::absolute(file).unwrap_or_default())
            .map(String::from)
            .ok();
        maps.add(url, &json, file_url.as_deref())
            .map_err(|e| e.to_string())?;
    }
    // A trace from the field names URLs its sender chose: they are
    // fetched (local files included) only when asked for.
    if options.fetch_maps {
        let fetcher = jsprof_net::Fetcher::new(jsprof_net::NetConfig::default())
            .map_err(|e| e.to_string())?;
        let found = discover_maps(&trace, &mut maps, &fetcher);
        for warning in found.warnings {
            eprintln!("jsprof symbolicate: {warning}");
        }
    }
    let out = options.out.unwrap_or_else(|| {
        let path = PathBuf::from(input);
        let stem = file_stem(input);
        path.with_file_name(format!("{stem}.symbolicated.json"))
            .to_string_lossy()
            .into_owned()
    });
    let symbolicated = jsprof_trace::symbolicate::symbolicate(&trace, &maps);
    let text = serde_json::to_string(&symbolicated).map_err(|e| e.to_string())?;
    write_text(&out, &text)?;
    eprintln!(
        "{} of {} scripts had a source map; wrote {out}",
        maps.len(),
        trace.resources.len()
    );
    Ok(())
}

fn write_text(out: &str, text: &str) -> Result<(), String> {
    if out == "-" {
        println!("{text}");
        return Ok(());
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {out}: {e}"))
}

/// What [`discover_maps`] found.
pub struct Discovered {
    pub loaded: usize,
    pub warnings: Vec<String>,
}

/// For every resource of `trace` without a map yet: fetches the script,
/// follows its `SourceMap` header or `//# sourceMappingURL=` comment
/// (resolved against the script's URL; `data:` maps inline) and adds the
/// map. Scripts without a map are left alone; fetch and parse failures
/// become warnings.
/// <https://tc39.es/ecma426/#sec-linking-generated-code>
pub fn discover_maps(
    trace: &ProfilerTrace,
    maps: &mut SourceMaps,
    fetcher: &jsprof_net::Fetcher,
) -> Discovered {
    let mut found = Discovered {
        loaded: 0,
        warnings: Vec::new(),
    };
    for resource in &trace.resources {
        if maps.has(resource) {
            continue;
        }
        let Ok(script_url) = url::Url::parse(resource) else {
            continue;
        };
        let response = match fetcher.fetch_following(&script_url, &[]) {
            Ok(r) if r.response.is_ok() => r.response,
            Ok(r) => {
                found
                    .warnings
                    .push(format!("{resource}: status {}", r.response.status));
                continue;
            }
            Err(e) => {
                found.warnings.push(format!("{resource}: {e}"));
                continue;
            }
        };
        // The SourceMap header wins over the comment.
        let header = response
            .header("SourceMap")
            .or_else(|| response.header("X-SourceMap"));
        let text = String::from_utf8_lossy(&response.body);
        let Some(reference) = header.as_deref().or_else(|| source_mapping_url(&text)) else {
            continue;
        };
        let map_url = match response.url.join(reference.trim()) {
            Ok(u) => u,
            Err(e) => {
                found
                    .warnings
                    .push(format!("{resource}: bad source map URL {reference}: {e}"));
                continue;
            }
        };
        // A web script's map never comes from the local disk (a page
        // must not make the shell read local files).
        if map_url.scheme() == "file" && script_url.scheme() != "file" {
            found.warnings.push(format!(
                "{resource}: ignored the local source map {map_url} of a web script"
            ));
            continue;
        }
        let json = if map_url.scheme() == "data" {
            data_url_bytes(map_url.as_str())
                .ok_or_else(|| format!("{resource}: bad data: source map URL"))
        } else {
            match fetcher.fetch_following(&map_url, &[]) {
                Ok(r) if r.response.is_ok() => Ok(r.response.body),
                Ok(r) => Err(format!("{map_url}: status {}", r.response.status)),
                Err(e) => Err(format!("{map_url}: {e}")),
            }
        };
        let base = (map_url.scheme() != "data").then(|| map_url.to_string());
        match json.and_then(|json| {
            maps.add(resource, &json, base.as_deref())
                .map_err(|e| e.to_string())
        }) {
            Ok(()) => found.loaded += 1,
            Err(message) => found.warnings.push(message),
        }
    }
    found
}

/// What `jsprof profile` writes besides the trace.
#[derive(Clone, Debug)]
pub struct ProfileOutputs {
    /// The flame graph's path (`None`: next to the trace), unless
    /// `flamegraph` is false.
    pub flamegraph_path: Option<String>,
    pub flamegraph: bool,
    /// Extra formats, each next to the trace with the format's ending.
    pub formats: Vec<Format>,
    /// Symbolicate through the scripts' source maps.
    pub sourcemaps: bool,
}

impl Default for ProfileOutputs {
    fn default() -> Self {
        ProfileOutputs {
            flamegraph_path: None,
            flamegraph: true,
            formats: Vec::new(),
            sourcemaps: false,
        }
    }
}

pub const PROFILE_USAGE: &str = "  \
--flamegraph PATH   where to write the SVG flame graph (default: next to
                      the trace, TRACE.svg)
  --no-flamegraph     no flame graph
  --format FORMAT     also write FORMAT next to the trace (repeatable):
                      firefox, cpuprofile, speedscope, pprof, sentry, folded
  --sourcemaps        map frames through the scripts' source maps
                      (sourceMappingURL comment, SourceMap header, data: maps)";

impl ProfileOutputs {
    /// Takes `arg` (and its value from `rest`) if it is one of these
    /// options: `Some(Err)` on a bad value, `None` if not an option here.
    pub fn parse_option<'a>(
        &mut self,
        arg: &str,
        rest: &mut impl Iterator<Item = &'a String>,
    ) -> Option<Result<(), String>> {
        Some(match arg {
            "--flamegraph" => match rest.next() {
                Some(path) => {
                    self.flamegraph = true;
                    self.flamegraph_path = Some(path.clone());
                    Ok(())
                }
                None => Err("--flamegraph needs a file name".into()),
            },
            "--no-flamegraph" => {
                self.flamegraph = false;
                Ok(())
            }
            "--format" => match rest.next().map(|n| (n, Format::from_name(n))) {
                Some((_, Some(format))) => {
                    self.formats.push(format);
                    Ok(())
                }
                Some((name, None)) => Err(format!(
                    "--format: unknown format {name} (one of {})",
                    format_names()
                )),
                None => Err("--format needs a format".into()),
            },
            "--sourcemaps" => {
                self.sourcemaps = true;
                Ok(())
            }
            _ => return None,
        })
    }

    /// Writes the outputs for the trace just written as JSON to
    /// `trace_path` (symbolicating it in place first with `--sourcemaps`),
    /// returning the files written.
    pub fn write(
        &self,
        trace_path: &str,
        trace_json: &str,
        interval_ms: f64,
        fetcher: &jsprof_net::Fetcher,
    ) -> Result<Vec<String>, String> {
        let mut written = Vec::new();
        let mut trace = jsprof_trace::from_str(trace_json)
            .map_err(|e| format!("the trace does not validate: {e}"))?;
        if self.sourcemaps {
            let mut maps = SourceMaps::new();
            let found = discover_maps(&trace, &mut maps, fetcher);
            for warning in found.warnings {
                eprintln!("jsprof: source map: {warning}");
            }
            trace = jsprof_trace::symbolicate::symbolicate(&trace, &maps);
            let text = serde_json::to_string(&trace).map_err(|e| e.to_string())?;
            write_text(trace_path, &text)?;
        }
        let mut profile = Profile::from_trace(&trace, Some(interval_ms));
        profile.name = file_stem(trace_path);
        let mut outputs: Vec<(Format, String)> = Vec::new();
        if self.flamegraph {
            let path = self
                .flamegraph_path
                .clone()
                .unwrap_or_else(|| default_output(trace_path, Mode::Timeline, Format::Svg));
            outputs.push((Format::Svg, path));
        }
        for &format in &self.formats {
            outputs.push((format, default_output(trace_path, Mode::Timeline, format)));
        }
        for (format, path) in outputs {
            write_format(&profile, format, &path)?;
            written.push(path);
        }
        Ok(written)
    }
}
