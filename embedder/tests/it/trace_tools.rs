//! `jsprof convert`, `merge`, `report`, `symbolicate`, and the outputs of
//! `jsprof profile` (flame graph, `--format`, `--sourcemaps`), as a user
//! runs them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use jsprof_test_server::{TestResponse, TestServer};

fn jsprof(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jsprof"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: Output) -> (String, String) {
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jsprof-tools-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// This crate's directory ([`jsprof_test_server::manifest_dir`]).
fn manifest_dir() -> PathBuf {
    jsprof_test_server::manifest_dir(env!("CARGO_MANIFEST_DIR"))
}

/// A trace Chromium wrote (components/trace/tests/data).
fn chromium_trace() -> PathBuf {
    manifest_dir().join("../components/trace/tests/data/chromium.json")
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn convert_writes_every_format_next_to_the_trace() {
    let dir = temp_dir("convert");
    let trace = dir.join("chromium.json");
    std::fs::copy(chromium_trace(), &trace).unwrap();
    for (format, file) in [
        ("firefox", "chromium.firefox.json"),
        ("cpuprofile", "chromium.cpuprofile"),
        ("speedscope", "chromium.speedscope.json"),
        ("pprof", "chromium.pb.gz"),
        ("sentry", "chromium.sentry.json"),
        ("folded", "chromium.folded"),
        ("svg", "chromium.svg"),
    ] {
        let (_, stderr) = ok(jsprof(&dir, &["convert", "chromium.json", "--to", format]));
        assert!(
            stderr.contains(&format!("wrote {}", dir.join(file).display()))
                || stderr.contains(file),
            "{stderr}"
        );
        assert!(
            std::fs::metadata(dir.join(file)).unwrap().len() > 100,
            "{file}"
        );
    }
    // Two traces: one timeline with both traces' samples.
    ok(jsprof(
        &dir,
        &[
            "convert",
            "chromium.json",
            "chromium.json",
            "--to",
            "trace",
            "-o",
            "both.json",
        ],
    ));
    let both = read_json(&dir.join("both.json"));
    let one = read_json(&trace);
    assert_eq!(
        both["samples"].as_array().unwrap().len(),
        2 * one["samples"].as_array().unwrap().len()
    );
    // Standard output.
    let (folded, _) = ok(jsprof(
        &dir,
        &["convert", "chromium.json", "--to", "folded", "-o", "-"],
    ));
    assert!(folded
        .lines()
        .all(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().is_ok()));
    // Bad input: the JSON path, and no output file.
    std::fs::write(
        dir.join("bad.json"),
        r#"{"resources":[],"frames":[],"stacks":[{"frameId":0}],"samples":[]}"#,
    )
    .unwrap();
    let out = jsprof(&dir, &["convert", "bad.json", "--to", "svg"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "jsprof convert: bad.json: $.stacks[0].frameId: 0 is out of range (the trace has 0 frames)\n"
    );
    assert!(!dir.join("bad.svg").exists());
    let out = jsprof(&dir, &["convert", "chromium.json", "--to", "png"]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("unknown format png (one of firefox, cpuprofile"));
}

#[test]
fn merge_aggregates_a_directory_and_skips_bad_traces() {
    let dir = temp_dir("merge");
    let traces = dir.join("traces");
    std::fs::create_dir(&traces).unwrap();
    for i in 0..5 {
        std::fs::copy(chromium_trace(), traces.join(format!("t{i}.json"))).unwrap();
    }
    std::fs::write(traces.join("t5.json"), "{").unwrap();
    let (stdout, stderr) = ok(jsprof(
        &dir,
        &["merge", "traces", "--to", "trace", "-o", "merged.json"],
    ));
    assert!(
        stderr.contains("skipped traces/t5.json: $: EOF while parsing"),
        "{stderr}"
    );
    let one = read_json(&chromium_trace());
    let samples = one["samples"].as_array().unwrap().len();
    assert!(
        stdout.starts_with(&format!(
            "merged 5 trace(s) (1 skipped): {} samples",
            5 * samples
        )),
        "{stdout}"
    );
    assert!(stdout.contains("samples per resource"), "{stdout}");
    assert!(stdout.contains("/app.js"), "{stdout}");
    let merged = read_json(&dir.join("merged.json"));
    assert_eq!(merged["samples"].as_array().unwrap().len(), 5 * samples);
    // --strict fails on the bad trace.
    let out = jsprof(&dir, &["merge", "traces", "--strict"]);
    assert!(!out.status.success());
    // The default output is pprof.
    ok(jsprof(&dir, &["merge", "traces"]));
    assert_eq!(
        &std::fs::read(dir.join("merged.pb.gz")).unwrap()[..2],
        &[0x1f, 0x8b]
    );
}

#[test]
fn report_prints_both_call_trees() {
    let trace = chromium_trace();
    let (stdout, _) = ok(jsprof(
        Path::new("."),
        &["report", trace.to_str().unwrap(), "--min-percent", "5"],
    ));
    let top_down = stdout.find("top-down call tree").unwrap();
    let bottom_up = stdout.find("bottom-up call tree").unwrap();
    assert!(top_down < bottom_up, "{stdout}");
    // sortNumbers is the function with the most self samples in the
    // fixture: the first bottom-up entry.
    let first = stdout[bottom_up..].lines().nth(2).unwrap();
    assert!(first.contains("sortNumbers "), "{stdout}");
}

#[test]
fn profile_writes_a_flame_graph_and_formats_next_to_the_trace() {
    let dir = temp_dir("profile");
    let (stdout, _) = ok(jsprof(
        &dir,
        &[
            "profile",
            "--out",
            "demo.json",
            "--format",
            "speedscope",
            "--format",
            "pprof",
        ],
    ));
    for file in [
        "demo.json",
        "demo.svg",
        "demo.speedscope.json",
        "demo.pb.gz",
    ] {
        assert!(stdout.contains(file), "{stdout}");
        assert!(dir.join(file).exists(), "{file}");
    }
    let svg = std::fs::read_to_string(dir.join("demo.svg")).unwrap();
    assert!(svg.contains("startUp (jsprof:demo/pageload.html:33:19)"));
    ok(jsprof(
        &dir,
        &["profile", "--out", "plain.json", "--no-flamegraph"],
    ));
    assert!(!dir.join("plain.svg").exists());
    ok(jsprof(
        &dir,
        &[
            "profile",
            "--out",
            "named.json",
            "--flamegraph",
            "graph.svg",
        ],
    ));
    assert!(dir.join("graph.svg").exists() && !dir.join("named.svg").exists());
    let out = jsprof(&dir, &["profile", "--format", "jpeg"]);
    assert!(!out.status.success());
}

/// esbuild from the npm registry, installed once into the cache (shared
/// with the `jsprof-trace` consumer tests).
fn esbuild() -> PathBuf {
    let cache = std::env::var_os("JSPROF_CONSUMERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let base = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache"));
            base.join("js-self-profiling").join("consumers")
        });
    let bin = cache.join("node_modules/.bin/esbuild");
    if !bin.exists() {
        std::fs::create_dir_all(&cache).unwrap();
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&cache)
            .arg("esbuild@0.28.2")
            .status()
            .expect("npm is needed (./mach bootstrap installs it)");
        assert!(status.success());
    }
    bin
}

