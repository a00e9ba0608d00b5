// HTML Standard
// https://html.spec.whatwg.org/multipage/text-level-semantics.html#the-a-element
// Subset: of HTMLHyperlinkElementUtils only `href`; no `ping`,
// `referrerPolicy`, `relList` and obsolete attributes; no `[CEReactions]`.

[Exposed=Window]
interface HTMLAnchorElement : HTMLElement {
  attribute DOMString target;
  attribute DOMString download;
  attribute DOMString rel;
  attribute DOMString hreflang;
  attribute DOMString type;
  attribute DOMString text;

  // https://html.spec.whatwg.org/multipage/links.html#dom-hyperlink-href
  attribute USVString href;
};
