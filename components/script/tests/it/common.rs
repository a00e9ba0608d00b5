//! What the test modules share: pages served by the loopback test
//! server or written to temp files, the trace reports of the profiler
//! tests, the process's threads, and running a test in a process of its
//! own.

use std::collections::BTreeMap;
use std::rc::Rc;

use jsprof_net::Fetcher;
use jsprof_script::JsRuntime;
use jsprof_test_server::{TestResponse, TestServer};

pub const SAME: &str = "web-platform.test";
pub const CROSS: &str = "not-web-platform.test";

/// No timer sample during a test.
pub const SLOW: &str = "{ sampleInterval: 100000, maxBufferSize: 1000 }";

/// The suffix of every name chosen by secret (muted or other-realm) code.
pub const SECRET: &str = "_7f3a";

pub fn html(body: &str) -> TestResponse {
    TestResponse::ok(body.to_owned()).with_content_type("text/html;charset=utf-8")
}

pub fn html_with_policy(body: &str) -> TestResponse {
    html(body).with_header("Document-Policy", "js-profiling")
}

pub fn js(body: &str) -> TestResponse {
    TestResponse::ok(body.to_owned()).with_content_type("text/javascript")
}

/// A fetcher for `server`'s origins.
pub fn fetcher(server: &TestServer) -> Rc<Fetcher> {
    Rc::new(Fetcher::new(server.net_config()).unwrap())
}

/// Loads `url` in `rt` and runs it to idle.
pub fn load_in(mut rt: JsRuntime, server: &TestServer, url: &url::Url) -> JsRuntime {
    rt.load_page(url, fetcher(server)).expect("page loads");
    assert!(rt.run_until_idle(None));
    rt
}

/// Loads `url` in a new test runtime and runs it to idle.
pub fn load(server: &TestServer, url: &url::Url) -> JsRuntime {
    load_in(JsRuntime::new_for_tests().expect("runtime"), server, url)
}

/// A new empty directory `jsprof-<prefix>-<pid>-<name>` in the temp dir.
pub fn temp_dir(prefix: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jsprof-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `files` (name, text) into `dir`, loads the first from its file
/// in a new runtime (`JsRuntime::new`) and runs the page to idle.
pub fn load_files(dir: &std::path::Path, files: &[(&str, &str)]) -> JsRuntime {
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let url = url::Url::from_file_path(dir.join(files[0].0)).unwrap();
    let fetcher = Fetcher::new(jsprof_net::NetConfig::default()).unwrap();
    let mut rt = JsRuntime::new().expect("runtime");
    rt.load_page(&url, Rc::new(fetcher)).expect("page loads");
    assert!(rt.run_until_idle(None));
    rt
}

/// Serves `helpers` and `body` (with the policy) at /index.html of the
/// same origin and returns the loaded runtime.
pub fn page_with_policy(server: &TestServer, helpers: &str, body: &str) -> JsRuntime {
    let body = format!("<!DOCTYPE html>{helpers}{body}");
    server.route("/index.html", move |_| html_with_policy(&body));
    load(server, &server.http_url(SAME, "/index.html"))
}

/// `window.result`, after checking that the page reported no error.
pub fn result(rt: &mut JsRuntime) -> String {
    let errors = rt.reported_errors();
    assert!(errors.is_empty(), "page errors: {errors:?}");
    rt.evaluate("String(window.result)", "check.js", 1).unwrap()
}

/// A trace as the pages' `report()` gives it:
/// `"<stacks>|<resources>|<trace JSON>"`.
pub struct Report {
    /// Per sample, the frame names leaf first joined by `<`, `-` for none.
    pub stacks: Vec<String>,
    /// `trace.resources` as JSON.
    pub resources: String,
    /// The whole trace as JSON.
    pub json: String,
}

/// Splits a `report()` string and checks that no secret name and none of
/// `secret_urls` appears anywhere in it.
pub fn parse_report(out: &str, secret_urls: &[&str]) -> Report {
    assert_ne!(out, "pending", "the page never finished");
    let mut parts = out.splitn(3, '|');
    let stacks = parts.next().unwrap();
    let resources = parts.next().expect("a report").to_owned();
    let json = parts.next().expect("a report").to_owned();
    assert!(!out.contains(SECRET), "a secret name leaked: {out}");
    for url in secret_urls {
        assert!(!out.contains(url), "the secret URL {url} leaked: {out}");
    }
    // The trace has the shape of a trace (a leak cannot hide behind a
    // different serialization).
    assert!(json.starts_with(r#"{"frames":["#), "{json}");
    Report {
        stacks: stacks.split(';').map(str::to_owned).collect(),
        resources,
        json,
    }
}

/// The names of the process's threads (`comm`), counted.
pub fn threads() -> BTreeMap<String, usize> {
    let mut names = BTreeMap::new();
    for entry in std::fs::read_dir("/proc/self/task").expect("/proc/self/task") {
        let Ok(entry) = entry else { continue };
        // A thread may exit between the listing and the read.
        let Ok(comm) = std::fs::read_to_string(entry.path().join("comm")) else {
            continue;
        };
        *names.entry(comm.trim_end().to_owned()).or_insert(0) += 1;
    }
    names
}

/// Marks the child process [`own_process`] runs (the value: the test's
/// name).
const OWN_PROCESS_ENV: &str = "JSPROF_IT_OWN_PROCESS";

/// For a test that looks at the whole process (its threads, the count of
/// live worker threads, a hook that acts on the next worker anywhere in the
/// process), which the other tests of this binary, running in parallel,
/// would change under it: whether the test's body is to run here.
///
/// In the test binary as run, this runs the binary again with only the
/// calling test (`--exact`, one test thread), in a process of its own and
/// alone in it, prints that run's output (captured as any test's output
/// is), checks that the test ran and passed, and returns `false`: the
/// caller returns. In that child process it returns `true`. A test starts
/// with `if !common::own_process() { return; }`.
pub fn own_process() -> bool {
    let thread = std::thread::current();
    // libtest runs each test on a thread named after it (its path).
    let name = thread
        .name()
        .filter(|name| *name != "main")
        .expect("a test thread, named after its test");
    if let Some(child) = std::env::var_os(OWN_PROCESS_ENV) {
        assert_eq!(child, name, "the child process runs another test");
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([
            name,
            "--exact",
            "--include-ignored",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(OWN_PROCESS_ENV, name)
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "{name} failed in its own process ({})",
        out.status
    );
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "{name} did not run in its own process"
    );
    false
}
