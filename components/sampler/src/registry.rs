//! The embedder's record of how each script was fetched: the URL to report
//! and whether its errors are muted (CORS-cross-origin). Fail closed: a source
//! the registry does not know is treated as muted.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

/// What the loader knows about one compiled script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptInfo {
    /// The script's response URL after redirects (the document URL for
    /// inline scripts); reported as the frame's resource.
    pub url: String,
    /// HTML's muted errors flag (the script was fetched CORS-cross-origin).
    pub muted_errors: bool,
}

/// Scripts by the file name they were compiled with (the `CompileOptions`
/// filename). Shared by every agent; cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct ScriptRegistry {
    inner: Arc<RwLock<HashMap<String, ScriptInfo>>>,
    /// Event-handler content attributes: compile file name → start lines.
    handlers: Arc<RwLock<HashMap<String, HashSet<u32>>>>,
}

impl ScriptRegistry {
    /// An empty registry (every source unknown, hence muted).
    pub fn new() -> ScriptRegistry {
        ScriptRegistry::default()
    }

    /// Records a compilation. If the same file name is registered twice with
    /// different muted flags, the name stays muted (fail closed).
    pub fn register(&self, compiled_filename: &str, info: ScriptInfo) {
        let mut map = self.inner.write().unwrap_or_else(|e| e.into_inner());
        match map.get_mut(compiled_filename) {
            Some(existing) => {
                existing.muted_errors |= info.muted_errors;
            }
            None => {
                map.insert(compiled_filename.to_owned(), info);
            }
        }
    }

    /// Records a function compiled from an event-handler content attribute
    /// (`onclick="..."`), compiled with `compiled_filename` and `start_line`
    /// (the `CompileOptions` line). Its frames never appear.
    pub fn register_event_handler(&self, compiled_filename: &str, start_line: u32) {
        let mut map = self.handlers.write().unwrap_or_else(|e| e.into_inner());
        map.entry(compiled_filename.to_owned())
            .or_default()
            .insert(start_line);
    }

    /// Whether a source (file name and start line) is an event handler's.
    pub fn is_event_handler(&self, compiled_filename: &str, start_line: u32) -> bool {
        let map = self.handlers.read().unwrap_or_else(|e| e.into_inner());
        map.get(compiled_filename)
            .is_some_and(|lines| lines.contains(&start_line))
    }

    /// Whether any event handler was registered under this file name.
    pub fn has_event_handlers(&self, compiled_filename: &str) -> bool {
        let map = self.handlers.read().unwrap_or_else(|e| e.into_inner());
        map.contains_key(compiled_filename)
    }

    /// What is known about a compiled file name. Eval and `new Function`
    /// sources (`"<introducer> line N > eval"`) inherit their introducer's
    /// entry. `None` means unknown, which callers treat as muted.
    pub fn lookup(&self, filename: &str) -> Option<ScriptInfo> {
        let map = self.inner.read().unwrap_or_else(|e| e.into_inner());
        let mut name = filename;
        loop {
            if let Some(info) = map.get(name) {
                return Some(info.clone());
            }
            name = introducer_of(name)?;
        }
    }
}

/// `"a.js line 3 > eval"` → `"a.js"` (also `> Function`, and nested forms).
pub(crate) fn introducer_of(filename: &str) -> Option<&str> {
    let idx = filename.rfind(" line ")?;
    let rest = &filename[idx + " line ".len()..];
    let (line, kind) = rest.split_once(" > ")?;
    if line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) || kind.is_empty() {
        return None;
    }
    Some(&filename[..idx])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_inherits_and_unknown_is_none() {
        let r = ScriptRegistry::new();
        r.register(
            "https://a/x.js",
            ScriptInfo {
                url: "https://a/x.js".into(),
                muted_errors: false,
            },
        );
        assert!(r.lookup("https://a/x.js line 3 > eval").is_some());
        assert!(r
            .lookup("https://a/x.js line 3 > eval line 1 > Function")
            .is_some());
        assert!(r.lookup("https://b/y.js").is_none());
        r.register(
            "https://a/x.js",
            ScriptInfo {
                url: "https://a/x.js".into(),
                muted_errors: true,
            },
        );
        assert!(r.lookup("https://a/x.js").unwrap().muted_errors);
    }
}
