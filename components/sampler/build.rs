//! Compiles the sampler's C++ glue against the public headers of the very
//! SpiderMonkey that mozjs_sys links (see `jsprof-spidermonkey-build`).

use jsprof_spidermonkey_build::Objdir;

fn main() {
    let objdir = Objdir::locate().unwrap_or_else(|e| e.fail());
    println!("cargo:rerun-if-changed=src/glue.cpp");
    objdir
        .cxx_build()
        .file("src/glue.cpp")
        .compile("jsprof_sampler_glue");
}
