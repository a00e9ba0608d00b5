// META: title=Profiler in network workers: the policy of the worker's own script response (page with the policy)
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// This page is served with `Document-Policy: js-profiling`. A worker loaded
// over the network takes its policy from its own script's response, not
// from the page that made it.

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const probe = await worker.call("probe");
  assert_equals(probe.typeofProfiler, "function", "Profiler is exposed in the worker");
  assertConstructed(probe.construct, "a worker whose script has the header");
}, "a worker whose script response has Document-Policy: js-profiling may profile");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  assertWorkerProfiled(await worker.call("profile"));
}, "a worker whose script response has the header samples its own functions");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const probe = await worker.call("probe");
  assert_equals(probe.typeofProfiler, "function", "Profiler is exposed whatever the policy");
  assertNotAllowed(probe.construct, "a worker whose script has no header");
}, "a worker whose script response has no Document-Policy throws NotAllowedError, though its page may profile");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const probe = await worker.call("probe");
  assert_equals(probe.negativeInterval.outcome, "threw");
  assert_equals(probe.negativeInterval.name, "RangeError", "RangeError, not NotAllowedError");
}, "without the policy, a negative sampleInterval throws RangeError before the policy is checked");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, "resources/policy-importer.js");
  const probe = await worker.call("probe");
  assertConstructed(probe.construct, "a worker whose script has the header (commands imported without it)");
}, "the header on the worker's script counts, not the headers of the scripts it imports (allowed)");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, "resources/no-policy-importer.js");
  const probe = await worker.call("probe");
  assertNotAllowed(probe.construct, "a worker without the header that imports a script with it");
}, "the header on an imported script does not allow a worker whose script has none");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT);
  const child = await parent.spawn("url", "profiler-worker.js?pipe=header(Document-Policy,js-profiling)");
  const probe = await child.call("probe");
  assert_true(probe.href.endsWith("/workers/resources/profiler-worker.js?pipe=header(Document-Policy,js-profiling)"),
    "the nested URL is resolved against the worker's URL: " + probe.href);
  assertConstructed(probe.construct, "a nested network worker whose script has the header");
}, "a nested network worker with the header may profile, though its creator may not");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT_WITH_POLICY);
  const child = await parent.spawn("url", "profiler-worker.js");
  assertNotAllowed((await child.call("probe")).construct,
    "a nested network worker without the header, made by a worker with it");
}, "a nested network worker without the header may not profile, though its creator may");

// A same-origin redirect: the worker's script response is the final one.
function redirectTo(target, hopPipe) {
  const location = new URL(target, self.location.href).href;
  return "/common/redirect.py?location=" + encodeURIComponent(location) +
    (hopPipe ? "&pipe=" + encodeURIComponent(hopPipe) : "");
}

promise_test(async (t) => {
  const worker = WorkerClient.create(t, redirectTo(WORKER_SCRIPT_WITH_POLICY));
  const probe = await worker.call("probe");
  assert_equals(probe.href, new URL(WORKER_SCRIPT_WITH_POLICY, location.href).href,
    "the worker's URL is the final one");
  assertConstructed(probe.construct, "a redirected worker whose final response has the header");
}, "a redirected worker takes the policy of its final response (allowed)");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, redirectTo(WORKER_SCRIPT, "header(Document-Policy,js-profiling)"));
  assertNotAllowed((await worker.call("probe")).construct,
    "a redirected worker whose redirect had the header, not its final response");
}, "a redirected worker takes the policy of its final response, not of the redirect");
