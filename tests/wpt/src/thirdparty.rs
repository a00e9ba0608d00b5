//! Third-party files from the npm registry, pinned and checksum-verified:
//!
//! * WPT's own testharness.js, idlharness.js and webidl2.js, from the
//!   package `wpt-runner` ([`WPT_RUNNER`]);
//! * the unmodified libraries of the TodoMVC example apps
//!   (`examples/todomvc/`, [`APP_LIBRARIES`]): React 18 and ReactDOM,
//!   Preact 10 with hooks, Vue 3 and jQuery 3, served at
//!   `/examples/todomvc/vendor/<file>`.
//!
//! Each tarball is fetched once with `npm pack` into a cache directory
//! ([`Package::cache_dir`]), its sha512 is checked against the registry's
//! integrity string pinned below on every run, and it is unpacked into the
//! run's temporary directory. Nothing of it is committed. A WPT checkout
//! given as `WPT_ROOT` serves its own `resources/` first.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use sha2::{Digest, Sha512};

/// One pinned npm package and the files served from it.
#[derive(Debug, Clone, Copy)]
pub struct Package {
    pub name: &'static str,
    pub version: &'static str,
    /// `npm view <name>@<version> dist.integrity`.
    pub integrity: &'static str,
    /// Served URL path → path inside the unpacked package.
    pub files: &'static [(&'static str, &'static str)],
}

pub const WPT_RUNNER: Package = Package {
    name: "wpt-runner",
    version: "7.0.0",
    integrity: "sha512-hMFl9Dwlc8cztxhm0y2SjLA9LmZdLk5w5ySLpDFNgPh37zjzgjaTvxsyMUSkrVFSW8eVc3qQhyNm3wK83+VqVQ==",
    files: &[
        (
            "/resources/testharness.js",
            "package/testharness/testharness.js",
        ),
        (
            "/resources/idlharness.js",
            "package/testharness/idlharness.js",
        ),
        (
            "/resources/webidl2/lib/webidl2.js",
            "package/testharness/webidl2.js",
        ),
        ("/common/gc.js", "package/common/gc.js"),
        // A stand-in test_driver (bless() runs its action; no real input).
        (
            "/resources/testdriver.js",
            "package/lib/testdriver-dummy.js",
        ),
    ],
};

/// Where the TodoMVC apps find their libraries.
pub const APP_VENDOR_PATH: &str = "/examples/todomvc/vendor/";

/// The libraries of the TodoMVC example apps, as published (production
/// builds; nothing patched, shimmed or replaced).
pub const APP_LIBRARIES: [Package; 5] = [
    Package {
        name: "react",
        version: "18.3.1",
        integrity: "sha512-wS+hAgJShR0KhEvPJArfuPVN1+Hz1t0Y6n5jLrGQbkb4urgPE/0Rve+1kMB1v/oWgHgm4WIcV+i7F2pTVj+2iQ==",
        files: &[(
            "/examples/todomvc/vendor/react.production.min.js",
            "package/umd/react.production.min.js",
        )],
    },
    Package {
        name: "react-dom",
        version: "18.3.1",
        integrity: "sha512-5m4nQKp+rZRb09LNH59GM4BxTh9251/ylbKIbpe7TpGxfJ+9kv6BLkLBXIjjspbgbnIBNqlI23tRnTWT0snUIw==",
        files: &[(
            "/examples/todomvc/vendor/react-dom.production.min.js",
            "package/umd/react-dom.production.min.js",
        )],
    },
    Package {
        name: "preact",
        version: "10.26.4",
        integrity: "sha512-KJhO7LBFTjP71d83trW+Ilnjbo+ySsaAgCfXOXUlmGzJ4ygYPWmysm77yg4emwfmoz3b22yvH5IsVFHbhUaH5w==",
        files: &[
            (
                "/examples/todomvc/vendor/preact.umd.js",
                "package/dist/preact.umd.js",
            ),
            (
                "/examples/todomvc/vendor/hooks.umd.js",
                "package/hooks/dist/hooks.umd.js",
            ),
        ],
    },
    Package {
        name: "vue",
        version: "3.5.13",
        integrity: "sha512-wmeiSMxkZCSc+PM2w2VRsOYAZC8GdipNFRTsLSfodVqI9mbejKeXEGr8SckuLnrQPGe3oJN5c3K0vpoU9q/wCQ==",
        files: &[(
            "/examples/todomvc/vendor/vue.global.prod.js",
            "package/dist/vue.global.prod.js",
        )],
    },
    Package {
        name: "jquery",
        version: "3.7.1",
        integrity: "sha512-m4avr8yL8kmFN8psrbFFFmB/If14iN5o9nw/NgnnM+kybDJpRsAynV2BsfpTYrTRysYUdADVD7CkUUizgkpLfg==",
        files: &[(
            "/examples/todomvc/vendor/jquery.min.js",
            "package/dist/jquery.min.js",
        )],
    },
];

/// How long `npm pack` may take before it is killed.
const NPM_TIMEOUT: Duration = Duration::from_secs(180);

fn cache_base() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("js-self-profiling")
}

impl Package {
    fn spec(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }

    fn tgz_name(&self) -> String {
        format!("{}-{}.tgz", self.name, self.version)
    }

    /// Where the tarball is cached: for `wpt-runner`, `WPT_CACHE_DIR` or
    /// `${XDG_CACHE_HOME:-~/.cache}/js-self-profiling/wpt-runner-<version>/`;
    /// for the others, `JSPROF_NPM_CACHE` or `.../js-self-profiling/npm/`
    /// (shared with `./mach bench-real`).
    pub fn cache_dir(&self) -> PathBuf {
        if self.name == WPT_RUNNER.name {
            if let Some(dir) = std::env::var_os("WPT_CACHE_DIR") {
                return PathBuf::from(dir);
            }
            return cache_base().join(format!("{}-{}", self.name, self.version));
        }
        if let Some(dir) = std::env::var_os("JSPROF_NPM_CACHE") {
            return PathBuf::from(dir);
        }
        cache_base().join("npm")
    }

