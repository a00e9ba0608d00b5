// Web Cryptography API
// https://w3c.github.io/webcrypto/#crypto-interface
//
// Deviations:
// * No `subtle` (no SubtleCrypto).
// * `randomUUID()` is [SecureContext] in the standard; the generator has
//   no [SecureContext], so the method checks the secure context itself and
//   throws a "NotSupportedError" DOMException outside one (Chromium leaves
//   the member undefined there: see dom/crypto.rs).

[Exposed=(Window,Worker)]
interface Crypto {
  ArrayBufferView getRandomValues(ArrayBufferView array);
  DOMString randomUUID();
};
