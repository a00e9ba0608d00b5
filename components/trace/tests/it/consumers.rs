//! Every fixture converted and opened by the real consumers that run
//! offline here: Chrome DevTools' own CPU profile model
//! (`CPUProfileDataModel.ts` from the `chrome-devtools-frontend` npm
//! package, bundled with esbuild) for `.cpuprofile`, the `pprof-format`
//! decoder for pprof, and (with Chromium) the speedscope app itself for
//! speedscope files and `.cpuprofile`. The expected numbers are counted
//! from the trace with the trie walk, not written down.
//!
//! The npm packages are installed once into
//! `~/.cache/js-self-profiling/consumers` (or `$JSPROF_CONSUMERS_DIR`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{fixtures, manifest_dir, positions, profile, self_samples};
use jsprof_trace::convert::{self, Format};
use serde_json::json;

/// Pinned consumer versions.
const PACKAGES: &[&str] = &[
    "chrome-devtools-frontend@1.0.1705227",
    "esbuild@0.28.2",
    "pprof-format@2.3.2",
    "speedscope@1.25.0",
];

fn node_modules() -> PathBuf {
    let dir = std::env::var_os("JSPROF_CONSUMERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache"));
            cache.join("js-self-profiling").join("consumers")
        });
    let stamp = dir.join(format!(
        "installed-{}",
        PACKAGES.join(",").replace(['@', '/'], "_")
    ));
    if !stamp.exists() {
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .args(PACKAGES)
            .status()
            .expect("npm is needed for the consumer tests (./mach bootstrap installs it)");
        assert!(status.success(), "npm install of the consumers failed");
        std::fs::write(&stamp, "").unwrap();
    }
    dir.join("node_modules")
}

/// Writes every fixture in `format` into `dir` as `NAME{ending}` and the
/// expected numbers into `expected.json`; returns the files.
fn write_fixtures(dir: &Path, format: Format, ending: &str) -> Vec<String> {
    let mut files = Vec::new();
    let mut expected = serde_json::Map::new();
    for (name, trace) in fixtures() {
        let p = profile(&trace);
        let file = dir.join(format!("{name}{ending}"));
        let mut out = Vec::new();
        convert::write(&p, format, &mut out).unwrap();
        std::fs::write(&file, out).unwrap();
        expected.insert(
            format!("{name}{ending}"),
            json!({
                "samples": trace.samples.len(),
                "selfSamples": self_samples(&trace),
                "positions": positions(&trace),
                "periodNs": (p.interval_ms * 1e6).round() as u64,
            }),
        );
        files.push(file.to_string_lossy().into_owned());
    }
    let path = dir.join("expected.json");
    std::fs::write(&path, serde_json::to_vec(&expected).unwrap()).unwrap();
    files
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jsprof-trace-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_node(script: &str, dir: &Path, files: &[String]) {
    let scripts = manifest_dir().join("tests/consumers");
    let output = Command::new("node")
        .arg(scripts.join(script))
        .arg(node_modules())
        .arg(dir.join("expected.json"))
        .args(files)
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    println!("{text}");
    assert!(output.status.success(), "{script}:\n{text}");
}

#[test]
fn chrome_devtools_model_loads_cpuprofiles() {
    let dir = temp_dir("devtools");
    let files = write_fixtures(&dir, Format::Cpuprofile, ".cpuprofile");
    run_node("devtools-cpuprofile.mjs", &dir, &files);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn pprof_format_decodes_pprof() {
    let dir = temp_dir("pprof");
    let files = write_fixtures(&dir, Format::Pprof, ".pb.gz");
    run_node("pprof.mjs", &dir, &files);
    let _ = std::fs::remove_dir_all(dir);
}

/// speedscope is a browser app: it runs in headless Chromium.
#[test]
#[ignore = "needs Chromium (/usr/bin/chromium or $CHROMIUM); run with --ignored"]
fn speedscope_app_imports_speedscope_and_cpuprofile_files() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let dir = temp_dir("speedscope");
    let mut files = write_fixtures(&dir, Format::Speedscope, ".speedscope.json");
    files.extend(write_fixtures(&dir, Format::Cpuprofile, ".cpuprofile"));
    let scripts = manifest_dir().join("tests/consumers");
    let output = Command::new("python3")
        .arg(scripts.join("speedscope.py"))
        .arg(node_modules())
        .arg(&chromium)
        .args(&files)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout);
    println!("{text}{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains("- speedscope'")).count(),
        files.len()
    );
    let _ = std::fs::remove_dir_all(dir);
}
