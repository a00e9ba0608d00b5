//! `jsprof`: the shell's command line.
//!
//! Parsed by [`clap`]; the trace tools (`convert`, `merge`, `report`,
//! `symbolicate`) and the outputs of `jsprof profile` are
//! [`jsprof_trace::cli`]'s, the same code as the `jsprof-trace` binary's.
//! Bad arguments are one line on stderr (`jsprof: unknown option --x`,
//! `jsprof: --interval: not a non-negative number: -1`) and exit status 1,
//! like every other failure.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use jsprof_script::runtime::watchdog::{DEFAULT_MAX_HEAP_MB, MAX_MAX_HEAP_MB};
use jsprof_trace::cli::{
    exit_on_error, usage_error_saying, whole_number, ProfileOutputs, Tool, EXIT_USAGE,
};

const EXIT_STATUS: &str = "\
Exit status: 0 the page ran (to idle, or to --duration), 1 an error (bad arguments, the \
document not loaded, an uncaught exception in eval), 124 --timeout stopped the page (or the \
script of eval).";

const EVAL_EXIT_STATUS: &str = "\
Exit status: 0 the script ran, 1 an error (bad arguments, the file not read, an uncaught \
exception), 124 --timeout stopped the script.";

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "jsprof",
    bin_name = "jsprof",
    about = "A minimal browser shell with the JS Self-Profiling API: run and profile pages, \
             convert their traces",
    long_about = "A minimal browser shell with the JS Self-Profiling API: run and profile \
                  pages, convert their traces.\n\n\
                  jsprof URL|PATH loads a page and runs it to idle. jsprof with no argument \
                  profiles the bundled page-load demo and prints the summary (jsprof profile \
                  with its defaults). The trace tools (convert, merge, report, symbolicate) \
                  run no page.",
    after_help = EXIT_STATUS,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true,
    subcommand_help_heading = "Commands",
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The page to load and run to idle: a URL, or a local file
    #[arg(value_name = "URL|PATH")]
    page: Option<String>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load a page with a profiling session started at document creation,
    /// run it to its load event and to idle, write the ProfilerTrace as
    /// JSON and print a summary
    #[command(after_help = EXIT_STATUS)]
    Profile(ProfileArgs),
    /// Evaluate a classic script file (- reads standard input) and print
    /// its completion value
    #[command(after_help = EVAL_EXIT_STATUS)]
    Eval(EvalArgs),
    #[command(flatten)]
    Tool(Tool),
}

/// The limits of a page run or an evaluation.
#[derive(Debug, Args)]
struct LimitArgs {
    /// Stop the page (or eval's script) after this long: running script
    /// (page and workers) is interrupted; exit status 124
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    timeout: Option<Duration>,
    /// The heap ceiling of each agent (page, each worker) in MiB: past it,
    /// script gets an out-of-memory error
    #[arg(
        long,
        value_name = "MB",
        value_parser = max_heap,
        allow_negative_numbers = true,
        default_value_t = DEFAULT_MAX_HEAP_MB
    )]
    max_heap: u32,
}

/// How a page is loaded and run.
#[derive(Debug, Args)]
#[command(next_help_heading = "Page options")]
struct RunArgs {
    #[command(flatten)]
    limits: LimitArgs,
    /// Resolve HOST (a name, or a pattern like *.example.test) to IP;
    /// repeatable
    #[arg(long, value_name = "HOST=IP")]
    map: Vec<String>,
    /// Chromium-style host rules: "MAP web-platform.test 127.0.0.1, EXCLUDE
    /// x"; repeatable
    #[arg(long, value_name = "RULES")]
    host_rules: Vec<String>,
    /// Trust exactly the PEM CA certificates in FILE (https loads)
    #[arg(long, value_name = "FILE")]
    ca_file: Option<PathBuf>,
    /// Accept any server certificate (self-signed loopback servers)
    #[arg(long)]
    insecure: bool,
    /// No shell messages (console output still prints)
    #[arg(long)]
    quiet: bool,
}

/// `jsprof profile`.
#[derive(Debug, Args)]
struct ProfileArgs {
    /// The page to profile: a URL, or a local file (default: the bundled
    /// page-load demo)
    #[arg(value_name = "URL|PATH")]
    page: Option<String>,
    /// The sample interval in milliseconds (rounded up to a whole ms)
    #[arg(
        long,
        value_name = "MS",
        value_parser = non_negative,
        allow_negative_numbers = true,
        default_value_t = jsprof_shell::ProfileOptions::default().interval_ms
    )]
    interval: f64,
    /// The sample buffer limit
    #[arg(
        long,
        value_name = "N",
        value_parser = whole_number,
        allow_negative_numbers = true,
        default_value_t = jsprof_shell::ProfileOptions::default().max_samples
    )]
    max_samples: usize,
    /// Stop the page after this long even if it is not idle (exit status 0)
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    duration: Option<Duration>,
    /// Where to write the trace
    #[arg(long, value_name = "FILE", default_value = "jsprof-trace.json")]
    out: String,
    /// The number of functions listed in the summary
    #[arg(
        long,
        value_name = "N",
        value_parser = whole_number,
        allow_negative_numbers = true,
        default_value_t = 10
    )]
    top: usize,
    #[command(flatten, next_help_heading = "Output options")]
    outputs: ProfileOutputs,
    #[command(flatten)]
    run: RunArgs,
}

