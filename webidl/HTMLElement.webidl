// HTML Standard
// https://html.spec.whatwg.org/multipage/dom.html#htmlelement
// Subset.

[Exposed=Window]
interface HTMLElement : Element {
  attribute DOMString title;
  attribute DOMString lang;

  // https://html.spec.whatwg.org/multipage/webappapis.html#globaleventhandlers
  // (subset; the mixin's members written here)
  attribute OnErrorEventHandler onerror;
  attribute EventHandler onload;
};
