//! `jsprof-trace`: the trace tools (`convert`, `merge`, `report`,
//! `symbolicate`) without the shell and its JavaScript engine; the same
//! code as `jsprof convert`, ... ([`jsprof_trace::cli`]).

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    jsprof_trace::cli::main()
}
