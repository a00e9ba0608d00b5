// XMLHttpRequest Standard
// https://xhr.spec.whatwg.org/#interface-xmlhttprequest
// Deviations:
// * No SharedWorker in `[Exposed]` (the shell has no shared workers).
// * The body is BodyInit (Request.webidl: no Document or FormData
//   member yet).
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

[Exposed=(Window,DedicatedWorker)]
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
  undefined open(ByteString method, USVString url);
  undefined open(ByteString method, USVString url, boolean async, optional USVString? username = null, optional USVString? password = null);
  undefined setRequestHeader(ByteString name, ByteString value);
  attribute unsigned long timeout;
  attribute boolean withCredentials;
  undefined send(optional BodyInit? body = null);
  undefined abort();

  // response
  readonly attribute USVString responseURL;
  readonly attribute unsigned short status;
  readonly attribute ByteString statusText;
  ByteString? getResponseHeader(ByteString name);
  ByteString getAllResponseHeaders();
  undefined overrideMimeType(DOMString mime);
  attribute XMLHttpRequestResponseType responseType;
  readonly attribute any response;
  [Throws] readonly attribute USVString responseText;
};
