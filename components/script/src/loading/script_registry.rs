//! The per-agent registry (a field of [`crate::runtime::agent::Agent`]) of classic scripts: each script's
//! host-defined data (HTML's "classic script": base URL, fetch CORS
//! status, muted errors), keyed by the file name it was compiled with.
//!
//! One source of truth for "which URL does this compiled file name report,
//! and are its errors muted": the sampler's [`jsprof_sampler::ScriptRegistry`]
//! of this agent ([`sampler_registry`]). [`register`] records every script
//! there (compile file name → response URL + muted flag) before it is
//! compiled, and both "report the exception" ([`is_muted`]) and the
//! sampler's per-frame filter read it back; eval and `new Function` code
//! inherit their introducer's entry, and an unknown file name is muted for
//! the sampler (fail closed). The extra host-defined data (start line, CORS
//! status) is kept alongside, per record, for [`lookup`] and [`all`].
//! SpiderMonkey also knows muted scripts itself: they are compiled with
//! `mutedErrors_` set.

use std::cell::RefCell;

use jsprof_sampler::{ScriptInfo, ScriptRegistry};

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

/// This agent's script records (a field of
/// [`Agent`](crate::runtime::agent::Agent): a thread's next agent starts with none).
#[derive(Default)]
pub(crate) struct Scripts {
    records: RefCell<Vec<ScriptRecord>>,
    sampler_registry: ScriptRegistry,
}

impl Scripts {
    /// Drops every record (the sampler's handle on the registry, if one
    /// still exists, keeps what it shares).
    pub(crate) fn clear(&self) {
        self.records.borrow_mut().clear();
    }
}

/// This agent's registry as the sampler reads it (shared handle).
pub fn sampler_registry() -> ScriptRegistry {
    crate::runtime::agent::current()
        .scripts
        .sampler_registry
        .clone()
}

/// Records a script about to be compiled with `record.url` as its file
/// name: in the sampler's registry (response URL, muted errors) and in the
/// host-defined data list.
pub fn register(record: ScriptRecord) {
    let agent = crate::runtime::agent::current();
    agent.scripts.sampler_registry.register(
        &record.url,
        ScriptInfo {
            url: record.url.clone(),
            muted_errors: record.muted_errors,
        },
    );
    agent.scripts.records.borrow_mut().push(record);
}

/// The record of the script compiled with `filename` whose start line is
/// the greatest at or before `line`.
pub fn lookup(filename: &str, line: u32) -> Option<ScriptRecord> {
    crate::runtime::agent::existing().and_then(|a| {
        a.scripts
            .records
            .borrow()
            .iter()
            .filter(|r| r.url == filename && r.start_line <= line.max(1))
            .max_by_key(|r| r.start_line)
            .cloned()
    })
}

/// Every record, in compile order.
pub fn all() -> Vec<ScriptRecord> {
    crate::runtime::agent::existing().map_or_else(Vec::new, |a| a.scripts.records.borrow().clone())
}

/// Whether errors from `filename` are muted: its entry (or its eval /
/// `new Function` introducer's) in the sampler's registry is muted (a file
/// name registered muted once stays muted). File names the loader never
/// registered (scripts evaluated directly by the embedder) are not muted
/// here.
pub fn is_muted(filename: &str) -> bool {
    crate::runtime::agent::existing().is_some_and(|a| {
        a.scripts
            .sampler_registry
            .lookup(filename)
            .is_some_and(|info| info.muted_errors)
    })
}
