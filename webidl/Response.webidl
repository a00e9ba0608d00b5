// Fetch Standard
// https://fetch.spec.whatwg.org/#response-class
// Subset, for the shell's `fetch()`: no constructor, no `headers` (no
// Headers interface), no `body` stream, `clone()`, `arrayBuffer()`,
// `blob()`, `formData()`; `statusText` is a DOMString (no ByteString).

enum ResponseType { "basic", "cors", "default", "error", "opaque", "opaqueredirect" };

[Exposed=(Window,Worker)]
interface Response {
  readonly attribute ResponseType type;
  readonly attribute USVString url;
  readonly attribute boolean redirected;
  readonly attribute unsigned short status;
  readonly attribute boolean ok;
  readonly attribute DOMString statusText;

  // Body mixin
  readonly attribute boolean bodyUsed;
  Promise<USVString> text();
  Promise<any> json();
};
