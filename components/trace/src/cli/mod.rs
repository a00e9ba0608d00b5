//! The command line of the trace tools (`convert`, `merge`, `report`,
//! `symbolicate`): their [`clap`] definitions ([`Tool`]) and the code that
//! runs them ([`run`]), shared by the `jsprof-trace` binary of this crate
//! and the `jsprof` shell, which offers them as its own subcommands. None
//! of them starts a JavaScript engine.
//!
//! Also here: the outputs `jsprof profile` writes next to its trace
//! ([`ProfileOutputs`]: flame graph, other formats, source maps), and
//! [`usage_error`], the one-line messages both binaries print for bad
//! arguments.
//!
//! Behind the `cli` feature (on by default).

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand};

use crate::convert::Format;
use crate::report::ReportOptions;

mod commands;
mod outputs;

pub use commands::{read_trace, write_format};
pub use outputs::{discover_maps, Discovered, ProfileOutputs};

/// The exit status of a usage error (bad arguments), as of every other
/// failure of the tools and the shell.
pub const EXIT_USAGE: u8 = 1;

/// The `jsprof-trace` binary's command line.
#[derive(Debug, Parser)]
#[command(
    name = "jsprof-trace",
    bin_name = "jsprof-trace",
    version,
    about = "Convert, merge, report on and symbolicate JS Self-Profiling traces \
             (ProfilerTrace JSON); no page is run",
    disable_help_subcommand = true,
    after_help = "The same tools are subcommands of the jsprof shell (jsprof convert, ...)."
)]
pub struct TraceCli {
    /// The tool to run.
    #[command(subcommand)]
    pub tool: Tool,
}

/// A trace tool with its arguments: the subcommands of `jsprof-trace` and
/// of `jsprof`.
#[derive(Debug, Subcommand)]
pub enum Tool {
    /// Convert traces to another format (several: one after the other on
    /// one timeline)
    #[command(long_about = "Convert traces (several: one after the other on one \
        timeline) to FORMAT: firefox, cpuprofile, speedscope, pprof, sentry, folded, \
        svg, trace. No page is run.")]
    Convert(ConvertArgs),
    /// Aggregate many traces into one weighted profile, streaming
    #[command(long_about = "Aggregate many traces (a directory: its *.json files) \
        into one weighted profile (default pprof), streaming: memory grows with the \
        number of distinct stacks, not of traces. Invalid traces are skipped with a \
        warning unless --strict. Prints the number of samples per resource.")]
    Merge(MergeArgs),
    /// Print top-down and bottom-up call trees with total and self
    /// percentages
    Report(ReportArgs),
    /// Map frames through source maps to original files, lines, columns
    /// and function names
    #[command(long_about = "Map frames through source maps to original files, \
        lines, columns and function names. With --fetch-maps, scripts without \
        --sourcemap are fetched and their sourceMappingURL comment or SourceMap \
        header followed (only for traces you trust: their URLs are fetched).")]
    Symbolicate(SymbolicateArgs),
}

impl Tool {
    /// The subcommand's name (`convert`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Tool::Convert(_) => "convert",
            Tool::Merge(_) => "merge",
            Tool::Report(_) => "report",
            Tool::Symbolicate(_) => "symbolicate",
        }
    }
}

/// `convert TRACE.json... --to FORMAT [-o OUT] [--interval MS]`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The traces (- is standard input)
    #[arg(value_name = "TRACE.json", required = true)]
    pub inputs: Vec<String>,
    /// The output format: firefox, cpuprofile, speedscope, pprof, sentry,
    /// folded, svg, trace
    #[arg(long = "to", visible_alias = "format", value_name = "FORMAT", value_parser = format)]
    pub to: Format,
    /// Where to write (default: the first trace's name with the format's
    /// ending, next to it; - is standard output)
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: Option<String>,
    /// The sample interval in milliseconds (default: estimated from the
    /// first trace's samples)
    #[arg(long, value_name = "MS", value_parser = non_negative, allow_negative_numbers = true)]
    pub interval: Option<f64>,
}

/// `merge TRACE.json|DIR... [--to FORMAT] [-o OUT] [--interval MS] [--strict]`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The traces; a directory stands for its *.json files (- is standard
    /// input)
    #[arg(value_name = "TRACE.json|DIR", required = true)]
    pub inputs: Vec<String>,
    /// The output format: firefox, cpuprofile, speedscope, pprof, sentry,
    /// folded, svg, trace
    #[arg(
        long = "to",
        visible_alias = "format",
        value_name = "FORMAT",
        value_parser = format,
        default_value = "pprof"
    )]
    pub to: Format,
    /// Where to write (default: merged with the format's ending, in the
    /// current directory; - is standard output)
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: Option<String>,
    /// The sample interval in milliseconds (default: estimated from the
    /// first trace's samples)
    #[arg(long, value_name = "MS", value_parser = non_negative, allow_negative_numbers = true)]
    pub interval: Option<f64>,
    /// Fail on the first invalid trace instead of skipping it
    #[arg(long)]
    pub strict: bool,
}

