// DOM Standard
// https://dom.spec.whatwg.org/#interface-parentnode
// https://dom.spec.whatwg.org/#interface-nondocumenttypechildnode
// https://dom.spec.whatwg.org/#interface-nonelementparentnode
// Subset: `children` (an HTMLCollection), prepend(), append(),
// replaceChildren() (variadic (Node or DOMString) unions) and the
// selector methods (declared on Element and Document) are not here yet.

interface mixin ParentNode {
  readonly attribute Element? firstElementChild;
  readonly attribute Element? lastElementChild;
  readonly attribute unsigned long childElementCount;
};
Document includes ParentNode;
Element includes ParentNode;

interface mixin NonDocumentTypeChildNode {
  readonly attribute Element? previousElementSibling;
  readonly attribute Element? nextElementSibling;
};
Element includes NonDocumentTypeChildNode;

interface mixin NonElementParentNode {
  Element? getElementById(DOMString elementId);
};
