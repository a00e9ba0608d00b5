//! Other realms: iframes a muted script builds, code of other realms
//! called in both directions (functions, animation frame callbacks in one
//! frame), and WindowProxy objects across realms.

use super::{check, resources, run, scripts, serve_muted, HELPERS};
use crate::common::{html_with_policy, parse_report as parse, CROSS, SAME, SLOW};
use jsprof_test_server::{TestResponse, TestServer};

/// Case 4c: a muted script builds iframes: a cross-origin one (whose
/// script and content attribute handler force samples) and a srcdoc one
/// (same origin as the page, a realm of its own). Neither child's code
/// appears in the page's trace: the forced samples have no stack (the
/// page's realm has no frame on the stack), and no child URL appears.
#[test]
fn muted_script_builds_iframes() {
    let (server, muted) = serve_muted(
        "const mutedFrame_7f3a = document.createElement('iframe');\n\
        mutedFrame_7f3a.src = window.crossChildUrl;\n\
        document.documentElement.appendChild(mutedFrame_7f3a);\n\
        const mutedDoc_7f3a = document.createElement('iframe');\n\
        mutedDoc_7f3a.srcdoc = '<script>function srcdocSecret_7f3a() { new TestBinding().forceProfilerSample(); parent.postMessage(\"srcdoc\", \"*\"); } srcdocSecret_7f3a();<\\/script>';\n\
        document.documentElement.appendChild(mutedDoc_7f3a);\n",
    );
    let child = server.http_url(CROSS, "/child.html");
    server.route("/child.html", |_| {
        TestResponse::ok(
            "<!DOCTYPE html><div id=c onclick=\"childHandler_7f3a()\"></div><script>\n\
             function childHandler_7f3a() { return new TestBinding().forceProfilerSample(); }\n\
             function childSecret_7f3a() { new TestBinding().forceProfilerSample(); document.getElementById('c').click(); }\n\
             childSecret_7f3a(); parent.postMessage('cross', '*');\n\
             </script>"
                .to_owned(),
        )
        .with_content_type("text/html")
    });
    let run = run(
        server,
        &format!(
            "<script>window.crossChildUrl = '{child}'; window.got = [];\n\
             addEventListener('message', e => got.push(e.data));</script>\n{}",
            scripts(&[muted.as_str()])
        ),
        r#"waitFor(() => got.length === 2, () => p.stop().then(t => { window.result = report(t); }));"#,
    );
    let r = check(
        &run.out,
        &[muted.as_str(), child.as_str(), "about:srcdoc"],
        &["-", "-", "-"],
    );
    assert_eq!(r.resources, "[]", "{}", run.out);
}

/// Case 10: realms in both call directions. The parent calls a
/// same-origin iframe's function, which calls back into the parent, where
/// the sample is forced: the parent's trace has the parent's frames and
/// none of the iframe's; the iframe's own profiler (sampled by the same
/// Force Sample) has the iframe's frame and none of the parent's.
#[test]
fn other_realms_in_both_directions() {
    let server = TestServer::start().unwrap();
    let frame_url = server.http_url(SAME, "/frame.html");
    server.route("/frame.html", |_| {
        html_with_policy(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\n\
             window.fp = new Profiler({SLOW});\n\
             function frameMiddle_7f3a() {{ return parent.parentLeaf(); }}\n\
             addEventListener(\"go\", function frameOuter_7f3a() {{ return parent.parentMiddle(); }});\n\
             </script>"
        ))
    });
    let run = run(
        server,
        r#"<iframe src="frame.html"></iframe>"#,
        r#"function parentLeaf() { return tb.forceProfilerSample(); }
function parentMiddle() { return tb.forceProfilerSample(); }
function parentOuter() { return frames[0].frameMiddle_7f3a(); }
addEventListener("load", function parentOnLoad() {
  const w = frames[0];
  parentOuter();
  // The iframe calls the parent: the sample is forced in the parent's function.
  w.dispatchEvent(new w.Event("go"));
  Promise.all([p.stop(), w.fp.stop()]).then(([pt, ft]) => {
    window.result = report(pt) + "\n" + w.report(ft).replace(/_7f3a/g, "_IFRAME");
  });
});"#,
    );
    let out = &run.out;
    let (parent, frame) = out.split_once('\n').unwrap();
    let href = run.server.http_url(SAME, "/index.html");
    let pr = parse(parent, &[frame_url.as_str()]);
    assert_eq!(
        pr.stacks,
        [
            "parentLeaf<parentOuter<parentOnLoad",
            "parentMiddle<parentOnLoad"
        ],
        "{out}"
    );
    assert_eq!(pr.resources, resources(&[&href]), "{out}");
    // The iframe's trace: its own frames (renamed by the page so that
    // `parse` can look for the parent's names), never the parent's.
    let fr = parse(frame, &[href.as_str()]);
    assert!(!fr.json.contains("parent"), "{out}");
    assert_eq!(
        fr.stacks,
        ["frameMiddle_IFRAME", "frameOuter_IFRAME"],
        "{out}"
    );
    assert_eq!(fr.resources, resources(&[&frame_url]), "{out}");
}

