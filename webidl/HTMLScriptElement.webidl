// HTML Standard
// https://html.spec.whatwg.org/multipage/scripting.html#htmlscriptelement
// with the obsolete members of
// https://html.spec.whatwg.org/multipage/obsolete.html#HTMLScriptElement-partial
// (the partial interface is merged here: the generator has no partial
// interfaces).
//
// Deviations: [CEReactions], [Reflect] and [ReflectURL] are not written
// (the generator takes no such extended attributes; the reflection steps
// are in dom/htmlscriptelement.rs); no [HTMLConstructor] (no custom
// elements); `blocking` (a DOMTokenList) is missing: there is no
// DOMTokenList interface yet.

[Exposed=Window]
interface HTMLScriptElement : HTMLElement {
  attribute DOMString type;
  attribute USVString src;
  attribute boolean noModule;
  attribute boolean async;
  attribute boolean defer;
  attribute DOMString? crossOrigin;
  attribute DOMString referrerPolicy;
  attribute DOMString integrity;
  attribute DOMString fetchPriority;
  attribute DOMString text;

  static boolean supports(DOMString type);

  // obsolete members
  attribute DOMString charset;
  attribute DOMString event;
  attribute DOMString htmlFor;
};
