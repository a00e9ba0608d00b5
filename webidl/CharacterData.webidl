// DOM Standard
// https://dom.spec.whatwg.org/#interface-characterdata
// Deviations: `data` has no [LegacyNullToEmptyString] (not supported by
// the generator: null becomes "null"); the ChildNode mixin's before(),
// after() and replaceWith() wait for variadic (Node or DOMString) unions.

[Exposed=Window]
interface CharacterData : Node {
  attribute DOMString data;
  readonly attribute unsigned long length;
  DOMString substringData(unsigned long offset, unsigned long count);
  undefined appendData(DOMString data);
  undefined insertData(unsigned long offset, DOMString data);
  undefined deleteData(unsigned long offset, unsigned long count);
  undefined replaceData(unsigned long offset, unsigned long count, DOMString data);

  // https://dom.spec.whatwg.org/#interface-childnode (remove() only)
  undefined remove();
};

CharacterData includes NonDocumentTypeChildNode;
