// HTML Standard
// https://html.spec.whatwg.org/multipage/dom.html#htmlelement
// Subset.

[Exposed=Window]
interface HTMLElement : Element {
  attribute DOMString title;
  attribute DOMString lang;
};
