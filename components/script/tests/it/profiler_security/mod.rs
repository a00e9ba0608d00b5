//! Security tests for the `Profiler` interface, built to leak: every test
//! makes a script with muted errors (a cross-origin classic script fetched
//! without CORS) or another realm run code in every way a page can make it
//! run while a visible page script profiles, and checks that
//!
//! * none of its frames appears: no frame name (every secret name ends in
//!   `_7f3a`) and no resource URL of it anywhere in the trace, and
//! * the visible frames around it do appear, with the exact stacks, so a
//!   test cannot pass by returning empty traces.
//!
//! The rule (sampler README): a scripted frame is included iff same realm
//! and not muted; a built-in iff its nearest scripted caller is included.
//!
//! Determinism: sessions use a 100 s interval (no timer sample during a
//! test) and samples are taken with Force Sample
//! (`TestBinding.forceProfilerSample()`), from inside the secret code where
//! possible; no timing assertion.

mod loading;
mod muted;
mod realms;

use crate::common;
use crate::common::{js, parse_report as parse, result, Report, CROSS, SAME, SLOW};
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

/// Helpers every page gets: `tb` (the test hook object), `result`,
/// `report(trace)`: `"<stacks>|<resources>|<trace JSON>"` where `<stacks>`
/// lists each sample's frame names, leaf first, joined by `<` (`-` for a
/// sample without a stack), samples joined by `;`; `waitFor(cond, f)` runs
/// `f` in the first task (after this one) in which `cond()` holds.
const HELPERS: &str = r#"<script>
window.tb = new TestBinding();
window.result = "pending";
function stackNames(trace, stackId) {
  const out = [];
  while (stackId !== undefined) {
    const stack = trace.stacks[stackId];
    out.push(trace.frames[stack.frameId].name);
    stackId = stack.parentId;
  }
  return out.join("<"); // leaf first
}
function report(trace) {
  const stacks = trace.samples.map(s => s.stackId === undefined ? "-" : stackNames(trace, s.stackId));
  return stacks.join(";") + "|" + JSON.stringify(trace.resources) + "|" + JSON.stringify(trace);
}
function waitFor(cond, f) {
  setTimeout(() => cond() ? f() : waitFor(cond, f), 0);
}
</script>"#;

fn resources(urls: &[&url::Url]) -> String {
    let quoted: Vec<String> = urls.iter().map(|u| format!("\"{u}\"")).collect();
    format!("[{}]", quoted.join(","))
}

/// `<script src>` elements for `srcs`, in order.
fn scripts(srcs: &[&str]) -> String {
    srcs.iter()
        .map(|src| format!("<script src=\"{src}\"></script>\n"))
        .collect()
}

/// A page that ran: its server, its runtime (idle) and `window.result`.
struct Run {
    server: TestServer,
    rt: JsRuntime,
    out: String,
}

/// Serves (with the policy) at /index.html of the same origin a page that
/// starts the visible session `p`, then has `head` (the scripts or frames
/// under test), then runs the inline script `body`; loads it and returns
/// what it left in `window.result`.
fn run(server: TestServer, head: &str, body: &str) -> Run {
    let page = format!(
        "<script>window.p = new Profiler({SLOW});</script>\n{head}\n<script>\n{body}\n</script>"
    );
    let mut rt = common::page_with_policy(&server, HELPERS, &page);
    let out = result(&mut rt);
    Run { server, rt, out }
}

/// A server serving `muted_js` as /muted.js of the other origin (fetched
/// without CORS: muted), and that URL.
fn serve_muted(muted_js: &'static str) -> (TestServer, url::Url) {
    let server = TestServer::start().unwrap();
    let muted = server.http_url(CROSS, "/muted.js");
    server.route("/muted.js", move |_| js(muted_js));
    (server, muted)
}

/// Parses the report `out` (no secret name and none of `secret_urls`
/// anywhere in it) and checks that its stacks are `stacks`.
fn check(out: &str, secret_urls: &[&str], stacks: &[&str]) -> Report {
    let r = parse(out, secret_urls);
    assert_eq!(r.stacks, stacks, "{out}");
    r
}

/// Runs `body` on a page that loads `muted_js` (see [`serve_muted`]) and
/// checks its report: no secret name, no muted URL, the stacks `stacks`.
fn muted_case(muted_js: &'static str, body: &str, stacks: &[&str]) -> (Run, Report) {
    let (server, muted) = serve_muted(muted_js);
    let run = run(server, &scripts(&[muted.as_str()]), body);
    let r = check(&run.out, &[muted.as_str()], stacks);
    (run, r)
}

/// The trace's only resource is the page.
fn assert_only_the_page_resource(run: &Run, r: &Report) {
    let href = run.server.http_url(SAME, "/index.html");
    assert_eq!(r.resources, resources(&[&href]), "{}", run.out);
}
