// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#the-workerglobalscope-common-interface
//
// Deviations (generator limits, each noted where it applies):
// * `onerror` is an `EventHandler` (not `OnErrorEventHandler`: the handler
//   gets the ErrorEvent), as on Window.
// * `importScripts` takes `USVString...` (no Trusted Types).
// * No `navigator`, `fonts`, `onlanguagechange`, `onoffline`, `ononline`,
//   `reportError`, `structuredClone`, `atob`/`btoa`.
[Global=Worker, Exposed=Worker]
interface WorkerGlobalScope : EventTarget {
  readonly attribute WorkerGlobalScope self;
  readonly attribute WorkerLocation location;

  undefined importScripts(USVString... urls);

  attribute EventHandler onerror;
  attribute EventHandler onrejectionhandled;
  attribute EventHandler onunhandledrejection;
};

WorkerGlobalScope includes WindowOrWorkerGlobalScope;
