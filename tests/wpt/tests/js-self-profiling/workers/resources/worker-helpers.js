// Page-side helpers of the worker tests: a promise-based client of
// resources/profiler-worker.js (whose commands it calls) and the worker
// URLs. Loaded after ../resources/profiling-helpers.js.
"use strict";

// Relative to the test pages, which are in workers/.
const WORKER_SCRIPT = "resources/profiler-worker.js";
// The worker script served with `Document-Policy: js-profiling`.
const WORKER_SCRIPT_WITH_POLICY = WORKER_SCRIPT + "?pipe=header(Document-Policy,js-profiling)";

// The text of the worker script, for blob: and data: workers.
let workerSourcePromise;
function workerSource() {
  if (!workerSourcePromise) {
    workerSourcePromise = fetch(WORKER_SCRIPT).then((response) => {
      assert_true(response.ok, "fetched " + WORKER_SCRIPT);
      return response.text();
    });
  }
  return workerSourcePromise;
}

async function blobWorkerUrl() {
  const source = await workerSource();
  return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
}

async function dataWorkerUrl() {
  return "data:text/javascript," + encodeURIComponent(await workerSource());
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Resolves once `condition()` holds; fails after `timeout` ms.
async function waitUntil(condition, what, timeout = 10000) {
  const end = performance.now() + timeout;
  while (!condition()) {
    assert_less_than(performance.now(), end, "waited " + timeout + " ms for " + what);
    await delay(20);
  }
}

// Talks to a Worker running profiler-worker.js.
class WorkerClient {
  constructor(worker, label) {
    this.worker = worker;
    this.label = label;
    this.nextId = 1;
    this.pending = new Map();
    this.errors = [];
    this.messages = 0;
    worker.addEventListener("message", (event) => this._message(event.data));
    worker.addEventListener("error", (event) => this._error(event));
  }

  // A client of a new Worker(url); terminated when test `t` ends.
  static create(t, url, label = url) {
    const client = new WorkerClient(new Worker(url), label);
    t.add_cleanup(() => client.worker.terminate());
    return client;
  }

  _message(data) {
    this.messages++;
    const waiter = data && this.pending.get(data.id);
    if (!waiter) {
      return;
    }
    if ("event" in data) {
      waiter.onEvent(data);
      return;
    }
    this.pending.delete(data.id);
    clearTimeout(waiter.timer);
    if ("error" in data) {
      waiter.reject(new Error(this.label + ": `" + waiter.cmd + "` failed in the worker: " + data.error));
    } else {
      waiter.resolve(data.result);
    }
  }

  _error(event) {
    // Handled here: not reported again in the page's global.
    event.preventDefault();
    const text = event instanceof ErrorEvent
      ? "uncaught in the worker: " + event.message + " (" + event.filename + ":" + event.lineno + ")"
      : "an error event at the Worker (did its script load?)";
    this.errors.push(text);
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(this.label + ": " + text));
    }
    this.pending.clear();
  }

  // Runs command `cmd` in the worker; resolves with its result.
  call(cmd, args = {}, { onEvent = () => {}, timeout = 30000 } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.errors.length) {
        reject(new Error(this.label + ": " + this.errors[0]));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(this.label + ": no reply to `" + cmd + "` in " + timeout + " ms"));
      }, timeout);
      this.pending.set(id, { cmd, resolve, reject, onEvent, timer });
      this.worker.postMessage(Object.assign({}, args, { id, cmd }));
    });
  }

  // Makes a nested worker in this worker (see spawnChild_wk) and returns a
  // client of it, relayed through this worker.
  spawn(kind, url) {
    return spawnNested(this, kind, url);
  }
}

// Makes a nested worker of `kind` ("url": the script at `url`; otherwise
// this script's source as a blob: or data: worker) in the worker of
// `client` (a WorkerClient or NestedClient; see spawnChild_wk) and returns
// a client of it, relayed through that worker.
async function spawnNested(client, kind, url) {
  const args = { kind };
  if (kind === "url") {
    args.url = url;
  } else {
    args.source = await workerSource();
  }
  const { key, url: childUrl } = await client.call("spawn", args);
  return new NestedClient(client, key, client.label + " > " + kind + " worker", childUrl);
}

// A worker made by another worker; commands go through its parent.
class NestedClient {
  constructor(parent, key, label, url) {
    this.parent = parent;
    this.key = key;
    this.label = label;
    this.url = url;
  }

  // `onEvent` gets the events the nested worker posts (relayed by its
  // parent).
  async call(cmd, args = {}, { timeout = 30000, onEvent = () => {} } = {}) {
    const reply = await this.parent.call("child", {
      key: this.key,
      message: Object.assign({}, args, { cmd }),
    }, { timeout, onEvent });
    if ("error" in reply) {
      throw new Error(this.label + ": `" + cmd + "` failed: " + reply.error);
    }
    return reply.result;
  }

  spawn(kind, url) {
    return spawnNested(this, kind, url);
  }
}

// Asserts that `new Profiler()` was allowed in a worker (a probe's
// `construct`).
function assertConstructed(construct, where) {
  assert_equals(construct.outcome, "constructed",
    "new Profiler() in " + where + " (threw " + construct.name + ": " + construct.message + ")");
}

// Asserts that `new Profiler()` threw a NotAllowedError DOMException in a
// worker.
function assertNotAllowed(construct, where) {
  assert_equals(construct.outcome, "threw", "new Profiler() in " + where + " throws");
  assert_equals(construct.name, "NotAllowedError", "the exception's name");
  assert_true(construct.isDOMException, "a DOMException");
}

// Asserts that a `profile` result of the worker sampled its busy loop.
function assertWorkerProfiled(result) {
  assertTraceIsWellFormed(result.trace);
  assertSampled(result.trace, "workerBusyLoop_wk");
}

// The names of the frames of `trace` that end in `suffix`.
function framesEndingIn(trace, suffix) {
  return frameNames(trace).filter((name) => name.endsWith(suffix));
}