/// `jsprof eval`.
#[derive(Debug, Args)]
struct EvalArgs {
    /// The classic script to evaluate (- reads standard input)
    #[arg(value_name = "FILE|-")]
    file: String,
    #[command(flatten)]
    limits: LimitArgs,
}

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() == 1 {
        // No argument: profile the page-load demo.
        args.push("profile".into());
    }
    let first = args[1].to_string_lossy().into_owned();
    let matches = match Cli::command().try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(error) => return parse_error(&error, &first),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return parse_error(&error, &first),
    };
    match cli.command {
        Some(Command::Tool(tool)) => jsprof_trace::cli::run(&tool, "jsprof"),
        Some(Command::Eval(eval)) => eval_command(&eval),
        Some(Command::Profile(profile)) => {
            let matches = matches
                .subcommand_matches("profile")
                .expect("the profile subcommand's matches");
            let options = match run_options(&profile.run, matches) {
                Ok(options) => options,
                Err(message) => return fail(&message),
            };
            match page_url(profile.page.as_deref(), jsprof_shell::PAGELOAD_DEMO_URL) {
                Ok(url) => profile_page(&url, &options, &profile),
                Err(message) => fail(&message),
            }
        }
        None => {
            let options = match run_options(&cli.run, &matches) {
                Ok(options) => options,
                Err(message) => return fail(&message),
            };
            match page_url(cli.page.as_deref(), jsprof_shell::DEMO_PAGE_URL) {
                Ok(url) => run_page(&url, &options),
                Err(message) => fail(&message),
            }
        }
    }
}

/// The URL of the page argument, or of the bundled `demo`.
fn page_url(page: Option<&str>, demo: &str) -> Result<url::Url, String> {
    match page {
        None => Ok(url::Url::parse(demo).expect("the demo URL parses")),
        Some(page) => jsprof_shell::url_from_argument(page),
    }
}

/// A usage error, as [`jsprof_trace::cli::usage_error`] words it; a
/// profiling option given without `profile`, and a second page, say so.
/// `first` is the first argument (the subcommand, if one was given).
fn parse_error(error: &clap::Error, first: &str) -> ExitCode {
    let command = Cli::command();
    let message = match (error.kind(), command.find_subcommand(first)) {
        // `jsprof --interval 5 x.html`.
        (ErrorKind::UnknownArgument, None) => match error.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(arg)) => {
                let flag = arg.split('=').next().unwrap_or(arg);
                let profile = command.find_subcommand("profile").expect("jsprof profile");
                let of_profile = profile.get_arguments().any(|option| {
                    option
                        .get_long()
                        .is_some_and(|long| flag.strip_prefix("--") == Some(long))
                });
                of_profile.then(|| format!("{flag} is an option of `jsprof profile`"))
            }
            _ => None,
        },
        // `jsprof a.html b.html`: clap takes b.html for a subcommand.
        (ErrorKind::ArgumentConflict, None) => match error.get(ContextKind::InvalidSubcommand) {
            Some(ContextValue::String(name)) if command.find_subcommand(name).is_none() => {
                Some("more than one page given".to_owned())
            }
            _ => None,
        },
        _ => None,
    };
    match message {
        Some(message) => {
            eprint!("{}", usage_error_saying(error, "jsprof", &message));
            ExitCode::from(EXIT_USAGE)
        }
        None => exit_on_error(error, "jsprof"),
    }
}

/// The run options of `args`, with the host rules of `--map` and
/// `--host-rules` in the order given (the first rule that matches a host
/// decides).
fn run_options(args: &RunArgs, matches: &ArgMatches) -> Result<jsprof_shell::RunOptions, String> {
    let mut options = jsprof_shell::RunOptions {
        timeout: args.limits.timeout,
        max_heap_mb: Some(args.limits.max_heap),
        quiet: args.quiet,
        ..Default::default()
    };
    options.net.ca_file = args.ca_file.clone();
    options.net.accept_invalid_certs = args.insecure;
    let mut rules: Vec<(usize, &str, &String)> = Vec::new();
    for option in ["map", "host_rules"] {
        if let (Some(indices), Some(values)) = (
            matches.indices_of(option),
            matches.get_many::<String>(option),
        ) {
            rules.extend(
                indices
                    .zip(values)
                    .map(|(index, value)| (index, option, value)),
            );
        }
    }
    rules.sort_by_key(|(index, ..)| *index);
    for (_, option, value) in rules {
        let (flag, parsed) = if option == "map" {
            let Some((host, ip)) = value.split_once('=') else {
                return Err(format!("--map expects HOST=IP, got {value}"));
            };
            (
                "--map",
                jsprof_net::HostRules::new().map(host.trim(), ip.trim()),
            )
        } else {
            ("--host-rules", jsprof_net::HostRules::parse(value))
        };
        match parsed {
            Ok(parsed) => options.net.host_rules.extend(&parsed),
            Err(error) => return Err(format!("{flag} {value}: {error}")),
        }
    }
    Ok(options)
}