/// `report TRACE.json|DIR... [--min-percent P] [--depth N]`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The traces, aggregated; a directory stands for its *.json files (-
    /// is standard input)
    #[arg(value_name = "TRACE.json|DIR", required = true)]
    pub inputs: Vec<String>,
    /// Leave out nodes below this share of all samples (percent)
    #[arg(
        long,
        value_name = "P",
        value_parser = non_negative,
        allow_negative_numbers = true,
        default_value_t = ReportOptions::default().min_percent
    )]
    pub min_percent: f64,
    /// The deepest level printed
    #[arg(
        long,
        value_name = "N",
        value_parser = whole_number,
        allow_negative_numbers = true,
        default_value_t = ReportOptions::default().max_depth
    )]
    pub depth: usize,
    /// The sample interval in milliseconds (default: estimated from the
    /// first trace's samples)
    #[arg(long, value_name = "MS", value_parser = non_negative, allow_negative_numbers = true)]
    pub interval: Option<f64>,
}

/// `symbolicate TRACE.json [--sourcemap URL=FILE]... [--fetch-maps] [-o OUT]`.
#[derive(Debug, Args)]
pub struct SymbolicateArgs {
    /// The trace (- is standard input)
    #[arg(value_name = "TRACE.json")]
    pub input: String,
    /// The source map FILE of the script at URL (repeatable)
    #[arg(long = "sourcemap", value_name = "URL=FILE", value_parser = sourcemap_pair)]
    pub sourcemaps: Vec<(String, String)>,
    /// Fetch the scripts without --sourcemap and follow their
    /// sourceMappingURL comment or SourceMap header (only for traces you
    /// trust: their URLs are fetched, local files included)
    #[arg(long)]
    pub fetch_maps: bool,
    /// Where to write (default: TRACE.symbolicated.json next to the trace;
    /// - is standard output)
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: Option<String>,
}

/// Runs `tool`; errors are printed as `PROGRAM TOOL: message` (`program`
/// is the binary's name, `jsprof` or `jsprof-trace`).
pub fn run(tool: &Tool, program: &str) -> ExitCode {
    let prefix = format!("{program} {}", tool.name());
    let result = match tool {
        Tool::Convert(args) => commands::convert(args, &prefix),
        Tool::Merge(args) => commands::merge(args, &prefix),
        Tool::Report(args) => commands::report(args),
        Tool::Symbolicate(args) => commands::symbolicate(args, &prefix),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{prefix}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The `jsprof-trace` binary: parses the process's arguments and runs the
/// tool.
pub fn main() -> ExitCode {
    match TraceCli::try_parse() {
        Ok(cli) => run(&cli.tool, "jsprof-trace"),
        Err(error) => exit_on_error(&error, "jsprof-trace"),
    }
}

/// For a parse `error`: help and version go to standard output (status
/// 0); anything else is a usage error, printed by [`usage_error`] on
/// standard error (status [`EXIT_USAGE`]; the help when no subcommand was
/// given).
pub fn exit_on_error(error: &clap::Error, program: &str) -> ExitCode {
    if !error.use_stderr() {
        // --help, --version.
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // No subcommand: the help, on standard error.
        let _ = error.print();
    } else {
        eprint!("{}", usage_error(error, program));
    }
    ExitCode::from(EXIT_USAGE)
}

/// A usage error as the tools word it, `PROGRAM: message` on the first
/// line (`unknown option --frobnicate`, `--out needs a file name`,
/// `--interval: not a non-negative number: -1`), followed by clap's tips,
/// usage line and pointer to `--help`.
pub fn usage_error(error: &clap::Error, program: &str) -> String {
    let rendered = error.render().to_string();
    let (head, _) = split_rendered(&rendered);
    let arg = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.as_str(),
        _ => "",
    };
    // "--out <FILE>" → "--out", "--map=x" → "--map".
    let flag = arg.split([' ', '=']).next().unwrap_or(arg);
    let value = match error.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(value)) => Some(value.as_str()),
        _ => None,
    };
    let message = match error.kind() {
        ErrorKind::UnknownArgument if arg.starts_with('-') => format!("unknown option {arg}"),
        ErrorKind::InvalidValue if value == Some("") => {
            let value_name = arg.split_once(' ').map_or("", |(_, name)| name);
            format!("{flag} needs {}", what_a_value_is(value_name))
        }
        ErrorKind::ValueValidation => match std::error::Error::source(error) {
            Some(source) => format!("{flag}: {source}"),
            None => head.to_owned(),
        },
        _ => head.to_owned(),
    };
    usage_error_saying(error, program, &message)
}

