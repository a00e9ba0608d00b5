// HTML Standard
// https://html.spec.whatwg.org/multipage/form-elements.html#the-button-element
// Subset: no `formAction`/`formEnctype`/`formMethod`/`formNoValidate`/
// `formTarget`, `labels`, the constraint validation API, `command` and
// the popover target attributes; no `[CEReactions]`.

[Exposed=Window]
interface HTMLButtonElement : HTMLElement {
  attribute boolean disabled;
  readonly attribute HTMLFormElement? form;
  attribute DOMString name;
  attribute DOMString type;
  attribute DOMString value;
};
