//! Comparing a result with its expectation.

use crate::metadata::Expectation;

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

#[cfg(test)]
mod tests {
    use super::*;

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
