//! `cargo test --test wpt [-- FILTER]`: runs web-platform-tests in the jsprof
//! shell. See tests/wpt/README.md.
//!
//! Environment:
//! * `WPT_ROOT=<dir>`: run a WPT-layout directory (e.g. a web-platform-tests
//!   checkout) instead of our `tests/wpt/tests/`;
//! * `WPT_INCLUDE=<prefix>[,<prefix>...]`: only tests under these paths;
//! * `WPT_META=<dir>`: metadata of an external root (ours: `tests/wpt/meta`);
//! * `WPT_STRICT=1`: unexpected results fail the run even without metadata;
//! * `WPT_TIMEOUT_MULTIPLIER=<n>` (default 2), `WPT_JOBS=<n>` (default 2);
//! * `JSPROF_BIN=<path>`: the shell (default: `jsprof` next to the target
//!   directory's `deps/`, built by `cargo test --release --workspace`);
//! * `WPT_CACHE_DIR`: where the `wpt-runner` tarball is cached.
//!
//! Files run first, in parallel; then one libtest trial per result:
//! `<path>` for the file's harness status and `<path> :: <subtest>` per
//! subtest, with the actual status as the trial's kind when not PASS/OK.

#![forbid(unsafe_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use jsprof_wpt::config::Hosts;
use jsprof_wpt::discover::{self, TestFile};
use jsprof_wpt::metadata::{self, Expectation, FileMeta};
use jsprof_wpt::runner::{FileOutcome, Shell};
use jsprof_wpt::server::{Server, Setup};
use jsprof_wpt::thirdparty;
use jsprof_wpt::verdict::{judge_file, Counts, Verdict};
use libtest_mimic::{Arguments, Failed, Trial};

/// testharness.js's own file timeouts (normal, long), in seconds.
const HARNESS_TIMEOUT: (f64, f64) = (10.0, 60.0);
/// Added to the scaled harness timeout for the shell's own `--timeout`
/// (its watchdog interrupts running script and the shell exits with
/// status 124, the file is TIMEOUT with the shell's message).
const SHELL_MARGIN: f64 = 5.0;
/// Added to the shell's `--timeout` before the shell is killed (a
/// backstop: the shell ends itself before).
const KILL_MARGIN: f64 = 10.0;

struct Settings {
    root: PathBuf,
    external: bool,
    /// The checkout (for `examples/`, served with our own tests).
    repo: PathBuf,
    include: Vec<String>,
    meta_root: Option<PathBuf>,
    strict: bool,
    multiplier: f64,
    jobs: usize,
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("\nwpt: harness error: {e}");
            ExitCode::from(2)
        }
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn settings(args: &Arguments) -> Result<Settings, String> {
    let manifest = jsprof_test_server::manifest_dir(env!("CARGO_MANIFEST_DIR"));
    let manifest = manifest.as_path();
    let (root, external) = match env("WPT_ROOT") {
        Some(root) => (PathBuf::from(root), true),
        None => (manifest.join("tests"), false),
    };
    let meta_root = match env("WPT_META") {
        Some(dir) => Some(PathBuf::from(dir)),
        None if !external => Some(manifest.join("meta")),
        None => None,
    };
    let strict = meta_root.is_some() || env("WPT_STRICT").is_some_and(|v| v != "0");
    let include = env("WPT_INCLUDE")
        .map(|v| {
            v.split(',')
                .map(|p| p.trim().trim_start_matches('/').to_owned())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let multiplier = match env("WPT_TIMEOUT_MULTIPLIER") {
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|m| *m > 0.0 && m.is_finite())
            .ok_or_else(|| format!("WPT_TIMEOUT_MULTIPLIER=`{v}` is not a positive number"))?,
        None => 2.0,
    };
    let jobs = match env("WPT_JOBS") {
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|j| *j > 0)
            .ok_or_else(|| format!("WPT_JOBS=`{v}` is not a positive integer"))?,
        None => args.test_threads.unwrap_or(2).clamp(1, 2),
    };
    Ok(Settings {
        root,
        external,
        repo: manifest.join("../.."),
        include,
        meta_root,
        strict,
        multiplier,
        jobs,
    })
}

