// Fetch Standard
// https://fetch.spec.whatwg.org/#request-class
// Deviations until the generator has them (branch s4-gen): ByteString
// `method` is DOMString (checked as a method token); BodyInit is
// `(Blob or URLSearchParams or USVString)` (no BufferSource, FormData,
// ReadableStream); no `[SameObject]`. Not done: `destination`,
// `referrer`, `referrerPolicy`, `cache`, `integrity`, `keepalive`,
// `isReloadNavigation`, `isHistoryNavigation`, `duplex`, `priority`,
// `window`, the `body` stream, `bytes()`, `formData()`.

typedef (Request or USVString) RequestInfo;
typedef (Blob or URLSearchParams or USVString) BodyInit;

[Exposed=(Window,Worker)]
interface Request {
  constructor(RequestInfo input, optional RequestInit init = {});

  readonly attribute DOMString method;
  readonly attribute USVString url;
  readonly attribute Headers headers;
  readonly attribute RequestMode mode;
  readonly attribute RequestCredentials credentials;
  readonly attribute RequestRedirect redirect;
  readonly attribute AbortSignal signal;

  Request clone();

  // Body mixin (arrayBuffer() is Promise<ArrayBuffer> in the standard:
  // `any` until the generator has buffer source types; it resolves with an
  // ArrayBuffer all the same)
  readonly attribute boolean bodyUsed;
  Promise<any> arrayBuffer();
  Promise<Blob> blob();
  Promise<any> json();
  Promise<USVString> text();
};

dictionary RequestInit {
  DOMString method;
  HeadersInit headers;
  BodyInit? body;
  RequestMode mode;
  RequestCredentials credentials;
  RequestRedirect redirect;
  AbortSignal? signal;
};

enum RequestMode { "navigate", "same-origin", "no-cors", "cors" };
enum RequestCredentials { "omit", "same-origin", "include" };
enum RequestRedirect { "follow", "error", "manual" };
