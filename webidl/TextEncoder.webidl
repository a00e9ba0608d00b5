// Encoding Standard
// https://encoding.spec.whatwg.org/#interface-textencoder
//
// Deviations until the generator has buffer source types (branch s4-gen):
// `encode` returns `object` (a new Uint8Array) where the standard has
// `[NewObject] Uint8Array`, and `encodeInto`'s destination is `object`
// where the standard has `[AllowShared] Uint8Array`; dom/textencoder.rs
// throws the TypeError the binding would for anything but a Uint8Array.

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

  object encode(optional USVString input = "");
  TextEncoderEncodeIntoResult encodeInto(USVString source, object destination);
};
TextEncoder includes TextEncoderCommon;
