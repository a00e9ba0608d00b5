// META: title=Profiler in network workers: the policy of the worker's own script response (page without the policy)
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// This page has no Document-Policy: it may not profile, but a worker it
// loads over the network takes its policy from its own script's response.

test(() => {
  assert_throws_dom("NotAllowedError", () => new Profiler(DEFAULT_OPTIONS));
}, "the page itself may not profile");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const probe = await worker.call("probe");
  assertConstructed(probe.construct, "a worker whose script has the header");
  assertWorkerProfiled(await worker.call("profile"));
}, "a worker whose script response has Document-Policy: js-profiling may profile, though its page may not");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const probe = await worker.call("probe");
  assert_equals(probe.typeofProfiler, "function", "Profiler is exposed whatever the policy");
  assertNotAllowed(probe.construct, "a worker whose script has no header");
}, "a worker whose script response has no Document-Policy throws NotAllowedError");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT + "?pipe=header(Document-Policy,js-profiling%3D%3F0)");
  assertNotAllowed((await worker.call("probe")).construct, "a worker whose script has js-profiling=?0");
}, "a worker whose script response has Document-Policy: js-profiling=?0 throws NotAllowedError");
