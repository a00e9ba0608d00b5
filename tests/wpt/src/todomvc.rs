//! `./mach todomvc [APP] [jsprof profile options]`: profiles one of the
//! TodoMVC example apps (`examples/todomvc/`) with `jsprof profile`.
//!
//! The apps' libraries are the pinned npm packages of
//! [`jsprof_wpt::thirdparty::APP_LIBRARIES`],
//! fetched and checked as for the WPT tests, and the apps are served by the
//! WPT server on loopback; the page is opened with `#drive`, so that the
//! synthetic user of `examples/todomvc/drive.js` adds 100 todos, toggles 50,
//! deletes 25 and clears the completed ones while the profiler runs.
//!
//! `--bench [ROUNDS]` instead times the 100-item "add" phase (as
//! `drive.js` measures it with `performance.now()`) without a profiler,
//! with `jsprof profile --interval 10` and with `--interval 1`, one
//! process per run, the three configurations interleaved in each round
//! (rotating which goes first), and prints each one's median [min-max]
//! and the ratios of medians to the unprofiled run with a 95 % bootstrap
//! interval.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use clap::Parser;
use jsprof_wpt::config::Hosts;
use jsprof_wpt::server::{Server, Setup};
use jsprof_wpt::thirdparty;

const APPS: [&str; 5] = ["react", "preact", "vue", "jquery", "vanilla"];

// The command line: `./mach todomvc` passes `--jsprof` and the caller's
// arguments.
#[derive(Debug, Parser)]
#[command(
    name = "todomvc",
    override_usage = "todomvc --jsprof PATH [--bench [ROUNDS]] [APP] [JSPROF PROFILE OPTIONS]...",
    after_help = "Examples:\n  \
        ./mach todomvc react --interval 1 --top 5\n  \
        ./mach todomvc vue --interval 1 --out vue.json --flamegraph vue.svg\n  \
        ./mach todomvc react --bench 10"
)]
/// Profiles a TodoMVC example app (examples/todomvc/) with `jsprof profile`
/// while a synthetic user adds 100 todos, toggles 50, deletes 25 and clears
/// the completed ones. The apps' libraries are fetched from npm (pinned and
/// checked) and the app is served on loopback.
struct Cli {
    /// The jsprof shell to run (`./mach todomvc` passes the one it built).
    #[arg(long, value_name = "PATH")]
    jsprof: PathBuf,
    /// Instead of profiling, time the 100-item "add" phase: ROUNDS rounds
    /// (default 10) of one run without a profiler, one with `jsprof profile
    /// --interval 10` and one with `--interval 1`, interleaved; prints each
    /// one's median [min-max] and its ratio to the unprofiled run with a
    /// 95 % bootstrap interval. Give it before the `jsprof profile` options.
    #[arg(
        long,
        value_name = "ROUNDS",
        num_args = 0..=1,
        default_missing_value = "10",
        value_parser = rounds,
    )]
    bench: Option<usize>,
    /// The app: react (the default), preact, vue, jquery or vanilla.
    // An option in its place is the first `jsprof profile` option (the app
    // left out): see `Cli::app_and_options`.
    #[arg(value_name = "APP", allow_hyphen_values = true)]
    app: Option<String>,
    /// Passed to `jsprof profile` as they are (e.g. `--interval 1 --top 5`,
    /// `--out trace.json`; see `jsprof profile --help`).
    #[arg(
        value_name = "JSPROF PROFILE OPTIONS",
        allow_hyphen_values = true,
        trailing_var_arg = true
    )]
    options: Vec<String>,
}

/// `--bench`'s number of rounds: a positive integer.
fn rounds(value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| "not a positive number of rounds".to_owned())
}

