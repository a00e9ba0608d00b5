// HTML Standard
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-window-object
//
// Deviations (generator limits, each noted where it applies):
// * `Window` attributes return the WindowProxy (SpiderMonkey outerizes the
//   global when it hands it to script; see components/script/src/navigation/windowproxy/).
// * [Replaceable] is not supported; `self` and `frames` are plain readonly
//   attributes.
// * The GlobalEventHandlers and WindowEventHandlers mixins are flattened
//   into the interface (a subset of their members).
// * `frames[i]` are the WindowProxy's array index properties (see
//   components/script/src/navigation/windowproxy/), not members of this interface.
// * `top` and `parent` are `WindowProxy?` in the standard and `object?`
//   here (the generator has no WindowProxy type): the WindowProxy object.
// * `opener` is `[Replaceable] attribute any` in the standard; a readonly
//   `object?` here (always null: there is no `window.open`).
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
  readonly attribute boolean closed;
  undefined close();
  undefined focus();
  undefined blur();
  readonly attribute object? opener;

  // GlobalEventHandlers / WindowEventHandlers (subset)
  attribute EventHandler onload;
  attribute OnErrorEventHandler onerror;
  attribute EventHandler onunhandledrejection;
  attribute EventHandler onmessage;
  attribute EventHandler onrejectionhandled;

  // https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-window-object
  readonly attribute History history;
  readonly attribute Navigator navigator;

  // WindowEventHandlers (subset, continued)
  attribute EventHandler onhashchange;
  attribute EventHandler onpopstate;
  attribute EventHandler onstorage;

  // https://html.spec.whatwg.org/multipage/webstorage.html#the-sessionstorage-attribute
  // and #the-localstorage-attribute (the WindowSessionStorage and
  // WindowLocalStorage mixins, flattened)
  // ([Throws]: the getters throw a "SecurityError" DOMException for an
  // opaque origin, as their steps say.)
  [Throws] readonly attribute Storage sessionStorage;
  [Throws] readonly attribute Storage localStorage;
};

Window includes WindowOrWorkerGlobalScope;
