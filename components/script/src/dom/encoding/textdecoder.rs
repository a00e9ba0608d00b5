//! `TextDecoder` (<https://encoding.spec.whatwg.org/#interface-textdecoder>)
//! on `encoding_rs`, whose decoders implement the Encoding Standard's
//! (labels, BOM handling of the decoder's own encoding, error mode
//! "replacement" or "fatal", streaming).

use std::cell::{Cell, RefCell};

use encoding_rs::{CoderResult, Decoder, DecoderResult, Encoding};
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;
use mozjs::rust::HandleObject;

use crate::dom::bindings::buffer::AllowSharedBufferSource;
use crate::dom::bindings::codegen::TextDecoderBinding::TextDecoderMethods;
use crate::dom::bindings::codegen::{TextDecodeOptions, TextDecoderOptions};
use crate::dom::bindings::conversions::{DOMString, USVString};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::globalscope::GlobalScope;

#[derive(JSTraceable)]
pub struct TextDecoder {
    pub(crate) reflector: Reflector,
    /// <https://encoding.spec.whatwg.org/#textdecoder-encoding>
    #[no_trace]
    encoding: &'static Encoding,
    /// <https://encoding.spec.whatwg.org/#textdecoder-error-mode>
    /// ("fatal" when true, else "replacement").
    fatal: bool,
    /// <https://encoding.spec.whatwg.org/#textdecoder-ignore-bom>
    ignore_bom: bool,
    /// <https://encoding.spec.whatwg.org/#textdecoder-decoder>, with the
    /// I/O queue and BOM seen flag it keeps between calls.
    #[no_trace]
    decoder: RefCell<Option<Decoder>>,
    /// <https://encoding.spec.whatwg.org/#textdecoder-do-not-flush>
    do_not_flush: Cell<bool>,
    /// The bytes of the I/O queue not yet processed when a "fatal" error
    /// stopped the processing (read first by the next call).
    pending: RefCell<Vec<u8>>,
}

impl TextDecoder {
    /// A new decoder instance of this's encoding, with BOM handling as
    /// this's ignore BOM says: a BOM of the decoder's own encoding (UTF-8,
    /// UTF-16LE, UTF-16BE) is removed at the start of the stream unless
    /// ignore BOM is true
    /// (<https://encoding.spec.whatwg.org/#concept-td-serialize>).
    fn new_decoder(&self) -> Decoder {
        if self.ignore_bom {
            self.encoding.new_decoder_without_bom_handling()
        } else {
            self.encoding.new_decoder_with_bom_removal()
        }
    }

    /// Steps 1-5 of `decode()` on `input` (a copy of the buffer source's
    /// bytes, or none).
    fn decode_bytes(&self, input: Option<&[u8]>, stream: bool) -> Fallible<String> {
        // Step 1: If this's do not flush is false, then set this's decoder
        // to a new instance of this's encoding's decoder, this's I/O queue
        // to the I/O queue of bytes « end-of-queue », and this's BOM seen
        // to false.
        let mut slot = self.decoder.borrow_mut();
        if !self.do_not_flush.get() || slot.is_none() {
            *slot = Some(self.new_decoder());
            self.pending.borrow_mut().clear();
        }
        let decoder = slot.as_mut().expect("made above");
        // Step 2: Set this's do not flush to options["stream"].
        self.do_not_flush.set(stream);
        // Step 3: If input is given, then push a copy of input to this's
        // I/O queue.
        let mut pending = self.pending.borrow_mut();
        let queued;
        let input = match (pending.is_empty(), input) {
            (true, input) => input.unwrap_or(&[]),
            (false, input) => {
                queued = [
                    std::mem::take(&mut *pending).as_slice(),
                    input.unwrap_or(&[]),
                ]
                .concat();
                queued.as_slice()
            }
        };
        // Step 4: Let output be the I/O queue of scalar values
        // « end-of-queue ».
        // Step 5: While true: process each item with this's decoder; at
        // end-of-queue with do not flush false, the decoder's pending
        // bytes are flushed (an incomplete sequence is an error); return
        // the result of serializing output. An error in error mode "fatal"
        // throws a TypeError; in "replacement" it emits U+FFFD.
        let last = !stream;
        let mut output = String::new();
        if self.fatal {
            let capacity = decoder
                .max_utf8_buffer_length_without_replacement(input.len())
                .ok_or_else(too_long)?;
            output.reserve(capacity);
            let (result, read) =
                decoder.decode_to_string_without_replacement(input, &mut output, last);
            match result {
                DecoderResult::InputEmpty => {}
                DecoderResult::Malformed(_, _) => {
                    // Step 5.3 (processing an item): if result is error,
                    // throw a TypeError. The bytes after the error stay in
                    // this's I/O queue.
                    *pending = input[read..].to_vec();
                    return Err(Error::Type(format!(
                        "The encoded data is not valid {}",
                        self.encoding.name()
                    )));
                }
                DecoderResult::OutputFull => unreachable!("the output has the maximum capacity"),
            }
        } else {
            let capacity = decoder
                .max_utf8_buffer_length(input.len())
                .ok_or_else(too_long)?;
            output.reserve(capacity);
            let (result, _read, _replaced) = decoder.decode_to_string(input, &mut output, last);
            debug_assert!(matches!(result, CoderResult::InputEmpty));
        }
        if last {
            *slot = None;
        }
        Ok(output)
    }
}

