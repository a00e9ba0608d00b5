// HTML Standard
// https://html.spec.whatwg.org/multipage/webstorage.html#the-storage-interface
//
// Deviation (until the generator has named properties, branch s4-gen):
// the named getter, setter and deleter are not declared, so `storage.key`
// style access does not reach the storage.

[Exposed=Window]
interface Storage {
  readonly attribute unsigned long length;
  DOMString? key(unsigned long index);
  DOMString? getItem(DOMString key);
  undefined setItem(DOMString key, DOMString value);
  undefined removeItem(DOMString key);
  undefined clear();
};
