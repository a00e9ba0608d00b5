//! Comparing a result with its expectation.

use std::collections::HashSet;

use crate::metadata::{Expectation, FileMeta};
use crate::runner::FileOutcome;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// PASS/OK, as expected.
    Pass,
    /// A failure the metadata expects (with its reason).
    ExpectedFailure,
    /// Not what the metadata says: fails the run (when strict).
    Unexpected(String),
    /// A failing result where no expectations are enforced (external root
    /// without metadata): reported, not fatal.
    Reported,
}

/// Judges `actual` against `expectation`. Without enforcement (`strict`
/// false), any non-PASS/OK result is only [`Verdict::Reported`].
pub fn judge(actual: &str, expectation: &Expectation, strict: bool) -> Verdict {
    let ok = actual == "PASS" || actual == "OK";
    if !strict {
        return if ok { Verdict::Pass } else { Verdict::Reported };
    }
    if expectation.accepts(actual) {
        if ok {
            Verdict::Pass
        } else {
            Verdict::ExpectedFailure
        }
    } else if ok {
        Verdict::Unexpected(format!(
            "unexpected {actual}: expected {} ({}); update the metadata",
            expectation.describe(),
            expectation.reason.as_deref().unwrap_or("no reason given")
        ))
    } else {
        Verdict::Unexpected(format!(
            "unexpected {actual}: expected {}",
            expectation.describe()
        ))
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub expected_failures: usize,
}

impl Counts {
    pub fn add(&mut self, verdict: &Verdict) {
        match verdict {
            Verdict::Pass => self.passed += 1,
            Verdict::ExpectedFailure => self.expected_failures += 1,
            Verdict::Unexpected(_) | Verdict::Reported => self.failed += 1,
        }
    }

    /// The closing line of a run.
    pub fn summary(&self) -> String {
        format!(
            "{} passed, {} failed, {} expected failures",
            self.passed, self.failed, self.expected_failures
        )
    }
}

/// One judged result: a trial to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// `<path>` for the harness status, `<path> :: <subtest>` otherwise.
    pub name: String,
    /// The actual status (`MISSING` for a metadata subtest not reported).
    pub status: String,
    pub verdict: Verdict,
    /// Message and stack, for failures.
    pub detail: String,
}

