// HTML Standard
// https://html.spec.whatwg.org/multipage/webappapis.html#windoworworkerglobalscope
// (included by Window.webidl and WorkerGlobalScope.webidl), with the
// members other standards add to it in partial interface mixins, written
// in here (the generator has no partial definitions).
//
// Deviations (each noted where it applies):
// * A subset: no `createImageBitmap`, `caches`, `indexedDB`.
// * `performance` is not [Replaceable] (not supported by the generator).
// * `console` is a namespace in the Console Standard; the generator has no
//   namespaces, so it is an attribute returning a `Console` object, here
//   because both globals have it.

[Exposed=(Window,Worker)]
interface mixin WindowOrWorkerGlobalScope {
  readonly attribute USVString origin;
  readonly attribute boolean isSecureContext;
  readonly attribute boolean crossOriginIsolated;

  undefined reportError(any e);

  // https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timers
  long setTimeout(TimerHandler handler, optional long timeout = 0, any... arguments);
  undefined clearTimeout(optional long id = 0);
  long setInterval(TimerHandler handler, optional long timeout = 0, any... arguments);
  undefined clearInterval(optional long id = 0);

  // https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#microtask-queuing
  undefined queueMicrotask(VoidFunction callback);

  // https://fetch.spec.whatwg.org/#fetch-method
  // (Window only in the shell: see the deviations above.)
  Promise<Response> fetch(RequestInfo input, optional RequestInit init = {});

  // https://w3c.github.io/hr-time/#the-performance-attribute
  readonly attribute Performance performance;

  // https://console.spec.whatwg.org/#console-namespace (see above)
  readonly attribute Console console;

  // https://html.spec.whatwg.org/multipage/webappapis.html#atob
  DOMString btoa(DOMString data);
  ByteString atob(DOMString data);

  // https://html.spec.whatwg.org/multipage/structured-data.html#structured-cloning
  any structuredClone(any value, optional StructuredSerializeOptions options = {});

  // https://w3c.github.io/webcrypto/#crypto-interface (partial interface
  // mixin WindowOrWorkerGlobalScope)
  [SameObject] readonly attribute Crypto crypto;
};

// https://html.spec.whatwg.org/multipage/web-messaging.html#structuredserializeoptions
dictionary StructuredSerializeOptions {
  sequence<object> transfer = [];
};

// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#timerhandler
// Deviation: `(DOMString or Function)` in the standard; the generator has
// no callbacks in unions, so the handler is `any` and the timer
// initialization steps do the union conversion (callable: the function,
// else ToString).
typedef any TimerHandler;

// https://webidl.spec.whatwg.org/#VoidFunction
callback VoidFunction = undefined ();
