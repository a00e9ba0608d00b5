//! The integration tests of `jsprof-trace`, one test binary: the reader,
//! the converters checked against the formats' documentation and real
//! consumers, the mutation test, and the `jsprof-trace` binary.

mod common;
mod consumers;
mod convert;
mod mutation;
mod reader;
#[cfg(feature = "cli")]
mod tools;