/// Whether any trial of `path` can pass the command line's filters.
fn file_selected(path: &str, args: &Arguments, any_path_matches: bool) -> bool {
    if args.skip.iter().any(|s| {
        if args.exact {
            s == path
        } else {
            path.contains(s.as_str())
        }
    }) {
        return false;
    }
    match &args.filter {
        None => true,
        Some(f) if args.exact => f == path || f.starts_with(&format!("{path} :: ")),
        // A filter naming no path may name subtests, which are only known
        // after running: then every file runs and libtest filters trials.
        Some(f) => {
            path.contains(f.as_str()) || f.starts_with(&format!("{path} :: ")) || !any_path_matches
        }
    }
}

fn run(args: Arguments) -> Result<ExitCode, String> {
    let settings = settings(&args)?;
    let tests = discover::discover(&settings.root, &settings.include)?;
    if tests.is_empty() {
        return Err(format!(
            "no tests found under {} (WPT_INCLUDE={:?})",
            settings.root.display(),
            settings.include
        ));
    }

    // Metadata first: a malformed file is a harness error before anything runs.
    let mut metas = Vec::new();
    let mut errors = Vec::new();
    for test in &tests {
        let meta = match &settings.meta_root {
            Some(dir) => metadata::load(dir, &test.path).unwrap_or_else(|e| {
                errors.push(e);
                None
            }),
            None => None,
        };
        metas.push(meta);
    }
    if let Some(dir) = &settings.meta_root {
        errors.extend(orphan_metadata(dir, &tests, &settings));
    }
    if !errors.is_empty() {
        return Err(format!(
            "bad expectation metadata:\n  {}",
            errors.join("\n  ")
        ));
    }

    let any_path_matches = args.filter.as_ref().is_some_and(|f| {
        tests
            .iter()
            .any(|t| t.path.contains(f.as_str()) || f.starts_with(&format!("{} :: ", t.path)))
    });
    let selected: Vec<(TestFile, Option<FileMeta>)> = tests
        .into_iter()
        .zip(metas)
        .filter(|(t, _)| file_selected(&t.path, &args, any_path_matches))
        .collect();

    if args.list {
        let trials = selected
            .iter()
            .flat_map(|(t, meta)| {
                let mut names = vec![t.path.clone()];
                if let Some(meta) = meta {
                    names.extend(meta.subtests.keys().map(|s| format!("{} :: {s}", t.path)));
                }
                names
            })
            .map(|name| Trial::test(name, || Ok(())))
            .collect();
        return Ok(libtest_mimic::run(&args, trials).exit_code());
    }

    let (disabled, to_run): (Vec<_>, Vec<_>) = selected
        .into_iter()
        .partition(|(_, m)| m.as_ref().is_some_and(|m| m.disabled.is_some()));
    let outcomes = if to_run.is_empty() {
        Vec::new()
    } else {
        run_files(&settings, &to_run)?
    };
    let to_run = match (env("WPT_UPDATE_META"), &settings.meta_root) {
        (Some(_), Some(meta_root)) => update_metadata(meta_root, to_run, &outcomes)?,
        (Some(_), None) => {
            return Err("WPT_UPDATE_META needs a metadata directory (WPT_META)".into())
        }
        (None, _) => to_run,
    };

    let mut trials = Vec::new();
    let mut counts = Counts::default();
    for (test, meta) in &disabled {
        let reason = meta
            .as_ref()
            .and_then(|m| m.disabled.clone())
            .unwrap_or_default();
        println!("wpt: disabled {}: {reason}", test.path);
        trials.push((
            Trial::test(test.path.clone(), || Ok(())).with_ignored_flag(true),
            Verdict::Pass,
        ));
    }
    for ((test, meta), outcome) in to_run.iter().zip(outcomes) {
        let meta = meta.clone().unwrap_or_default();
        trials.extend(file_trials(test, &meta, outcome, settings.strict));
    }
    for (trial, verdict) in &trials {
        if !trial.has_ignored_flag() && !args.is_filtered_out(trial) {
            counts.add(verdict);
        }
    }
    let conclusion = libtest_mimic::run(&args, trials.into_iter().map(|(t, _)| t).collect());
    println!("{}", counts.summary());
    if settings.external && !settings.strict {
        println!("wpt: no metadata for this root: results are reported, not enforced (WPT_STRICT=1 to enforce)");
    }
    Ok(if conclusion.has_failed() {
        ExitCode::from(101)
    } else {
        ExitCode::SUCCESS
    })
}

