// HTML Standard
// https://html.spec.whatwg.org/multipage/text-level-semantics.html#the-span-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLSpanElement : HTMLElement {
};
