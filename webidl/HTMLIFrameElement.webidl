// HTML Standard
// https://html.spec.whatwg.org/multipage/iframe-embed-object.html#htmliframeelement
// Subset. Deviation: `contentWindow` is `WindowProxy?` in the standard;
// the generator has no WindowProxy type, so it is `object?`: the child's
// WindowProxy (components/script/src/navigation/windowproxy/).

[Exposed=Window]
interface HTMLIFrameElement : HTMLElement {
  attribute USVString src;
  attribute DOMString srcdoc; // (TrustedHTML or DOMString): no Trusted Types
  attribute DOMString name;
  readonly attribute Document? contentDocument;
  readonly attribute object? contentWindow;
};