/// A usage error with `message` instead of clap's first line (the tips,
/// usage line and pointer to `--help` follow).
pub fn usage_error_saying(error: &clap::Error, program: &str, message: &str) -> String {
    let rendered = error.render().to_string();
    let (_, rest) = split_rendered(&rendered);
    let mut out = format!("{program}: {message}\n");
    if !rest.is_empty() {
        out.push('\n');
        out.push_str(rest);
        if !rest.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// clap's rendering of an error, "error: MESSAGE\n\n[tip...\n\n]Usage:
/// ...\n\nFor more ...", as the message and the rest.
fn split_rendered(rendered: &str) -> (&str, &str) {
    let (head, rest) = rendered.split_once("\n\n").unwrap_or((rendered, ""));
    (head.strip_prefix("error: ").unwrap_or(head), rest)
}

/// "needs a file name", "needs a number": what an option's value is, from
/// its value name (`<FILE>`, `<MS>`).
fn what_a_value_is(value_name: &str) -> &'static str {
    match value_name.trim_matches(['<', '>']) {
        "FILE" | "PATH" | "OUT" => "a file name",
        "MS" | "SECONDS" | "N" | "P" => "a number",
        "MB" => "a number of MiB",
        "FORMAT" => "a format",
        "URL=FILE" => "URL=FILE",
        "HOST=IP" => "HOST=IP",
        _ => "a value",
    }
}

/// The value of an option that is a non-negative number (a finite one).
pub fn non_negative(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 0.0 => Ok(n),
        _ => Err(format!("not a non-negative number: {value}")),
    }
}

/// The value of an option that is a whole number.
pub fn whole_number(value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("not a whole number: {value}"))
}

/// The value of `--to` or `--format`: a [`Format`]'s name.
pub fn format(name: &str) -> Result<Format, String> {
    Format::from_name(name)
        .ok_or_else(|| format!("unknown format {name} (one of {})", format_names()))
}

/// The names of the formats, comma-separated.
pub fn format_names() -> String {
    Format::ALL.map(Format::name).join(", ")
}

/// The value of `--sourcemap`: `URL=FILE` (split at the last `=`: URLs
/// may hold one).
fn sourcemap_pair(value: &str) -> Result<(String, String), String> {
    let (url, file) = value
        .rsplit_once('=')
        .ok_or_else(|| format!("expects URL=FILE, got {value}"))?;
    Ok((url.to_owned(), file.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        TraceCli::command().debug_assert();
    }

    fn error(args: &[&str]) -> String {
        let error = TraceCli::try_parse_from([&["jsprof-trace"], args].concat()).unwrap_err();
        usage_error(&error, "jsprof-trace")
    }

    #[test]
    fn usage_errors_say_what_is_wrong_in_one_line() {
        let first = |args: &[&str]| error(args).lines().next().unwrap().to_owned();
        assert_eq!(
            first(&["convert", "t.json", "--to", "svg", "--frobnicate"]),
            "jsprof-trace: unknown option --frobnicate"
        );
        assert_eq!(
            first(&["convert", "t.json", "--to"]),
            "jsprof-trace: --to needs a format"
        );
        assert_eq!(
            first(&["convert", "t.json", "--to", "svg", "-o"]),
            "jsprof-trace: --out needs a file name"
        );
        assert_eq!(
            first(&["merge", "t.json", "--interval", "-1"]),
            "jsprof-trace: --interval: not a non-negative number: -1"
        );
        assert_eq!(
            first(&["report", "t.json", "--depth", "x"]),
            "jsprof-trace: --depth: not a whole number: x"
        );
        assert!(first(&["convert", "t.json", "--to", "png"])
            .starts_with("jsprof-trace: --to: unknown format png (one of firefox, cpuprofile"));
        assert_eq!(
            first(&["symbolicate", "t.json", "--sourcemap", "x"]),
            "jsprof-trace: --sourcemap: expects URL=FILE, got x"
        );
        // The usage line follows.
        assert!(error(&["report"]).contains("Usage: jsprof-trace report"));
    }

    #[test]
    fn defaults() {
        let cli = TraceCli::try_parse_from(["jsprof-trace", "merge", "dir"]).unwrap();
        let Tool::Merge(merge) = cli.tool else {
            panic!("{cli:?}")
        };
        assert_eq!(
            (merge.to, merge.strict, merge.out),
            (Format::Pprof, false, None)
        );
        let cli = TraceCli::try_parse_from(["jsprof-trace", "report", "-"]).unwrap();
        let Tool::Report(report) = cli.tool else {
            panic!("{cli:?}")
        };
        assert_eq!((report.min_percent, report.depth), (1.0, 30));
    }
}
