// DOM Standard
// https://dom.spec.whatwg.org/#interface-characterdata
// The ChildNode mixin's before(), after() and replaceWith() are in
// ParentNode.webidl.

[Exposed=Window]
interface CharacterData : Node {
  attribute [LegacyNullToEmptyString] DOMString data;
  readonly attribute unsigned long length;
  DOMString substringData(unsigned long offset, unsigned long count);
  undefined appendData(DOMString data);
  undefined insertData(unsigned long offset, DOMString data);
  undefined deleteData(unsigned long offset, unsigned long count);
  undefined replaceData(unsigned long offset, unsigned long count, DOMString data);

  // https://dom.spec.whatwg.org/#interface-childnode (remove())
  undefined remove();
};

CharacterData includes NonDocumentTypeChildNode;
