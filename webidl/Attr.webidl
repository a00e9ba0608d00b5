// DOM Standard
// https://dom.spec.whatwg.org/#interface-attr
// Attributes in a namespace are not kept apart here (an attribute is its
// qualified name and value): namespaceURI and prefix are null.

[Exposed=Window]
interface Attr : Node {
  readonly attribute DOMString? namespaceURI;
  readonly attribute DOMString? prefix;
  readonly attribute DOMString localName;
  readonly attribute DOMString name;
  attribute DOMString value;

  readonly attribute Element? ownerElement;

  readonly attribute boolean specified; // useless; always returns true
};
