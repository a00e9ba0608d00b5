//! The `jsprof-trace` binary as a user runs it: real conversions of the
//! fixtures, a merge that skips a bad trace, a report, a symbolication,
//! and usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{manifest_dir, self_samples};

fn jsprof_trace(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jsprof-trace"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// stdout and stderr of a run that must succeed.
fn ok(out: Output) -> (String, String) {
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jsprof-trace-bin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the fixture `name` (tests/data) in `dir`.
fn fixture(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(manifest_dir().join("tests/data").join(name), &path).unwrap();
    path
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn convert_writes_next_to_the_trace_and_to_standard_output() {
    let dir = temp_dir("convert");
    let trace = fixture(&dir, "jsprof.json");
    let parsed = jsprof_trace::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    // pprof next to the trace.
    let (_, stderr) = ok(jsprof_trace(
        &dir,
        &["convert", "jsprof.json", "--to", "pprof"],
    ));
    assert_eq!(stderr, "wrote jsprof.pb.gz (pprof)\n");
    assert_eq!(
        &std::fs::read(dir.join("jsprof.pb.gz")).unwrap()[..2],
        &[0x1f, 0x8b]
    );
    // Folded stacks on standard output: one count per sample, the leaf
    // counts those of the trace.
    let (folded, _) = ok(jsprof_trace(
        &dir,
        &["convert", "jsprof.json", "--format", "folded", "-o", "-"],
    ));
    let mut leaves = std::collections::BTreeMap::<String, u64>::new();
    for line in folded.lines() {
        let (stack, count) = line.rsplit_once(' ').unwrap();
        let leaf = stack.rsplit(';').next().unwrap();
        let name = leaf.split(" (").next().unwrap().to_owned();
        *leaves.entry(name).or_default() += count.parse::<u64>().unwrap();
    }
    let expected = self_samples(&parsed);
    assert_eq!(
        leaves.values().sum::<u64>(),
        parsed.samples.len() as u64,
        "{folded}"
    );
    for (name, count) in &expected {
        if !name.is_empty() && !name.starts_with('(') {
            assert_eq!(leaves.get(name), Some(count), "{name}: {folded}");
        }
    }
    // Two traces as one timeline in the trace format.
    fixture(&dir, "chromium.json");
    ok(jsprof_trace(
        &dir,
        &[
            "convert",
            "jsprof.json",
            "chromium.json",
            "--to",
            "trace",
            "-o",
            "both.json",
        ],
    ));
    let both = read_json(&dir.join("both.json"));
    let chromium = read_json(&dir.join("chromium.json"));
    assert_eq!(
        both["samples"].as_array().unwrap().len(),
        parsed.samples.len() + chromium["samples"].as_array().unwrap().len()
    );
    // A bad trace: the JSON path, no output file.
    std::fs::write(
        dir.join("bad.json"),
        r#"{"resources":[],"frames":[],"stacks":[{"frameId":0}],"samples":[]}"#,
    )
    .unwrap();
    let out = jsprof_trace(&dir, &["convert", "bad.json", "--to", "svg"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "jsprof-trace convert: bad.json: $.stacks[0].frameId: 0 is out of range (the trace has 0 frames)\n"
    );
    assert!(!dir.join("bad.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_report_and_symbolicate() {
    let dir = temp_dir("merge");
    let traces = dir.join("traces");
    std::fs::create_dir(&traces).unwrap();
    fixture(&traces, "chromium.json");
    fixture(&traces, "jsprof.json");
    std::fs::write(traces.join("truncated.json"), "{").unwrap();
    let (stdout, stderr) = ok(jsprof_trace(&dir, &["merge", "traces", "--to", "folded"]));
    assert!(
        stderr.contains("jsprof-trace merge: skipped traces/truncated.json: $: EOF while parsing"),
        "{stderr}"
    );
    assert!(stderr.contains("wrote merged.folded (folded)"), "{stderr}");
    assert!(
        stdout.starts_with("merged 2 trace(s) (1 skipped): 256 samples"),
        "{stdout}"
    );
    let out = jsprof_trace(&dir, &["merge", "traces", "--strict"]);
    assert_eq!(out.status.code(), Some(1));

    let (report, _) = ok(jsprof_trace(
        &dir,
        &["report", "traces/chromium.json", "--min-percent", "5"],
    ));
    let bottom_up = report.find("bottom-up call tree").unwrap();
    assert!(report.find("top-down call tree").unwrap() < bottom_up);
    assert!(
        report[bottom_up..]
            .lines()
            .nth(2)
            .unwrap()
            .contains("sortNumbers "),
        "{report}"
    );

    // One mapping at 1:10 (the `a` of the script) named `original`.
    let script = url::Url::from_file_path(dir.join("app.min.js")).unwrap();
    std::fs::write(
        dir.join("app.min.js.map"),
        r#"{"version":3,"sources":["app.js"],"names":["original"],"mappings":"SAAAA"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("minified.json"),
        format!(
            r#"{{"resources":["{script}"],"frames":[{{"name":"a","resourceId":0,"line":1,"column":10}}],"stacks":[{{"frameId":0}}],"samples":[{{"timestamp":1,"stackId":0}}]}}"#
        ),
    )
    .unwrap();
    let mapping = format!("{script}=app.min.js.map");
    let (_, stderr) = ok(jsprof_trace(
        &dir,
        &["symbolicate", "minified.json", "--sourcemap", &mapping],
    ));
    assert!(
        stderr.contains("1 of 1 scripts had a source map; wrote minified.symbolicated.json"),
        "{stderr}"
    );
    let symbolicated = read_json(&dir.join("minified.symbolicated.json"));
    assert_eq!(symbolicated["frames"][0]["name"], "original");
    let resource = symbolicated["resources"][0].as_str().unwrap();
    assert!(resource.ends_with("/app.js"), "{resource}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_are_one_clear_line_and_status_1() {
    let dir = std::env::temp_dir();
    for (args, message) in [
        (&["convert", "t.json"][..], "--to <FORMAT>"),
        (&["convert", "t.json", "--to", "png"], "unknown format png"),
        (
            &["report", "t.json", "--depth", "x"],
            "--depth: not a whole number: x",
        ),
        (
            &["merge", "t.json", "--frobnicate"],
            "unknown option --frobnicate",
        ),
        (&["symbolicate", "a.json", "b.json"], "b.json"),
        (&["frobnicate"], "frobnicate"),
        (&[], "Usage: jsprof-trace <COMMAND>"),
    ] {
        let out = jsprof_trace(&dir, args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for args in [&["--help"][..], &["convert", "--help"], &["merge", "-h"]] {
        let (stdout, _) = ok(jsprof_trace(&dir, args));
        assert!(stdout.contains("Usage: jsprof-trace"), "{stdout}");
    }
}
