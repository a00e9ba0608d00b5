//! Prints the Rust bindings generated for one `.webidl` file.
//!
//! ```text
//! jsprof-bindings-gen FILE.webidl [--dir DIR]
//! ```
//!
//! The other `.webidl` files of `DIR` (by default the file's directory) are
//! read for the names `FILE` refers to. Errors are printed as
//! `file:line:column: message` and exit with status 1.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Prints the Rust bindings generated for one `.webidl` file. Errors are
/// printed as `file:line:column: message` (exit status 1).
#[derive(Debug, Parser)]
#[command(name = "jsprof-bindings-gen")]
struct Cli {
    /// The `.webidl` file to generate the bindings of.
    #[arg(value_name = "FILE.webidl")]
    file: PathBuf,
    /// The directory whose other `.webidl` files are read for the names
    /// FILE refers to (default: FILE's directory).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let Cli { file, dir } = Cli::parse();
    let dir = dir.unwrap_or_else(|| {
        file.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
    });
    let mut files = match jsprof_bindings_gen::read_dir(&dir) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    // The file itself, under the path given (it may be outside `dir`).
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let canonical = std::fs::canonicalize(&file).ok();
    files.retain(|f| std::fs::canonicalize(&f.path).ok() != canonical);
    files.push(jsprof_bindings_gen::SourceFile {
        path: file.clone(),
        text,
    });
    match jsprof_bindings_gen::generate_for_file(&files, &file) {
        Ok(code) => {
            print!("{code}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::Cli;

    #[test]
    fn command_line() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["jsprof-bindings-gen", "a/B.webidl", "--dir", "d"]).unwrap();
        assert_eq!(
            (
                cli.file.to_str(),
                cli.dir.as_deref().and_then(|d| d.to_str())
            ),
            (Some("a/B.webidl"), Some("d"))
        );
        assert!(Cli::try_parse_from(["jsprof-bindings-gen"]).is_err());
    }
}
