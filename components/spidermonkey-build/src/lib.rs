//! Build-script support for crates that compile C++ glue against SpiderMonkey.
//!
//! `mozjs_sys` builds SpiderMonkey from source (`MOZJS_FROM_SOURCE=1`, set in
//! `.cargo/config.toml`) into `<target>/<profile>/build/mozjs_sys-<hash>/out/build`,
//! the SpiderMonkey *objdir*. It exports neither that path nor its headers
//! (`mozjs_sys` declares `links = "mozjs"` but prints no `cargo:KEY=VALUE`
//! metadata), so a crate that needs the public headers (`js/ProfilingStack.h`,
//! `js/ProfilingFrameIterator.h`, ...) finds the objdir itself:
//!
//! 1. `MOZJS_OBJDIR`, when set, names it explicitly (an override for unusual
//!    layouts, or to pick one of several builds); else `DEP_MOZJS_OBJDIR`,
//!    which the patched `mozjs_sys` (`JSPROF_MOZJS_PATCHES=1`, see
//!    `third_party/mozjs_sys-patches`) exports to its direct dependents.
//! 2. Otherwise the build script's own `OUT_DIR`
//!    (`<target>/<profile>/build/<crate>-<hash>/out`) leads to the profile's
//!    `build/` directory, which holds every build script output of that profile,
//!    `mozjs_sys`'s among them. The objdir is the `mozjs_sys-*/out/build` that
//!    contains `js/src/js-confdefs.h`. Several can exist (cargo keeps one per
//!    distinct build-dependency graph); any of them serves when they were
//!    configured identically (same `js-confdefs.h` and `js-config.h`, so the
//!    headers the glue sees match the library it links), and the newest is
//!    used. If their configurations differ (say a `debugmozjs` build beside a
//!    normal one), the build stops and asks for `MOZJS_OBJDIR`, since the
//!    glue must not guess which one is linked.
//!
//! Use it from the `build.rs` of a crate that has a *normal* dependency on
//! `mozjs_sys` (so cargo finishes SpiderMonkey's build before that build script
//! runs) and this crate as a *build* dependency:
//!
//! ```no_run
//! let objdir = jsprof_spidermonkey_build::Objdir::locate().unwrap_or_else(|e| e.fail());
//! objdir.cxx_build().file("src/glue_capture.cpp").compile("glue");
//! ```

#![forbid(unsafe_code)]

use std::env;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The SpiderMonkey major version whose headers the glue is written against
/// (mozjs_sys 153.6.0-2 ships SpiderMonkey 153).
pub const EXPECTED_MOZJS_MAJOR_VERSION: u32 = 153;

/// Environment variable that overrides objdir discovery.
pub const OBJDIR_ENV: &str = "MOZJS_OBJDIR";

/// The objdir as the linked `mozjs_sys` names it (`cargo:objdir=`, printed by
/// the patched crate: `third_party/mozjs_sys-patches/0002-build-export-objdir.patch`);
/// seen by build scripts of crates that depend on `mozjs_sys` directly.
pub const DEP_OBJDIR_ENV: &str = "DEP_MOZJS_OBJDIR";

/// A located SpiderMonkey build directory.
#[derive(Debug, Clone)]
pub struct Objdir {
    root: PathBuf,
}

