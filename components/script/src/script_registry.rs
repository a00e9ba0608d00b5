//! The per-thread (per-agent) registry of classic scripts: each script's
//! host-defined data (HTML's "classic script": base URL, fetch CORS
//! status, muted errors), keyed by the file name and starting line it was
//! compiled with. The sampler reads it back for a running frame with
//! [`lookup`] (a frame's `JSScript` gives its file name; a frame whose
//! line is at or after the record's start line belongs to the latest such
//! record), and SpiderMonkey also knows muted scripts itself: they are
//! compiled with `mutedErrors_` set, so `JS_ScriptHasMutedErrors` agrees.

use std::cell::RefCell;

/// <https://html.spec.whatwg.org/multipage/webappapis.html#classic-script>
/// host-defined data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptRecord {
    /// The URL the script was fetched from (the document URL for inline
    /// scripts); also the compile file name.
    pub url: String,
    /// The line (1-origin) of the first line of source.
    pub start_line: u32,
    /// The response's CORS status: `"basic"`, `"cors"`, `"opaque"`, or
    /// `"inline"`.
    pub cors_status: String,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#muted-errors>
    pub muted_errors: bool,
}

impl ScriptRecord {
    pub fn inline(url: &str, line: u32) -> ScriptRecord {
        ScriptRecord {
            url: url.to_owned(),
            start_line: line,
            cors_status: "inline".to_owned(),
            muted_errors: false,
        }
    }
}

thread_local! {
    static SCRIPTS: RefCell<Vec<ScriptRecord>> = const { RefCell::new(Vec::new()) };
}

/// Records a script about to be compiled.
pub fn register(record: ScriptRecord) {
    SCRIPTS.with(|s| s.borrow_mut().push(record));
}

/// The record of the script compiled with `filename` whose start line is
/// the greatest at or before `line`.
pub fn lookup(filename: &str, line: u32) -> Option<ScriptRecord> {
    SCRIPTS.with(|s| {
        s.borrow()
            .iter()
            .filter(|r| r.url == filename && r.start_line <= line.max(1))
            .max_by_key(|r| r.start_line)
            .cloned()
    })
}

/// Every record, in compile order.
pub fn all() -> Vec<ScriptRecord> {
    SCRIPTS.with(|s| s.borrow().clone())
}

/// Whether errors from `filename` are muted (any muted record for it).
pub fn is_muted(filename: &str) -> bool {
    SCRIPTS.with(|s| {
        s.borrow()
            .iter()
            .any(|r| r.url == filename && r.muted_errors)
    })
}
