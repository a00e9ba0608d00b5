// Cooperative Scheduling of Background Tasks
// https://w3c.github.io/requestidlecallback/#the-requestidlecallback-method
//
// Deviation: the standard's `partial interface Window` is written as the
// mixin `IdleRequestProvider` included by Window (the same members on
// Window.prototype), because the generator has no partial interfaces.

interface mixin IdleRequestProvider {
  unsigned long requestIdleCallback(IdleRequestCallback callback, optional IdleRequestOptions options = {});
  undefined cancelIdleCallback(unsigned long handle);
};

Window includes IdleRequestProvider;

dictionary IdleRequestOptions {
  unsigned long timeout;
};

[Exposed=Window]
interface IdleDeadline {
  DOMHighResTimeStamp timeRemaining();
  readonly attribute boolean didTimeout;
};

callback IdleRequestCallback = undefined (IdleDeadline deadline);
