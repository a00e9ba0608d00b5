// META: title=A worker's profile has the worker's frames only, a page's profile the page's only
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// The page and a worker (both with the policy) profile at the same time
// while each runs a busy function of its own: the page's pageOnlyBusy_pg
// whenever the worker reports that its profiler started, the worker its
// workerBusyLoop_wk. A session samples the thread of its own agent and
// keeps the frames of its own realm: each trace has its own functions and
// none of the other's. Page functions end in `_pg`, worker functions in
// `_wk`.

const PAGE_RESOURCES = [
  location.href.replace(/\.html$/, ".js"),
  new URL("../resources/profiling-helpers.js", location.href).href,
  new URL("resources/worker-helpers.js", location.href).href,
];

function pageOnlyBusy_pg(ms) {
  return busyWait(ms);
}

async function profileBoth_pg(worker) {
  let result;
  for (let attempt = 0; attempt < 3; attempt++) {
    const pageProfiler = new Profiler(DEFAULT_OPTIONS);
    const inWorker = await worker.call("profile", { ms: 400, minSamples: 3 }, {
      onEvent: (event) => {
        if (event.event === "started") {
          pageOnlyBusy_pg(400);
        }
      },
    });
    pageOnlyBusy_pg(100);
    const pageTrace = await pageProfiler.stop();
    result = { inWorker, workerTrace: inWorker.trace, pageTrace };
    if (sampledFramesNamed(result.workerTrace, "workerBusyLoop_wk").length &&
        sampledFramesNamed(result.pageTrace, "pageOnlyBusy_pg").length) {
      break;
    }
  }
  return result;
}

let worker, workerUrl, traces;
promise_setup(async () => {
  workerUrl = new URL(WORKER_SCRIPT_WITH_POLICY, location.href).href;
  worker = new WorkerClient(new Worker(WORKER_SCRIPT_WITH_POLICY), "worker");
  traces = await profileBoth_pg(worker);
  worker.worker.terminate();
});

promise_test(async () => {
  assertTraceIsWellFormed(traces.workerTrace);
  assertSampled(traces.workerTrace, "workerBusyLoop_wk");
  assert_greater_than_equal(traces.inWorker.samplesInBusyLoop, 1);
}, "the worker's trace has samples of the worker's function");

promise_test(async () => {
  const frame = assertSampled(traces.workerTrace, "workerBusyLoop_wk");
  assert_not_equals(frame.resourceId, undefined, "the frame has a resource");
  assert_equals(traces.workerTrace.resources[frame.resourceId], workerUrl,
    "the worker function's resource is the worker's script");
  assert_equals(typeof frame.line, "number", "the frame has a line");
}, "the worker's frames have the worker's script as their resource");

promise_test(async () => {
  const trace = traces.workerTrace;
  assert_array_equals(sampledFramesNamed(trace, "pageOnlyBusy_pg"), [], "no sample of the page's function");
  assert_array_equals(framesEndingIn(trace, "_pg"), [], "no frame of a page function");
  assert_false(frameNames(trace).includes("busyWait"), "no frame of the page's helper busyWait");
  assert_false(frameNames(trace).includes("profileBoth_pg"), "no frame of the page's caller");
  for (const resource of trace.resources) {
    assert_equals(resource, workerUrl, "the only resource is the worker's script");
    assert_false(PAGE_RESOURCES.includes(resource), resource + " is a page script");
  }
}, "the worker's trace has no frame and no resource of the page, though the page was busy at the same time");

promise_test(async () => {
  assertTraceIsWellFormed(traces.pageTrace);
  assertSampled(traces.pageTrace, "pageOnlyBusy_pg");
}, "the page's trace has samples of the page's function");

promise_test(async () => {
  const trace = traces.pageTrace;
  assert_array_equals(sampledFramesNamed(trace, "workerBusyLoop_wk"), [], "no sample of the worker's function");
  assert_array_equals(framesEndingIn(trace, "_wk"), [], "no frame of a worker function");
  for (const resource of trace.resources) {
    assert_false(resource.includes("profiler-worker.js"), resource + " is the worker's script");
  }
}, "the page's trace has no frame and no resource of the worker, though the worker was busy at the same time");

promise_test(async () => {
  // A worker sample is a sample of the worker's thread: its stacks end in
  // the worker's own frames, never in a frame of the page's.
  for (const stack of sampledStacks(traces.workerTrace)) {
    const scripted = stack.filter((frame) => frame.resourceId !== undefined);
    for (const frame of scripted) {
      assert_true(frame.name.endsWith("_wk"),
        "a scripted frame of the worker script (all its functions end in _wk): " + JSON.stringify(frame.name));
    }
  }
}, "every scripted frame sampled in the worker is one of the worker script's");

promise_test(async (t) => {
  // The same script runs in both, so their frames are told apart by their
  // resource: the parent's network URL, the nested worker's blob: URL.
  const parent = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY, "parent worker");
  const child = await parent.spawn("blob");
  const childUrl = (await child.call("probe")).href;
  let inParent, inChild;
  for (let attempt = 0; attempt < 3; attempt++) {
    // The parent forwards the first command and, while the nested worker
    // runs it, runs the second: both busy at the same time.
    const childProfile = child.call("profile", { ms: 500, minSamples: 3 });
    const parentProfile = parent.call("profile", { ms: 500, minSamples: 3 });
    [inChild, inParent] = await Promise.all([childProfile, parentProfile]);
    if (inChild.samplesInBusyLoop && inParent.samplesInBusyLoop) {
      break;
    }
  }
  assertWorkerProfiled(inParent);
  assertWorkerProfiled(inChild);
  assert_true(childUrl.startsWith("blob:"), "the nested worker's URL: " + childUrl);
  for (const resource of inParent.trace.resources) {
    assert_equals(resource, workerUrl, "the parent's trace has only the parent's script");
  }
  for (const resource of inChild.trace.resources) {
    assert_equals(resource, childUrl, "the nested worker's trace has only its own script");
  }
  const parentFrame = assertSampled(inParent.trace, "workerBusyLoop_wk");
  assert_equals(inParent.trace.resources[parentFrame.resourceId], workerUrl);
  const childFrame = assertSampled(inChild.trace, "workerBusyLoop_wk");
  assert_equals(inChild.trace.resources[childFrame.resourceId], childUrl);
}, "a nested worker's frames are not in its parent's trace, nor the parent's in the nested worker's");
