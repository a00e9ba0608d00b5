// META: title=terminate() while the worker's profiler samples
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// A worker starts a profiler it never stops and keeps posting `beat`
// events, either from a busy loop that never yields ("busy") or from timers
// ("idle"). The page, itself profiling, terminates it after a few beats:
// terminate() aborts the running script, the worker posts nothing more, and
// the page, its profiler and new workers go on working.

const BEATS_BEFORE_TERMINATE = 3;
// Messages the worker queued before terminate() may still be delivered:
// they are given DRAIN_MS, then no message may arrive for QUIET_MS.
const DRAIN_MS = 500;
const QUIET_MS = 1000;

function pageAfterTerminate_pg(ms) {
  return busyWait(ms);
}

// Starts the worker's endless profile and resolves once it has beaten
// BEATS_BEFORE_TERMINATE times.
function startForever(worker, mode) {
  return new Promise((resolve, reject) => {
    let beats = 0;
    worker.call("profileForever", { mode }, {
      onEvent: (event) => {
        if (event.event === "beat" && ++beats === BEATS_BEFORE_TERMINATE) {
          resolve();
        }
      },
      timeout: 60000,
    }).then(() => reject(new Error("the endless profile finished")), reject);
  });
}

function terminateTest(mode) {
  promise_test(async (t) => {
    let pageTrace;
    let messagesAfterDrain, messagesAtEnd;
    for (let attempt = 0; attempt < 3; attempt++) {
      const pageProfiler = new Profiler(DEFAULT_OPTIONS);
      const worker = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY, mode + " worker");
      await startForever(worker, mode);
      worker.worker.terminate();
      worker.worker.terminate(); // a second call does nothing
      await delay(DRAIN_MS);
      messagesAfterDrain = worker.messages;
      pageAfterTerminate_pg(300);
      await delay(QUIET_MS);
      messagesAtEnd = worker.messages;
      assert_array_equals(worker.errors, [], "no error event at the Worker");
      pageTrace = await pageProfiler.stop();
      if (sampledFramesNamed(pageTrace, "pageAfterTerminate_pg").length) {
        break;
      }
    }
    assert_equals(messagesAtEnd, messagesAfterDrain, "no message from the worker once terminated");
    assertTraceIsWellFormed(pageTrace);
    assertSampled(pageTrace, "pageAfterTerminate_pg");
    assert_array_equals(framesEndingIn(pageTrace, "_wk"), [], "no frame of the worker in the page's trace");
  }, "terminate() of a worker whose profiler samples (" + mode + "): the worker stops, the page's profiler goes on");

  promise_test(async (t) => {
    const first = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY, "terminated " + mode + " worker");
    await startForever(first, mode);
    first.worker.terminate();
    const second = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY, "new worker");
    const result = await second.call("profile");
    assertWorkerProfiled(result);
    assert_array_equals(framesEndingIn(result.trace, "_pg"), [], "no page frame");
    assert_array_equals(sampledFramesNamed(result.trace, "workerForeverLoop_wk"), [],
      "no sample of the terminated worker's loop");
  }, "after terminate() of a worker whose profiler samples (" + mode + "), a new worker profiles");
}

terminateTest("busy");
terminateTest("idle");

promise_test(async (t) => {
  const trace = await profileUntilSampled(() => pageAfterTerminate_pg(300), "pageAfterTerminate_pg");
  assertTraceIsWellFormed(trace);
  assertSampled(trace, "pageAfterTerminate_pg");
}, "after the terminations, a new profiler of the page samples the page");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY, "parent worker");
  const child = await parent.spawn("blob");
  const started = child.call("profileForever", { mode: "busy" }, { timeout: 60000 });
  started.catch(() => {});
  // The nested worker's beats are not relayed: wait for its profile to run.
  await delay(300);
  parent.worker.terminate();
  const next = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY, "new worker");
  assertWorkerProfiled(await next.call("profile"));
}, "terminate() of a worker whose nested worker's profiler samples: a new worker profiles");
