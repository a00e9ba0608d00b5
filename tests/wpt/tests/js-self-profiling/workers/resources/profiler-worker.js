// A dedicated worker driven by its creator (see worker-helpers.js). Each
// message `{ id, cmd, ...args }` is answered with `{ id, result }` or
// `{ id, error }`; a command may also post `{ id, event, ... }` while it
// runs.
//
// Self-contained (no importScripts, no helper of the page) so that the same
// source also runs as a blob: or data: worker, and so that no frame of
// another script can appear in its traces. Every function of this script
// that may be sampled ends in `_wk`; the page's functions end in `_pg`.
"use strict";

const OPTIONS_WK = Object.freeze({ sampleInterval: 10, maxBufferSize: 10000 });

// Keeps itself on the stack for `ms` milliseconds.
function workerBusyLoop_wk(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) {
      x = (x + Math.sqrt(i + x)) % 1e6;
    }
  }
  return x;
}

// The busy loop of a worker that is terminated while it runs.
function workerForeverLoop_wk(ms) {
  return workerBusyLoop_wk(ms);
}

// The number of samples whose stack contains a frame named `name`.
function countSamplesIn_wk(trace, name) {
  let count = 0;
  for (const sample of trace.samples) {
    let stackId = sample.stackId;
    // Bounded: a malformed trace (a cycle) must not hang the worker.
    for (let steps = 0; stackId !== undefined && steps <= trace.stacks.length; steps++) {
      const stack = trace.stacks[stackId];
      if (!stack) {
        break;
      }
      const frame = trace.frames[stack.frameId];
      if (frame && frame.name === name) {
        count++;
        break;
      }
      stackId = stack.parentId;
    }
  }
  return count;
}

function describeError_wk(e) {
  if (e && typeof e === "object") {
    return String(e.name) + ": " + String(e.message);
  }
  return String(e);
}

// The value of `f()`, or a string saying what it threw.
function attempt_wk(f) {
  try {
    return f();
  } catch (e) {
    return "threw " + describeError_wk(e);
  }
}

// Whether `new Profiler(options)` is allowed here, and if not, what it threw.
function tryConstruct_wk(options) {
  try {
    const profiler = new Profiler(options);
    const sampleInterval = profiler.sampleInterval;
    profiler.stop().catch(() => {});
    return { outcome: "constructed", sampleInterval };
  } catch (e) {
    return {
      outcome: "threw",
      name: e && e.name,
      message: String(e && e.message),
      isDOMException: typeof DOMException === "function" && e instanceof DOMException,
      isRangeError: e instanceof RangeError,
    };
  }
}

const children_wk = new Map();
let nextChildId_wk = 1;
let nextChildKey_wk = 1;
const keptProfilers_wk = [];

