// Encoding Standard
// https://encoding.spec.whatwg.org/#interface-textdecoder
//
// Deviation until the generator has buffer source types (branch s4-gen):
// `decode`'s input is `object` where the standard has
// `AllowSharedBufferSource`; dom/textdecoder.rs accepts an ArrayBuffer, a
// SharedArrayBuffer or an ArrayBufferView and throws the TypeError the
// binding would for any other object.

interface mixin TextDecoderCommon {
  readonly attribute DOMString encoding;
  readonly attribute boolean fatal;
  readonly attribute boolean ignoreBOM;
};

dictionary TextDecoderOptions {
  boolean fatal = false;
  boolean ignoreBOM = false;
};

dictionary TextDecodeOptions {
  boolean stream = false;
};

[Exposed=*]
interface TextDecoder {
  constructor(optional DOMString label = "utf-8", optional TextDecoderOptions options = {});

  USVString decode(optional object input, optional TextDecodeOptions options = {});
};
TextDecoder includes TextDecoderCommon;
