//! Expectation metadata: which results are expected to differ from PASS/OK,
//! and why.
//!
//! As in Servo's `tests/wpt/meta/`, the metadata of test `dir/t.html` lives
//! in `meta/dir/t.html.ini` (a subset of wptrunner's format):
//!
//! ```text
//! [t.html]
//!   expected: ERROR
//!   reason: the page throws before any test runs
//!   [subtest name, with \] escaped]
//!     expected: FAIL
//!     reason: Profiler is not implemented yet
//! ```
//!
//! `expected` is one status or a list (`[FAIL, PASS]` for a result that may
//! be either). Every expectation other than PASS/OK needs a `reason`.
//! `disabled: <reason>` at file level skips the file. `#` starts a comment
//! line. Anything else is an error with the file and line.

use std::collections::BTreeMap;
use std::path::Path;

/// File-level (harness) statuses.
pub const HARNESS_STATUSES: [&str; 5] = ["OK", "ERROR", "TIMEOUT", "CRASH", "PRECONDITION_FAILED"];
/// Subtest statuses.
pub const SUBTEST_STATUSES: [&str; 5] =
    ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// Accepted statuses (one, or several for a result that varies).
    pub statuses: Vec<String>,
    pub reason: Option<String>,
}

impl Expectation {
    fn default_for(ok: &str) -> Self {
        Expectation {
            statuses: vec![ok.to_owned()],
            reason: None,
        }
    }

    pub fn accepts(&self, status: &str) -> bool {
        self.statuses.iter().any(|s| s == status)
    }

    /// Whether this expectation is anything but the plain pass (PASS / OK).
    pub fn is_failure_expected(&self) -> bool {
        !self.statuses.iter().all(|s| s == "PASS" || s == "OK")
    }

    pub fn describe(&self) -> String {
        if self.statuses.len() == 1 {
            self.statuses[0].clone()
        } else {
            format!("one of [{}]", self.statuses.join(", "))
        }
    }
}

/// The metadata of one test file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileMeta {
    pub harness: Expectation,
    pub disabled: Option<String>,
    pub subtests: BTreeMap<String, Expectation>,
}

impl Default for FileMeta {
    fn default() -> Self {
        FileMeta {
            harness: Expectation::default_for("OK"),
            disabled: None,
            subtests: BTreeMap::new(),
        }
    }
}

impl FileMeta {
    /// The expectation for subtest `name` (PASS when not listed).
    pub fn subtest(&self, name: &str) -> Expectation {
        self.subtests
            .get(name)
            .cloned()
            .unwrap_or_else(|| Expectation::default_for("PASS"))
    }
}

/// Where the metadata of `test_path` (relative, `/`-separated) lives.
pub fn path_for(meta_root: &Path, test_path: &str) -> std::path::PathBuf {
    meta_root.join(format!("{test_path}.ini"))
}

/// Loads the metadata of `test_path` from `meta_root`: `Ok(None)` when the
/// file has none.
pub fn load(meta_root: &Path, test_path: &str) -> Result<Option<FileMeta>, String> {
    let path = path_for(meta_root, test_path);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let file_name = test_path.rsplit('/').next().unwrap_or(test_path);
    parse(&text, file_name)
        .map(Some)
        .map_err(|e| format!("{}:{e}", path.display()))
}

/// An expectation as read, before defaults and checks.
#[derive(Default)]
struct Draft {
    expected: Option<Vec<String>>,
    reason: Option<String>,
}

enum Section {
    None,
    File,
    Subtest,
}