/// Bundles tests/sourcemap-app with esbuild (minified, with a source map
/// of the given kind) into `dir`; returns the bundle's text.
fn bundle(dir: &Path, sourcemap: &str) -> String {
    let app = manifest_dir().join("tests/sourcemap-app");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    for file in ["app.js", "math.js"] {
        std::fs::copy(app.join(file), dir.join("src").join(file)).unwrap();
    }
    let status = Command::new(esbuild())
        .current_dir(dir)
        .args(["src/app.js", "--bundle", "--minify", "--log-level=warning"])
        .arg(format!("--sourcemap={sourcemap}"))
        .arg("--outfile=dist/app.min.js")
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(dir.join("dist/app.min.js")).unwrap()
}

/// The trace's frame names with their resources.
fn frames(trace: &serde_json::Value) -> Vec<(String, String)> {
    let resources = trace["resources"].as_array().unwrap();
    trace["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let resource = f["resourceId"]
                .as_u64()
                .map(|r| resources[r as usize].as_str().unwrap().to_owned())
                .unwrap_or_default();
            (f["name"].as_str().unwrap().to_owned(), resource)
        })
        .collect()
}

fn assert_original(trace: &serde_json::Value, origin: &str) {
    let frames = frames(trace);
    for (name, file) in [
        ("computePrimes", "src/math.js"),
        ("isPrime", "src/math.js"),
        ("runApplication", "src/app.js"),
    ] {
        assert!(
            frames
                .iter()
                .any(|(n, r)| n == name && r == &format!("{origin}/{file}")),
            "{name} in {file}: {frames:?}"
        );
    }
    // No minified function of the bundle is left.
    assert!(
        !frames
            .iter()
            .any(|(n, r)| r.ends_with("app.min.js") && !n.is_empty()),
        "{frames:?}"
    );
}

