//! Hand-written runtime support for the generated bindings (as Servo's
//! `components/script/dom/bindings`): reflectors and reserved-slot
//! ownership, tracing, WebIDL conversions, errors and `DOMException`s,
//! callbacks, promises, and interface/prototype object creation. The
//! generated code (from `webidl/`, by `bindings-gen`) is in [`codegen`].
//!
//! Conventions: `Result<T, ()>` is the JSAPI convention "`Err` means a JS
//! exception is pending". The `unsafe fn`s share one contract: call them on
//! the context's thread, inside a realm, with rooted handles.

#![allow(clippy::result_unit_err, clippy::missing_safety_doc)]

pub mod buffer;
pub mod callback;
pub mod codegen;
pub mod codegen_prelude;
pub mod conversions;
pub mod error;
pub mod interface;
pub mod iterable;
pub mod native;
pub mod promise;
pub mod proxyhandler;
pub mod reflector;
pub mod root;
pub mod structuredclone;
pub mod weak;
