// HTML Standard
// https://html.spec.whatwg.org/multipage/semantics.html#the-head-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLHeadElement : HTMLElement {
};
