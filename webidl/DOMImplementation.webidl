// DOM Standard
// https://dom.spec.whatwg.org/#interface-domimplementation
// Subset: no createDocumentType() or createDocument() (the shell has no
// DocumentType nodes or XML documents; see dom/domimplementation.rs).

[Exposed=Window]
interface DOMImplementation {
  [NewObject] Document createHTMLDocument(optional DOMString title);

  boolean hasFeature(); // useless; always returns true
};