/// `WPT_UPDATE_META=1`: rewrites the metadata of the files that ran so that
/// their observed results are the expectations. Entries that accept the
/// result are kept (with their reasons); new or changed entries take
/// `WPT_UPDATE_REASON`. A file with only PASS/OK results loses its metadata.
fn update_metadata(
    meta_root: &Path,
    files: Vec<(TestFile, Option<FileMeta>)>,
    outcomes: &[FileOutcome],
) -> Result<Vec<(TestFile, Option<FileMeta>)>, String> {
    let reason = env("WPT_UPDATE_REASON");
    let keep_or_new =
        |old: Option<&Expectation>, actual: &str, what: &str| -> Result<Expectation, String> {
            match old {
                Some(e) if e.accepts(actual) && e.reason.is_some() => Ok(e.clone()),
                _ => Ok(Expectation {
                    statuses: vec![actual.to_owned()],
                    reason: Some(reason.clone().ok_or_else(|| {
                        format!("{what} is now {actual}: set WPT_UPDATE_REASON to say why")
                    })?),
                }),
            }
        };
    let mut updated = Vec::new();
    let mut changed = 0;
    for ((test, old), outcome) in files.into_iter().zip(outcomes) {
        let old_meta = old.clone().unwrap_or_default();
        let mut meta = FileMeta {
            disabled: old_meta.disabled.clone(),
            ..FileMeta::default()
        };
        if outcome.status != "OK" {
            let old_harness = old
                .as_ref()
                .map(|m| &m.harness)
                .filter(|e| e.is_failure_expected());
            meta.harness = keep_or_new(old_harness, &outcome.status, &test.path)?;
        }
        for sub in outcome.subtests.iter().filter(|s| s.status != "PASS") {
            let what = format!("{} :: {}", test.path, sub.name);
            let expectation = keep_or_new(old_meta.subtests.get(&sub.name), &sub.status, &what)?;
            meta.subtests.insert(sub.name.clone(), expectation);
        }
        let path = metadata::path_for(meta_root, &test.path);
        let empty = meta == FileMeta::default();
        let new = (!empty).then_some(meta);
        if new != old {
            changed += 1;
            match &new {
                None => std::fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove {}: {e}", path.display()))?,
                Some(meta) => {
                    if let Some(dir) = path.parent() {
                        std::fs::create_dir_all(dir)
                            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                    }
                    let name = test.path.rsplit('/').next().unwrap_or(&test.path);
                    std::fs::write(&path, metadata::render(name, meta))
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
            }
        }
        updated.push((test, new));
    }
    println!(
        "wpt: WPT_UPDATE_META: {changed} metadata file(s) changed under {}",
        meta_root.display()
    );
    Ok(updated)
}

/// Metadata files whose test does not exist (renamed or deleted tests),
/// for our own root only (an external root may be filtered by include).
fn orphan_metadata(meta_root: &Path, tests: &[TestFile], settings: &Settings) -> Vec<String> {
    if settings.external || !settings.include.is_empty() || !meta_root.is_dir() {
        return Vec::new();
    }
    let known: HashSet<String> = tests.iter().map(|t| format!("{}.ini", t.path)).collect();
    let mut orphans = Vec::new();
    let mut stack = vec![(meta_root.to_owned(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if entry.path().is_dir() {
                stack.push((entry.path(), path));
            } else if name.ends_with(".ini") && !known.contains(&path) {
                orphans.push(format!(
                    "{}: no test `{}` for this metadata",
                    entry.path().display(),
                    path.trim_end_matches(".ini")
                ));
            }
        }
    }
    orphans
}

/// Starts the server and runs every file in the shell, `jobs` at a time.
fn run_files(
    settings: &Settings,
    files: &[(TestFile, Option<FileMeta>)],
) -> Result<Vec<FileOutcome>, String> {
    let binary = shell_binary()?;
    let scratch =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let mut fallback = if settings.root.join("resources/testharness.js").is_file() {
        Vec::new() // a WPT checkout: its own resources/ and common/
    } else {
        thirdparty::WPT_RUNNER.fetch_into(scratch.path())?
    };
    // Our own tests drive the example apps (tests/todomvc/).
    let todomvc = |f: &(TestFile, Option<FileMeta>)| f.0.path.starts_with("todomvc/");
    if !settings.external && files.iter().any(todomvc) {
        fallback.extend(thirdparty::todomvc_files(&settings.repo, scratch.path())?);
    }
    let hosts = Hosts::default();
    let server = Server::start(Setup {
        root: settings.root.clone(),
        fallback,
        hosts: hosts.clone(),
        timeout_multiplier: settings.multiplier,
    })?;
    let ca_file = scratch.path().join("wpt-ca.pem");
    std::fs::write(&ca_file, server.ca_pem_bundle())
        .map_err(|e| format!("cannot write {}: {e}", ca_file.display()))?;

    let mut shell_args = Vec::new();
    for name in hosts.all() {
        shell_args.push("--map".to_owned());
        shell_args.push(format!("{name}=127.0.0.1"));
    }
    shell_args.push("--ca-file".to_owned());
    shell_args.push(ca_file.display().to_string());
    shell_args.push("--quiet".to_owned());

    println!(
        "wpt: {} file(s) from {} on http://{}:{} and https://{}:{}, shell {}",
        files.len(),
        settings.root.display(),
        hosts.primary,
        server.http_port(),
        hosts.primary,
        server.https_port(),
        binary.display()
    );
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<FileOutcome>>> = Mutex::new(vec![None; files.len()]);
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.min(files.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((test, _)) = files.get(i) else { break };
                let (scheme, port) = if test.https {
                    ("https", server.https_port())
                } else {
                    ("http", server.http_port())
                };
                let url = format!("{scheme}://{}:{port}/{}", hosts.primary, test.path);
                let base = if test.long {
                    HARNESS_TIMEOUT.1
                } else {
                    HARNESS_TIMEOUT.0
                };
                // The per-test timeout: the shell's watchdog stops the page
                // (even a busy script) past testharness.js's own timeout;
                // the kill is the backstop past that.
                let shell_limit = base * settings.multiplier + SHELL_MARGIN;
                let limit = shell_limit + KILL_MARGIN;
                let mut args = shell_args.clone();
                args.push("--timeout".to_owned());
                args.push(format!("{shell_limit}"));
                let shell = Shell {
                    binary: binary.clone(),
                    args,
                };
                let outcome = shell.run(&url, Duration::from_secs_f64(limit));
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                println!(
                    "wpt: [{n}/{}] {} {} ({} subtests, {:.1}s)",
                    files.len(),
                    outcome.status,
                    test.path,
                    outcome.subtests.len(),
                    outcome.duration.as_secs_f64()
                );
                results.lock().unwrap()[i] = Some(outcome);
            });
        }
    });
    drop(server);
    Ok(results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|o| o.expect("every file ran"))
        .collect())
}