    /// The verified tarball, fetched with `npm pack` when not cached.
    pub fn tarball(&self) -> Result<Vec<u8>, String> {
        let dir = self.cache_dir();
        let path = dir.join(self.tgz_name());
        if let Ok(bytes) = std::fs::read(&path) {
            match verify(&bytes, self.integrity) {
                Ok(()) => return Ok(bytes),
                Err(e) => eprintln!(
                    "wpt: cached {} is bad ({e}); fetching again",
                    path.display()
                ),
            }
        }
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let staging = tempfile::tempdir_in(&dir).map_err(|e| {
            format!(
                "cannot create a temporary directory in {}: {e}",
                dir.display()
            )
        })?;
        npm_pack(&self.spec(), staging.path())?;
        let fetched = staging.path().join(self.tgz_name());
        let bytes = std::fs::read(&fetched)
            .map_err(|e| format!("npm pack did not produce {}: {e}", fetched.display()))?;
        verify(&bytes, self.integrity).map_err(|e| format!("{} from npm: {e}", self.spec()))?;
        // Rename is atomic: concurrent runs never see a partial tarball.
        std::fs::rename(&fetched, &path)
            .map_err(|e| format!("cannot store {}: {e}", path.display()))?;
        Ok(bytes)
    }

    /// Unpacks the tarball into `dest/<name>-<version>/` and returns the
    /// served files (URL path → file on disk), each checked to exist.
    pub fn unpack(&self, bytes: &[u8], dest: &Path) -> Result<Vec<(String, PathBuf)>, String> {
        let dest = dest.join(format!("{}-{}", self.name, self.version));
        let decoder = flate2::read::GzDecoder::new(bytes);
        tar::Archive::new(decoder)
            .unpack(&dest)
            .map_err(|e| format!("cannot unpack {}: {e}", self.tgz_name()))?;
        self.files
            .iter()
            .map(|(url, inner)| {
                let path = dest.join(inner);
                if path.is_file() {
                    Ok((url.to_string(), path))
                } else {
                    Err(format!("{} has no {inner}", self.tgz_name()))
                }
            })
            .collect()
    }

    /// [`tarball`](Self::tarball) then [`unpack`](Self::unpack).
    pub fn fetch_into(&self, dest: &Path) -> Result<Vec<(String, PathBuf)>, String> {
        self.unpack(&self.tarball()?, dest)
    }
}

/// The TodoMVC apps as served: every file of `examples/todomvc/` under
/// `/examples/todomvc/`, and their libraries (fetched and unpacked into
/// `scratch`) under [`APP_VENDOR_PATH`].
pub fn todomvc_files(repo: &Path, scratch: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let mut files = Vec::new();
    let mut pending = vec![repo.join("examples/todomvc")];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(relative) = path.strip_prefix(repo) {
                files.push((format!("/{}", relative.display()), path));
            }
        }
    }
    for package in &APP_LIBRARIES {
        files.extend(package.fetch_into(scratch)?);
    }
    Ok(files)
}

/// Checks `bytes` against an npm `sha512-<base64>` integrity string.
pub fn verify(bytes: &[u8], integrity: &str) -> Result<(), String> {
    let expected = integrity
        .strip_prefix("sha512-")
        .ok_or_else(|| format!("unsupported integrity `{integrity}`"))?;
    let actual = base64::engine::general_purpose::STANDARD.encode(Sha512::digest(bytes));
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "checksum mismatch: expected sha512-{expected}, got sha512-{actual}"
        ))
    }
}

fn npm_pack(spec: &str, dest: &Path) -> Result<(), String> {
    let mut child = Command::new("npm")
        .args([
            "pack",
            spec,
            "--ignore-scripts",
            "--silent",
            "--pack-destination",
        ])
        .arg(dest)
        .current_dir(dest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot run `npm` ({e}): the WPT harness needs npm (Debian: apt-get install npm) \
                 to fetch the `{spec}` package (or a cache directory holding its tarball: \
                 WPT_CACHE_DIR for wpt-runner, JSPROF_NPM_CACHE for the others)"
            )
        })?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                let mut stderr = String::new();
                if let Some(mut pipe) = child.stderr.take() {
                    let _ = pipe.read_to_string(&mut stderr);
                }
                return Err(format!(
                    "`npm pack {spec}` failed ({status}): {}",
                    stderr.trim()
                ));
            }
            Ok(None) if start.elapsed() > NPM_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "`npm pack {spec}` did not finish in {NPM_TIMEOUT:?}"
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("waiting for npm: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_accepts_the_right_digest_only() {
        // sha512("abc"), base64.
        let abc = "sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==";
        assert!(verify(b"abc", abc).is_ok());
        assert!(verify(b"abd", abc)
            .unwrap_err()
            .contains("checksum mismatch"));
        assert!(verify(b"abc", "sha1-xyz").is_err());
    }

    #[test]
    fn unpack_reports_missing_files() {
        // A valid gzip'd tar with one unrelated file.
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(1);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, "package/README.md", &b"x"[..])
            .unwrap();
        let tar_bytes = builder.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &tar_bytes).unwrap();
        let tgz = gz.finish().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let err = WPT_RUNNER.unpack(&tgz, dir.path()).unwrap_err();
        assert!(
            err.contains("has no package/testharness/testharness.js"),
            "{err}"
        );
        assert!(WPT_RUNNER.unpack(b"not a tarball", dir.path()).is_err());
    }
}
