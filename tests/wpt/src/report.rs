//! The result channel between the page and the harness.
//!
//! Our `testharnessreport.js` prints one line per subtest result and one at
//! completion, each `MARK` followed by a JSON object, through `console.log`
//! (which the shell prints as one line on stdout). [`Collector`] reads the
//! shell's stdout line by line and keeps the results; other lines are kept
//! (bounded) as the page's console output for error messages.

use serde_json::Value;

/// Prefix of every result line.
pub const MARK: &str = "@@wpt-result@@ ";

/// Our testharnessreport.js, with the marker and `multiplier` filled in.
pub fn testharnessreport_js(multiplier: f64) -> String {
    include_str!("resources/testharnessreport.js")
        .replace("@@MARK@@", MARK)
        .replace("@@MULTIPLIER@@", &multiplier.to_string())
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtestResult {
    pub name: String,
    /// PASS, FAIL, TIMEOUT, NOTRUN or PRECONDITION_FAILED.
    pub status: String,
    pub message: Option<String>,
    pub stack: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// OK, ERROR, TIMEOUT or PRECONDITION_FAILED.
    pub status: String,
    pub message: Option<String>,
    pub stack: Option<String>,
    /// Every test at completion, in order.
    pub tests: Vec<SubtestResult>,
}

/// Lines of other console output kept for diagnostics.
const KEPT_CONSOLE_LINES: usize = 40;

#[derive(Debug, Default)]
pub struct Collector {
    /// Results in the order reported (before completion).
    pub results: Vec<SubtestResult>,
    pub completion: Option<Completion>,
    /// Marked lines that did not parse.
    pub protocol_errors: Vec<String>,
    /// The last non-result lines.
    pub console: Vec<String>,
}

impl Collector {
    /// Feeds one stdout line; returns true once the completion is read.
    pub fn feed(&mut self, line: &str) -> bool {
        let line = line.trim_end_matches(['\r', '\n']);
        let Some(pos) = line.find(MARK) else {
            if self.console.len() == KEPT_CONSOLE_LINES {
                self.console.remove(0);
            }
            self.console.push(line.to_owned());
            return false;
        };
        let json = &line[pos + MARK.len()..];
        match parse_message(json) {
            Ok(Message::Result(result)) => self.results.push(result),
            Ok(Message::Complete(completion)) => {
                self.completion = Some(completion);
                return true;
            }
            Err(e) => self.protocol_errors.push(format!("{e}: {json}")),
        }
        false
    }

    /// The subtest results: the completion's list when complete, else what
    /// was reported before the page stopped.
    pub fn subtests(&self) -> &[SubtestResult] {
        match &self.completion {
            Some(c) => &c.tests,
            None => &self.results,
        }
    }
}

enum Message {
    Result(SubtestResult),
    Complete(Completion),
}

fn parse_message(json: &str) -> Result<Message, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| format!("bad result JSON ({e})"))?;
    match value.get("type").and_then(Value::as_str) {
        Some("result") => Ok(Message::Result(subtest(&value)?)),
        Some("complete") => {
            let tests = value
                .get("tests")
                .and_then(Value::as_array)
                .ok_or("completion without a `tests` array")?
                .iter()
                .map(subtest)
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Message::Complete(Completion {
                status: string_field(&value, "status")?,
                message: optional_string(&value, "message"),
                stack: optional_string(&value, "stack"),
                tests,
            }))
        }
        _ => Err("result line without a known `type`".into()),
    }
}

fn subtest(value: &Value) -> Result<SubtestResult, String> {
    Ok(SubtestResult {
        name: string_field(value, "name")?,
        status: string_field(value, "status")?,
        message: optional_string(value, "message"),
        stack: optional_string(value, "stack"),
    })
}

fn string_field(value: &Value, key: &str) -> Result<String, String> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("missing string `{key}`"))
}

fn optional_string(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_results_then_completion() {
        let mut c = Collector::default();
        assert!(!c.feed("page says hi"));
        assert!(!c.feed(&format!(
            "{MARK}{{\"type\":\"result\",\"name\":\"a\",\"status\":\"FAIL\",\"message\":\"boom\",\"stack\":null}}\n"
        )));
        assert_eq!(c.subtests().len(), 1);
        assert_eq!(c.subtests()[0].message.as_deref(), Some("boom"));
        assert!(c.feed(&format!(
            "{MARK}{{\"type\":\"complete\",\"status\":\"OK\",\"message\":null,\"stack\":null,\
             \"tests\":[{{\"name\":\"a\",\"status\":\"FAIL\"}},{{\"name\":\"b\",\"status\":\"PASS\"}}]}}"
        )));
        let completion = c.completion.as_ref().unwrap();
        assert_eq!(completion.status, "OK");
        assert_eq!(c.subtests().len(), 2);
        assert_eq!(c.console, vec!["page says hi"]);
        assert!(c.protocol_errors.is_empty());
    }

    #[test]
    fn malformed_result_lines_are_protocol_errors() {
        let mut c = Collector::default();
        for bad in [
            "{not json",
            "{\"type\":\"other\"}",
            "{\"type\":\"result\",\"status\":\"PASS\"}",
            "{\"type\":\"complete\",\"status\":\"OK\"}",
        ] {
            assert!(!c.feed(&format!("{MARK}{bad}")));
        }
        assert_eq!(c.protocol_errors.len(), 4);
        assert!(c.completion.is_none());
    }

    #[test]
    fn console_output_is_bounded() {
        let mut c = Collector::default();
        for i in 0..1000 {
            c.feed(&format!("line {i}"));
        }
        assert_eq!(c.console.len(), KEPT_CONSOLE_LINES);
        assert_eq!(c.console.last().unwrap(), "line 999");
    }

    #[test]
    fn report_script_has_the_marker_and_multiplier() {
        let js = testharnessreport_js(2.5);
        assert!(js.contains(&format!("var MARK = \"{MARK}\"")));
        assert!(js.contains("timeout_multiplier: 2.5"));
        assert!(!js.contains("@@MARK@@") && !js.contains("@@MULTIPLIER@@"));
    }
}
