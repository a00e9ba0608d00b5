// HTML Standard
// https://html.spec.whatwg.org/multipage/dom.html#domstringmap
// No `[CEReactions]` (no custom elements).

[Exposed=Window, LegacyOverrideBuiltIns]
interface DOMStringMap {
  getter DOMString (DOMString name);
  setter undefined (DOMString name, DOMString value);
  deleter undefined (DOMString name);
};