/// The shell binary: `JSPROF_BIN`, else `<target>/<profile>/jsprof` next to
/// this test executable's `deps/` directory.
fn shell_binary() -> Result<PathBuf, String> {
    if let Some(bin) = env("JSPROF_BIN") {
        let bin = PathBuf::from(bin);
        return if bin.is_file() {
            Ok(bin)
        } else {
            Err(format!("JSPROF_BIN={} does not exist", bin.display()))
        };
    }
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot locate the test executable: {e}"))?;
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("cannot locate the target directory")?;
    let bin = profile_dir.join(format!("jsprof{}", std::env::consts::EXE_SUFFIX));
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "the jsprof shell was not found at {}: build it first (`cargo build --release --bin jsprof` \
             with the same target directory; `cargo test --release --workspace` and `./mach test` \
             build it), or set JSPROF_BIN",
            bin.display()
        ))
    }
}

/// Trials of one file (see [`judge_file`]).
fn file_trials(
    test: &TestFile,
    meta: &FileMeta,
    outcome: FileOutcome,
    strict: bool,
) -> Vec<(Trial, Verdict)> {
    judge_file(&test.path, meta, &outcome, strict)
        .into_iter()
        .map(|j| make_trial(j.name, &j.status, j.verdict, j.detail))
        .collect()
}

fn make_trial(name: String, status: &str, verdict: Verdict, detail: String) -> (Trial, Verdict) {
    let kind = if status == "PASS" || status == "OK" {
        String::new()
    } else {
        status.to_owned()
    };
    let failure = match &verdict {
        Verdict::Unexpected(why) if detail.is_empty() => Some(why.clone()),
        Verdict::Unexpected(why) => Some(format!("{why}\n{detail}")),
        _ => None,
    };
    let trial = Trial::test(name, move || match failure {
        None => Ok(()),
        Some(message) => Err(Failed::from(message)),
    })
    .with_kind(kind);
    (trial, verdict)
}
