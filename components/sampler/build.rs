//! Compiles the sampler's C++ glue against the public headers of the very
//! SpiderMonkey that mozjs_sys links (see `jsprof-spidermonkey-build`).

use jsprof_spidermonkey_build::Objdir;

fn main() {
    let objdir = Objdir::locate().unwrap_or_else(|e| e.fail());
    println!("cargo:rerun-if-changed=src/glue.cpp");
    let mut build = objdir.cxx_build();
    // SpiderMonkey built with third_party/mozjs_sys-patches (opt-in,
    // JSPROF_MOZJS_PATCHES=1) says so through its build metadata.
    if std::env::var_os("DEP_MOZJS_JIT_FRAME_BOOKKEEPING_SWITCH").is_some() {
        build.define("JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH", None);
    }
    build.file("src/glue.cpp").compile("jsprof_sampler_glue");
}
