// XMLHttpRequest Standard
// https://xhr.spec.whatwg.org/#xmlhttprequesteventtarget
// Deviation: `[Exposed=(Window,DedicatedWorker,SharedWorker)]` without
// SharedWorker (the shell has no shared workers).

[Exposed=(Window,DedicatedWorker)]
interface XMLHttpRequestEventTarget : EventTarget {
  attribute EventHandler onloadstart;
  attribute EventHandler onprogress;
  attribute EventHandler onabort;
  attribute EventHandler onerror;
  attribute EventHandler onload;
  attribute EventHandler ontimeout;
  attribute EventHandler onloadend;
};
