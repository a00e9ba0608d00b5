// Web Cryptography API
// https://w3c.github.io/webcrypto/#crypto-interface
//
// Deviations:
// * No `subtle` (no SubtleCrypto).
// * `randomUUID()` is [SecureContext] in the standard; the generator has
//   no [SecureContext], so the method checks the secure context itself and
//   throws a "NotSupportedError" DOMException outside one (Chromium leaves
//   the member undefined there: see dom/crypto.rs).
// * `getRandomValues` takes and returns `object` where the standard has
//   `ArrayBufferView` (no buffer source types in the generator yet, branch
//   s4-gen): dom/crypto.rs throws the TypeError the binding would for an
//   object that is not an ArrayBufferView.

[Exposed=(Window,Worker)]
interface Crypto {
  object getRandomValues(object array);
  DOMString randomUUID();
};
