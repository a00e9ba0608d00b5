// DOM Standard
// https://dom.spec.whatwg.org/#interface-AbortSignal
// Deviations: `[Exposed=*]` is `(Window,Worker)`; no `[NewObject]`
// (not supported by the generator; each call makes a new object); no
// `any()` (see dom/abortsignal.rs).

[Exposed=(Window,Worker)]
interface AbortSignal : EventTarget {
  static AbortSignal abort(optional any reason);
  static AbortSignal timeout([EnforceRange] unsigned long long milliseconds);

  readonly attribute boolean aborted;
  readonly attribute any reason;
  undefined throwIfAborted();

  attribute EventHandler onabort;
};
