// DOM Standard
// https://dom.spec.whatwg.org/#interface-documentfragment

[Exposed=Window]
interface DocumentFragment : Node {
  constructor();
};

// https://dom.spec.whatwg.org/#interface-nonelementparentnode
DocumentFragment includes NonElementParentNode;
DocumentFragment includes ParentNode;
