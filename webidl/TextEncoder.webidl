// Encoding Standard
// https://encoding.spec.whatwg.org/#interface-textencoder
//
// Deviation: `encodeInto`'s destination has no [AllowShared] (not supported
// by the generator): a Uint8Array on a SharedArrayBuffer is a TypeError.

interface mixin TextEncoderCommon {
  readonly attribute DOMString encoding;
};

dictionary TextEncoderEncodeIntoResult {
  unsigned long long read;
  unsigned long long written;
};

[Exposed=*]
interface TextEncoder {
  constructor();

  [NewObject] Uint8Array encode(optional USVString input = "");
  TextEncoderEncodeIntoResult encodeInto(USVString source, Uint8Array destination);
};
TextEncoder includes TextEncoderCommon;
