//! WebAssembly frames: which module a wasm frame belongs to, the realm it is
//! attributed to, and whether the script that compiled it is visible.
//!
//! SpiderMonkey reports no realm for wasm frames (realm ID 0, its bug
//! 1596235), and a wasm frame's only identity is its profiling label,
//! `"<function name> (<caller> line <N> > WebAssembly.<api>:<offset>)"`:
//! the name comes from the module's name section (or SpiderMonkey's default
//! `wasm-function[i]`), `<caller> line <N>` is the scripted caller that
//! compiled the module (the nearest non-built-in frame, as for `eval`), and
//! the offset is the function's byte offset in the module. The name section
//! is module content (a muted script's module must not be able to pose as a
//! visible one), so nothing is decided from the name:
//!
//! * A hook run by SpiderMonkey before each compilation from bytes
//!   (`glue_engine.cpp`, the CSP callback for `JS::RuntimeCode::WASM`)
//!   records the compilation site `(caller file name, line)` with the realm
//!   whose `WebAssembly` API compiles ([`note_compilation`]).
//! * A label is attributed only if exactly one way of reading it names a
//!   recorded site, and that site was compiled in one live realm only: the
//!   frame's realm is that realm. Several live realms compiling at one site
//!   (the same script loaded in two documents) make the frames
//!   unattributable: they never appear. A destroyed realm (SpiderMonkey's
//!   destroy-realm callback, at the GC after the realm died) is forgotten.
//! * Visibility is the caller file name's entry in the [`ScriptRegistry`]
//!   (muted, or unknown, hides), through eval/`Function` introducers as for
//!   JS frames.
//! * A realm in which any recorded compilation has a muted or unknown
//!   compiling script (or none: no scripted caller, recorded with an empty
//!   file name) attributes no wasm label at all ([`realm_compiled_only_by`]).
//!   The name section may hold a NUL byte, and SpiderMonkey builds the label
//!   as a C string: the label the sampler reads is then only the name's
//!   prefix, which can end in a visible script's recorded site
//!   (`x (https://v/app.js line 3 > WebAssembly.Module:1)` + NUL + ...), so
//!   the reading is no proof of the compiling script once a script that may
//!   forge it has compiled in the realm.
//!
//! What this cannot see: the realm an *instance* was created in. A module
//! object passed to another realm and instantiated there is attributed to
//! the realm that compiled it (see the README for why that needs object
//! sharing between the realms, i.e. same-origin access).
//!
//! [`ScriptRegistry`]: crate::ScriptRegistry

use std::cell::RefCell;
use std::collections::HashMap;

/// The introducers SpiderMonkey appends to the caller's file name when it
/// compiles wasm bytes (streaming compilation reports the response URL
/// instead, which never matches a recorded site: those frames never appear).
const INTRODUCERS: [&str; 3] = [
    "WebAssembly.Module",
    "WebAssembly.compile",
    "WebAssembly.instantiate",
];

/// The live realms that compiled wasm at one site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CompileRealm {
    One(u64),
    Several,
}

#[derive(Default)]
struct Compilations {
    /// Compilation site → the distinct live realms that compiled there.
    by_site: HashMap<(String, u32), Vec<u64>>,
    /// Bumped at every change, so cached attributions are redone.
    generation: u64,
}

thread_local! {
    /// This thread's context's compilations (one context per thread).
    static COMPILATIONS: RefCell<Compilations> = RefCell::new(Compilations::default());
}

/// Records a compilation from bytes in `realm` whose scripted caller is
/// `caller` at `line` (JS thread, from the hook).
pub(crate) fn note_compilation(caller: &str, line: u32, realm: u64) {
    COMPILATIONS.with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return;
        };
        let realms = c.by_site.entry((caller.to_owned(), line)).or_default();
        if realms.contains(&realm) {
            return;
        }
        realms.push(realm);
        c.generation += 1;
    })
}

/// Forgets a destroyed realm (JS thread, from SpiderMonkey's destroy-realm
/// callback): none of its modules can run any more, so a site it shared
/// with another realm becomes attributable again. A realm that is never
/// reported destroyed only keeps its sites ambiguous (fail closed).
pub(crate) fn note_realm_destroyed(realm: u64) {
    COMPILATIONS.with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return;
        };
        let before = c.by_site.len();
        let mut changed = false;
        c.by_site.retain(|_, realms| {
            let len = realms.len();
            realms.retain(|r| *r != realm);
            changed |= realms.len() != len;
            !realms.is_empty()
        });
        if changed || c.by_site.len() != before {
            c.generation += 1;
        }
    })
}

