// META: title=Dedicated workers: the features the worker profiling tests rely on
// META: script=../resources/profiling-helpers.js
// META: script=resources/worker-helpers.js
// META: timeout=long
"use strict";

// From the HTML Standard (Web workers), the parts issue #9 asks for: Worker,
// DedicatedWorkerGlobalScope, postMessage/onmessage, error events with
// their position, terminate(), close(), importScripts(), timers, promises,
// performance.now(), console, Blob and object URLs, blob:/data: and nested
// workers. No profiling here; this page has no Document-Policy.

const RESOURCES = new URL("resources/", location.href).href;
// Absence checks (no message after terminate() or close()) wait this long.
const QUIET_MS = 1000;

function nextMessage(worker) {
  return new Promise((resolve, reject) => {
    worker.addEventListener("message", resolve, { once: true });
    worker.addEventListener("error", (e) => {
      e.preventDefault();
      reject(new Error("error event at the Worker"));
    }, { once: true });
  });
}

function nextError(worker) {
  return new Promise((resolve) => {
    worker.addEventListener("error", (e) => {
      e.preventDefault(); // handled: not reported in this page's global
      resolve(e);
    }, { once: true });
  });
}

test(() => {
  assert_equals(typeof Worker, "function");
  assert_equals(Object.getPrototypeOf(Worker.prototype), EventTarget.prototype, "Worker extends EventTarget");
  for (const name of ["postMessage", "terminate"]) {
    assert_equals(typeof Worker.prototype[name], "function", name);
  }
  assert_throws_js(TypeError, () => Worker(WORKER_SCRIPT), "without new");
  assert_throws_js(TypeError, () => new Worker(), "without a URL");
}, "Worker is a constructor on the page");

test(() => {
  assert_throws_dom("SyntaxError", () => new Worker("http://["));
}, "new Worker() with a URL that does not parse throws SyntaxError");

promise_test(async (t) => {
  const worker = new Worker(WORKER_SCRIPT);
  t.add_cleanup(() => worker.terminate());
  assert_equals(worker.onmessage, null, "onmessage");
  assert_equals(worker.onerror, null, "onerror");
  const client = new WorkerClient(worker, "worker");
  const probe = await client.call("probe");
  assert_equals(probe.scope, "[object DedicatedWorkerGlobalScope]", "the global's class string");
  assert_true(probe.isDedicatedWorkerGlobalScope, "self instanceof DedicatedWorkerGlobalScope");
  assert_true(probe.selfIsGlobalThis, "self is the global");
  assert_equals(probe.typeofWindow, "undefined", "no window");
  assert_equals(probe.typeofDocument, "undefined", "no document");
  assert_equals(probe.href, RESOURCES + "profiler-worker.js", "location.href is the script's URL");
  assert_equals(probe.origin, self.origin, "the worker has the page's origin");
}, "the worker runs its script in a DedicatedWorkerGlobalScope");

promise_test(async (t) => {
  const worker = new Worker(WORKER_SCRIPT);
  t.add_cleanup(() => worker.terminate());
  const value = { list: [1, "two", { three: 3 }], date: new Date(0), map: new Map([["k", [true, null]]]) };
  worker.postMessage({ id: 1, cmd: "echo", value });
  const event = await nextMessage(worker);
  assert_true(event instanceof MessageEvent, "a MessageEvent");
  assert_equals(event.type, "message");
  const echoed = event.data.result;
  assert_not_equals(echoed, value, "a copy");
  assert_array_equals(echoed.list.slice(0, 2), [1, "two"]);
  assert_equals(echoed.list[2].three, 3);
  assert_true(echoed.date instanceof Date, "a Date");
  assert_equals(echoed.date.getTime(), 0);
  assert_true(echoed.map instanceof Map, "a Map");
  assert_array_equals(echoed.map.get("k"), [true, null]);
}, "postMessage() both ways clones the message (structured clone)");

