// Fetch Standard
// https://fetch.spec.whatwg.org/#headers-class
// Deviations until the generator has them (branch s4-gen):
// * ByteString is DOMString here; the methods reject a code point above
//   U+00FF with a TypeError, as the ByteString conversion would.
// * HeadersInit has no `record<ByteString, ByteString>` member (a plain
//   object as init is a TypeError).
// * `iterable<ByteString, ByteString>` is `iterable<DOMString, DOMString>`
//   (the pairs are isomorphic-decoded byte strings either way).

typedef (Headers or sequence<sequence<DOMString>>) HeadersInit;

[Exposed=(Window,Worker)]
interface Headers {
  constructor(optional HeadersInit init);

  undefined append(DOMString name, DOMString value);
  undefined delete(DOMString name);
  DOMString? get(DOMString name);
  sequence<DOMString> getSetCookie();
  boolean has(DOMString name);
  undefined set(DOMString name, DOMString value);

  iterable<DOMString, DOMString>;
};
