//! `TextEncoder` (<https://encoding.spec.whatwg.org/#interface-textencoder>):
//! UTF-8 encoding into a new `Uint8Array` or into a given one.

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::buffer::Uint8Array;
use crate::dom::bindings::codegen::TextEncoderBinding::TextEncoderMethods;
use crate::dom::bindings::codegen::TextEncoderEncodeIntoResult;
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct TextEncoder {
    pub(crate) reflector: Reflector,
}

/// <https://encoding.spec.whatwg.org/#dom-textencoder-encodeinto>'s steps
/// 1-6 on `source` (scalar values: the USVString conversion replaced lone
/// surrogates) into `destination`: (read, written), read counted in code
/// units of the source.
fn encode_into(source: &str, destination: &mut [u8]) -> (u64, u64) {
    // Step 1: Let read be 0.
    // Step 2: Let written be 0.
    let mut read = 0u64;
    let mut written = 0usize;
    // Step 3-5: Let encoder be an instance of the UTF-8 encoder; let input
    // be source converted to an I/O queue of scalar values.
    // Step 6: While true: read an item; process it with the encoder
    // (finished at end-of-queue: break).
    for c in source.chars() {
        let mut bytes = [0u8; 4];
        let bytes = c.encode_utf8(&mut bytes).as_bytes();
        // Step 6.4.1: If destination's byte length − written is greater than
        // or equal to the number of bytes in result, then:
        if destination.len() - written >= bytes.len() {
            // Step 6.4.1.1-2: If item is greater than U+FFFF, then increment
            // read by 2; otherwise, increment read by 1.
            read += if u32::from(c) > 0xFFFF { 2 } else { 1 };
            // Step 6.4.1.3: Write the bytes in result into destination, with
            // startingOffset set to written.
            destination[written..written + bytes.len()].copy_from_slice(bytes);
            // Step 6.4.1.4: Increment written by the number of bytes in
            // result.
            written += bytes.len();
        } else {
            // Step 6.4.2: Otherwise, break.
            break;
        }
    }
    (read, written as u64)
}

impl TextEncoderMethods for TextEncoder {
    /// <https://encoding.spec.whatwg.org/#dom-textencoder>: the
    /// constructor steps are to do nothing.
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
    ) -> Fallible<DomRoot<TextEncoder>> {
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(TextEncoder {
                reflector: Reflector::new(),
            }),
            proto,
        ))
    }

    /// <https://encoding.spec.whatwg.org/#dom-textencoder-encoding>
    fn Encoding(&self, _cx: &mut JSContext) -> DOMString {
        "utf-8".to_owned()
    }

    /// <https://encoding.spec.whatwg.org/#dom-textencoder-encode>
    fn Encode(&self, cx: &mut JSContext, input: USVString) -> Fallible<Uint8Array> {
        // Step 1: Convert input to an I/O queue of scalar values.
        // Step 2: Let output be the I/O queue of bytes « end-of-queue ».
        // Step 3: While true: process each item with a UTF-8 encoder
        // (every scalar value encodes); at end-of-queue, return the result
        // of creating a Uint8Array object given output and this's relevant
        // realm.
        Uint8Array::new(cx, input.0.as_bytes()).map_err(|_| Error::JSFailed)
    }

    /// <https://encoding.spec.whatwg.org/#dom-textencoder-encodeinto>
    fn EncodeInto(
        &self,
        cx: &mut JSContext,
        source: USVString,
        destination: Uint8Array,
    ) -> Fallible<TextEncoderEncodeIntoResult> {
        // A detached buffer has no bytes: nothing is written.
        let (read, written) = destination
            .with_bytes_mut(cx, |bytes| encode_into(&source.0, bytes))
            .unwrap_or((0, 0));
        // Step 7: Return «[ "read" → read, "written" → written ]».
        Ok(TextEncoderEncodeIntoResult {
            read: Some(read),
            written: Some(written),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::encode_into;

    #[test]
    fn encode_into_stops_before_a_character_that_does_not_fit() {
        let mut out = [0u8; 3];
        assert_eq!(encode_into("\u{1D306}A", &mut out), (0, 0));
        let mut out = [0u8; 10];
        assert_eq!(encode_into("\u{FFFD}A\u{FFFD}A\u{A5}Hi", &mut out), (5, 10));
        assert_eq!(
            out,
            [0xEF, 0xBF, 0xBD, 0x41, 0xEF, 0xBF, 0xBD, 0x41, 0xC2, 0xA5]
        );
        let mut out = [0u8; 4];
        assert_eq!(encode_into("\u{1D306}", &mut out), (2, 4));
    }
}