/// Judges a file's outcome: its harness status, each subtest, and (strict,
/// status OK) each metadata subtest the page did not report, which is
/// unexpected (a renamed or removed subtest leaves stale metadata).
pub fn judge_file(path: &str, meta: &FileMeta, outcome: &FileOutcome, strict: bool) -> Vec<Judged> {
    let mut judged = vec![Judged {
        name: path.to_owned(),
        status: outcome.status.clone(),
        verdict: judge(&outcome.status, &meta.harness, strict),
        detail: outcome.message.clone().unwrap_or_default(),
    }];
    let mut seen = HashSet::new();
    for sub in &outcome.subtests {
        seen.insert(sub.name.as_str());
        judged.push(Judged {
            name: format!("{path} :: {}", sub.name),
            status: sub.status.clone(),
            verdict: judge(&sub.status, &meta.subtest(&sub.name), strict),
            detail: [sub.message.as_deref(), sub.stack.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("\n"),
        });
    }
    if strict && outcome.status == "OK" {
        for name in meta.subtests.keys().filter(|n| !seen.contains(n.as_str())) {
            judged.push(Judged {
                name: format!("{path} :: {name}"),
                status: "MISSING".into(),
                verdict: Verdict::Unexpected(
                    "listed in the metadata but not reported by the test (renamed or removed?)"
                        .into(),
                ),
                detail: String::new(),
            });
        }
    }
    judged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::SubtestResult;
    use std::time::Duration;

    fn outcome(status: &str, subtests: &[(&str, &str)]) -> FileOutcome {
        FileOutcome {
            status: status.into(),
            message: Some("why".into()),
            subtests: subtests
                .iter()
                .map(|(name, status)| SubtestResult {
                    name: name.to_string(),
                    status: status.to_string(),
                    message: Some(format!("{name} message")),
                    stack: None,
                })
                .collect(),
            duration: Duration::ZERO,
        }
    }

    fn meta(text: &str) -> FileMeta {
        crate::metadata::parse(text, "t.html").unwrap()
    }

    #[test]
    fn judges_harness_and_subtests_against_metadata() {
        let m = meta("[t.html]\n  [b]\n    expected: FAIL\n    reason: r\n");
        let judged = judge_file(
            "d/t.html",
            &m,
            &outcome("OK", &[("a", "PASS"), ("b", "FAIL")]),
            true,
        );
        let names: Vec<&str> = judged.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["d/t.html", "d/t.html :: a", "d/t.html :: b"]);
        assert_eq!(judged[0].verdict, Verdict::Pass);
        assert_eq!(judged[1].verdict, Verdict::Pass);
        assert_eq!(judged[2].verdict, Verdict::ExpectedFailure);
        assert_eq!(judged[2].detail, "b message");
    }

    #[test]
    fn stale_metadata_subtests_fail_only_when_the_page_completed() {
        let m = meta("[t.html]\n  expected: [OK, ERROR]\n  reason: r\n  [gone]\n    expected: FAIL\n    reason: r\n");
        let judged = judge_file("t.html", &m, &outcome("OK", &[]), true);
        assert_eq!(judged.len(), 2);
        assert_eq!(judged[1].status, "MISSING");
        assert!(matches!(judged[1].verdict, Verdict::Unexpected(_)));
        let errored = judge_file("t.html", &m, &outcome("ERROR", &[]), true);
        assert_eq!(errored.len(), 1);
        assert_eq!(errored[0].verdict, Verdict::ExpectedFailure);
        let lenient = judge_file("t.html", &m, &outcome("OK", &[]), false);
        assert_eq!(lenient.len(), 1);
    }

    #[test]
    fn unexpected_results_carry_the_page_message() {
        let judged = judge_file(
            "t.html",
            &FileMeta::default(),
            &outcome("CRASH", &[("a", "TIMEOUT")]),
            true,
        );
        assert!(matches!(judged[0].verdict, Verdict::Unexpected(_)));
        assert_eq!(judged[0].detail, "why");
        assert!(matches!(judged[1].verdict, Verdict::Unexpected(_)));
        let lenient = judge_file(
            "t.html",
            &FileMeta::default(),
            &outcome("CRASH", &[]),
            false,
        );
        assert_eq!(lenient[0].verdict, Verdict::Reported);
    }

    fn expect(statuses: &[&str]) -> Expectation {
        Expectation {
            statuses: statuses.iter().map(|s| s.to_string()).collect(),
            reason: Some("because".into()),
        }
    }

    #[test]
    fn strict_judgements() {
        assert_eq!(judge("PASS", &expect(&["PASS"]), true), Verdict::Pass);
        assert_eq!(judge("OK", &expect(&["OK"]), true), Verdict::Pass);
        assert_eq!(
            judge("FAIL", &expect(&["FAIL"]), true),
            Verdict::ExpectedFailure
        );
        assert_eq!(
            judge("PASS", &expect(&["FAIL", "PASS"]), true),
            Verdict::Pass
        );
        let Verdict::Unexpected(m) = judge("PASS", &expect(&["FAIL"]), true) else {
            panic!()
        };
        assert!(
            m.contains("unexpected PASS") && m.contains("because"),
            "{m}"
        );
        let Verdict::Unexpected(m) = judge("TIMEOUT", &expect(&["FAIL"]), true) else {
            panic!()
        };
        assert!(m.contains("unexpected TIMEOUT"), "{m}");
        assert!(matches!(
            judge("FAIL", &expect(&["PASS"]), true),
            Verdict::Unexpected(_)
        ));
    }

    #[test]
    fn lenient_judgements_only_report() {
        assert_eq!(judge("FAIL", &expect(&["PASS"]), false), Verdict::Reported);
        assert_eq!(judge("CRASH", &expect(&["OK"]), false), Verdict::Reported);
        assert_eq!(judge("PASS", &expect(&["PASS"]), false), Verdict::Pass);
    }

    #[test]
    fn counts_and_summary() {
        let mut c = Counts::default();
        for v in [
            Verdict::Pass,
            Verdict::Pass,
            Verdict::ExpectedFailure,
            Verdict::Reported,
        ] {
            c.add(&v);
        }
        assert_eq!(c.summary(), "2 passed, 1 failed, 1 expected failures");
    }
}
