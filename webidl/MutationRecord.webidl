// DOM Standard
// https://dom.spec.whatwg.org/#interface-mutationrecord
// Deviation: [SameObject] is not supported by the generator (each record
// makes its two NodeLists once, so they are the same objects anyway).

[Exposed=Window]
interface MutationRecord {
  readonly attribute DOMString type;
  readonly attribute Node target;
  readonly attribute NodeList addedNodes;
  readonly attribute NodeList removedNodes;
  readonly attribute Node? previousSibling;
  readonly attribute Node? nextSibling;
  readonly attribute DOMString? attributeName;
  readonly attribute DOMString? attributeNamespace;
  readonly attribute DOMString? oldValue;
};
