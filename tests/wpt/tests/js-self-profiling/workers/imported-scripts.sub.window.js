// META: title=Frames of scripts a worker imports: same-origin included, cross-origin (no-cors, muted) excluded
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// importScripts() fetches classic scripts in no-cors mode: a script from
// another origin has muted errors, and its frames must not appear in the
// worker's trace (nor built-ins it calls, nor its URL), while a script of
// the worker's origin appears with its own URL as the frame's resource.
// Each imported script defines one busy function, named by `fn`; the
// worker calls it from callImportedSame_wk / callImportedCross_wk.

const SAME_ORIGIN = location.protocol + "//" + location.host;
const CROSS_ORIGIN = "http://{{hosts[alt][]}}:{{ports[http][0]}}";
const BUSY_SCRIPT = "/js-self-profiling/resources/busy-function.sub.js";

function busyScript(origin, fn) {
  return origin + BUSY_SCRIPT + "?fn=" + fn;
}

function assertMutedScriptExcluded(trace, fn, url) {
  assertSampled(trace, "callImportedCross_wk");
  assert_false(frameNames(trace).includes(fn), "no frame of " + fn);
  assert_false(trace.resources.includes(url), url + " is not a resource");
  for (const stack of sampledStacks(trace)) {
    const index = stack.findIndex((frame) => frame.name === "callImportedCross_wk");
    if (index > 0) {
      // Whatever is sampled inside the muted function (its own frame, the
      // built-ins it calls) is cut: nothing but frames of included scripts.
      for (const frame of stack.slice(0, index)) {
        assert_not_equals(frame.resourceId, undefined,
          "a frame above callImportedCross_wk that has no resource: " + JSON.stringify(frame.name));
      }
    }
  }
}

promise_test(async (t) => {
  const sameUrl = busyScript(SAME_ORIGIN, "importedSame_wk");
  const crossUrl = busyScript(CROSS_ORIGIN, "importedCross_wk");
  const worker = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const { trace } = await worker.call("profileImported", { urls: [sameUrl, crossUrl] });
  assertTraceIsWellFormed(trace);

  const same = assertSampled(trace, "importedSame_wk");
  assert_equals(trace.resources[same.resourceId], sameUrl, "the same-origin script's frame has its URL");
  assertMutedScriptExcluded(trace, "importedCross_wk", crossUrl);
}, "a network worker: a same-origin imported script's frames are included, a cross-origin one's excluded");

promise_test(async (t) => {
  // The data: worker's origin is opaque: the page's origin is another
  // origin to it, so every script it imports over HTTP is muted.
  const pageOriginUrl = busyScript(SAME_ORIGIN, "importedSame_wk");
  const crossUrl = busyScript(CROSS_ORIGIN, "importedCross_wk");
  const worker = WorkerClient.create(t, await dataWorkerUrl(), "data worker");
  const { trace, href } = await worker.call("profileImported", { urls: [pageOriginUrl, crossUrl] });
  assertTraceIsWellFormed(trace);

  assertSampled(trace, "callImportedSame_wk");
  assert_false(frameNames(trace).includes("importedSame_wk"), "no frame of the script from the page's origin");
  assert_false(trace.resources.includes(pageOriginUrl), pageOriginUrl + " is not a resource");
  assertMutedScriptExcluded(trace, "importedCross_wk", crossUrl);
  const caller = assertSampled(trace, "callImportedCross_wk");
  assert_equals(trace.resources[caller.resourceId], href, "the worker's own frames have its data: URL");
}, "a data: worker (opaque origin): scripts it imports from the page's origin are cross-origin, excluded");
