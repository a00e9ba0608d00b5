// DOM Standard
// https://dom.spec.whatwg.org/#interface-namednodemap
// Subset: no setNamedItem(), removeNamedItem() or the NS variants.

[Exposed=Window, LegacyUnenumerableNamedProperties]
interface NamedNodeMap {
  readonly attribute unsigned long length;
  getter Attr? item(unsigned long index);
  getter Attr? getNamedItem(DOMString qualifiedName);
};
