// HTML Standard
// https://html.spec.whatwg.org/multipage/form-elements.html#the-textarea-element
// Subset: no `labels`, the constraint validation API and the selection
// API; no `[CEReactions]`; `value` lacks `[LegacyNullToEmptyString]`.

[Exposed=Window]
interface HTMLTextAreaElement : HTMLElement {
  attribute DOMString autocomplete;
  attribute unsigned long cols;
  attribute boolean disabled;
  readonly attribute HTMLFormElement? form;
  attribute long maxLength;
  attribute long minLength;
  attribute DOMString name;
  attribute DOMString placeholder;
  attribute boolean readOnly;
  attribute boolean required;
  attribute unsigned long rows;
  attribute DOMString wrap;

  readonly attribute DOMString type;
  attribute DOMString defaultValue;
  attribute DOMString value;
  readonly attribute unsigned long textLength;
};
