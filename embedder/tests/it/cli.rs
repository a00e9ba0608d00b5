//! The `jsprof` binary as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn jsprof(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jsprof"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_bundled_demo_page_runs() {
    let out = jsprof(&["jsprof:demo/index.html"], "");
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(
            "inline script in <head>: body is null\ntext: Hello from the jsprof demo page\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("load, readyState = complete\ntimeout fired with an argument\n"),
        "{stdout}"
    );
}

#[test]
fn eval_reads_a_script_from_stdin() {
    let out = jsprof(&["eval", "-"], "'a' + [1, 2].length");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "a2\n");
}

#[test]
fn an_uncaught_exception_fails_with_its_position() {
    let out = jsprof(&["eval", "-"], "\nundefinedFunction()");
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("-:2:1: ReferenceError: undefinedFunction is not defined"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_and_missing_files_are_clear_errors() {
    let out = jsprof(&["--frobnicate"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option --frobnicate"));
    let out = jsprof(&["/nonexistent/page.html"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not load the document"));
    let out = jsprof(&["eval", "/nonexistent/x.js"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/x.js"));
}

/// `jsprof` against the loopback test server: host mapping, the test CA,
/// `--insecure`, a cross-origin script, console output on stdout.
#[test]
fn network_pages_with_host_mapping_and_certificates() {
    use jsprof_test_server::{TestResponse, TestServer};
    let server = TestServer::start().unwrap();
    let cross = server.https_url("not-web-platform.test", "/b.js");
    server.route("/index.html", move |_| {
        TestResponse::ok(format!(
            "<script>console.log('inline ' + location.host.split(':')[0])</script>\
             <script src={cross}></script>"
        ))
        .with_content_type("text/html")
    });
    server.route("/b.js", |_| {
        TestResponse::ok("console.log('cross-origin script')").with_content_type("text/javascript")
    });
    let page = server.https_url("web-platform.test", "/index.html");
    let expected = "inline web-platform.test\ncross-origin script\n";
    let ca = server.ca_file().to_str().unwrap().to_owned();
    // Chromium-style rules and the test CA.
    let out = jsprof(
        &[
            "--host-rules",
            "MAP *web-platform.test 127.0.0.1",
            "--ca-file",
            &ca,
            page.as_str(),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    // --map for each name, and --insecure instead of the CA.
    let out = jsprof(
        &[
            "--quiet",
            "--map",
            "web-platform.test=127.0.0.1",
            "--map",
            "not-web-platform.test=127.0.0.1",
            "--insecure",
            page.as_str(),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    // Without a trusted certificate: the document cannot be loaded.
    let out = jsprof(&["--map", "web-platform.test=127.0.0.1", page.as_str()], "");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("could not load the document"), "{stderr}");
    // A malformed mapping is a usage error.
    let out = jsprof(&["--map", "web-platform.test", page.as_str()], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--map expects HOST=IP"));
}

#[test]
fn an_unhandled_rejection_is_a_warning_not_a_failure() {
    let dir = std::env::temp_dir().join(format!("jsprof-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("reject.html");
    std::fs::write(
        &page,
        "<script>Promise.reject(new TypeError('boom'));\
         Promise.reject(new Error('handled')).catch(() => console.log('handled'));</script>",
    )
    .unwrap();
    let out = jsprof(&[page.to_str().unwrap()], "");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "handled\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Uncaught (in promise) TypeError: boom"),
        "{stderr}"
    );
    assert!(!stderr.contains("handled"), "{stderr}");
}

/// `examples/pageload` served by the loopback test server (both origins on
/// its port instead of 8000/8001), run as its README says.
#[test]
fn the_pageload_example_runs() {
    use jsprof_test_server::{TestResponse, TestServer};
    let root =
        jsprof_test_server::manifest_dir(env!("CARGO_MANIFEST_DIR")).join("../examples/pageload");
    let server = TestServer::start().unwrap();
    let cdn = server.http_url("not-web-platform.test", "/cdn/");
    for (dir, prefix) in [("site", "/"), ("cdn", "/cdn/")] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            let text = std::fs::read_to_string(&path)
                .unwrap()
                .replace("http://not-web-platform.test:8001/", cdn.as_str());
            let content_type = jsprof_net::content_type_for_path(&path).unwrap_or_default();
            server.route(&format!("{prefix}{name}"), move |_| {
                TestResponse::ok(text.clone()).with_content_type(&content_type)
            });
        }
    }
    let page = server.http_url("web-platform.test", "/index.html");
    let out = jsprof(
        &[
            "--host-rules",
            "MAP *web-platform.test 127.0.0.1",
            page.as_str(),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let port = server.http_port();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "1 inline <head> script, origin http://web-platform.test:{port}\n\
             2 app.js (same origin): fibonacci(20) = 6765\n\
             2b lib.js (cross origin) loaded\n\
             3 deferred.js, readyState = interactive\n\
             4 DOMContentLoaded, library says hello from not-web-platform.test\n\
             5 window error event: \"Script error.\" 0\n\
             6 message from the frame: hello, parent.document is SecurityError from \
             http://not-web-platform.test:{port}\n\
             7 load, frames.length = 1\n\
             8 fetched data.json: 3 items\n"
        )
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("must not leak"), "{stderr}");
}

/// `jsprof` with no argument profiles the bundled page-load demo and
/// prints the summary; the trace goes to ./jsprof-trace.json.
#[test]
fn no_argument_profiles_the_page_load_demo() {
    let dir = temp_dir("demo");
    let out = Command::new(env!("CARGO_BIN_EXE_jsprof"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("profile of jsprof:demo/pageload.html\n"),
        "{stdout}"
    );
    assert!(stdout.contains("total samples: "), "{stdout}");
    assert!(
        stdout.contains("top functions by self samples:"),
        "{stdout}"
    );
    assert!(
        stdout.contains("top functions by total samples:"),
        "{stdout}"
    );
    // startUp runs during the page load: it is on the stack of the
    // samples taken then (how many depends on speed; at least one, as the
    // start-up work takes tens of milliseconds at a 1 ms interval).
    assert!(
        stdout.contains("startUp  jsprof:demo/pageload.html:33:19"),
        "{stdout}"
    );
    let json = std::fs::read_to_string(dir.join("jsprof-trace.json")).unwrap();
    let trace: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(trace["resources"][0], "jsprof:demo/pageload.html");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jsprof-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `jsprof profile PATH`: a local file (no headers) is profiled with the
/// policy enabled; the trace JSON has the nested calls with their
/// resource, line and column; the summary lists them; the page's own
/// `new Profiler()` works too. Work is repeated until samples hit all three
/// functions (bounded), so the test needs no timing.
#[test]
fn profile_a_local_page() {
    let dir = temp_dir("profile");
    let page = dir.join("page.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><script>\n\
         function leaf() { let x = 0; for (let i = 0; i < 20000; i++) x += Math.sqrt(i); return x; }\n\
         function middle() { return leaf(); }\n\
         function outer() { return middle(); }\n\
         const own = new Profiler({ sampleInterval: 5, maxBufferSize: 10 });\n\
         const t0 = performance.now();\n\
         while (performance.now() - t0 < 300) outer();\n\
         own.stop().then(t => console.log('own profiler ok', Array.isArray(t.samples)));\n\
         </script>",
    )
    .unwrap();
    let out_file = dir.join("trace.json");
    let out = jsprof(
        &[
            "profile",
            page.to_str().unwrap(),
            "--interval",
            "1",
            "--max-samples",
            "100000",
            "--out",
            out_file.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("own profiler ok true"), "{stdout}");
    let url = url::Url::from_file_path(&page).unwrap();
    for (name, line, column) in [("leaf", 2, 14), ("middle", 3, 16), ("outer", 4, 15)] {
        assert!(
            stdout.contains(&format!("{name}  {url}:{line}:{column}")),
            "{name}: {stdout}"
        );
    }
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(trace["resources"][0], url.as_str());
    let names: Vec<&str> = trace["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    for name in ["leaf", "middle", "outer"] {
        assert!(names.contains(&name), "{names:?}");
    }
}

/// `--max-samples` caps the trace and the summary says the buffer filled;
/// bad option values are clear errors.
#[test]
fn profile_options() {
    let dir = temp_dir("options");
    let page = dir.join("busy.html");
    std::fs::write(
        &page,
        "<script>function spin() { const t = performance.now(); while (performance.now() - t < 200); }\n\
         spin();</script>",
    )
    .unwrap();
    let out_file = dir.join("t.json");
    let out = jsprof(
        &[
            "profile",
            "--max-samples",
            "3",
            "--out",
            out_file.to_str().unwrap(),
            page.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("total samples: 3 "), "{stdout}");
    assert!(stdout.contains("the sample buffer filled"), "{stdout}");
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(trace["samples"].as_array().unwrap().len(), 3);
    for (args, message) in [
        (
            &["profile", "--interval", "-1"][..],
            "--interval: not a non-negative number",
        ),
        (
            &["profile", "--interval", "NaN"][..],
            "--interval: not a non-negative number",
        ),
        (
            &["profile", "--max-samples", "x"][..],
            "--max-samples: not a whole number",
        ),
        (
            &["--interval", "5", "x.html"][..],
            "--interval is an option of `jsprof profile`",
        ),
        (&["profile", "--out"][..], "--out needs a file name"),
    ] {
        let out = jsprof(args, "");
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let out = jsprof(
        &[
            "profile",
            "--out",
            "/nonexistent/dir/t.json",
            page.to_str().unwrap(),
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write /nonexistent/dir/t.json"));
}

// ------------------------------------------------ hostile pages and limits

/// Far longer than any of these runs may take: a hang-catcher.
const HANG_BOUND: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs `jsprof` with `args`, checking the hang bound; returns the output
/// and its stdout and stderr as text.
fn jsprof_bounded(args: &[&str]) -> (Output, String, String) {
    let start = std::time::Instant::now();
    let out = jsprof(args, "");
    assert!(
        start.elapsed() < HANG_BOUND,
        "{args:?} took {:?}",
        start.elapsed()
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stdout, stderr)
}

/// `--timeout` interrupts endless script (a busy loop, an endless
/// microtask chain, in the page or in a worker) and reports where it ran;
/// the exit status is 124, also with `--quiet`. A page that only waits
/// (an interval timer) is stopped with "no script was running".
#[test]
fn timeout_interrupts_endless_script_with_status_124() {
    let dir = temp_dir("timeout");
    let cases = [
        (
            "busy.html",
            "<script>\nconsole.log('start');\nwhile (true) {}\n</script>\n<script>console.log('never');</script>",
            ":3",
        ),
        (
            "chain.html",
            "<script>\nfunction again() { queueMicrotask(again); }\nagain();\n</script>",
            "chain.html:2",
        ),
        (
            "worker.html",
            "<script>\nnew Worker('data:text/javascript,' + encodeURIComponent('\\nwhile (true) {}'));\n</script>",
            "(a dedicated worker)",
        ),
        (
            "worker-chain.html",
            "<script>\nnew Worker('data:text/javascript,' + encodeURIComponent('function again() { queueMicrotask(again); } again();'));\n</script>",
            "(a dedicated worker)",
        ),
        (
            "waiting.html",
            "<script>setInterval(() => {}, 50);</script>",
            "page stopped after 1 s (no script was running)",
        ),
        (
            "frames.html",
            "<script>function again() { requestAnimationFrame(again); }\nagain();</script>",
            "jsprof: timeout: ",
        ),
    ];
    for (name, source, expected) in cases {
        let page = dir.join(name);
        std::fs::write(&page, source).unwrap();
        for quiet in [false, true] {
            let mut args = vec!["--timeout", "1", page.to_str().unwrap()];
            if quiet {
                args.push("--quiet");
            }
            let (out, stdout, stderr) = jsprof_bounded(&args);
            assert_eq!(out.status.code(), Some(124), "{name}: {stderr}");
            assert!(stderr.contains("jsprof: timeout: "), "{name}: {stderr}");
            assert!(stderr.contains(expected), "{name}: {stderr}");
            assert!(!stdout.contains("never"), "{name}: {stdout}");
        }
    }
    let (_, _, stderr) =
        jsprof_bounded(&["--timeout", "1", dir.join("busy.html").to_str().unwrap()]);
    let url = url::Url::from_file_path(dir.join("busy.html")).unwrap();
    assert!(
        stderr.contains(&format!("timeout: script interrupted after 1 s in {url}:3")),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `jsprof eval --timeout` interrupts an endless script (a busy loop, an
/// endless microtask chain) with the page path's message and status 124;
/// a script that ends in time is unaffected; bad values are clear errors.
#[test]
fn eval_timeout_interrupts_endless_script_with_status_124() {
    let dir = temp_dir("eval-timeout");
    let cases = [
        (
            "busy.js",
            "var n = 0;\nwhile (true) { n++; }\n",
            "busy.js:2",
        ),
        (
            "chain.js",
            "function again() { queueMicrotask(again); }\nagain();\n",
            "chain.js:1",
        ),
    ];
    for (name, source, expected) in cases {
        let file = dir.join(name);
        std::fs::write(&file, source).unwrap();
        let start = std::time::Instant::now();
        let (out, stdout, stderr) =
            jsprof_bounded(&["eval", "--timeout", "1", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(124), "{name}: {stderr}");
        assert!(
            stderr.contains("jsprof: timeout: script interrupted after 1 s in "),
            "{name}: {stderr}"
        );
        // (An endless microtask chain may be stopped between two
        // microtasks, where no script runs.)
        assert!(
            stderr.contains(expected)
                || (name == "chain.js" && stderr.contains("(no script was running)")),
            "{name}: {stderr}"
        );
        assert!(stdout.is_empty(), "{name}: {stdout}");
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }
    let quick = dir.join("quick.js");
    std::fs::write(&quick, "6 * 7").unwrap();
    let (out, stdout, _) = jsprof_bounded(&[
        "eval",
        "--timeout",
        "30",
        "--max-heap",
        "64",
        quick.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout, "42\n");
    for args in [
        &["eval", "--timeout", "x", "-"][..],
        &["eval", "--timeout"],
        &["eval", "--max-heap", "0", "-"],
        &["eval", "--frobnicate", "-"],
        &["eval"],
        &["eval", "a.js", "b.js"],
    ] {
        let (out, _, stderr) = jsprof_bounded(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("jsprof: "), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A parser-blocking script from a server that never answers is no
/// script running: `--timeout` aborts the fetch (well before the 30 s
/// network timeout) and stops the page.
#[test]
fn timeout_aborts_a_stalled_script_fetch() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        // Accepts and holds the connection without answering, until the
        // client closes it.
        let (mut stream, _) = listener.accept().unwrap();
        let mut buffer = [0u8; 1024];
        use std::io::Read;
        while stream.read(&mut buffer).map(|n| n > 0).unwrap_or(false) {}
    });
    let dir = temp_dir("stalled-fetch");
    let page = dir.join("page.html");
    std::fs::write(
        &page,
        format!("<script src=\"http://127.0.0.1:{port}/slow.js\"></script>"),
    )
    .unwrap();
    let start = std::time::Instant::now();
    let (out, _, stderr) = jsprof_bounded(&["--timeout", "1", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(124), "{stderr}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "the fetch was not aborted: {:?}",
        start.elapsed()
    );
    server.join().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `jsprof profile --timeout` on a page that never ends: the trace up to
/// the interruption is written (well-formed, with samples of the busy
/// function), the summary says it was interrupted, the status is 124.
/// `--duration` stops it the same way with status 0.
#[test]
fn profile_with_timeout_writes_the_trace_until_the_interruption() {
    let dir = temp_dir("profile-timeout");
    let page = dir.join("busy.html");
    std::fs::write(
        &page,
        "<script>\nfunction spinForever() {\n  while (true) {}\n}\nspinForever();\n</script>",
    )
    .unwrap();
    let url = url::Url::from_file_path(&page).unwrap();
    for (option, status) in [("--timeout", 124), ("--duration", 0)] {
        let out_file = dir.join("t.json");
        let (out, stdout, stderr) = jsprof_bounded(&[
            "profile",
            option,
            "1",
            "--out",
            out_file.to_str().unwrap(),
            page.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(status), "{option}: {stderr}");
        assert!(
            stdout.contains(&format!(
                "interrupted: the page was stopped after 1 s (script running at {url}:3)"
            )),
            "{option}: {stdout}"
        );
        if status == 124 {
            assert!(
                stderr.contains(&format!("timeout: script interrupted after 1 s in {url}:3")),
                "{stderr}"
            );
        }
        let trace: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
        let samples = trace["samples"].as_array().unwrap();
        assert!(!samples.is_empty());
        let names: Vec<&str> = trace["frames"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["name"].as_str())
            .collect();
        assert!(names.contains(&"spinForever"), "{names:?}");
        std::fs::remove_file(&out_file).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--max-heap`: endless allocation ends with the out-of-memory error
/// reported like any uncaught error, and the page goes on (its next
/// script runs, status 0), with and without profiling. Bad values are
/// clear errors.
#[test]
fn max_heap_turns_endless_allocation_into_an_error() {
    let dir = temp_dir("max-heap");
    let page = dir.join("alloc.html");
    std::fs::write(
        &page,
        "<script>\nvar kept = [];\nfor (;;) kept.push({ n: kept.length });\n</script>\n\
         <script>kept = null; console.log('the page goes on');</script>",
    )
    .unwrap();
    let out_file = dir.join("t.json");
    for profile in [false, true] {
        let mut args = vec!["--max-heap", "16"];
        if profile {
            args = vec![
                "profile",
                "--max-heap",
                "16",
                "--out",
                out_file.to_str().unwrap(),
            ];
        }
        args.push(page.to_str().unwrap());
        let (out, stdout, stderr) = jsprof_bounded(&args);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains("out of memory"), "{stderr}");
        assert!(stdout.contains("the page goes on"), "{stdout}");
        if profile {
            let trace: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
            assert!(trace["samples"].is_array());
        }
    }
    for value in ["0", "x", "5000", "-1"] {
        let (out, _, stderr) = jsprof_bounded(&["--max-heap", value, page.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr.contains("--max-heap: not a whole number of MiB"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--max-heap` also counts memory outside the GC heap: a page that keeps
/// 64 MiB ArrayBuffers, or flat 2 MiB strings, ends cleanly with the
/// out-of-memory error reported at its script's line and status 0 (the
/// page goes on to its next script); in a worker, the worker's error
/// reaches the page, which goes on.
#[test]
fn max_heap_counts_array_buffers_and_strings() {
    let dir = temp_dir("max-heap-malloc");
    let growth = [
        ("buffers", "new ArrayBuffer(64 << 20)"),
        ("strings", "new Array((1 << 20) + 1).join('ab')"),
    ];
    for (name, make) in growth {
        let page = dir.join(format!("{name}.html"));
        std::fs::write(
            &page,
            format!(
                "<script>\nvar kept = [];\nfor (;;) kept.push({make});\n</script>\n\
                 <script>console.log('the page goes on after ' + kept.length); kept = null;</script>"
            ),
        )
        .unwrap();
        let url = url::Url::from_file_path(&page).unwrap();
        let (out, stdout, stderr) = jsprof_bounded(&["--max-heap", "256", page.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
        // (The line is where the interrupt check ran: the loop's head or
        // its body.)
        assert!(
            stderr.contains(&format!("{url}:2:0 out of memory"))
                || stderr.contains(&format!("{url}:3:0 out of memory")),
            "{name}: {stderr}"
        );
        assert!(
            stdout.contains("the page goes on after "),
            "{name}: {stdout}"
        );
        let worker = dir.join(format!("{name}-worker.html"));
        std::fs::write(
            &worker,
            format!(
                "<script>\nvar w = new Worker('data:text/javascript,' + encodeURIComponent(\"var kept = []; for (;;) kept.push({make});\"));\n\
                 w.onerror = e => {{ console.log('worker error: ' + e.message); e.preventDefault(); }};\n</script>"
            ),
        )
        .unwrap();
        let (out, stdout, stderr) =
            jsprof_bounded(&["--max-heap", "256", worker.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{name} worker: {stderr}");
        assert!(
            stdout.contains("worker error: out of memory"),
            "{name} worker: {stdout} {stderr}"
        );
    }
    // A module script is stopped and reported the same way.
    let module = dir.join("module.html");
    std::fs::write(
        &module,
        "<script type=module>\nvar kept = [];\nfor (;;) kept.push(new ArrayBuffer(64 << 20));\n</script>\n\
         <script>setTimeout(() => console.log('the page goes on'), 10);</script>",
    )
    .unwrap();
    let (out, stdout, stderr) = jsprof_bounded(&["--max-heap", "256", module.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "module: {stderr}");
    assert!(stderr.contains("out of memory"), "module: {stderr}");
    assert!(!stderr.contains("undefined"), "module: {stderr}");
    assert!(stdout.contains("the page goes on"), "module: {stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Exit status 1: the document could not be loaded.
#[test]
fn a_document_that_cannot_load_is_status_1() {
    let (out, _, stderr) = jsprof_bounded(&["/nonexistent/page.html"]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
}
