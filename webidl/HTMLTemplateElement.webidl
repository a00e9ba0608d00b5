// HTML Standard
// https://html.spec.whatwg.org/multipage/scripting.html#the-template-element
// Subset: no declarative shadow root attributes.

[Exposed=Window]
interface HTMLTemplateElement : HTMLElement {
  readonly attribute DocumentFragment content;
};
