// File API
// https://w3c.github.io/FileAPI/#blob-section
// Deviations: a BlobPart is `(Blob or USVString)` (no BufferSource: the
// generator has no buffer source types); no `endings` conversion, no
// `stream()`, `arrayBuffer()` or `bytes()`.

typedef (Blob or USVString) BlobPart;

[Exposed=(Window,Worker)]
interface Blob {
  constructor(optional sequence<BlobPart> blobParts, optional BlobPropertyBag options = {});

  readonly attribute unsigned long long size;
  readonly attribute DOMString type;

  Blob slice(optional long long start, optional long long end, optional DOMString contentType);

  Promise<USVString> text();
};

dictionary BlobPropertyBag {
  DOMString type = "";
};
