//! `jsprof`: the shell's command line.

use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "\
usage: jsprof                        profile the bundled page-load demo and print the summary
       jsprof profile [OPTIONS] [URL|PATH]
                                     load a page with a profiling session started at document
                                     creation, run it to its load event and to idle, write the
                                     ProfilerTrace as JSON and print a summary
       jsprof [OPTIONS] URL|PATH     load a page and run it to idle
       jsprof eval [--timeout SECONDS] [--max-heap MB] <FILE|->
                                     evaluate a classic script file (- reads standard input)
       jsprof --help                 show this help

profile options:
  --interval MS       sample interval in milliseconds (default 1; rounded up to a whole ms)
  --max-samples N     sample buffer limit (default 100000)
  --duration SECONDS  stop the page after this long even if it is not idle
  --out FILE          where to write the trace (default ./jsprof-trace.json)
  --top N             functions listed in the summary (default 10)
{PROFILE_OUTPUTS}

options:
  --timeout SECONDS   stop the page after this long: running script (page and workers) is
                      interrupted; exit status 124
  --max-heap MB       heap ceiling of each agent (page, each worker) in MiB (default 1024):
                      past it, script gets an out-of-memory error
  --map HOST=IP       resolve HOST (a name, or a pattern like *.example.test) to IP;
                      repeatable
  --host-rules RULES  Chromium-style rules: \"MAP web-platform.test 127.0.0.1, EXCLUDE x\"
  --ca-file FILE      trust exactly the PEM CA certificates in FILE (https loads)
  --insecure          accept any server certificate (self-signed loopback servers)
  --quiet             no shell messages (console output still prints)

exit status: 0 the page ran (to idle, or to --duration), 1 an error (bad arguments, the
document not loaded, an uncaught exception in eval), 124 --timeout stopped the page (or
the script of eval)

