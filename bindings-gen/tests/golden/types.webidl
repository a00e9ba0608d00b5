// ByteString, records and buffer source types.

[Exposed=*]
interface Headers {
  constructor(optional HeadersInit init);
  ByteString? get(ByteString name);
  record<ByteString, ByteString> all();
};

typedef (sequence<sequence<ByteString>> or record<ByteString, ByteString>) HeadersInit;

[Exposed=*]
interface TextEncoder {
  Uint8Array encode(optional USVString input = "");
  undefined fill(AllowSharedBufferSource source, ArrayBufferView view);
  ArrayBuffer buffer((BufferSource or USVString) body);
};
