// META: title=Profiler in blob: and data: workers: the creator's policy, inherited transitively (page without the policy)
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// This page has no Document-Policy, so blob: and data: workers it makes may
// not profile; a worker loaded with the header passes its policy on to the
// blob: and data: workers it makes.

promise_test(async (t) => {
  const worker = WorkerClient.create(t, await blobWorkerUrl(), "blob worker");
  const probe = await worker.call("probe");
  assert_equals(probe.typeofProfiler, "function", "Profiler is exposed whatever the policy");
  assertNotAllowed(probe.construct, "a blob: worker of a page without the policy");
}, "a blob: worker of a page without the policy throws NotAllowedError");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, await dataWorkerUrl(), "data worker");
  const probe = await worker.call("probe");
  assert_equals(probe.origin, "null", "a data: worker has an opaque origin");
  assertNotAllowed(probe.construct, "a data: worker of a page without the policy");
}, "a data: worker of a page without the policy throws NotAllowedError");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, await blobWorkerUrl(), "blob worker");
  const child = await parent.spawn("blob");
  assertNotAllowed((await child.call("probe")).construct, "a blob: worker of a blob: worker of the page");
}, "a nested blob: worker of a page without the policy throws NotAllowedError");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const child = await parent.spawn("blob");
  const probe = await child.call("probe");
  assertConstructed(probe.construct, "a blob: worker made by a network worker whose script has the header");
  assertWorkerProfiled(await child.call("profile"));
  const grandchild = await child.spawn("blob");
  assertConstructed((await grandchild.call("probe")).construct,
    "a blob: worker made by that blob: worker");
}, "blob: workers made (transitively) by a network worker with the header inherit its policy, not the page's");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const child = await parent.spawn("data");
  assertConstructed((await child.call("probe")).construct,
    "a data: worker made by a network worker whose script has the header");
}, "a data: worker made by a network worker with the header inherits its policy");