/// Case 10b: one frame runs the animation frame callbacks of the parent
/// and of a same-origin iframe (the parent's first), each forcing a
/// sample: the parent's trace has the parent's callback and none of the
/// iframe's frames or URL; the iframe's trace has its callback and none of
/// the parent's.
#[test]
fn animation_frame_callbacks_of_other_realms_in_one_frame() {
    let server = TestServer::start().unwrap();
    let frame_url = server.http_url(SAME, "/frame.html");
    server.route("/frame.html", |_| {
        html_with_policy(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\n\
             window.fp = new Profiler({SLOW});\n\
             window.startFrames = function frameStart_7f3a() {{\n\
               requestAnimationFrame(function frameCb_7f3a() {{ tb.forceProfilerSample(); }});\n\
             }};\n\
             </script>"
        ))
    });
    let run = run(
        server,
        r#"<iframe src="frame.html"></iframe>"#,
        r#"addEventListener("load", function parentOnLoad() {
  const w = frames[0];
  requestAnimationFrame(function parentFrameCb() { tb.forceProfilerSample(); });
  w.startFrames();
  requestAnimationFrame(function parentNextFrame() {
    requestAnimationFrame(function parentLastFrame() {
      Promise.all([p.stop(), w.fp.stop()]).then(([pt, ft]) => {
        window.result = report(pt) + "\n" + w.report(ft).replace(/_7f3a/g, "_IFRAME");
      });
    });
  });
});"#,
    );
    let out = &run.out;
    let (parent, frame) = out.split_once('\n').unwrap();
    let href = run.server.http_url(SAME, "/index.html");
    // (`parse` fails on any `_7f3a` name or the iframe's URL.)
    let pr = parse(parent, &[frame_url.as_str()]);
    assert!(pr.stacks.iter().any(|s| s == "parentFrameCb"), "{out}");
    assert_eq!(pr.resources, resources(&[&href]), "{out}");
    let fr = parse(frame, &[href.as_str()]);
    assert!(!fr.json.contains("parent"), "{out}");
    assert!(fr.stacks.iter().any(|s| s == "frameCb_IFRAME"), "{out}");
    assert_eq!(fr.resources, resources(&[&frame_url]), "{out}");
}