{TOOLS}";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some((verb, rest)) = args.split_first() {
        if let Some(code) = jsprof_shell::tools::run(verb, rest) {
            return code;
        }
    }
    if let Some((eval, rest)) = args.split_first() {
        if eval == "eval" {
            return eval_command(rest);
        }
    }
    let (profile, args) = match args.split_first() {
        Some((first, rest)) if first == "profile" => (true, rest.to_vec()),
        _ => (args.is_empty(), args),
    };
    let mut options = jsprof_shell::RunOptions::default();
    let mut profile_options = jsprof_shell::ProfileOptions::default();
    let mut out_file = String::from("jsprof-trace.json");
    let mut top = 10usize;
    let mut outputs = jsprof_shell::tools::ProfileOutputs::default();
    let mut page: Option<String> = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if profile {
            match outputs.parse_option(arg, &mut iter) {
                Some(Ok(())) => continue,
                Some(Err(message)) => return fail(&message),
                None => {}
            }
        }
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{}", usage());
                return ExitCode::SUCCESS;
            }
            "--timeout" | "--duration" | "--interval" => {
                let Some(value) = iter.next() else {
                    return fail(&format!("{arg} needs a number"));
                };
                let number = match value.parse::<f64>() {
                    Ok(n) if (0.0..=1e9).contains(&n) => n,
                    _ => return fail(&format!("{arg}: not a non-negative number: {value}")),
                };
                match arg.as_str() {
                    "--timeout" => options.timeout = Some(Duration::from_secs_f64(number)),
                    "--duration" if profile => {
                        profile_options.duration = Some(Duration::from_secs_f64(number))
                    }
                    "--interval" if profile => profile_options.interval_ms = number,
                    _ => return fail(&format!("{arg} is an option of `jsprof profile`")),
                }
            }
            "--max-heap" => match parse_max_heap(iter.next()) {
                Ok(mb) => options.max_heap_mb = Some(mb),
                Err(message) => return fail(&message),
            },
            "--max-samples" | "--top" => {
                let Some(value) = iter.next() else {
                    return fail(&format!("{arg} needs a number"));
                };
                let Ok(number) = value.parse::<usize>() else {
                    return fail(&format!("{arg}: not a whole number: {value}"));
                };
                match arg.as_str() {
                    "--max-samples" if profile => profile_options.max_samples = number,
                    "--top" if profile => top = number,
                    _ => return fail(&format!("{arg} is an option of `jsprof profile`")),
                }
            }
            "--out" => {
                let Some(value) = iter.next() else {
                    return fail("--out needs a file name");
                };
                if !profile {
                    return fail("--out is an option of `jsprof profile`");
                }
                out_file = value.clone();
            }
            "--map" | "--host-rules" | "--ca-file" => {
                let Some(value) = iter.next() else {
                    return fail(&format!("{arg} needs a value"));
                };
                let rules = match arg.as_str() {
                    "--map" => match value.split_once('=') {
                        Some((host, ip)) => {
                            jsprof_net::HostRules::new().map(host.trim(), ip.trim())
                        }
                        None => return fail(&format!("--map expects HOST=IP, got {value}")),
                    },
                    "--host-rules" => jsprof_net::HostRules::parse(value),
                    _ => {
                        options.net.ca_file = Some(value.into());
                        continue;
                    }
                };
                match rules {
                    Ok(rules) => options.net.host_rules.extend(&rules),
                    Err(error) => return fail(&format!("{arg} {value}: {error}")),
                }
            }
            "--insecure" => options.net.accept_invalid_certs = true,
            "--quiet" => options.quiet = true,
            other if other.starts_with("--") => {
                return fail(&format!("unknown option {other}\n{}", usage()))
            }
            other => {
                if page.is_some() {
                    return fail(&format!("more than one page given\n{}", usage()));
                }
                page = Some(other.to_owned());
            }
        }
    }
    let url = match page {
        None if profile => {
            url::Url::parse(jsprof_shell::PAGELOAD_DEMO_URL).expect("the demo URL parses")
        }
        None => url::Url::parse(jsprof_shell::DEMO_PAGE_URL).expect("the demo URL parses"),
        Some(page) => match jsprof_shell::url_from_argument(&page) {
            Ok(url) => url,
            Err(message) => return fail(&message),
        },
    };
    if profile {
        return profile_page(&url, &options, &profile_options, &out_file, top, &outputs);
    }
    match jsprof_shell::run_page(&url, &options) {
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

fn profile_page(
    url: &url::Url,
    options: &jsprof_shell::RunOptions,
    profile_options: &jsprof_shell::ProfileOptions,
    out_file: &str,
    top: usize,
    outputs: &jsprof_shell::tools::ProfileOutputs,
) -> ExitCode {
    let profile = match jsprof_shell::profile_page(url, options, profile_options) {
        Ok(profile) => profile,
        Err(message) => return fail(&message),
    };
    let json = jsprof_shell::trace_json(&profile.trace);
    if let Err(error) = std::fs::write(out_file, &json) {
        return fail(&format!("cannot write {out_file}: {error}"));
    }
    println!("profile of {url}");
    print!("{}", jsprof_shell::summarize(&profile, top));
    println!("trace written to {out_file}");
    let written = jsprof_net::Fetcher::new(options.net.clone())
        .map_err(|e| e.to_string())
        .and_then(|fetcher| outputs.write(out_file, &json, profile.interval_ms, &fetcher));
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

fn usage() -> String {
    USAGE
        .replace("{PROFILE_OUTPUTS}", jsprof_shell::tools::PROFILE_USAGE)
        .replace("{TOOLS}", jsprof_shell::tools::USAGE)
}

/// `jsprof eval [--timeout SECONDS] [--max-heap MB] FILE`: the same limits,
/// watchdog message and exit status as a page run.
fn eval_command(args: &[String]) -> ExitCode {
    let mut options = jsprof_shell::RunOptions::default();
    let mut path: Option<&str> = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--timeout" => match parse_timeout(iter.next()) {
                Ok(timeout) => options.timeout = Some(timeout),
                Err(message) => return fail(&message),
            },
            "--max-heap" => match parse_max_heap(iter.next()) {
                Ok(mb) => options.max_heap_mb = Some(mb),
                Err(message) => return fail(&message),
            },
            other if other.starts_with("--") => {
                return fail(&format!("unknown option of eval {other}\n{}", usage()))
            }
            other if path.is_none() => path = Some(other),
            _ => return fail(&format!("eval takes one file\n{}", usage())),
        }
    }
    let Some(path) = path else {
        return fail(&format!(
            "eval needs a file (- reads standard input)\n{}",
            usage()
        ));
    };
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

/// The value of `--timeout`: seconds, a non-negative number.
fn parse_timeout(value: Option<&String>) -> Result<Duration, String> {
    let value = value.ok_or("--timeout needs a number")?;
    match value.parse::<f64>() {
        Ok(n) if (0.0..=1e9).contains(&n) => Ok(Duration::from_secs_f64(n)),
        _ => Err(format!("--timeout: not a non-negative number: {value}")),
    }
}

/// The value of `--max-heap`: whole MiB, 1 to the engine's largest.
fn parse_max_heap(value: Option<&String>) -> Result<u32, String> {
    let value = value.ok_or("--max-heap needs a number of MiB")?;
    match value.parse::<u32>() {
        Ok(mb) if (1..=jsprof_script::runtime::watchdog::MAX_MAX_HEAP_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "--max-heap: not a whole number of MiB from 1 to {}: {value}",
            jsprof_script::runtime::watchdog::MAX_MAX_HEAP_MB
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
