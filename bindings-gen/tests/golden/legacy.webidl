// Legacy platform objects (special operations), value iterators and
// stringifiers.

[Exposed=Window]
interface Node {};

[Exposed=Window]
interface NodeList {
  getter Node? item(unsigned long index);
  readonly attribute unsigned long length;
  iterable<Node>;
};

[Exposed=Window, LegacyOverrideBuiltIns]
interface DOMStringMap {
  getter DOMString (DOMString name);
  setter undefined (DOMString name, DOMString value);
  deleter undefined (DOMString name);
};

[Exposed=Window]
interface Storage {
  getter DOMString? getItem(DOMString key);
  setter undefined setItem(DOMString key, DOMString value);
  deleter boolean removeItem(DOMString key);
  stringifier attribute DOMString label;
};

[Exposed=Window]
interface URLSearchParams {
  iterable<USVString, USVString>;
};
