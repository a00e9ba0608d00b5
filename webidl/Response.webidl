// Fetch Standard
// https://fetch.spec.whatwg.org/#response-class
// BodyInit is in Request.webidl (see there). Not done: the `body` stream,
// `bytes()`, `formData()`.

enum ResponseType { "basic", "cors", "default", "error", "opaque", "opaqueredirect" };

[Exposed=(Window,Worker)]
interface Response {
  constructor(optional BodyInit? body = null, optional ResponseInit init = {});

  static Response error();
  static Response redirect(USVString url, optional unsigned short status = 302);
  // Not yet: `static Response json(any data, optional ResponseInit init =
  // {})` (the generator supports it next to `json()`: the trait method
  // would be `StaticJson`; the steps are not written).

  readonly attribute ResponseType type;
  readonly attribute USVString url;
  readonly attribute boolean redirected;
  readonly attribute unsigned short status;
  readonly attribute boolean ok;
  readonly attribute ByteString statusText;
  [SameObject] readonly attribute Headers headers;

  Response clone();

  // Body mixin (arrayBuffer() is Promise<ArrayBuffer> in the standard:
  // `any` until the generator has buffer source types; it resolves with an
  // ArrayBuffer all the same)
  readonly attribute boolean bodyUsed;
  Promise<any> arrayBuffer();
  Promise<Blob> blob();
  Promise<any> json();
  Promise<USVString> text();
};

dictionary ResponseInit {
  unsigned short status = 200;
  ByteString statusText = "";
  HeadersInit headers;
};
