//! Compiles the sampler's C++ glue against the public headers of the very
//! SpiderMonkey that mozjs_sys links (see `jsprof-spidermonkey-build`).

use jsprof_spidermonkey_build::Objdir;

/// The C++ glue: the signal-safe capture and the engine hooks (their shared
/// declarations in `src/glue.h`). The start-rule fuzzer is not among them:
/// it is built by the test-only `walk-fuzz` crate.
const GLUE: [&str; 2] = ["src/glue_capture.cpp", "src/glue_engine.cpp"];

fn main() {
    let objdir = Objdir::locate().unwrap_or_else(|e| e.fail());
    for file in GLUE {
        println!("cargo:rerun-if-changed={file}");
    }
    println!("cargo:rerun-if-changed=src/glue.h");
    let mut build = objdir.cxx_build();
    // SpiderMonkey built with third_party/mozjs_sys-patches (what `./mach`
    // builds; JSPROF_MOZJS_PATCHES=0 for the crates.io sources) says so
    // through its build metadata.
    if std::env::var_os("DEP_MOZJS_JIT_FRAME_BOOKKEEPING_SWITCH").is_some() {
        build.define("JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH", None);
    }
    build.files(GLUE).compile("jsprof_sampler_glue");
    generate_abi();
}

/// The constants and records the C++ glue and `glue.rs` exchange come from
/// one header, `src/glue_abi.h`, which the glue includes and bindgen turns into
/// `OUT_DIR/glue_abi.rs` for `glue.rs`, with its compile-time layout checks
/// (bindgen is mozjs_sys's own build dependency, used here with the same
/// features). The atomics' names are left to `glue.rs`.
fn generate_abi() {
    println!("cargo:rerun-if-changed=src/glue_abi.h");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    bindgen::Builder::default()
        .header("src/glue_abi.h")
        .clang_args(["-x", "c++", "-std=c++17", "-DJSPROF_GLUE_ABI_BINDGEN"])
        .allowlist_file(".*glue_abi\\.h")
        .blocklist_type("JsprofAtomicU(32|64)")
        .derive_default(true)
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .generate()
        .unwrap_or_else(|e| panic!("bindgen over src/glue_abi.h failed: {e}"))
        .write_to_file(out.join("glue_abi.rs"))
        .unwrap_or_else(|e| panic!("writing glue_abi.rs: {e}"));
}
