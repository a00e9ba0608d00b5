// Web Cryptography API
// https://w3c.github.io/webcrypto/#crypto-interface
//
// Deviations:
// * No `subtle` (no SubtleCrypto).

[Exposed=(Window,Worker)]
interface Crypto {
  ArrayBufferView getRandomValues(ArrayBufferView array);
  [SecureContext] DOMString randomUUID();
};
