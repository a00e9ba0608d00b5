//! The bindings runtime of the jsprof shell's DOM, as Servo's
//! `script_bindings`: what the code generated from `webidl/` by
//! `bindings-gen` stands on, and nothing of the DOM itself.
//!
//! - [`reflector`]: a DOM object is a Rust struct owned by its JS object
//!   (the reflector), traced by the reflector's class and dropped by its
//!   finalizer; [`root`] holds the rooted and traced pointers to them.
//! - [`global`]: the `[Global]` interfaces' `JSClass` plumbing and the
//!   per-global state the bindings own (kind, prefs, the cache of
//!   interface and prototype objects), with the DOM's state beside it.
//! - [`interface`]: interface and prototype objects created from the
//!   generated specs, and their exposure (`[Exposed]`, `[SecureContext]`,
//!   `[Pref]`).
//! - [`native`], [`conversions`], [`buffer`], [`callback`], [`promise`],
//!   [`iterable`], [`proxyhandler`], [`structuredclone`], [`weak`]: the
//!   WebIDL algorithms the generated code calls.
//! - [`error`]: `Fallible` results and throwing them.
//! - [`hooks`]: the one way up. What the runtime needs from the DOM
//!   (report an exception, make a `DOMException`, the heap reserve, the
//!   profiler's "other" work, the generated interface table) comes through
//!   a table of functions the DOM installs once; this crate imports
//!   nothing from the script crate.
//!
//! Conventions: `Result<T, ()>` is the JSAPI convention "`Err` means a JS
//! exception is pending". The `unsafe fn`s share one contract: call them on
//! the context's thread, inside a realm, with rooted handles.

#![allow(clippy::result_unit_err, clippy::missing_safety_doc)]

pub mod buffer;
pub mod callback;
pub mod conversions;
pub mod error;
pub mod global;
pub mod hooks;
pub mod interface;
pub mod iterable;
pub mod native;
pub mod promise;
pub mod proxyhandler;
pub mod reflector;
pub mod root;
pub mod structuredclone;
pub mod weak;
