//! The generator's integration tests, one binary: the generated code
//! against the golden files (`golden`), and the errors for malformed or
//! unsupported WebIDL (`errors`).

mod errors;
mod golden;
