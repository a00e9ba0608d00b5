// XMLHttpRequest Standard
// https://xhr.spec.whatwg.org/#interface-xmlhttprequest
// Deviations:
// * Exposed on Window only (not in dedicated workers yet).
// * `open` is one operation with optional arguments instead of the two
//   overloads (the generator has no overloads yet): the same behaviour,
//   `open.length` is 2 either way.
// * ByteString is DOMString (checked as the ByteString conversion would
//   be); the body is BodyInit (Request.webidl: no Document, BufferSource,
//   FormData yet).
// * Not done: `upload` (XMLHttpRequestUpload), `responseXML`, the
//   "document" response type (setting it is accepted; the response is
//   null), synchronous requests: `open(method, url, false)` throws an
//   InvalidAccessError (see dom/xmlhttprequest.rs).

enum XMLHttpRequestResponseType {
  "",
  "arraybuffer",
  "blob",
  "document",
  "json",
  "text"
};

[Exposed=Window]
interface XMLHttpRequest : XMLHttpRequestEventTarget {
  constructor();

  // event handler
  attribute EventHandler onreadystatechange;

  // states
  const unsigned short UNSENT = 0;
  const unsigned short OPENED = 1;
  const unsigned short HEADERS_RECEIVED = 2;
  const unsigned short LOADING = 3;
  const unsigned short DONE = 4;
  readonly attribute unsigned short readyState;

  // request
  undefined open(DOMString method, USVString url, optional boolean async = true, optional USVString? username = null, optional USVString? password = null);
  undefined setRequestHeader(DOMString name, DOMString value);
  attribute unsigned long timeout;
  attribute boolean withCredentials;
  undefined send(optional BodyInit? body = null);
  undefined abort();

  // response
  readonly attribute USVString responseURL;
  readonly attribute unsigned short status;
  readonly attribute DOMString statusText;
  DOMString? getResponseHeader(DOMString name);
  DOMString getAllResponseHeaders();
  undefined overrideMimeType(DOMString mime);
  attribute XMLHttpRequestResponseType responseType;
  readonly attribute any response;
  [Throws] readonly attribute USVString responseText;
};
