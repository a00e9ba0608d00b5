// HTML Standard
// https://html.spec.whatwg.org/multipage/semantics.html#the-link-element
// Without the obsolete attributes, `crossOrigin`, `relList`, `sizes`, `blocking` and the `LinkStyle` mixin; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLLinkElement : HTMLElement {
  attribute USVString href;
  attribute DOMString rel;
  attribute DOMString media;
  attribute DOMString hreflang;
  attribute DOMString type;
  attribute DOMString integrity;
};
