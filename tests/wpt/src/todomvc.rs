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

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use jsprof_wpt::config::Hosts;
use jsprof_wpt::server::{Server, Setup};
use jsprof_wpt::thirdparty;

const APPS: [&str; 5] = ["react", "preact", "vue", "jquery", "vanilla"];

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("todomvc: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let jsprof = match args.iter().position(|a| a == "--jsprof") {
        Some(i) if i + 1 < args.len() => {
            let path = PathBuf::from(args.remove(i + 1));
            args.remove(i);
            path
        }
        _ => return Err("usage: todomvc --jsprof PATH [APP] [jsprof profile options]".into()),
    };
    let app = match args.first() {
        Some(first) if !first.starts_with('-') => args.remove(0),
        _ => "react".to_owned(),
    };
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
    if let Some(i) = args.iter().position(|a| a == "--bench") {
        let rounds = match args.get(i + 1) {
            Some(n) => n
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("--bench {n}: not a positive number of rounds"))?,
            None => 10,
        };
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
    use super::*;

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