impl Cli {
    /// The app (`react` when left out) and the options for `jsprof
    /// profile`.
    fn app_and_options(self) -> (String, Vec<String>) {
        match self.app {
            Some(app) if app.starts_with('-') => {
                let mut options = vec![app];
                options.extend(self.options);
                ("react".to_owned(), options)
            }
            Some(app) => (app, self.options),
            None => ("react".to_owned(), self.options),
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("todomvc: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    let jsprof = cli.jsprof.clone();
    let bench_rounds = cli.bench;
    let (app, args) = cli.app_and_options();
    if !APPS.contains(&app.as_str()) {
        return Err(format!("unknown app `{app}` (one of {})", APPS.join(", ")));
    }
    // The checkout: `./mach todomvc` names it (the compiled-in path is the
    // checkout that built this binary, which a target directory shared
    // between checkouts may have from another one).
    let repo = std::env::var_os("JSPROF_CHECKOUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let scratch = tempfile::tempdir().map_err(|e| format!("cannot create a directory: {e}"))?;
    let fallback = thirdparty::todomvc_files(&repo, scratch.path())?;
    let hosts = Hosts::default();
    let server = Server::start(Setup {
        root: scratch.path().to_owned(),
        fallback,
        hosts: hosts.clone(),
        timeout_multiplier: 1.0,
    })?;
    let url = format!(
        "http://{}:{}/examples/todomvc/{app}/index.html#drive",
        hosts.primary,
        server.http_port()
    );
    let map = format!("{}=127.0.0.1", hosts.primary);
    if let Some(rounds) = bench_rounds {
        bench(&jsprof, &url, &map, &app, rounds, scratch.path())?;
        return Ok(ExitCode::SUCCESS);
    }
    let status = Command::new(&jsprof)
        .arg("profile")
        .args(&args)
        .arg("--map")
        .arg(&map)
        .arg(&url)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", jsprof.display()))?;
    drop(server);
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(code.clamp(1, 255) as u8),
        None => ExitCode::from(1),
    })
}

/// The benchmark's configurations: a name and the `jsprof` arguments before
/// the URL (`{out}` is replaced by a trace path in the scratch directory).
const CONFIGS: [(&str, &[&str]); 3] = [
    ("no profiler", &[]),
    (
        "Profiler at 10 ms",
        &[
            "profile",
            "--interval",
            "10",
            "--no-flamegraph",
            "--out",
            "{out}",
        ],
    ),
    (
        "Profiler at 1 ms",
        &[
            "profile",
            "--interval",
            "1",
            "--no-flamegraph",
            "--out",
            "{out}",
        ],
    ),
];

fn bench(
    jsprof: &std::path::Path,
    url: &str,
    map: &str,
    app: &str,
    rounds: usize,
    scratch: &std::path::Path,
) -> Result<(), String> {
    let out = scratch.join("trace.json").display().to_string();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); CONFIGS.len()];
    eprintln!("todomvc: {app}, {rounds} rounds of {} runs", CONFIGS.len());
    for round in 0..rounds {
        for k in 0..CONFIGS.len() {
            let c = (round + k) % CONFIGS.len();
            let args: Vec<String> = CONFIGS[c]
                .1
                .iter()
                .map(|a| a.replace("{out}", &out))
                .collect();
            let output = Command::new(jsprof)
                .args(&args)
                .args(["--quiet", "--timeout", "120", "--map", map, url])
                .output()
                .map_err(|e| format!("cannot run {}: {e}", jsprof.display()))?;
            let stdout = String::from_utf8_lossy(&output.stdout);
            let ms = add_phase_ms(&stdout).ok_or_else(|| {
                format!(
                    "{}: no add-phase time in the output (status {}):\n{stdout}{}",
                    CONFIGS[c].0,
                    output.status,
                    String::from_utf8_lossy(&output.stderr)
                )
            })?;
            times[c].push(ms);
        }
        eprintln!("todomvc: round {} of {rounds} done", round + 1);
    }
    println!("{app}: time of the 100-item add phase, {rounds} runs each, interleaved");
    let base = median(&times[0]);
    for (c, (name, _)) in CONFIGS.iter().enumerate() {
        let (min, max) = min_max(&times[c]);
        let m = median(&times[c]);
        if c == 0 {
            println!("  {name:<18} {m:8.1} ms [{min:.1}-{max:.1}]");
        } else {
            let (lo, hi) = bootstrap_ratio(&times[0], &times[c]);
            println!(
                "  {name:<18} {m:8.1} ms [{min:.1}-{max:.1}]  x{:.3} [{lo:.3}-{hi:.3}]",
                m / base
            );
        }
    }
    Ok(())
}

