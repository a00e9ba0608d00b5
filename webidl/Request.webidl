// Fetch Standard
// https://fetch.spec.whatwg.org/#request-class
// Deviations: BodyInit has no ReadableStream member (no streams here)
// and no FormData member (no FormData interface yet).
// Not done: `destination`,
// `referrer`, `referrerPolicy`, `cache`, `integrity`, `keepalive`,
// `isReloadNavigation`, `isHistoryNavigation`, `duplex`, `priority`,
// `window`, the `body` stream, `bytes()`, `formData()`.

typedef (Request or USVString) RequestInfo;
typedef (Blob or BufferSource or URLSearchParams or USVString) BodyInit;

[Exposed=(Window,Worker)]
interface Request {
  constructor(RequestInfo input, optional RequestInit init = {});

  readonly attribute ByteString method;
  readonly attribute USVString url;
  [SameObject] readonly attribute Headers headers;
  readonly attribute RequestMode mode;
  readonly attribute RequestCredentials credentials;
  readonly attribute RequestRedirect redirect;
  [SameObject] readonly attribute AbortSignal signal;

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
  ByteString method;
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
