// HTML Standard
// https://html.spec.whatwg.org/multipage/grouping-content.html#the-ol-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLOListElement : HTMLElement {
  attribute boolean reversed;
  attribute long start;
  attribute DOMString type;
};
