// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#dedicated-workers-and-the-worker-interface
//
// Deviations: `scriptURL` is a `USVString` (no Trusted Types);
// `postMessage` has only the `(message)` form (see
// DedicatedWorkerGlobalScope.webidl); no AbstractWorker mixin (its
// `onerror` is flattened in); exposed on Window and DedicatedWorker (no
// shared workers).
[Exposed=(Window,DedicatedWorker)]
interface Worker : EventTarget {
  constructor(USVString scriptURL, optional WorkerOptions options = {});

  undefined terminate();

  undefined postMessage(any message);
  attribute EventHandler onmessage;
  attribute EventHandler onmessageerror;

  // AbstractWorker
  // https://html.spec.whatwg.org/multipage/workers.html#abstractworker
  attribute EventHandler onerror;
};

dictionary WorkerOptions {
  DOMString name = "";
  WorkerType type = "classic";
  RequestCredentials credentials = "same-origin";
};

enum WorkerType { "classic", "module" };

// (RequestCredentials: in Request.webidl, with the Fetch Standard's other
// request enums.)