/// Changes whenever a compilation is recorded that changes an attribution.
pub(crate) fn generation() -> u64 {
    COMPILATIONS.with(|c| c.borrow().generation)
}

fn compile_realm(caller: &str, line: u32) -> Option<CompileRealm> {
    COMPILATIONS.with(|c| {
        let c = c.try_borrow().ok()?;
        match c.by_site.get(&(caller.to_owned(), line))?.as_slice() {
            [] => None,
            [realm] => Some(CompileRealm::One(*realm)),
            _ => Some(CompileRealm::Several),
        }
    })
}

/// Whether every compilation recorded in `realm` has a compiling script
/// that `visible` accepts (a realm with no recorded compilation: `true`).
pub(crate) fn realm_compiled_only_by(realm: u64, visible: impl Fn(&str) -> bool) -> bool {
    COMPILATIONS.with(|c| {
        let Ok(c) = c.try_borrow() else {
            return false;
        };
        c.by_site
            .iter()
            .filter(|(_, realms)| realms.contains(&realm))
            .all(|((caller, _), _)| !caller.is_empty() && visible(caller))
    })
}

/// A wasm function label attributed to a recorded compilation.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Attributed<'a> {
    /// The function's name (name section, or `wasm-function[i]`).
    pub name: &'a str,
    /// The compiling script's file name (as compiled; may be an eval's).
    pub caller: &'a str,
    /// The line of `caller` at which the module was compiled.
    pub line: u32,
    pub realm: CompileRealm,
}

/// Reads `label` as `"<name> (<caller> line <N> > <introducer>:<offset>)"`.
/// Returns the attribution if exactly one split point gives a recorded
/// compilation site, `None` otherwise (not a function label, a stub's label
/// such as `"fast entry trampoline (in wasm)"`, an unrecorded or ambiguous
/// site).
pub(crate) fn attribute(label: &str) -> Option<Attributed<'_>> {
    let mut found = None;
    for (at, _) in label.match_indices(" (") {
        let Some(reading) = read_at(label, at) else {
            continue;
        };
        if found.is_some() {
            // Two readings name recorded sites: unsure, fail closed.
            return None;
        }
        found = Some(reading);
    }
    found
}

