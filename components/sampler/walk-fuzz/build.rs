//! Compiles the start-rule fuzzer (`src/walk_fuzz.cpp`) as the sampler's
//! build script compiles its glue: against the public headers of the
//! SpiderMonkey that mozjs_sys links, with the same flags and defines (see
//! `jsprof-spidermonkey-build` and `../build.rs`), and the sampler's
//! `src/glue.h` (the capture hooks) on the include path. Generates
//! `OUT_DIR/walk_fuzz_abi.rs` from `src/walk_fuzz_abi.h` with bindgen.

use jsprof_spidermonkey_build::Objdir;

/// The sampler's C++ headers (`glue.h`, `glue_abi.h`).
const SAMPLER_SRC: &str = "../src";

fn main() {
    let objdir = Objdir::locate().unwrap_or_else(|e| e.fail());
    for file in [
        "src/walk_fuzz.cpp",
        "src/walk_fuzz_abi.h",
        "../src/glue.h",
        "../src/glue_abi.h",
    ] {
        println!("cargo:rerun-if-changed={file}");
    }
    let mut build = objdir.cxx_build();
    // As the sampler's build.rs: the patched SpiderMonkey says so through
    // its build metadata. Without the patches there is no walk to fuzz (the
    // fuzzer's entry points then report that).
    if std::env::var_os("DEP_MOZJS_JIT_FRAME_BOOKKEEPING_SWITCH").is_some() {
        build.define("JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH", None);
    }
    build
        .include(SAMPLER_SRC)
        .file("src/walk_fuzz.cpp")
        .compile("jsprof_walk_fuzz");
    generate_abi();
}

/// The fuzzer's records, shared by `walk_fuzz.cpp` and `lib.rs` through one
/// header, as the sampler's `glue_abi.h` (with bindgen's layout checks).
fn generate_abi() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    bindgen::Builder::default()
        .header("src/walk_fuzz_abi.h")
        .clang_args(["-x", "c++", "-std=c++17", "-DJSPROF_GLUE_ABI_BINDGEN"])
        .clang_arg(format!("-I{SAMPLER_SRC}"))
        .allowlist_file(".*walk_fuzz_abi\\.h")
        .derive_default(true)
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .generate()
        .unwrap_or_else(|e| panic!("bindgen over src/walk_fuzz_abi.h failed: {e}"))
        .write_to_file(out.join("walk_fuzz_abi.rs"))
        .unwrap_or_else(|e| panic!("writing walk_fuzz_abi.rs: {e}"));
}