/// The add phase's milliseconds from `drive.js`'s line
/// `todomvc add: 100 items, 100 left in 123.4 ms`.
fn add_phase_ms(stdout: &str) -> Option<f64> {
    let line = stdout.lines().find(|l| l.starts_with("todomvc add: "))?;
    if line.contains("UNEXPECTED") {
        return None;
    }
    let ms = line.rsplit_once(" in ")?.1.strip_suffix(" ms")?;
    ms.parse().ok()
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn min_max(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)))
}

/// The 95 % bootstrap interval of median(b) / median(a) (2,000
/// resamplings, a fixed-seed xorshift generator: the interval is
/// reproducible for the same timings).
fn bootstrap_ratio(a: &[f64], b: &[f64]) -> (f64, f64) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut ratios: Vec<f64> = (0..2000)
        .map(|_| {
            let ra: Vec<f64> = (0..a.len()).map(|_| a[next(a.len())]).collect();
            let rb: Vec<f64> = (0..b.len()).map(|_| b[next(b.len())]).collect();
            median(&rb) / median(&ra)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    (ratios[50], ratios[1949])
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("todomvc").chain(args.iter().copied()))
    }

    #[test]
    fn command_line() {
        Cli::command().debug_assert();
        // The app first, then `jsprof profile` options as they are.
        let cli = parse(&[
            "--jsprof",
            "/j",
            "vue",
            "--interval",
            "1",
            "-q",
            "--out=t.json",
        ])
        .unwrap();
        assert_eq!(cli.jsprof, PathBuf::from("/j"));
        assert_eq!(cli.bench, None);
        assert_eq!(
            cli.app_and_options(),
            (
                "vue".to_owned(),
                vec![
                    "--interval".into(),
                    "1".into(),
                    "-q".into(),
                    "--out=t.json".into()
                ]
            )
        );
        // No app: react, and the options start at once.
        let cli = parse(&["--jsprof", "/j", "--interval", "1", "--top", "5"]).unwrap();
        assert_eq!(
            cli.app_and_options(),
            (
                "react".to_owned(),
                vec!["--interval".into(), "1".into(), "--top".into(), "5".into()]
            )
        );
        // `--bench [ROUNDS]`, before or after the app.
        assert_eq!(
            parse(&["--jsprof", "/j", "react", "--bench", "16"])
                .unwrap()
                .bench,
            Some(16)
        );
        let cli = parse(&["--jsprof", "/j", "--bench", "4", "vue"]).unwrap();
        assert_eq!(cli.bench, Some(4));
        assert_eq!(cli.app_and_options(), ("vue".to_owned(), vec![]));
        let cli = parse(&["--jsprof", "/j", "--bench", "vue"]);
        assert!(cli.is_err(), "a round count that is not a number: {cli:?}");
        let cli = parse(&["--jsprof", "/j", "vue", "--bench"]).unwrap();
        assert_eq!(cli.bench, Some(10));
        assert_eq!(cli.app_and_options().0, "vue");
        assert!(parse(&["--jsprof", "/j", "--bench", "0"]).is_err());
        // The shell is required.
        assert!(parse(&["react"]).is_err());
    }

    #[test]
    fn reads_the_add_phase_time() {
        let out = "x\ntodomvc add: 100 items, 100 left in 123.5 ms\ntodomvc toggle: 100 items, 50 left in 3.0 ms\n";
        assert_eq!(add_phase_ms(out), Some(123.5));
        assert_eq!(
            add_phase_ms("todomvc add: 99 items, 99 left (UNEXPECTED) in 1.0 ms"),
            None
        );
        assert_eq!(add_phase_ms("nothing"), None);
    }

    #[test]
    fn bootstrap_interval_brackets_the_ratio() {
        let a = [100.0, 102.0, 98.0, 101.0, 99.0];
        let b = [110.0, 112.0, 108.0, 111.0, 109.0];
        let (lo, hi) = bootstrap_ratio(&a, &b);
        assert!(lo <= 1.1 && 1.1 <= hi, "{lo} {hi}");
        assert!(lo > 1.0, "{lo}");
        assert_eq!(median(&a), 100.0);
        assert_eq!(min_max(&b), (108.0, 112.0));
    }
}
