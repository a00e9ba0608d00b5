// HTML Standard
// https://html.spec.whatwg.org/multipage/scripting.html#htmlscriptelement
// Subset.

[Exposed=Window]
interface HTMLScriptElement : HTMLElement {
  attribute USVString src;
  attribute DOMString type;
  attribute boolean async;
  attribute boolean defer;
  attribute DOMString? crossOrigin;
  attribute DOMString text;
};
