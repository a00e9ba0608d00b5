//! The document component's integration tests, one binary: the component
//! used the way the shell's loader uses it (`loader_flow`).

mod loader_flow;
