// HTML Standard
// https://html.spec.whatwg.org/multipage/embedded-content.html#the-img-element
// Without the obsolete attributes; `width`/`height`/`naturalWidth`/`naturalHeight`, `complete`, `decode()` and the loading attributes are not here: no image is fetched; no `[CEReactions]` (no custom elements).

[Exposed=Window]
interface HTMLImageElement : HTMLElement {
  attribute DOMString alt;
  attribute USVString src;
  attribute DOMString srcset;
  attribute DOMString sizes;
  attribute DOMString useMap;
  attribute boolean isMap;
};