fn too_long() -> Error {
    Error::Range("the input is too long to decode".to_owned())
}

/// <https://encoding.spec.whatwg.org/#concept-encoding-get> for the API:
/// the encoding of `label`, or `None` for failure and for the replacement
/// encoding (which the APIs reject).
pub(crate) fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    // Step 1: Remove any leading and trailing ASCII whitespace from label.
    // Step 2: If label is an ASCII case-insensitive match for any of the
    // labels listed in the table below, then return the corresponding
    // encoding; otherwise return failure.
    Encoding::for_label_no_replacement(label.as_bytes())
}

impl TextDecoderMethods for TextDecoder {
    /// <https://encoding.spec.whatwg.org/#dom-textdecoder>
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        label: DOMString,
        options: TextDecoderOptions,
    ) -> Fallible<DomRoot<TextDecoder>> {
        // Step 1: Let encoding be the result of getting an encoding from
        // label.
        // Step 2: If encoding is failure or replacement, then throw a
        // RangeError.
        let encoding = encoding_for_label(&label).ok_or_else(|| {
            Error::Range(format!(
                "TextDecoder: the encoding label {label:?} is not supported"
            ))
        })?;
        // Step 3: Set this's encoding to encoding.
        // Step 4: If options["fatal"] is true, then set this's error mode to
        // "fatal".
        // Step 5: Set this's ignore BOM to options["ignoreBOM"].
        Ok(reflect_dom_object(
            cx,
            global,
            Box::new(TextDecoder {
                reflector: Reflector::new(),
                encoding,
                fatal: options.fatal,
                ignore_bom: options.ignore_bom,
                decoder: RefCell::new(None),
                do_not_flush: Cell::new(false),
                pending: RefCell::new(Vec::new()),
            }),
            proto,
        ))
    }

    /// <https://encoding.spec.whatwg.org/#dom-textdecoder-decode>
    fn Decode(
        &self,
        _cx: &mut JSContext,
        input: Option<AllowSharedBufferSource>,
        options: TextDecodeOptions,
    ) -> Fallible<USVString> {
        // (Step 3's copy: get a copy of the bytes held by the buffer
        // source.)
        let bytes = input.map(|input| input.bytes());
        Ok(USVString(
            self.decode_bytes(bytes.as_deref(), options.stream)?,
        ))
    }

    /// <https://encoding.spec.whatwg.org/#dom-textdecoder-encoding>: this's
    /// encoding's name, in ASCII lowercase.
    fn Encoding(&self, _cx: &mut JSContext) -> DOMString {
        self.encoding.name().to_ascii_lowercase()
    }

    /// <https://encoding.spec.whatwg.org/#dom-textdecoder-fatal>: true if
    /// this's error mode is "fatal".
    fn Fatal(&self, _cx: &mut JSContext) -> bool {
        self.fatal
    }

    /// <https://encoding.spec.whatwg.org/#dom-textdecoder-ignorebom>
    fn IgnoreBOM(&self, _cx: &mut JSContext) -> bool {
        self.ignore_bom
    }
}
