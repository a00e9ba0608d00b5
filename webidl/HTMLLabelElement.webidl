// HTML Standard
// https://html.spec.whatwg.org/multipage/forms.html#the-label-element
// No `[CEReactions]`.

[Exposed=Window]
interface HTMLLabelElement : HTMLElement {
  readonly attribute HTMLFormElement? form;
  attribute DOMString htmlFor;
  readonly attribute HTMLElement? control;
};
