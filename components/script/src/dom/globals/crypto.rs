//! `Crypto` (<https://w3c.github.io/webcrypto/#crypto-interface>): the
//! `crypto` of a Window or worker global, with `randomUUID()` (and
//! `getRandomValues()`). Random bytes come from the operating system's
//! generator through `getrandom`.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::buffer::ArrayBufferView;
use crate::dom::bindings::codegen::CryptoBinding::CryptoMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct Crypto {
    pub(crate) reflector: Reflector,
}

/// Fills `bytes` with cryptographically secure random bytes (an
/// "OperationError" DOMException if the system's generator fails, which
/// it does not on supported systems).
pub(crate) fn fill_random(bytes: &mut [u8]) -> Fallible<()> {
    getrandom::fill(bytes).map_err(|e| {
        Error::dom_with_message(
            DomExceptionName::OperationError,
            format!("the system's random number generator failed: {e}"),
        )
    })
}

impl Crypto {
    pub fn new(cx: &mut JSContext, global: &GlobalScope) -> DomRoot<Crypto> {
        reflect_dom_object(
            cx,
            global,
            Box::new(Crypto {
                reflector: Reflector::new(),
            }),
            None,
        )
    }
}

/// <https://w3c.github.io/webcrypto/#Crypto-method-randomUUID>: the
/// generation of a random UUID (version 4) from `bytes`.
fn uuid_from_bytes(mut bytes: [u8; 16]) -> String {
    // Step 3: Set the 4 most significant bits of bytes[6], which represent
    // the UUID version, to 0100.
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    // Step 4: Set the 2 most significant bits of bytes[8], which represent
    // the UUID variant, to 10.
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    // Step 5: Return the string concatenation of the hexadecimal
    // representations (two lowercase digits each) of bytes[0..4], "-",
    // bytes[4..6], "-", bytes[6..8], "-", bytes[8..10], "-", bytes[10..16].
    let mut out = String::with_capacity(36);
    for (index, byte) in bytes.iter().enumerate() {
        if matches!(index, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

impl CryptoMethods for Crypto {
    /// <https://w3c.github.io/webcrypto/#Crypto-method-getRandomValues>
    fn GetRandomValues(
        &self,
        cx: &mut JSContext,
        array: ArrayBufferView,
    ) -> Fallible<ArrayBufferView> {
        use mozjs::jsapi::Scalar::Type;
        // Step 1: If array is not an Int8Array, Uint8Array,
        // Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
        // Uint32Array, BigInt64Array, or BigUint64Array, then throw a
        // TypeMismatchError and terminate the algorithm.
        if !matches!(
            array.view_type(),
            Some(
                Type::Int8
                    | Type::Uint8
                    | Type::Uint8Clamped
                    | Type::Int16
                    | Type::Uint16
                    | Type::Int32
                    | Type::Uint32
                    | Type::BigInt64
                    | Type::BigUint64
            )
        ) {
            return Err(Error::dom_with_message(
                DomExceptionName::TypeMismatchError,
                "crypto.getRandomValues: the array is not an integer typed array",
            ));
        }
        // Step 2: Let byteLength be array's byte length.
        // Step 3: If byteLength is greater than 65536, throw a
        // QuotaExceededError and terminate the algorithm.
        let byte_length = array.byte_length();
        if byte_length > 65536 {
            return Err(Error::dom_with_message(
                DomExceptionName::QuotaExceededError,
                format!(
                    "crypto.getRandomValues: the array's byte length ({byte_length}) exceeds 65536"
                ),
            ));
        }
        // Step 4: Overwrite all elements of array with cryptographically
        // strong random values of the appropriate type.
        array.with_bytes_mut(cx, fill_random).unwrap_or(Ok(()))?;
        // Step 5: Return array.
        Ok(array)
    }

    /// <https://w3c.github.io/webcrypto/#Crypto-method-randomUUID>
    /// (`[SecureContext]`: the member exists only in secure contexts.)
    fn RandomUUID(&self, _cx: &mut JSContext) -> Fallible<DOMString> {
        // Step 1: Let bytes be a byte sequence of length 16.
        let mut bytes = [0u8; 16];
        // Step 2: Fill bytes with cryptographically secure random bytes.
        fill_random(&mut bytes)?;
        // Steps 3-5.
        Ok(uuid_from_bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::uuid_from_bytes;

    #[test]
    fn uuid_sets_version_and_variant_bits() {
        assert_eq!(
            uuid_from_bytes([0xff; 16]),
            "ffffffff-ffff-4fff-bfff-ffffffffffff"
        );
        assert_eq!(
            uuid_from_bytes([0; 16]),
            "00000000-0000-4000-8000-000000000000"
        );
    }
}
