// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#the-workerglobalscope-common-interface
//
// Deviations (generator limits, each noted where it applies):
// * `importScripts` takes `USVString...` (no Trusted Types).
// * No `fonts`, `onlanguagechange`, `onoffline`, `ononline`.
// * `navigator` is [SameObject] in the standard (not supported by the
//   generator); the getter returns the same object every time.
[Global=Worker, Exposed=Worker]
interface WorkerGlobalScope : EventTarget {
  readonly attribute WorkerGlobalScope self;
  readonly attribute WorkerLocation location;
  readonly attribute WorkerNavigator navigator;

  undefined importScripts(USVString... urls);

  attribute OnErrorEventHandler onerror;
  attribute EventHandler onrejectionhandled;
  attribute EventHandler onunhandledrejection;
};

WorkerGlobalScope includes WindowOrWorkerGlobalScope;
