// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#the-workerglobalscope-common-interface
//
// Deviations (generator limits, each noted where it applies):
// * `importScripts` takes `USVString...` (no Trusted Types).
// * No `navigator`, `fonts`, `onlanguagechange`, `onoffline`, `ononline`,
//   `structuredClone`, `atob`/`btoa`.
[Global=Worker, Exposed=Worker]
interface WorkerGlobalScope : EventTarget {
  readonly attribute WorkerGlobalScope self;
  readonly attribute WorkerLocation location;

  undefined importScripts(USVString... urls);

  attribute OnErrorEventHandler onerror;
  attribute EventHandler onrejectionhandled;
  attribute EventHandler onunhandledrejection;
};

WorkerGlobalScope includes WindowOrWorkerGlobalScope;
