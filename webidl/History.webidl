// HTML Standard
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-history-interface

enum ScrollRestoration { "auto", "manual" };

// Deviation: `length`, `scrollRestoration` and `state` are marked
// [Throws] (a binding annotation, as in Gecko and Servo): their getters
// throw a "SecurityError" DOMException when
// the associated Document is not fully active, as the standard's getter
// steps say.
[Exposed=Window]
interface History {
  [Throws] readonly attribute unsigned long length;
  [Throws] attribute ScrollRestoration scrollRestoration;
  [Throws] readonly attribute any state;
  undefined go(optional long delta = 0);
  undefined back();
  undefined forward();
  undefined pushState(any data, DOMString unused, optional USVString? url = null);
  undefined replaceState(any data, DOMString unused, optional USVString? url = null);
};
