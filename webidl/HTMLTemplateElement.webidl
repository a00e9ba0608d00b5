// HTML Standard
// https://html.spec.whatwg.org/multipage/scripting.html#the-template-element
// Without the obsolete attributes; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLTemplateElement : HTMLElement {
};
