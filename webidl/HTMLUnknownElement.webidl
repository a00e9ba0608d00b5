// HTML Standard
// https://html.spec.whatwg.org/multipage/dom.html#htmlunknownelement
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLUnknownElement : HTMLElement {
};
