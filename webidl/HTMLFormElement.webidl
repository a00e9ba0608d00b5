// HTML Standard
// https://html.spec.whatwg.org/multipage/forms.html#the-form-element
// Subset: no `elements` (an HTMLFormControlsCollection: the shell has no
// collection objects yet), no indexed and named getters, no `relList`,
// the constraint validation API; no `[CEReactions]`.

[Exposed=Window]
interface HTMLFormElement : HTMLElement {
  attribute DOMString acceptCharset;
  attribute USVString action;
  attribute DOMString autocomplete;
  attribute DOMString enctype;
  attribute DOMString encoding;
  attribute DOMString method;
  attribute DOMString name;
  attribute boolean noValidate;
  attribute DOMString target;
  attribute DOMString rel;

  readonly attribute unsigned long length;

  undefined submit();
  undefined requestSubmit(optional HTMLElement? submitter = null);
  undefined reset();
};
