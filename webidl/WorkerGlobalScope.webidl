// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#the-workerglobalscope-common-interface
//
// Deviations (generator limits, each noted where it applies):
// * The WindowOrWorkerGlobalScope mixin is flattened into the interface (no
//   mixins/`includes`), with the same subset as Window.webidl, without
//   `fetch()` (Window only in the shell).
// * `onerror` is an `EventHandler` (not `OnErrorEventHandler`: the handler
//   gets the ErrorEvent), as on Window.
// * `importScripts` takes `USVString...` (no Trusted Types).
// * `console` is an attribute returning a `Console` object (see
//   Window.webidl).
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

  // WindowOrWorkerGlobalScope
  // https://html.spec.whatwg.org/multipage/webappapis.html#windoworworkerglobalscope
  readonly attribute USVString origin;
  readonly attribute boolean isSecureContext;
  readonly attribute boolean crossOriginIsolated;
  long setTimeout(TimerHandler handler, optional long timeout = 0, any... arguments);
  undefined clearTimeout(optional long id = 0);
  long setInterval(TimerHandler handler, optional long timeout = 0, any... arguments);
  undefined clearInterval(optional long id = 0);
  undefined queueMicrotask(VoidFunction callback);
  // https://w3c.github.io/hr-time/#the-performance-attribute
  readonly attribute Performance performance;
  // https://console.spec.whatwg.org/#console-namespace (see above)
  readonly attribute Console console;
};
