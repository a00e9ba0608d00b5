// XMLHttpRequest Standard
// https://xhr.spec.whatwg.org/#xmlhttprequesteventtarget
// Deviation: exposed on Window only (the shell's XMLHttpRequest is).

[Exposed=Window]
interface XMLHttpRequestEventTarget : EventTarget {
  attribute EventHandler onloadstart;
  attribute EventHandler onprogress;
  attribute EventHandler onabort;
  attribute EventHandler onerror;
  attribute EventHandler onload;
  attribute EventHandler ontimeout;
  attribute EventHandler onloadend;
};
