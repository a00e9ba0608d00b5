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

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut file: Option<PathBuf> = None;
    let mut dir: Option<PathBuf> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dir" => dir = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                println!("usage: jsprof-bindings-gen FILE.webidl [--dir DIR]");
                return ExitCode::SUCCESS;
            }
            _ => file = Some(PathBuf::from(arg)),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: jsprof-bindings-gen FILE.webidl [--dir DIR]");
        return ExitCode::from(2);
    };
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