/// Case 10c: calls through WindowProxy objects, in both directions. A
/// same-origin iframe made by script, profiling, calls the parent's
/// functions through `parent`, `top` and `parent.frames[0].parent`, and
/// through a parent function that calls back into the iframe: the
/// iframe's trace has only its own frames (the parent's are cut out, its
/// URL absent), and the parent's trace only the parent's. Then the parent, profiling, tries to reach a cross-origin
/// iframe's functions through that iframe's WindowProxy (get, call,
/// descriptor, `Reflect.get`, an inherited method), each a
/// "SecurityError", and posts it a message whose listener forces a
/// sample: that sample has no stack and nothing of the iframe appears.
#[test]
fn window_proxies_in_both_directions() {
    let server = TestServer::start().unwrap();
    let same_url = server.http_url(SAME, "/same.html");
    let cross_url = server.http_url(CROSS, "/cross.html");
    server.route("/same.html", |_| {
        html_with_policy(&format!(
            "<!DOCTYPE html>{HELPERS}<script>\n\
             window.fp = new Profiler({SLOW});\n\
             function childViaParent() {{ return parent.parentSecret_7f3a(); }}\n\
             function childViaTop() {{ return top.parentSecret_7f3a(); }}\n\
             function childViaFrames() {{ return parent.frames[0].parent.parentSecret_7f3a(); }}\n\
             function childCallback() {{ return parent.parentCallsBack_7f3a(function childLeaf() {{ return tb.forceProfilerSample(); }}); }}\n\
             function childRun() {{ childViaParent(); childViaTop(); childViaFrames(); childCallback(); }}\n\
             </script>"
        ))
    });
    server.route("/cross.html", |_| {
        html_with_policy(
            "<!DOCTYPE html><script>\n\
             const tb_7f3a = new TestBinding();\n\
             function childSecret_7f3a() { return tb_7f3a.forceProfilerSample(); }\n\
             window.childSecret_7f3a = childSecret_7f3a;\n\
             addEventListener('message', function childOnMessage_7f3a() {\n\
               childSecret_7f3a(); parent.postMessage('done', '*');\n\
             });\n\
             </script>",
        )
    });
    let run = run(
        server,
        "",
        &format!(
            r#"function parentSecret_7f3a() {{ return tb.forceProfilerSample(); }}
function parentCallsBack_7f3a(f) {{ return f(); }}
function parentTry(f) {{ try {{ f(); return "ok"; }} catch (e) {{ return e.name; }} }}
const same = document.createElement("iframe");
same.src = "{same_url}";
const cross = document.createElement("iframe");
cross.src = "{cross_url}";
let loaded = 0;
same.onload = cross.onload = function parentOnLoad_7f3a() {{
  if (++loaded < 2) return;
  const s = same.contentWindow;
  s.childRun();
  s.fp.stop().then(function parentStopped_7f3a(ft) {{
    window.childTrace = s.report(ft);
    const w = cross.contentWindow;
    window.tries = [
      parentTry(() => w.childSecret_7f3a()),
      parentTry(() => Object.getOwnPropertyDescriptor(w, "childSecret_7f3a").value()),
      parentTry(() => Reflect.get(w, "childSecret_7f3a")),
      parentTry(() => w.addEventListener("x", () => {{}})),
      parentTry(() => frames[1].childSecret_7f3a()),
    ].join();
    addEventListener("message", function parentOnDone() {{
      tb.forceProfilerSample();
      // The parent's own functions are visible in its trace: renamed, so
      // that `parse` looks for the iframe's.
      p.stop().then(t => {{
        window.result = tries + "\n" + childTrace + "\n" + report(t).replace(/(parent\w*)_7f3a/g, "$1_PARENT");
      }});
    }});
    w.postMessage("go", "*");
  }});
}};
document.documentElement.appendChild(same);
document.documentElement.appendChild(cross);"#
        ),
    );
    let out = &run.out;
    let mut parts = out.splitn(3, '\n');
    let tries = parts.next().unwrap();
    let child = parts.next().expect("the iframe's trace");
    let parent = parts.next().expect("the parent's trace");
    assert_eq!(
        tries, "SecurityError,SecurityError,SecurityError,SecurityError,SecurityError",
        "{out}"
    );
    let href = run.server.http_url(SAME, "/index.html");
    // The same-origin iframe's trace: its frames only, never the parent's
    // (`parse` fails on a `_7f3a` name or the parent's URL).
    let cr = parse(child, &[href.as_str()]);
    assert_eq!(
        cr.stacks,
        [
            "childViaParent<childRun",
            "childViaTop<childRun",
            "childViaFrames<childRun",
            "childLeaf<childCallback<childRun"
        ],
        "{out}"
    );
    assert_eq!(cr.resources, resources(&[&same_url]), "{out}");
    // The parent's trace: the sample forced in the cross-origin iframe's
    // listener has no stack; the parent's own has its frame; nothing of
    // the iframe (`parse` fails on its URL or a `_7f3a` name).
    let pr = parse(parent, &[cross_url.as_str(), same_url.as_str()]);
    let via_parent = "parentSecret_PARENT<parentOnLoad_PARENT";
    assert_eq!(
        pr.stacks,
        [
            via_parent,
            via_parent,
            via_parent,
            "parentCallsBack_PARENT<parentOnLoad_PARENT",
            "-",
            "parentOnDone"
        ],
        "{out}"
    );
    assert_eq!(pr.resources, resources(&[&href]), "{out}");
}
