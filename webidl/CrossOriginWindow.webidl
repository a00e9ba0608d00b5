// Not a standard interface: what a script gets for a Window of another
// origin (a cross-origin iframe's `contentWindow`, `frames[i]`, a child's
// `parent`/`top`, `MessageEvent.source`).
//
// The standard gives a WindowProxy whose [[Get]] allows only the
// cross-origin properties (https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginproperties-(-o-))
// and throws a "SecurityError" DOMException for every other one. There is
// no WindowProxy here, so the cross-origin view is this separate platform
// object, created in the accessing realm: it has the allowed members that
// the shell implements (`window`, `self`, `frames`, `length`, `top`,
// `parent`, `closed`, `postMessage`) and `document` and `location`, whose
// getters throw "SecurityError". Other property names are simply absent
// (undefined), not a SecurityError. It holds no reference to the other
// realm's objects, only the browsing context's id.

[Exposed=Window]
interface CrossOriginWindow {
  readonly attribute object window;
  readonly attribute object self;
  readonly attribute object frames;
  readonly attribute unsigned long length;
  readonly attribute object? top;
  readonly attribute object? parent;
  readonly attribute boolean closed;
  [Throws] readonly attribute any document;
  [Throws] readonly attribute any location;
  undefined postMessage(any message, USVString targetOrigin);
};