// Makes a nested worker: `kind` "url" (relative to this worker's URL),
// "blob" or "data" (from `source`, the text of this script).
function spawnChild_wk({ kind, url, source }) {
  let childUrl;
  if (kind === "url") {
    childUrl = new URL(url, location.href).href;
  } else if (kind === "blob") {
    childUrl = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  } else if (kind === "data") {
    childUrl = "data:text/javascript," + encodeURIComponent(source);
  } else {
    throw new TypeError("unknown kind " + kind);
  }
  const worker = new Worker(kind === "url" ? url : childUrl);
  const key = "child" + nextChildKey_wk++;
  const child = { worker, pending: new Map(), errors: [] };
  worker.onmessage = (event) => {
    const reply = event.data;
    const waiter = child.pending.get(reply.id);
    if (waiter && !("event" in reply)) {
      child.pending.delete(reply.id);
      waiter(reply);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const text = "error event in the nested worker: " +
      (typeof ErrorEvent === "function" && event instanceof ErrorEvent
        ? event.message + " (" + event.filename + ":" + event.lineno + ")"
        : "the script did not load?");
    child.errors.push(text);
    for (const [id, waiter] of child.pending) {
      waiter({ id, error: text });
    }
    child.pending.clear();
  };
  children_wk.set(key, child);
  return { key, url: childUrl };
}

// Sends `message` to the nested worker `key` and returns its reply
// (`{ result }` or `{ error }`).
function callChild_wk({ key, message }) {
  const child = children_wk.get(key);
  if (!child) {
    throw new Error("no child " + key);
  }
  if (child.errors.length) {
    return { error: child.errors[0] };
  }
  const id = nextChildId_wk++;
  return new Promise((resolve) => {
    child.pending.set(id, (reply) => resolve(reply));
    child.worker.postMessage(Object.assign({}, message, { id }));
  });
}

// Profiles workerBusyLoop_wk until at least `minSamples` samples show it,
// or `maxMs` have passed; returns the last trace and the clocks around it.
async function profile_wk({ ms = 300, minSamples = 3, maxMs = 5000, options = OPTIONS_WK }, post) {
  const deadline = performance.now() + maxMs;
  for (let attempts = 1; ; attempts++) {
    const before = performance.now();
    const profiler = new Profiler(options);
    post({ event: "started", attempts });
    workerBusyLoop_wk(ms);
    const stopping = profiler.stop();
    const atStop = performance.now();
    const trace = await stopping;
    const samplesInBusyLoop = countSamplesIn_wk(trace, "workerBusyLoop_wk");
    if (samplesInBusyLoop >= minSamples || performance.now() >= deadline) {
      return {
        trace,
        before,
        atStop,
        afterResolve: performance.now(),
        timeOrigin: performance.timeOrigin,
        sampleInterval: profiler.sampleInterval,
        stopped: profiler.stopped,
        samplesInBusyLoop,
        attempts,
        href: location.href,
      };
    }
    ms = Math.max(50, Math.min(ms * 2, deadline - performance.now()));
  }
}

// Callers of the functions that profileImported_wk's imported scripts
// define (`importedSame_wk`, `importedCross_wk`).
function callImportedSame_wk(ms) {
  return self.importedSame_wk(ms);
}

function callImportedCross_wk(ms) {
  return self.importedCross_wk(ms);
}

// Imports `urls` (which define importedSame_wk and importedCross_wk), then
// profiles calls of both until each caller was sampled (at most
// `attempts` times).
async function profileImported_wk({ urls, ms = 200, attempts = 3 }) {
  importScripts(...urls);
  let trace;
  for (let i = 0; i < attempts; i++) {
    const profiler = new Profiler(OPTIONS_WK);
    callImportedSame_wk(ms);
    callImportedCross_wk(ms);
    trace = await profiler.stop();
    if (countSamplesIn_wk(trace, "callImportedSame_wk") &&
        countSamplesIn_wk(trace, "callImportedCross_wk")) {
      break;
    }
  }
  return { trace, href: location.href };
}

// Starts a profiler that is never stopped, then posts a `beat` event every
// `beatMs`, busy (`mode` "busy": the script never yields) or idle between
// beats (`mode` "idle"), for at most `maxMs`. Meant to be terminated.
function profileForever_wk({ mode, beatMs = 20, maxMs = 60000 }, post) {
  keptProfilers_wk.push(new Profiler(OPTIONS_WK));
  post({ event: "started" });
  const end = performance.now() + maxMs;
  let beat = 0;
  if (mode === "busy") {
    while (performance.now() < end) {
      workerForeverLoop_wk(beatMs);
      post({ event: "beat", beat: ++beat });
    }
    return { finished: true };
  }
  return new Promise((resolve) => {
    const tick = () => {
      if (performance.now() >= end) {
        resolve({ finished: true });
        return;
      }
      post({ event: "beat", beat: ++beat });
      setTimeout(tick, beatMs);
    };
    tick();
  });
}

// The facts the page checks about the Profiler interface in this global.
async function shape_wk() {
  const facts = {};
  const descriptor = Object.getOwnPropertyDescriptor(self, "Profiler");
  facts.globalProperty = descriptor && {
    hasValue: "value" in descriptor,
    writable: descriptor.writable,
    enumerable: descriptor.enumerable,
    configurable: descriptor.configurable,
  };
  facts.length = Profiler.length;
  facts.callWithoutNew = attempt_wk(() => {
    Profiler(OPTIONS_WK);
    return "no exception";
  });
  facts.protoIsEventTarget = Object.getPrototypeOf(Profiler.prototype) === EventTarget.prototype;
  facts.accessors = ["sampleInterval", "stopped"].map((name) => {
    const d = Object.getOwnPropertyDescriptor(Profiler.prototype, name);
    return { name, getter: !!d && typeof d.get === "function", setter: !!d && d.set !== undefined };
  });
  facts.stopIsMethod = typeof Profiler.prototype.stop === "function";
  facts.typeofProfilerTrace = typeof self.ProfilerTrace;
  facts.negativeInterval = tryConstruct_wk({ sampleInterval: -1, maxBufferSize: 100 });

  const profiler = new Profiler({ sampleInterval: 10, maxBufferSize: 100 });
  facts.instanceOfProfiler = profiler instanceof Profiler;
  facts.instanceOfEventTarget = profiler instanceof EventTarget;
  facts.toStringTag = Object.prototype.toString.call(profiler);
  facts.sampleInterval = profiler.sampleInterval;
  facts.stoppedBefore = profiler.stopped;
  const stopping = profiler.stop();
  facts.stoppedAfterStop = profiler.stopped;
  facts.stopReturnsPromise = stopping instanceof Promise;
  const second = profiler.stop();
  facts.secondStop = await second.then(() => "resolved", (e) => describeError_wk(e));
  facts.secondStopIsDOMException = await second.then(() => false, (e) => e instanceof DOMException);
  const trace = await stopping;
  facts.traceKeys = Object.keys(trace).sort();
  facts.traceArrays = ["resources", "frames", "stacks", "samples"].every((k) => Array.isArray(trace[k]));
  facts.trace = trace;
  facts.stoppedAfterResolve = profiler.stopped;
  return facts;
}

// Facts about the worker global, without profiling.
function probe_wk() {
  return {
    scope: Object.prototype.toString.call(self),
    isDedicatedWorkerGlobalScope: typeof DedicatedWorkerGlobalScope === "function" &&
      self instanceof DedicatedWorkerGlobalScope,
    selfIsGlobalThis: self === globalThis,
    typeofWindow: typeof window,
    typeofDocument: typeof document,
    typeofProfiler: typeof Profiler,
    href: attempt_wk(() => location.href),
    origin: attempt_wk(() => self.origin),
    timeOrigin: attempt_wk(() => performance.timeOrigin),
    now: attempt_wk(() => performance.now()),
    construct: tryConstruct_wk({ sampleInterval: 10, maxBufferSize: 100 }),
    negativeInterval: tryConstruct_wk({ sampleInterval: -1, maxBufferSize: 100 }),
  };
}

// Timers, microtasks and promises in the worker's event loop.
async function timers_wk() {
  const order = [];
  await new Promise((resolve) => {
    setTimeout(() => {
      order.push("timeout");
      resolve();
    }, 10);
    const cleared = setTimeout(() => order.push("cleared timeout ran"), 0);
    clearTimeout(cleared);
    Promise.resolve().then(() => order.push("promise"));
    queueMicrotask(() => order.push("queueMicrotask"));
    order.push("sync");
  });
  let intervalRuns = 0;
  await new Promise((resolve) => {
    const handle = setInterval(() => {
      if (++intervalRuns === 3) {
        clearInterval(handle);
        resolve();
      }
    }, 5);
  });
  const args = await new Promise((resolve) => setTimeout((a, b) => resolve([a, b]), 0, "a", 1));
  // Long enough for the cleared timeout and a fourth interval run to show.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const rejected = await Promise.reject(new TypeError("x")).catch((e) => e.name);
  return { order, intervalRuns, args, rejected };
}

function misc_wk() {
  const blob = new Blob(["hello ", "worker"], { type: "text/plain" });
  const objectUrl = attempt_wk(() => URL.createObjectURL(blob));
  let consoleOk;
  try {
    console.log("profiler-worker.js: console.log from a worker");
    consoleOk = typeof console.log === "function";
  } catch (e) {
    consoleOk = "threw " + describeError_wk(e);
  }
  const t1 = performance.now();
  const t2 = performance.now();
  return {
    blobSize: blob.size,
    blobType: blob.type,
    objectUrl,
    origin: self.origin,
    consoleOk,
    nowIncreases: t2 >= t1 && t1 >= 0,
  };
}

function import_wk({ urls }) {
  importScripts(...urls);
  return { importedA: self.importedA, importedB: self.importedB };
}

const COMMANDS_WK = {
  probe: probe_wk,
  shape: shape_wk,
  profile: profile_wk,
  profileImported: profileImported_wk,
  profileForever: profileForever_wk,
  spawn: spawnChild_wk,
  child: callChild_wk,
  terminateChild: ({ key }) => {
    children_wk.get(key).worker.terminate();
    return true;
  },
  timers: timers_wk,
  misc: misc_wk,
  import: import_wk,
  echo: ({ value }) => value,
  throwUncaught: ({ message }) => {
    // Thrown from a task of its own: uncaught, reported as an error event
    // at the Worker object.
    setTimeout(() => {
      throw new Error(message);
    }, 0);
    return true;
  },
};

async function onmessage_wk(event) {
  const message = event.data;
  const id = message.id;
  const post_wk = (data) => postMessage(Object.assign({ id }, data));
  let reply;
  try {
    const command = COMMANDS_WK[message.cmd];
    if (!command) {
      throw new Error("unknown command " + message.cmd);
    }
    reply = { result: await command(message, post_wk) };
  } catch (e) {
    reply = { error: describeError_wk(e) };
  }
  try {
    post_wk(reply);
  } catch (e) {
    post_wk({ error: "the reply could not be posted: " + describeError_wk(e) });
  }
}

self.onmessage = onmessage_wk;
