// HTML Standard
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-window-object
//
// Deviations (generator limits, each noted where it applies):
// * WindowProxy is not implemented; `Window` stands for it (the global is
//   returned itself).
// * [Replaceable] is not supported; `self` and `frames` are plain readonly
//   attributes.
// * The WindowOrWorkerGlobalScope and GlobalEventHandlers mixins are
//   flattened into the interface (no mixins/`includes`).
// * `console` is a namespace in the Console Standard; the generator has no
//   namespaces, so it is an attribute returning a `Console` object.
// * `frames[i]` (the indexed getter of WindowProxy) is defined as own
//   properties of the global when a child navigable is created.
// * `top` and `parent` are `WindowProxy?` in the standard and `object?`
//   here: the Window itself for a same-origin caller, a
//   `CrossOriginWindow` view (see CrossOriginWindow.webidl) otherwise.
// * postMessage: only the `(message, targetOrigin)` overload, no transfer
//   list (no overloads in the generator).

[Global=Window, Exposed=Window]
interface Window : EventTarget {
  [LegacyUnforgeable] readonly attribute Window window;
  readonly attribute Window self;
  [LegacyUnforgeable] readonly attribute Document document;
  [LegacyUnforgeable] readonly attribute Location location;

  readonly attribute Window frames;
  readonly attribute unsigned long length;
  [LegacyUnforgeable] readonly attribute object? top;
  readonly attribute object? parent;
  undefined postMessage(any message, USVString targetOrigin);

  // GlobalEventHandlers / WindowEventHandlers (subset)
  attribute EventHandler onload;
  attribute EventHandler onerror; // Deviation: OnErrorEventHandler gets the event
  attribute EventHandler onunhandledrejection;
  attribute EventHandler onmessage;
  attribute EventHandler onrejectionhandled;

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

  // https://fetch.spec.whatwg.org/#fetch-method
  // Deviation: RequestInfo is `USVString` here (no Request interface) and
  // there is no RequestInit; same-origin GET only (see dom/response.rs).
  Promise<Response> fetch(USVString input);

  // https://w3c.github.io/hr-time/#the-performance-attribute
  readonly attribute Performance performance;

  // https://console.spec.whatwg.org/#console-namespace (see above)
  readonly attribute Console console;
};

// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timerhandler
// Deviation: `(DOMString or Function)` in the standard; the generator has
// no callbacks in unions, so the handler is `any` and the timer
// initialization steps do the union conversion (callable: the function,
// else ToString).
typedef any TimerHandler;

// https://webidl.spec.whatwg.org/#VoidFunction
callback VoidFunction = undefined ();
