//! Generates the DOM bindings from `webidl/*.webidl` into
//! `$OUT_DIR/Bindings.rs` (included by `src/dom/bindings/codegen.rs`), and
//! compiles the crate's C++ glue (`src/navigation/windowproxy_glue.cpp`).
//!
//! A malformed or unsupported file fails the build with
//! `file:line:column: message`, never a panic.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // Rerun paths are relative to this package, so a build reused from
    // another checkout of the repository (CI's fresh clone shares the
    // target directory) watches this checkout's files, not the other's.
    const WEBIDL: &str = "../../webidl";
    let webidl = manifest.join(WEBIDL);
    let webidl = webidl.canonicalize().unwrap_or(webidl);
    println!("cargo::rerun-if-changed={WEBIDL}");
    let files = match jsprof_bindings_gen::read_dir(&webidl) {
        Ok(files) => files,
        Err(e) => fail(&format!("{}: {e}", webidl.display())),
    };
    for file in &files {
        if let Some(name) = file.path.file_name() {
            println!(
                "cargo::rerun-if-changed={WEBIDL}/{}",
                name.to_string_lossy()
            );
        }
    }
    let code = match jsprof_bindings_gen::generate(&files) {
        Ok(code) => code,
        Err(e) => fail(&e.to_string()),
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("Bindings.rs");
    if let Err(e) = write_if_changed(&out, &code) {
        fail(&format!("{}: {e}", out.display()));
    }
    compile_glue();
}

/// The script crate's C++ (the WindowProxy wrappers' handler, see
/// `src/navigation/windowproxy.rs`), against the headers of the very SpiderMonkey
/// that mozjs_sys links.
fn compile_glue() {
    let objdir = jsprof_spidermonkey_build::Objdir::locate().unwrap_or_else(|e| e.fail());
    println!("cargo::rerun-if-changed=src/navigation/windowproxy_glue.cpp");
    objdir
        .cxx_build()
        .file("src/navigation/windowproxy_glue.cpp")
        .compile("jsprof_script_glue");
}

fn write_if_changed(path: &Path, contents: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    std::fs::write(path, contents)
}

fn fail(message: &str) -> ! {
    println!("cargo::error={message}");
    eprintln!("error: {message}");
    std::process::exit(1);
}