/// `jsprof profile --sourcemaps` of `page` (test server names mapped to
/// loopback), writing `trace.json` in `dir`.
/// A page that loads the bundle `bundle` writes.
const BUNDLE_PAGE: &str = "<script src=app.min.js></script>";

/// Writes `dist/index.html` (`BUNDLE_PAGE`) next to the bundle and profiles
/// it into `out`, with the options `extra`.
fn profile_bundle_page(dir: &Path, out: &str, extra: &[&str]) {
    std::fs::write(dir.join("dist/index.html"), BUNDLE_PAGE).unwrap();
    let mut args = vec!["profile", "--no-flamegraph", "--out", out];
    args.extend_from_slice(extra);
    args.push("dist/index.html");
    ok(jsprof(dir, &args));
}

/// Profiles `page` (on the test server) with --sourcemaps into
/// `trace.json`; stdout and stderr.
fn profile_with_sourcemaps(dir: &Path, page: &str) -> (String, String) {
    ok(jsprof(
        dir,
        &[
            "profile",
            "--no-flamegraph",
            "--sourcemaps",
            "--out",
            "trace.json",
            "--host-rules",
            "MAP *web-platform.test 127.0.0.1",
            page,
        ],
    ))
}

#[test]
fn sourcemaps_name_the_original_functions_of_an_esbuild_bundle() {
    // 1. A sourceMappingURL comment, over HTTP.
    let dir = temp_dir("sourcemap-http");
    let bundled = bundle(&dir, "linked");
    assert!(bundled.contains("//# sourceMappingURL=app.min.js.map"));
    assert!(!bundled.contains("computePrimes"), "minified");
    let server = TestServer::start().unwrap();
    let map = std::fs::read(dir.join("dist/app.min.js.map")).unwrap();
    server.route("/dist/index.html", |_| {
        TestResponse::ok(BUNDLE_PAGE).with_content_type("text/html")
    });
    let script = bundled.clone();
    server.route("/dist/app.min.js", move |_| {
        TestResponse::ok(script.clone()).with_content_type("text/javascript")
    });
    let map_body = map.clone();
    server.route("/dist/app.min.js.map", move |_| {
        TestResponse::ok(map_body.clone()).with_content_type("application/json")
    });
    let page = server.http_url("web-platform.test", "/dist/index.html");
    profile_with_sourcemaps(&dir, page.as_str());
    let origin = page.origin().ascii_serialization();
    assert_original(&read_json(&dir.join("trace.json")), &origin);

    // 2. The SourceMap header, on a bundle without the comment.
    let dir = temp_dir("sourcemap-header");
    let bundled = bundle(&dir, "external");
    assert!(!bundled.contains("sourceMappingURL"));
    let script = bundled.clone();
    server.route("/header/app.min.js", move |_| {
        TestResponse::ok(script.clone())
            .with_content_type("text/javascript")
            .with_header("SourceMap", "/dist/app.min.js.map")
    });
    server.route("/header/index.html", |_| {
        TestResponse::ok(BUNDLE_PAGE).with_content_type("text/html")
    });
    let page = server.http_url("web-platform.test", "/header/index.html");
    profile_with_sourcemaps(&dir, page.as_str());
    assert_original(&read_json(&dir.join("trace.json")), &origin);

    // 3. An inline data: map, from a file.
    let dir = temp_dir("sourcemap-inline");
    let bundled = bundle(&dir, "inline");
    assert!(bundled.contains("sourceMappingURL=data:application/json;base64,"));
    profile_bundle_page(&dir, "trace.json", &["--sourcemaps"]);
    let origin = url::Url::from_directory_path(&dir).unwrap().to_string();
    assert_original(
        &read_json(&dir.join("trace.json")),
        origin.trim_end_matches('/'),
    );

    // 4. `jsprof symbolicate` of a trace recorded without --sourcemaps,
    // with the map given on the command line.
    let dir = temp_dir("symbolicate");
    bundle(&dir, "external");
    profile_bundle_page(&dir, "raw.json", &[]);
    let raw = read_json(&dir.join("raw.json"));
    assert!(
        frames(&raw).iter().all(|(n, _)| n != "computePrimes"),
        "minified before"
    );
    let script_url = url::Url::from_file_path(dir.join("dist/app.min.js")).unwrap();
    let mapping = format!("{script_url}=dist/app.min.js.map");
    ok(jsprof(
        &dir,
        &[
            "symbolicate",
            "raw.json",
            "--sourcemap",
            &mapping,
            "-o",
            "symbolicated.json",
        ],
    ));
    let symbolicated = read_json(&dir.join("symbolicated.json"));
    let origin = url::Url::from_directory_path(&dir).unwrap().to_string();
    assert_original(&symbolicated, origin.trim_end_matches('/'));
    // The sample count is unchanged.
    assert_eq!(
        symbolicated["samples"].as_array().unwrap().len(),
        raw["samples"].as_array().unwrap().len()
    );
}

