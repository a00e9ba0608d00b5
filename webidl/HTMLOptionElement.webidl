// HTML Standard
// https://html.spec.whatwg.org/multipage/form-elements.html#the-option-element
// Without the `Option` legacy factory function; no `[CEReactions]`.

[Exposed=Window]
interface HTMLOptionElement : HTMLElement {
  attribute boolean disabled;
  readonly attribute HTMLFormElement? form;
  attribute DOMString label;
  attribute boolean defaultSelected;
  attribute boolean selected;
  attribute DOMString value;

  attribute DOMString text;
  readonly attribute long index;
};
