// HTML Standard
// https://html.spec.whatwg.org/multipage/semantics.html#the-html-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLHtmlElement : HTMLElement {
};