/// Parses a metadata file for the test file named `file_name`. Errors are
/// `line: message`.
pub fn parse(text: &str, file_name: &str) -> Result<FileMeta, String> {
    let mut meta = FileMeta::default();
    let mut seen_file_section = false;
    let mut section = Section::None;
    let mut harness = Draft::default();
    let mut subtests: Vec<(String, usize, Draft)> = Vec::new();

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let err = |message: String| format!("{line_no}: {message}");
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        if trimmed.starts_with('[') {
            let name = parse_header(trimmed).map_err(err)?;
            if indent == 0 {
                if seen_file_section {
                    return Err(err("only one top-level [file] section is allowed".into()));
                }
                if name != file_name {
                    return Err(err(format!(
                        "section [{name}] does not name the test file `{file_name}`"
                    )));
                }
                seen_file_section = true;
                section = Section::File;
            } else {
                if !seen_file_section {
                    return Err(err("subtest section before the [file] section".into()));
                }
                if subtests.iter().any(|(n, ..)| *n == name) {
                    return Err(err(format!("subtest [{name}] is listed twice")));
                }
                subtests.push((name, line_no, Draft::default()));
                section = Section::Subtest;
            }
            continue;
        }
        let Some((key, value)) = trimmed.split_once(':') else {
            return Err(err(format!(
                "expected `key: value` or `[section]`, found `{trimmed}`"
            )));
        };
        if indent == 0 {
            return Err(err(format!("`{trimmed}` must be indented under a section")));
        }
        let (key, value) = (key.trim(), value.trim());
        if value.is_empty() {
            return Err(err(format!("`{key}` has no value")));
        }
        let (draft, allowed): (&mut Draft, &[&str]) = match &section {
            Section::None => return Err(err("key before any section".into())),
            Section::File => (&mut harness, &HARNESS_STATUSES),
            Section::Subtest => {
                let last = subtests.last_mut().expect("subtest section pushed");
                (&mut last.2, &SUBTEST_STATUSES)
            }
        };
        match key {
            "expected" => {
                if draft.expected.is_some() {
                    return Err(err("`expected` given twice".into()));
                }
                let statuses = parse_statuses(value).map_err(err)?;
                if let Some(bad) = statuses.iter().find(|s| !allowed.contains(&s.as_str())) {
                    return Err(err(format!(
                        "unknown status `{bad}` here (expected one of {})",
                        allowed.join(", ")
                    )));
                }
                draft.expected = Some(statuses);
            }
            "reason" | "bug" => draft.reason = Some(value.to_owned()),
            "disabled" if matches!(section, Section::File) => {
                meta.disabled = Some(value.to_owned())
            }
            _ => return Err(err(format!("unknown key `{key}`"))),
        }
    }
    if !seen_file_section {
        return Err(format!("1: no [{file_name}] section"));
    }
    meta.harness = finish(harness, "OK", "the file").map_err(|e| format!("1: {e}"))?;
    for (name, line_no, draft) in subtests {
        let expectation = finish(draft, "PASS", &format!("subtest [{name}]"))
            .map_err(|e| format!("{line_no}: {e}"))?;
        meta.subtests.insert(name, expectation);
    }
    Ok(meta)
}

fn finish(draft: Draft, ok: &str, what: &str) -> Result<Expectation, String> {
    let statuses = draft.expected.unwrap_or_else(|| vec![ok.to_owned()]);
    let expectation = Expectation {
        statuses,
        reason: draft.reason,
    };
    if expectation.is_failure_expected() && expectation.reason.is_none() {
        return Err(format!(
            "{what} expects {} without a `reason:`",
            expectation.describe()
        ));
    }
    Ok(expectation)
}

/// Writes `meta` in the format [`parse`] reads (the inverse of `parse`).
pub fn render(file_name: &str, meta: &FileMeta) -> String {
    let mut out = format!("[{}]\n", escape_name(file_name));
    let entry = |indent: &str, e: &Expectation, out: &mut String| {
        if e.statuses.len() == 1 {
            out.push_str(&format!("{indent}expected: {}\n", e.statuses[0]));
        } else {
            out.push_str(&format!("{indent}expected: [{}]\n", e.statuses.join(", ")));
        }
        if let Some(reason) = &e.reason {
            out.push_str(&format!("{indent}reason: {reason}\n"));
        }
    };
    if let Some(reason) = &meta.disabled {
        out.push_str(&format!("  disabled: {reason}\n"));
    }
    if meta.harness.is_failure_expected() {
        entry("  ", &meta.harness, &mut out);
    }
    for (name, e) in &meta.subtests {
        out.push_str(&format!("  [{}]\n", escape_name(name)));
        entry("    ", e, &mut out);
    }
    out
}

fn escape_name(name: &str) -> String {
    name.replace('\\', "\\\\").replace(']', "\\]")
}

/// `[name with \] escaped]` → `name with ] escaped`.
fn parse_header(line: &str) -> Result<String, String> {
    let inner = &line[1..];
    let mut name = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) => name.push(escaped),
                None => return Err("dangling `\\` in section name".into()),
            },
            ']' => {
                let rest: String = chars.collect();
                if !rest.trim().is_empty() {
                    return Err(format!("unexpected `{}` after section name", rest.trim()));
                }
                return Ok(name);
            }
            c => name.push(c),
        }
    }
    Err(format!("section `{line}` has no closing `]`"))
}

