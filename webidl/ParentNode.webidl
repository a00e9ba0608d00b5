// DOM Standard
// https://dom.spec.whatwg.org/#interface-parentnode
// https://dom.spec.whatwg.org/#interface-nondocumenttypechildnode
// https://dom.spec.whatwg.org/#interface-nonelementparentnode
// The selector methods of ParentNode are declared on Element and Document
// (with the selector engine); `moveBefore()` is not here.

interface mixin ParentNode {
  [SameObject] readonly attribute HTMLCollection children;
  readonly attribute Element? firstElementChild;
  readonly attribute Element? lastElementChild;
  readonly attribute unsigned long childElementCount;

  undefined prepend((Node or DOMString)... nodes);
  undefined append((Node or DOMString)... nodes);
  undefined replaceChildren((Node or DOMString)... nodes);
};
Document includes ParentNode;
Element includes ParentNode;

interface mixin NonDocumentTypeChildNode {
  readonly attribute Element? previousElementSibling;
  readonly attribute Element? nextElementSibling;
};
Element includes NonDocumentTypeChildNode;

// https://dom.spec.whatwg.org/#interface-childnode (remove() is declared
// on Element and CharacterData)
interface mixin ChildNode {
  undefined before((Node or DOMString)... nodes);
  undefined after((Node or DOMString)... nodes);
  undefined replaceWith((Node or DOMString)... nodes);
};
Element includes ChildNode;
CharacterData includes ChildNode;

interface mixin NonElementParentNode {
  Element? getElementById(DOMString elementId);
};