promise_test(async (t) => {
  const worker = new Worker(WORKER_SCRIPT);
  t.add_cleanup(() => worker.terminate());
  assert_throws_dom("DataCloneError", () => worker.postMessage(() => {}));
  const client = new WorkerClient(worker, "worker");
  assert_equals(await client.call("echo", { value: "still there" }), "still there");
}, "postMessage() of a function throws DataCloneError, and the worker goes on");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const timers = await worker.call("timers");
  assert_array_equals(timers.order, ["sync", "promise", "queueMicrotask", "timeout"],
    "microtasks before the timer; a cleared timer does not run");
  assert_equals(timers.intervalRuns, 3, "setInterval repeats until cleared");
  assert_array_equals(timers.args, ["a", 1], "setTimeout passes its extra arguments");
  assert_equals(timers.rejected, "TypeError", "a rejected promise's handler runs");
}, "timers, microtasks and promises in the worker");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const misc = await worker.call("misc");
  assert_equals(misc.blobSize, 12, "Blob size");
  assert_equals(misc.blobType, "text/plain", "Blob type");
  assert_true(String(misc.objectUrl).startsWith("blob:" + self.origin + "/"),
    "URL.createObjectURL gives a blob: URL of the worker's origin: " + misc.objectUrl);
  assert_true(misc.consoleOk, "console.log is a function and does not throw");
  assert_true(misc.nowIncreases, "performance.now() is not negative and does not decrease");
}, "Blob, URL.createObjectURL, console and performance.now() in the worker");

promise_test(async (t) => {
  const pageTimeOrigin = performance.timeOrigin;
  const pageNowAtCreate = performance.now();
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const probe = await worker.call("probe");
  assert_equals(typeof probe.now, "number", "performance.now() in the worker");
  assert_greater_than_equal(probe.now, 0);
  assert_equals(typeof probe.timeOrigin, "number", "performance.timeOrigin in the worker");
  // 20 ms of slack: timeOrigin is a wall-clock reading.
  assert_greater_than_equal(probe.timeOrigin, pageTimeOrigin + pageNowAtCreate - 20,
    "the worker's time origin is not before new Worker() was called");
}, "the worker's performance has its own time origin");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const imported = await worker.call("import", { urls: ["imported-a.js", "imported-b.js"] });
  assert_equals(imported.importedA, "a", "the first script ran");
  assert_equals(imported.importedB, "ab", "the second script ran after the first");
}, "importScripts() runs scripts in order, URLs resolved against the worker's URL");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  const failure = worker.call("import", { urls: ["does-not-exist.js"] });
  await promise_rejects_js(t, Error, failure);
  const message = await failure.catch((e) => e.message);
  assert_true(message.includes("NetworkError"), "a NetworkError: " + message);
}, "importScripts() of a missing script throws NetworkError");

promise_test(async (t) => {
  const url = RESOURCES + "throw-in-handler-worker.js";
  const worker = new Worker(url);
  t.add_cleanup(() => worker.terminate());
  const error = nextError(worker);
  worker.postMessage("throw");
  const event = await error;
  assert_true(event instanceof ErrorEvent, "an ErrorEvent");
  assert_true(event.message.includes("thrown by the message handler"), "message: " + event.message);
  assert_equals(event.filename, url, "filename");
  assert_equals(event.lineno, 4, "lineno");
  assert_equals(typeof event.colno, "number", "colno");
  assert_equals(event.error, null, "error is null at the Worker");
  assert_true(event.cancelable, "cancelable");
  worker.postMessage("after");
  assert_equals((await nextMessage(worker)).data, "pong:after", "the worker goes on");
}, "an uncaught exception in the worker fires an ErrorEvent at the Worker with message, filename and line");