fn parse_statuses(value: &str) -> Result<Vec<String>, String> {
    let list = if let Some(inner) = value.strip_prefix('[') {
        inner
            .strip_suffix(']')
            .ok_or_else(|| format!("unterminated list `{value}`"))?
    } else {
        value
    };
    let statuses: Vec<String> = list
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    if statuses.is_empty() {
        return Err("empty status list".into());
    }
    Ok(statuses)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
# comment
[t.window.html]
  expected: TIMEOUT
  reason: hangs until the interface lands
  [plain subtest]
    expected: FAIL
    reason: not implemented
  [name with \\] bracket: and colon]
    expected: [FAIL, PASS]
    reason: flaky
";

    #[test]
    fn parses_file_and_subtests() {
        let meta = parse(GOOD, "t.window.html").unwrap();
        assert_eq!(meta.harness.statuses, vec!["TIMEOUT"]);
        assert!(meta.harness.accepts("TIMEOUT"));
        assert_eq!(meta.subtests.len(), 2);
        assert!(meta.subtest("plain subtest").accepts("FAIL"));
        assert!(!meta.subtest("plain subtest").accepts("PASS"));
        let flaky = meta.subtest("name with ] bracket: and colon");
        assert!(flaky.accepts("PASS") && flaky.accepts("FAIL"));
        assert!(meta.subtest("unlisted").accepts("PASS"));
        assert!(!meta.subtest("unlisted").is_failure_expected());
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("[other.html]\n", "1: section [other.html]"),
            (
                "[t.html]\n  [s]\n    expected: FAIL\n",
                "2: subtest [s] expects FAIL without",
            ),
            (
                "[t.html]\n  expected: FAIL\n  reason: x\n",
                "2: unknown status `FAIL`",
            ),
            (
                "[t.html]\n  [s]\n    expected: BOGUS\n",
                "3: unknown status",
            ),
            ("[t.html]\n  colour: red\n", "2: unknown key"),
            (
                "[t.html]\nexpected: OK\n",
                "2: `expected: OK` must be indented",
            ),
            ("  [s]\n", "1: subtest section before"),
            ("[t.html\n", "1: section `[t.html` has no closing"),
            (
                "[t.html]\n  [s]\n    expected: FAIL\n    reason: r\n  [s]\n",
                "5: subtest [s] is listed twice",
            ),
            ("[t.html]\n  garbage\n", "2: expected `key: value`"),
            ("", "1: no [t.html] section"),
            (
                "[t.html]\n  [s]\n    expected: [FAIL\n",
                "3: unterminated list",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text, "t.html").unwrap_err();
            assert!(
                err.starts_with(want),
                "{text:?}: got {err:?}, want {want:?}"
            );
        }
    }

    #[test]
    fn render_round_trips() {
        let meta = parse(GOOD, "t.window.html").unwrap();
        let text = render("t.window.html", &meta);
        assert_eq!(parse(&text, "t.window.html").unwrap(), meta);
        let mut odd = FileMeta::default();
        odd.subtests.insert(
            "a \\ b ] c".into(),
            Expectation {
                statuses: vec!["FAIL".into()],
                reason: Some("r".into()),
            },
        );
        let text = render("t.html", &odd);
        assert_eq!(parse(&text, "t.html").unwrap(), odd);
    }

    #[test]
    fn disabled_files() {
        let meta = parse("[t.html]\n  disabled: needs workers\n", "t.html").unwrap();
        assert_eq!(meta.disabled.as_deref(), Some("needs workers"));
    }

    #[test]
    fn load_finds_the_file_by_test_path() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path(), "a/t.html").unwrap(), None);
        std::fs::create_dir(dir.path().join("a")).unwrap();
        std::fs::write(
            dir.path().join("a/t.html.ini"),
            "[t.html]\n  expected: OK\n",
        )
        .unwrap();
        assert!(load(dir.path(), "a/t.html").unwrap().is_some());
        std::fs::write(dir.path().join("a/t.html.ini"), "[t.html]\n  oops\n").unwrap();
        let err = load(dir.path(), "a/t.html").unwrap_err();
        assert!(err.contains("t.html.ini:2:"), "{err}");
    }
}
