// URL Standard
// https://url.spec.whatwg.org/#url-class
// with the File API's partial interface
// (https://w3c.github.io/FileAPI/#creating-revoking) merged in (no partial
// interfaces in the generator).
// Deviations: only `href` and `search` are settable; `searchParams` is
// not [SameObject] (not supported by the generator; the getter returns the
// same object every time); no `LegacyWindowAlias=webkitURL`; no `parse()`.

[Exposed=*]
interface URL {
  constructor(USVString url, optional USVString base);

  static boolean canParse(USVString url, optional USVString base);

  stringifier attribute USVString href;
  readonly attribute USVString origin;
  readonly attribute USVString protocol;
  readonly attribute USVString username;
  readonly attribute USVString password;
  readonly attribute USVString host;
  readonly attribute USVString hostname;
  readonly attribute USVString port;
  readonly attribute USVString pathname;
  attribute USVString search;
  readonly attribute URLSearchParams searchParams;
  readonly attribute USVString hash;

  USVString toJSON();

  // File API
  static DOMString createObjectURL(Blob obj);
  static undefined revokeObjectURL(DOMString url);
};
