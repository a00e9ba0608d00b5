// HTML Standard
// https://html.spec.whatwg.org/multipage/form-elements.html#the-select-element
// Subset: no `options`/`selectedOptions` (collections: the shell has no
// collection objects yet), no indexed getter and setter, `add`/`remove`
// of options, `labels`, the constraint validation API, `showPicker`; no
// `[CEReactions]`.

[Exposed=Window]
interface HTMLSelectElement : HTMLElement {
  attribute DOMString autocomplete;
  attribute boolean disabled;
  readonly attribute HTMLFormElement? form;
  attribute boolean multiple;
  attribute DOMString name;
  attribute boolean required;
  attribute unsigned long size;

  readonly attribute DOMString type;

  readonly attribute unsigned long length;
  HTMLOptionElement? item(unsigned long index);

  attribute long selectedIndex;
  attribute DOMString value;
};