/// A trace is data from whoever sent it: `jsprof symbolicate` must not
/// read the local files (or fetch the URLs) it names unless told to. Built
/// to leak: the trace names a local script whose source map would rename
/// its function to a secret.
#[test]
fn symbolicate_fetches_nothing_a_trace_names_unless_asked() {
    let dir = temp_dir("symbolicate-leak");
    std::fs::write(
        dir.join("secret.js"),
        "function a(){}\n//# sourceMappingURL=secret.js.map\n",
    )
    .unwrap();
    // One mapping at 1:10 (the `a`) named SECRET_NAME.
    std::fs::write(
        dir.join("secret.js.map"),
        r#"{"version":3,"sources":["secret-source.js"],"names":["SECRET_NAME"],"mappings":"SAAAA"}"#,
    )
    .unwrap();
    let script = url::Url::from_file_path(dir.join("secret.js")).unwrap();
    let trace = format!(
        r#"{{"resources":["{script}"],"frames":[{{"name":"a","resourceId":0,"line":1,"column":10}}],"stacks":[{{"frameId":0}}],"samples":[{{"timestamp":1,"stackId":0}}]}}"#
    );
    std::fs::write(dir.join("field.json"), trace).unwrap();
    ok(jsprof(
        &dir,
        &["symbolicate", "field.json", "-o", "out.json"],
    ));
    let out = std::fs::read_to_string(dir.join("out.json")).unwrap();
    assert!(
        !out.contains("SECRET") && !out.contains("secret-source"),
        "{out}"
    );
    assert!(out.contains(r#""name":"a""#), "{out}");
    // Asked for, the map is followed (so the test above can fail).
    ok(jsprof(
        &dir,
        &[
            "symbolicate",
            "field.json",
            "--fetch-maps",
            "-o",
            "out2.json",
        ],
    ));
    let out = std::fs::read_to_string(dir.join("out2.json")).unwrap();
    assert!(
        out.contains("SECRET_NAME") && out.contains("secret-source.js"),
        "{out}"
    );
}

/// Built to leak: a web page's script points its source map at a local
/// file; `jsprof profile --sourcemaps` must not read it.
#[test]
fn a_web_script_cannot_make_the_shell_read_a_local_source_map() {
    let dir = temp_dir("sourcemap-local");
    let map = dir.join("local.js.map");
    std::fs::write(
        &map,
        r#"{"version":3,"sources":["secret-source.js"],"names":["SECRET_NAME"],"mappings":"SAAAA"}"#,
    )
    .unwrap();
    let map_url = url::Url::from_file_path(&map).unwrap();
    let server = TestServer::start().unwrap();
    server.route("/index.html", |_| {
        TestResponse::ok("<script src=a.js></script>").with_content_type("text/html")
    });
    let script = format!(
        "function a(){{let x=0;for(let i=0;i<3e6;i++)x+=i%7;return x}}for(let k=0;k<20;k++)a();\n//# sourceMappingURL={map_url}\n"
    );
    server.route("/a.js", move |_| {
        TestResponse::ok(script.clone()).with_content_type("text/javascript")
    });
    let page = server.http_url("web-platform.test", "/index.html");
    let (_, stderr) = profile_with_sourcemaps(&dir, page.as_str());
    assert!(stderr.contains("ignored the local source map"), "{stderr}");
    let trace = std::fs::read_to_string(dir.join("trace.json")).unwrap();
    assert!(
        !trace.contains("SECRET") && !trace.contains("secret-source"),
        "{trace}"
    );
}