/// Why the objdir could not be used.
#[derive(Debug)]
pub enum LocateError {
    /// `MOZJS_OBJDIR` names a directory without the expected files.
    BadOverride { path: PathBuf, missing: PathBuf },
    /// No `mozjs_sys-*/out/build` with `js/src/js-confdefs.h` was found.
    NotFound { searched: PathBuf },
    /// `OUT_DIR` is not set or does not have the layout cargo gives it.
    NoOutDir,
    /// The headers are of another SpiderMonkey version.
    WrongVersion { path: PathBuf, found: Option<u32> },
    /// Several objdirs with different configurations: which is linked is
    /// unknown.
    Ambiguous { candidates: Vec<PathBuf> },
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::BadOverride { path, missing } => write!(
                f,
                "{OBJDIR_ENV}={} is not a SpiderMonkey build directory: {} is missing",
                path.display(),
                missing.display()
            ),
            LocateError::NotFound { searched } => write!(
                f,
                "no SpiderMonkey build directory (mozjs_sys-*/out/build/js/src/js-confdefs.h) \
                 under {}. mozjs_sys must be built from source: set MOZJS_FROM_SOURCE=1 \
                 (the workspace's .cargo/config.toml does), make this crate depend on \
                 mozjs_sys directly, or point {OBJDIR_ENV} at the build directory",
                searched.display()
            ),
            LocateError::NoOutDir => {
                write!(
                    f,
                    "OUT_DIR is unset or unusual: run this from a build script"
                )
            }
            LocateError::WrongVersion { path, found } => write!(
                f,
                "{} holds SpiderMonkey {} headers, the glue is written for {}",
                path.display(),
                found.map_or_else(|| "unknown".to_owned(), |v| v.to_string()),
                EXPECTED_MOZJS_MAJOR_VERSION
            ),
            LocateError::Ambiguous { candidates } => {
                write!(
                    f,
                    "several SpiderMonkey builds with different configurations; set \
                     {OBJDIR_ENV} to the one mozjs_sys links, or remove the stale ones:"
                )?;
                for candidate in candidates {
                    write!(f, " {}", candidate.display())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LocateError {}

impl LocateError {
    /// Ends the build script with this error as a readable cargo error.
    pub fn fail(&self) -> ! {
        eprintln!("error: {self}");
        println!("cargo::error={self}");
        std::process::exit(1);
    }
}

impl Objdir {
    /// Finds the objdir for the build script that calls it (see the crate docs),
    /// and prints the `rerun-if` lines that keep the result current.
    pub fn locate() -> Result<Objdir, LocateError> {
        println!("cargo:rerun-if-env-changed={OBJDIR_ENV}");
        let objdir = match env::var_os(OBJDIR_ENV).or_else(|| env::var_os(DEP_OBJDIR_ENV)) {
            Some(path) => Objdir::from_override(PathBuf::from(path))?,
            None => {
                let out_dir = env::var_os("OUT_DIR").ok_or(LocateError::NoOutDir)?;
                let build_dir = profile_build_dir(Path::new(&out_dir))?;
                Objdir::discover(&build_dir)?
            }
        };
        objdir.check_version()?;
        println!("cargo:rerun-if-changed={}", objdir.confdefs().display());
        Ok(objdir)
    }

    fn from_override(root: PathBuf) -> Result<Objdir, LocateError> {
        let objdir = Objdir { root };
        for needed in [objdir.confdefs(), objdir.include_dir().join("jsapi.h")] {
            if !needed.is_file() {
                return Err(LocateError::BadOverride {
                    path: objdir.root.clone(),
                    missing: needed,
                });
            }
        }
        Ok(objdir)
    }

    /// Scans `build_dir` (a profile's `build/` directory) for SpiderMonkey
    /// objdirs and returns the newest, provided all were configured alike.
    pub fn discover(build_dir: &Path) -> Result<Objdir, LocateError> {
        let not_found = || LocateError::NotFound {
            searched: build_dir.to_owned(),
        };
        let mut found: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(build_dir)
            .map_err(|_| not_found())?
            .filter_map(Result::ok)
            .filter(|entry| {
                entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with("mozjs_sys-")
            })
            .map(|entry| entry.path().join("out").join("build"))
            .filter_map(|root| {
                let modified = std::fs::metadata(root.join("js/src/js-confdefs.h"))
                    .and_then(|m| m.modified())
                    .ok()?;
                Some((modified, root))
            })
            .collect();
        found.sort();
        let (_, newest) = found.pop().ok_or_else(not_found)?;
        let newest_configuration = configuration(&newest);
        if found
            .iter()
            .any(|(_, other)| configuration(other) != newest_configuration)
        {
            let mut candidates: Vec<PathBuf> = found.into_iter().map(|(_, path)| path).collect();
            candidates.push(newest);
            return Err(LocateError::Ambiguous { candidates });
        }
        Ok(Objdir { root: newest })
    }

    /// The objdir itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `dist/include`: SpiderMonkey's exported public headers.
    pub fn include_dir(&self) -> PathBuf {
        self.root.join("dist").join("include")
    }

    /// `js/src/js-confdefs.h`: the configure defines every translation unit
    /// must see first.
    pub fn confdefs(&self) -> PathBuf {
        self.root.join("js").join("src").join("js-confdefs.h")
    }

    /// The SpiderMonkey major version, read from `js-config.h`.
    pub fn major_version(&self) -> Option<u32> {
        let config = std::fs::read_to_string(self.include_dir().join("js-config.h")).ok()?;
        config.lines().find_map(|line| {
            let rest = line.trim().strip_prefix("#define MOZJS_MAJOR_VERSION")?;
            rest.trim().parse().ok()
        })
    }

    fn check_version(&self) -> Result<(), LocateError> {
        match self.major_version() {
            Some(EXPECTED_MOZJS_MAJOR_VERSION) => Ok(()),
            found => Err(LocateError::WrongVersion {
                path: self.root.clone(),
                found,
            }),
        }
    }

    /// Whether this SpiderMonkey was configured with `--enable-debug`
    /// (mozjs's `debugmozjs` feature): glue must then define `DEBUG` too, or
    /// the layout of some classes differs from the library's.
    pub fn is_debug_build(&self) -> bool {
        std::fs::read_to_string(self.confdefs())
            .map(|defs| defs.lines().any(|l| l.trim() == "#define JS_DEBUG 1"))
            .unwrap_or(false)
    }

    /// A `cc::Build` for C++ glue against the public headers, with the flags
    /// SpiderMonkey's own build uses for embedders: C++20, no RTTI or
    /// exceptions, the configure defines force-included, static linking. The
    /// glue links against mozjs_sys's `js_static`, so nothing else is needed.
    pub fn cxx_build(&self) -> cc::Build {
        let mut build = cc::Build::new();
        build
            .cpp(true)
            .std("gnu++20")
            .pic(true)
            .flag("-fno-rtti")
            .flag("-fno-exceptions")
            .flag("-fno-sized-deallocation")
            .flag("-include")
            .flag(self.confdefs().to_str().expect("objdir path is not UTF-8"))
            .include(self.include_dir())
            .define("STATIC_JS_API", None)
            // SpiderMonkey's headers trip these by design.
            .flag_if_supported("-Wno-unused-parameter")
            .flag_if_supported("-Wno-invalid-offsetof");
        if self.is_debug_build() {
            build
                .define("DEBUG", None)
                .define("JS_DEBUG", None)
                .define("JS_GC_ZEAL", None);
        }
        build
    }
}

/// What decides the meaning of the headers in objdir `root`: its configure
/// defines and `js-config.h`.
fn configuration(root: &Path) -> (Option<String>, Option<String>) {
    (
        std::fs::read_to_string(root.join("js/src/js-confdefs.h")).ok(),
        std::fs::read_to_string(root.join("dist/include/js-config.h")).ok(),
    )
}

/// `<target>/<profile>/build/<crate>-<hash>/out` → `<target>/<profile>/build`.
fn profile_build_dir(out_dir: &Path) -> Result<PathBuf, LocateError> {
    let build_dir = out_dir
        .parent()
        .and_then(Path::parent)
        .ok_or(LocateError::NoOutDir)?;
    if build_dir.file_name().is_some_and(|name| name == "build") {
        Ok(build_dir.to_owned())
    } else {
        Err(LocateError::NoOutDir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn fake_objdir(build_dir: &Path, hash: &str, major: u32) -> PathBuf {
        fake_objdir_with(build_dir, hash, major, "#define JS_DEBUG 1\n")
    }

    fn fake_objdir_with(build_dir: &Path, hash: &str, major: u32, confdefs: &str) -> PathBuf {
        let root = build_dir.join(format!("mozjs_sys-{hash}/out/build"));
        fs::create_dir_all(root.join("js/src")).unwrap();
        fs::create_dir_all(root.join("dist/include")).unwrap();
        fs::write(root.join("js/src/js-confdefs.h"), confdefs).unwrap();
        fs::write(
            root.join("dist/include/js-config.h"),
            format!("#define MOZJS_MAJOR_VERSION {major}\n"),
        )
        .unwrap();
        fs::write(root.join("dist/include/jsapi.h"), "").unwrap();
        root
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = env::temp_dir().join(format!("jsprof-smbuild-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn out_dir_maps_to_profile_build_dir() {
        let out = Path::new("/t/release/build/jsprof-sampler-0123/out");
        assert_eq!(
            profile_build_dir(out).unwrap(),
            Path::new("/t/release/build")
        );
        assert!(matches!(
            profile_build_dir(Path::new("/t/elsewhere/out")),
            Err(LocateError::NoOutDir)
        ));
    }

    #[test]
    fn discovers_the_newest_of_identically_configured_builds() {
        let dir = temp_dir("discover");
        // A directory of another crate, and a mozjs_sys dir without a build, are skipped.
        fs::create_dir_all(dir.join("mozjs-aaaa/out")).unwrap();
        fs::create_dir_all(dir.join("mozjs_sys-bbbb/out")).unwrap();
        fake_objdir(&dir, "cccc", 153);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let new = fake_objdir(&dir, "dddd", 153);
        let objdir = Objdir::discover(&dir).unwrap();
        assert_eq!(objdir.root(), new);
        assert!(objdir.is_debug_build());
        assert_eq!(objdir.major_version(), Some(153));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn differently_configured_builds_are_ambiguous() {
        let dir = temp_dir("ambiguous");
        let debug = fake_objdir(&dir, "cccc", 153);
        let plain = fake_objdir_with(&dir, "dddd", 153, "#define JS_JITSPEW 1\n");
        match Objdir::discover(&dir) {
            Err(LocateError::Ambiguous { candidates }) => {
                assert!(candidates.contains(&debug) && candidates.contains(&plain));
            }
            other => panic!("expected an ambiguity error, got {other:?}"),
        }
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn empty_build_dir_is_a_clear_error() {
        let dir = temp_dir("empty");
        let err = Objdir::discover(&dir).unwrap_err();
        assert!(err.to_string().contains("MOZJS_FROM_SOURCE=1"), "{err}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn override_must_hold_the_headers() {
        let dir = temp_dir("override");
        let err = Objdir::from_override(dir.clone()).unwrap_err();
        assert!(err.to_string().contains("js-confdefs.h"), "{err}");
        let root = fake_objdir(&dir, "eeee", 152);
        let objdir = Objdir::from_override(root).unwrap();
        assert!(matches!(
            objdir.check_version(),
            Err(LocateError::WrongVersion {
                found: Some(152),
                ..
            })
        ));
        fs::remove_dir_all(dir).unwrap();
    }
}
