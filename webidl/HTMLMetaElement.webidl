// HTML Standard
// https://html.spec.whatwg.org/multipage/semantics.html#the-meta-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLMetaElement : HTMLElement {
  attribute DOMString name;
  attribute DOMString httpEquiv;
  attribute DOMString content;
  attribute DOMString media;
};
