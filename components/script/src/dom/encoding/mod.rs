//! The Encoding Standard's `TextEncoder`/`TextDecoder`, and base64
//! (`atob`/`btoa`).

pub mod base64;
pub mod textdecoder;
pub mod textencoder;
