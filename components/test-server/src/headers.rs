//! `.headers` files: extra response headers for the files they describe,
//! the one parser of [`crate::TestServer`]'s static files and of the WPT
//! harness's routes (`jsprof-wpt`).
//!
//! As in WPT's server (wptserve), `__dir__.headers` in a directory applies
//! to every file of that directory (not its subdirectories), and
//! `<file>.headers` applies to `<file>` alone, after the directory's. Each
//! non-empty line is `Name: value`; a line without a colon, or whose name
//! is not an HTTP token, is an error, reported with the file and line so a
//! typo never silently drops a header. A sidecar that exists but cannot be
//! read is an error too.

use std::path::Path;

/// One header line of a `.headers` file.
pub type Header = (String, String);

/// Parses the text of a `.headers` file. `origin` names it in errors.
pub fn parse(text: &str, origin: &str) -> Result<Vec<Header>, String> {
    let mut headers = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!(
                "{origin}:{}: expected `Name: value`, found `{line}`",
                index + 1
            ));
        };
        let name = name.trim();
        if name.is_empty() || !name.bytes().all(is_token_byte) {
            return Err(format!(
                "{origin}:{}: `{name}` is not a valid header name",
                index + 1
            ));
        }
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    Ok(headers)
}

/// The headers that apply to `file` (a path on disk): its directory's
/// `__dir__.headers`, then its own `<file>.headers`. Missing files are fine;
/// unreadable or malformed ones are errors.
pub fn for_file(file: &Path) -> Result<Vec<Header>, String> {
    let mut headers = Vec::new();
    let mut candidates = Vec::new();
    if let Some(dir) = file.parent() {
        candidates.push(dir.join("__dir__.headers"));
    }
    let mut own = file.as_os_str().to_owned();
    own.push(".headers");
    candidates.push(own.into());
    for candidate in candidates {
        match std::fs::read_to_string(&candidate) {
            Ok(text) => headers.extend(parse(&text, &candidate.display().to_string())?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read {}: {e}", candidate.display())),
        }
    }
    Ok(headers)
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_skips_blank_ones() {
        let parsed = parse("Document-Policy: js-profiling\n\n  X-Test :  a: b  \n", "t").unwrap();
        assert_eq!(
            parsed,
            vec![
                ("Document-Policy".into(), "js-profiling".into()),
                ("X-Test".into(), "a: b".into())
            ]
        );
    }

    #[test]
    fn rejects_a_line_without_colon_with_its_location() {
        let err = parse("A: b\nnot a header\n", "dir/x.headers").unwrap_err();
        assert!(err.starts_with("dir/x.headers:2:"), "{err}");
    }

    #[test]
    fn rejects_an_invalid_name() {
        assert!(parse("Bad Name: x", "t").is_err());
        assert!(parse(": x", "t").is_err());
    }

    #[test]
    fn directory_headers_come_before_file_headers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("__dir__.headers"), "A: dir\n").unwrap();
        std::fs::write(dir.path().join("t.html.headers"), "B: file\n").unwrap();
        std::fs::write(dir.path().join("t.html"), "").unwrap();
        std::fs::write(dir.path().join("u.html"), "").unwrap();
        let t = for_file(&dir.path().join("t.html")).unwrap();
        assert_eq!(
            t,
            vec![("A".into(), "dir".into()), ("B".into(), "file".into())]
        );
        let u = for_file(&dir.path().join("u.html")).unwrap();
        assert_eq!(u, vec![("A".into(), "dir".into())]);
    }

    #[test]
    fn directory_headers_do_not_apply_to_subdirectories() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("__dir__.headers"), "A: dir\n").unwrap();
        assert!(for_file(&dir.path().join("sub/t.html")).unwrap().is_empty());
    }
}