fn read_at(label: &str, at: usize) -> Option<Attributed<'_>> {
    let name = &label[..at];
    let inner = label[at + 2..].strip_suffix(')')?;
    let (file, offset) = inner.rsplit_once(':')?;
    if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let introduced = INTRODUCERS
        .iter()
        .find_map(|i| file.strip_suffix(i)?.strip_suffix(" > "))?;
    let (caller, line) = introduced.rsplit_once(" line ")?;
    if line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let line = line.parse().ok()?;
    let realm = compile_realm(caller, line)?;
    Some(Attributed {
        name,
        caller,
        line,
        realm,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_need_one_recorded_site() {
        note_compilation("https://a/x.js", 3, 7);
        let a = attribute("wasmLeaf (https://a/x.js line 3 > WebAssembly.Module:120)").unwrap();
        assert_eq!(
            (a.name, a.caller, a.line, a.realm),
            ("wasmLeaf", "https://a/x.js", 3, CompileRealm::One(7))
        );
        // Names may hold anything, including " (" and colons.
        let a = attribute("a (b:1) (https://a/x.js line 3 > WebAssembly.compile:9)").unwrap();
        assert_eq!(a.name, "a (b:1)");
        // Unrecorded sites, other introducers, stubs: no attribution.
        assert!(attribute("f (https://a/x.js line 4 > WebAssembly.Module:9)").is_none());
        assert!(attribute("f (https://a/x.js line 3 > eval:9)").is_none());
        assert!(attribute("f (https://a/x.js:9)").is_none());
        assert!(attribute("fast entry trampoline (in wasm)").is_none());
        assert!(attribute("f (?:12)").is_none());
        // A name spelling a visible site does not move the attribution: the
        // reading that names a recorded site is the compiling script's.
        note_compilation("https://evil/m.js", 5, 7);
        let forged = "x (https://a/x.js line 3 > WebAssembly.Module:1 \
                      (https://evil/m.js line 5 > WebAssembly.Module:44)";
        assert_eq!(attribute(forged).unwrap().caller, "https://evil/m.js");
        // Two readings naming recorded sites: unsure, no attribution.
        note_compilation("p (https://a/x.js", 3, 7);
        assert!(attribute("n (p (https://a/x.js line 3 > WebAssembly.Module:5)").is_none());
        // A second realm compiling at the same site: ambiguous from then on.
        let before = generation();
        note_compilation("https://a/x.js", 3, 7);
        assert_eq!(generation(), before, "same realm again changes nothing");
        note_compilation("https://a/x.js", 3, 8);
        assert_ne!(generation(), before);
        let a = attribute("wasmLeaf (https://a/x.js line 3 > WebAssembly.Module:120)").unwrap();
        assert_eq!(a.realm, CompileRealm::Several);
        // Until one of them is destroyed.
        let before = generation();
        note_realm_destroyed(7);
        assert_ne!(generation(), before);
        let a = attribute("wasmLeaf (https://a/x.js line 3 > WebAssembly.Module:120)").unwrap();
        assert_eq!(a.realm, CompileRealm::One(8));
        note_realm_destroyed(8);
        assert!(attribute("wasmLeaf (https://a/x.js line 3 > WebAssembly.Module:120)").is_none());
    }

    /// A muted module whose name holds a NUL: the label read is cut at the
    /// NUL and names the visible script's site in the same realm. One muted
    /// (or unknown, or caller-less) compilation in a realm hides all its
    /// wasm frames; a realm with only visible compilations still shows its.
    #[test]
    fn a_muted_compilation_hides_its_realms_wasm() {
        use crate::resolve::{classify_wasm, FrameClass};
        use crate::{ScriptInfo, ScriptRegistry};
        let registry = ScriptRegistry::new();
        let info = |url: &str, muted_errors| ScriptInfo {
            url: url.to_owned(),
            muted_errors,
        };
        registry.register("https://v/app.js", info("https://v/app.js", false));
        registry.register("https://evil/m.js", info("https://evil/m.js", true));
        // Realm 1: the visible script compiles at line 3, the muted one at 5.
        note_compilation("https://v/app.js", 3, 1);
        note_compilation("https://evil/m.js", 5, 1);
        // Realm 2: only visible compilations.
        note_compilation("https://v/app.js", 9, 2);
        // The muted module's name: "x (https://v/app.js line 3 >
        // WebAssembly.Module:1)\0..."; the captured label is the prefix.
        let forged = "x (https://v/app.js line 3 > WebAssembly.Module:1)";
        assert_eq!(attribute(forged).unwrap().realm, CompileRealm::One(1));
        assert!(classify_wasm(&registry, forged).is_none());
        // The visible script's own frames in realm 1 are hidden too.
        let own = "f (https://v/app.js line 3 > WebAssembly.Module:40)";
        assert!(classify_wasm(&registry, own).is_none());
        // Realm 2 still attributes its wasm frames.
        let (desc, class, realm) = classify_wasm(
            &registry,
            "g (https://v/app.js line 9 > WebAssembly.Module:40)",
        )
        .unwrap();
        assert_eq!((desc.name.as_str(), realm), ("g", 2));
        assert!(matches!(class, FrameClass::Wasm { visible: true }));
        // An unknown compiling script, or none, hides as a muted one does.
        note_compilation("https://v/app.js", 4, 3);
        note_compilation("https://unknown/u.js", 6, 3);
        let in3 = "h (https://v/app.js line 4 > WebAssembly.Module:7)";
        assert!(classify_wasm(&registry, in3).is_none());
        note_compilation("https://v/app.js", 4, 4);
        note_realm_destroyed(3);
        assert!(classify_wasm(&registry, in3).is_some());
        note_compilation("", 0, 4);
        assert!(classify_wasm(&registry, in3).is_none());
        // Once the tainting realm is destroyed, the other is attributable.
        note_realm_destroyed(1);
        assert!(classify_wasm(
            &registry,
            "g (https://v/app.js line 9 > WebAssembly.Module:40)"
        )
        .is_some());
    }
}
