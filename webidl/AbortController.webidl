// DOM Standard
// https://dom.spec.whatwg.org/#interface-abortcontroller
// Deviations: `[Exposed=*]` is `(Window,Worker)` (no other globals here);
// no `[SameObject]` on `signal` (not supported by the generator; the
// getter returns the same object every time).

[Exposed=(Window,Worker)]
interface AbortController {
  constructor();

  readonly attribute AbortSignal signal;

  undefined abort(optional any reason);
};