/// `jsprof URL|PATH`.
fn run_page(url: &url::Url, options: &jsprof_shell::RunOptions) -> ExitCode {
    match jsprof_shell::run_page(url, options) {
        Ok(end) => match end.describe("timeout") {
            // (Printed even with --quiet: it is the run's result.)
            Some(message) => {
                eprintln!("jsprof: {message}");
                ExitCode::from(jsprof_shell::EXIT_TIMEOUT)
            }
            None => ExitCode::SUCCESS,
        },
        Err(message) => fail(&message),
    }
}

/// `jsprof profile`.
fn profile_page(
    url: &url::Url,
    options: &jsprof_shell::RunOptions,
    args: &ProfileArgs,
) -> ExitCode {
    let profile_options = jsprof_shell::ProfileOptions {
        interval_ms: args.interval,
        max_samples: args.max_samples,
        duration: args.duration,
    };
    let profile = match jsprof_shell::profile_page(url, options, &profile_options) {
        Ok(profile) => profile,
        Err(message) => return fail(&message),
    };
    let out_file = &args.out;
    let json = jsprof_shell::trace_json(&profile.trace);
    if let Err(error) = std::fs::write(out_file, &json) {
        return fail(&format!("cannot write {out_file}: {error}"));
    }
    println!("profile of {url}");
    print!("{}", jsprof_shell::summarize(&profile, args.top));
    println!("trace written to {out_file}");
    let written = jsprof_net::Fetcher::new(options.net.clone())
        .map_err(|e| e.to_string())
        .and_then(|fetcher| {
            args.outputs
                .write(out_file, &json, profile.interval_ms, &fetcher)
        });
    match written {
        Ok(files) => {
            for file in files {
                println!("wrote {file}");
            }
        }
        Err(message) => return fail(&message),
    }
    // Which limit stopped the page: --timeout (an error status) or
    // --duration (the length of the profile the user asked for).
    let by_timeout = match (options.timeout, profile_options.duration) {
        (Some(timeout), Some(duration)) => timeout <= duration,
        (timeout, _) => timeout.is_some(),
    };
    let option = if by_timeout { "timeout" } else { "duration" };
    match profile.end.describe(option) {
        Some(message) if by_timeout => {
            eprintln!("jsprof: {message}");
            ExitCode::from(jsprof_shell::EXIT_TIMEOUT)
        }
        Some(message) => {
            if !options.quiet {
                eprintln!("jsprof: {message}");
            }
            ExitCode::SUCCESS
        }
        None => ExitCode::SUCCESS,
    }
}

/// `jsprof eval [--timeout SECONDS] [--max-heap MB] FILE`: the same limits,
/// watchdog message and exit status as a page run.
fn eval_command(args: &EvalArgs) -> ExitCode {
    let options = jsprof_shell::RunOptions {
        timeout: args.limits.timeout,
        max_heap_mb: Some(args.limits.max_heap),
        ..Default::default()
    };
    let path = args.file.as_str();
    let source = match read_source(path) {
        Ok(source) => source,
        Err(message) => return fail(&message),
    };
    match jsprof_shell::evaluate_with_limits(&source, path, &options) {
        Err(message) => fail(&message),
        Ok((_, end @ jsprof_shell::RunEnd::Stopped(_))) => {
            if let Some(message) = end.describe("timeout") {
                eprintln!("jsprof: {message}");
            }
            ExitCode::from(jsprof_shell::EXIT_TIMEOUT)
        }
        Ok((Ok(result), _)) => {
            println!("{result}");
            ExitCode::SUCCESS
        }
        Ok((Err(error), _)) => fail(&error.to_string()),
    }
}

/// The value of `--interval`: a number from 0 to 10⁹.
fn non_negative(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(n) if (0.0..=1e9).contains(&n) => Ok(n),
        _ => Err(format!("not a non-negative number: {value}")),
    }
}

/// The value of `--timeout` and `--duration`: seconds, from 0 to 10⁹.
fn seconds(value: &str) -> Result<Duration, String> {
    non_negative(value).map(Duration::from_secs_f64)
}

/// The value of `--max-heap`: whole MiB, 1 to the engine's largest.
fn max_heap(value: &str) -> Result<u32, String> {
    match value.parse::<u32>() {
        Ok(mb) if (1..=MAX_MAX_HEAP_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "not a whole number of MiB from 1 to {MAX_MAX_HEAP_MB}: {value}"
        )),
    }
}

fn read_source(path: &str) -> Result<String, String> {
    let result = if path == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    };
    result.map_err(|e| format!("cannot read {path}: {e}"))
}

fn fail(message: &str) -> ExitCode {
    eprintln!("jsprof: {message}");
    ExitCode::FAILURE
}
