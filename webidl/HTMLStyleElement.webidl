// HTML Standard
// https://html.spec.whatwg.org/multipage/semantics.html#the-style-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLStyleElement : HTMLElement {
  attribute DOMString media;
};
