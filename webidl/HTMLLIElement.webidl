// HTML Standard
// https://html.spec.whatwg.org/multipage/grouping-content.html#the-li-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLLIElement : HTMLElement {
  attribute long value;
};
