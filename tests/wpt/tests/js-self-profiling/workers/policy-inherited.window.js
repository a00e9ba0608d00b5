// META: title=Profiler in blob: and data: workers: the creator's policy, inherited transitively (page with the policy)
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// This page is served with `Document-Policy: js-profiling`. Workers made
// from blob: and data: URLs have no response headers of their own: they
// inherit their creator's policy (the page's, or the creating worker's),
// transitively.

promise_test(async (t) => {
  const url = await blobWorkerUrl();
  const worker = WorkerClient.create(t, url, "blob worker");
  const probe = await worker.call("probe");
  assert_equals(probe.href, url, "the worker's location is its blob: URL");
  assert_equals(probe.origin, self.origin, "a blob: worker has its creator's origin");
  assertConstructed(probe.construct, "a blob: worker of a page with the policy");
  const { trace } = await worker.call("profile");
  assertTraceIsWellFormed(trace);
  const frame = assertSampled(trace, "workerBusyLoop_wk");
  assert_equals(trace.resources[frame.resourceId], url, "the worker's frames have its blob: URL");
}, "a blob: worker inherits the page's policy and profiles");

promise_test(async (t) => {
  const url = await dataWorkerUrl();
  const worker = WorkerClient.create(t, url, "data worker");
  const probe = await worker.call("probe");
  assert_true(probe.href.startsWith("data:text/javascript,"), "the worker's location is its data: URL");
  assert_equals(probe.origin, "null", "a data: worker has an opaque origin");
  assertConstructed(probe.construct, "a data: worker of a page with the policy");
  const { trace } = await worker.call("profile");
  assertTraceIsWellFormed(trace);
  const frame = assertSampled(trace, "workerBusyLoop_wk");
  assert_equals(trace.resources[frame.resourceId], url, "the worker's frames have its data: URL");
}, "a data: worker (opaque origin) inherits the page's policy and profiles");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, await blobWorkerUrl(), "blob worker");
  const child = await parent.spawn("blob");
  const probe = await child.call("probe");
  assert_true(probe.href.startsWith("blob:"), "a blob: worker: " + probe.href);
  assertConstructed(probe.construct, "a blob: worker made by a blob: worker of the page");
  assertWorkerProfiled(await child.call("profile"));
}, "a nested blob: worker inherits the policy its blob: creator inherited from the page");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, await blobWorkerUrl(), "blob worker");
  const child = await parent.spawn("blob");
  const grandchild = await child.spawn("data");
  const probe = await grandchild.call("probe");
  assert_equals(probe.origin, "null", "a data: worker has an opaque origin");
  assertConstructed(probe.construct, "a data: worker made by a blob: worker made by a blob: worker of the page");
}, "a data: worker two levels down still inherits the page's policy");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, await dataWorkerUrl(), "data worker");
  const child = await parent.spawn("data");
  const probe = await child.call("probe");
  assert_equals(probe.origin, "null", "a data: worker has an opaque origin");
  assertConstructed(probe.construct, "a data: worker made by a data: worker of the page");
}, "a data: worker made by a data: worker inherits the page's policy through it");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const child = await parent.spawn("blob");
  assertConstructed((await child.call("probe")).construct,
    "a blob: worker made by a network worker whose script has the header");
}, "a blob: worker made by a network worker with the header inherits that worker's policy");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT);
  assertNotAllowed((await parent.call("probe")).construct, "the network worker without the header");
  const blobChild = await parent.spawn("blob");
  assertNotAllowed((await blobChild.call("probe")).construct,
    "a blob: worker made by a network worker without the header");
  const dataChild = await parent.spawn("data");
  assertNotAllowed((await dataChild.call("probe")).construct,
    "a data: worker made by a network worker without the header");
}, "blob: and data: workers made by a network worker without the header inherit its policy, not the page's");
