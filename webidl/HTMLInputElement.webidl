// HTML Standard
// https://html.spec.whatwg.org/multipage/input.html#the-input-element
// Subset: no `files`, `list`, `labels`, `valueAsDate`/`valueAsNumber`,
// `stepUp`/`stepDown`, the constraint validation API, the selection API,
// `showPicker`, the popover target and obsolete attributes; no
// `[CEReactions]`; `value` lacks `[LegacyNullToEmptyString]` (null
// becomes "null").

[Exposed=Window]
interface HTMLInputElement : HTMLElement {
  attribute DOMString accept;
  attribute DOMString alt;
  attribute DOMString autocomplete;
  attribute boolean defaultChecked;
  attribute boolean checked;
  attribute boolean disabled;
  readonly attribute HTMLFormElement? form;
  attribute boolean indeterminate;
  attribute DOMString max;
  attribute long maxLength;
  attribute DOMString min;
  attribute long minLength;
  attribute boolean multiple;
  attribute DOMString name;
  attribute DOMString pattern;
  attribute DOMString placeholder;
  attribute boolean readOnly;
  attribute boolean required;
  attribute unsigned long size;
  attribute USVString src;
  attribute DOMString step;
  attribute DOMString type;
  attribute DOMString defaultValue;
  attribute DOMString value;
};
