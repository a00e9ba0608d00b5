// HTML Standard
// https://html.spec.whatwg.org/multipage/grouping-content.html#the-ul-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLUListElement : HTMLElement {
};