promise_test(async (t) => {
  const worker = new Worker("resources/handled-error-worker.js");
  t.add_cleanup(() => worker.terminate());
  const received = [];
  const errors = [];
  worker.onmessage = (event) => received.push(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    errors.push(event.message);
  };
  worker.postMessage("throw");
  await waitUntil(() => received.includes("still running"), "the worker's \"still running\" message");
  assert_equals(received.length, 2, "messages: " + JSON.stringify(received));
  const [handled, message, lineno, isError, isErrorEvent] = received[0].split("|");
  assert_equals(handled, "handled", "the worker's global got the error event first");
  assert_true(message.includes("handled in the worker"), "message: " + message);
  assert_equals(lineno, "12", "lineno");
  assert_equals(isError, "true", "in the worker, the event's error is the exception");
  assert_equals(isErrorEvent, "true", "an ErrorEvent");
  assert_array_equals(errors, [], "no error event at the Worker");
}, "an exception the worker's global handles (cancels) is not reported at the Worker");

promise_test(async (t) => {
  const url = RESOURCES + "throw-at-load-worker.js";
  const worker = new Worker(url);
  t.add_cleanup(() => worker.terminate());
  const event = await nextError(worker);
  assert_true(event instanceof ErrorEvent, "an ErrorEvent");
  assert_true(event.message.includes("thrown while the worker script runs"), "message: " + event.message);
  assert_equals(event.filename, url, "filename");
  assert_equals(event.lineno, 3, "lineno");
}, "an exception thrown by the worker's script fires an ErrorEvent at the Worker");

promise_test(async (t) => {
  const worker = new Worker("resources/does-not-exist.js");
  t.add_cleanup(() => worker.terminate());
  const event = await nextError(worker);
  assert_equals(event.type, "error");
}, "a worker script that fails to load fires an error event at the Worker");

promise_test(async (t) => {
  const worker = WorkerClient.create(t, WORKER_SCRIPT);
  assert_equals(await worker.call("echo", { value: 1 }), 1);
  worker.worker.terminate();
  const reply = worker.call("echo", { value: 2 }, { timeout: QUIET_MS });
  await promise_rejects_js(t, Error, reply, "no reply from a terminated worker");
  assert_equals(worker.messages, 1, "the one reply before terminate()");
  assert_array_equals(worker.errors, [], "no error event");
}, "terminate() stops the worker: it answers no more messages");

promise_test(async (t) => {
  const worker = new Worker("resources/close-worker.js");
  t.add_cleanup(() => worker.terminate());
  const received = [];
  worker.onmessage = (event) => received.push(event.data);
  worker.postMessage("ping");
  worker.postMessage("close");
  await waitUntil(() => received.includes("closing"), "the worker's \"closing\" message");
  worker.postMessage("after close");
  await delay(QUIET_MS);
  assert_array_equals(received, ["pong:ping", "closing"],
    "no timer and no message handler run after close()");
}, "close() in the worker: no task runs after it");

promise_test(async (t) => {
  const parent = WorkerClient.create(t, WORKER_SCRIPT, "parent");
  const child = await parent.spawn("url", "profiler-worker.js");
  const probe = await child.call("probe");
  assert_equals(probe.scope, "[object DedicatedWorkerGlobalScope]");
  assert_equals(probe.href, RESOURCES + "profiler-worker.js", "resolved against the parent's URL");
  assert_equals(probe.origin, self.origin);
  assert_equals(await child.call("echo", { value: "nested" }), "nested");
  const grandchild = await child.spawn("blob");
  assert_equals(await grandchild.call("echo", { value: "two levels" }), "two levels");
}, "a worker makes nested workers (network and blob:)");

promise_test(async (t) => {
  const blob = WorkerClient.create(t, await blobWorkerUrl(), "blob worker");
  assert_equals(await blob.call("echo", { value: "blob" }), "blob");
  assert_equals((await blob.call("probe")).origin, self.origin, "a blob: worker has the page's origin");
  const data = WorkerClient.create(t, await dataWorkerUrl(), "data worker");
  assert_equals(await data.call("echo", { value: "data" }), "data");
  assert_equals((await data.call("probe")).origin, "null", "a data: worker has an opaque origin");
}, "blob: and data: workers");
