// HTML Standard
// https://html.spec.whatwg.org/multipage/semantics.html#the-title-element
// No `[CEReactions]`.

[Exposed=Window]
interface HTMLTitleElement : HTMLElement {
  attribute DOMString text;
};
