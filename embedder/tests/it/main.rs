//! The integration tests of the shell, one test binary: `jsprof` as a
//! user runs it (pages, eval, limits, profiling), the trace tools and the
//! outputs of `jsprof profile`, the command line's help, and the
//! profile summary.

mod cli;
mod help;
mod summary;
mod trace_tools;
