//! Resolution, on the JS thread: merges the copied `ProfilingStack` frames
//! with the JIT frames of a capture (by stack address, as the engine lays
//! them out), resolves JIT return addresses with `JS::GetProfiledFrames`,
//! parses SpiderMonkey's profile strings, and classifies each frame
//! (scripted with its muted flag, built-in, or hidden). Session filters
//! (realm, muted, the built-in rule) are applied in `agent/js_thread.rs`.

use std::collections::HashMap;

use crate::glue::{self, Context};
use crate::registry::ScriptRegistry;
use crate::trace::FrameDesc;

/// A frame as captured, before resolution.
#[derive(Clone, Debug)]
pub(crate) enum RawFrame {
    /// An interpreter or baseline-interpreter frame, with its profile string.
    Labelled {
        label: Box<str>,
        realm: u64,
        source_id: u32,
        tier: Tier,
    },
    /// A Baseline or Ion frame (possibly several inlined frames).
    Jit { return_addr: u64, tier: Tier },
    /// A native built-in (`JSON.parse`, `Array.prototype.sort`, `new Map`).
    Native { name: Box<str> },
    /// A wasm frame (function or stub) with its profiling label, or `None`
    /// when the label could not be read safely (see `walk_jit`).
    Wasm {
        label: Option<Box<str>>,
        tier: WasmTier,
    },
}

/// The wasm tier a frame was captured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WasmTier {
    Baseline = 0,
    Ion = 1,
}

/// The execution tier a frame was captured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tier {
    Interpreter = 0,
    BaselineInterpreter = 1,
    Baseline = 2,
    Ion = 3,
}

/// One captured stack, root first.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawStack {
    pub frames: Vec<RawFrame>,
    /// Taken inside a GC: SpiderMonkey's frame walk was suppressed, so JIT
    /// and wasm frames are missing and a built-in's nearest frame below is
    /// not necessarily its caller (see `take_sample`).
    pub in_gc: bool,
}

/// Merges a capture into a root-first [`RawStack`] (sampler thread, after
/// resume). Frames lost at the root end of either source make every frame
/// older than the oldest one kept from that source unreliable; those are
/// dropped too, so the stack stays a leaf-side suffix of the real one.
pub(crate) fn merge(buf: &glue::CaptureBuffers) -> RawStack {
    let string = |off, len| {
        buf.string(off, len)
            .map(|b| String::from_utf8_lossy(b).into_owned().into_boxed_str())
    };
    let mut merged: Vec<(u64, Option<RawFrame>)> = Vec::with_capacity(buf.ps.len() + buf.jit.len());
    let mut i = 0usize;
    let mut j = buf.jit.len();
    let mut last_marker = u64::MAX;
    let mut first_marker: Option<u64> = None;
    loop {
        let mut ps_addr = 0u64;
        if i < buf.ps.len() {
            let f = &buf.ps[i];
            if f.kind == glue::PS_LABEL
                || f.kind == glue::PS_SP_MARKER
                || f.kind == glue::PS_BUILTIN
            {
                last_marker = f.stack_addr;
                first_marker.get_or_insert(f.stack_addr);
            }
            if f.kind == glue::PS_JS_OSR {
                // The JIT frame stands for it.
                i += 1;
                continue;
            }
            ps_addr = if f.kind == glue::PS_JS {
                last_marker
            } else {
                f.stack_addr
            };
        }
        let jit_addr = if j > 0 { buf.jit[j - 1].stack_addr } else { 0 };
        if i < buf.ps.len() && (j == 0 || ps_addr > jit_addr) {
            let f = &buf.ps[i];
            let frame = match f.kind {
                glue::PS_JS => string(f.str_off, f.str_len).map(|label| RawFrame::Labelled {
                    label,
                    realm: f.realm_id,
                    source_id: f.source_id,
                    tier: Tier::Interpreter,
                }),
                glue::PS_BUILTIN => {
                    builtin_name(string(f.str_off, f.str_len), string(f.str2_off, f.str2_len))
                        .map(|name| RawFrame::Native { name })
                }
                // Engine-internal labels never appear.
                _ => None,
            };
            merged.push((ps_addr, frame));
            i += 1;
        } else if j > 0 {
            let f = &buf.jit[j - 1];
            let frame = match f.kind {
                glue::JIT_BLINTERP => {
                    string(f.str_off, f.str_len).map(|label| RawFrame::Labelled {
                        label,
                        realm: f.realm_id,
                        source_id: f.source_id,
                        tier: Tier::BaselineInterpreter,
                    })
                }
                glue::JIT_BASELINE => Some(RawFrame::Jit {
                    return_addr: f.return_addr,
                    tier: Tier::Baseline,
                }),
                glue::JIT_ION => Some(RawFrame::Jit {
                    return_addr: f.return_addr,
                    tier: Tier::Ion,
                }),
                glue::JIT_WASM_BASELINE | glue::JIT_WASM_ION => Some(RawFrame::Wasm {
                    label: string(f.str_off, f.str_len),
                    tier: if f.kind == glue::JIT_WASM_ION {
                        WasmTier::Ion
                    } else {
                        WasmTier::Baseline
                    },
                }),
                // Trampolines (JS↔wasm entries and exits) never appear.
                _ => None,
            };
            merged.push((jit_addr, frame));
            j -= 1;
        } else {
            break;
        }
    }
    let ps_truncated = buf.ps_total as usize > buf.ps.len();
    let mut cutoff = u64::MAX;
    if buf.jit_truncated {
        if let Some(oldest) = buf.jit.last() {
            cutoff = cutoff.min(oldest.stack_addr);
        }
    }
    // Interpreter frames are placed by the nearest older marker; without one
    // in the kept window, their order against JIT frames is the engine's
    // (interpreter frames call into JIT code), so no cut is needed.
    if let (true, Some(marker)) = (ps_truncated, first_marker) {
        cutoff = cutoff.min(marker);
    }
    let truncated = buf.truncated();
    let frames = merged
        .into_iter()
        .filter(|(addr, _)| !truncated || *addr <= cutoff)
        .filter_map(|(_, f)| f)
        .collect();
    RawStack {
        frames,
        in_gc: buf.in_gc,
    }
}

/// SpiderMonkey truncates file names in profile strings to this many bytes.
const PROFILE_STRING_MAX_FILENAME: usize = 200;

/// The name of a native built-in from its label frame: the method for
/// `("JSON", "parse")`, the constructor for `("Map", "constructor")`.
fn builtin_name(label: Option<Box<str>>, method: Option<Box<str>>) -> Option<Box<str>> {
    match (label, method) {
        (Some(label), Some(method)) if &*method == "constructor" => Some(label),
        (_, Some(method)) => Some(method),
        (Some(label), None) => Some(label),
        (None, None) => None,
    }
}

/// Source ID under which native built-ins are interned (never a real one).
const NATIVE_SOURCE: u32 = u32::MAX;

/// How a resolved frame takes part in a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameClass {
    /// Script code; `muted` from the registry (unknown counts as muted).
    Scripted { muted: bool },
    /// Self-hosted (built-in) code: name only, attributed to its caller.
    Builtin,
    /// A native built-in: name only, attributed to its caller, in its
    /// caller's realm.
    Native,
    /// Never shown, and transparent for attribution (event-handler content
    /// attributes).
    Hidden,
    /// A wasm function attributed to a recorded compilation (`wasm.rs`), in
    /// the compiling realm (carried by the resolved frame); `visible` when
    /// the compiling script is known and not muted. Built-ins it calls are
    /// attributed to it.
    Wasm { visible: bool },
    /// A wasm frame that cannot be attributed (no label, an unrecorded or
    /// ambiguous compilation site): never shown, and what it calls is not
    /// attributed to the visible code below it.
    WasmUnknown,
    /// A wasm stub or trampoline labelled by its tier's code block: never
    /// shown, transparent.
    WasmStub,
}

/// A resolved frame of one sample: an agent-wide frame index plus the realm
/// it ran in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ResolvedFrame {
    pub index: u32,
    pub realm: u64,
}

/// Agent-wide resolution state (JS thread).
#[derive(Debug, Default)]
pub(crate) struct Resolver {
    by_label: HashMap<u32, HashMap<Box<str>, u32>>,
    pub(crate) descs: Vec<(FrameDesc, FrameClass)>,
    /// Source ID → (full file name, start line).
    sources: HashMap<u32, (String, u32)>,
    sources_refreshed: bool,
    jit_scratch: Vec<(String, u64, u32)>,
    /// JIT return address → its resolved frames, for the current batch.
    jit_cache: HashMap<u64, Vec<ResolvedFrame>>,
    /// JIT return addresses `GetProfiledFrames` did not know (should stay 0:
    /// the sample-position range keeps their code alive).
    pub(crate) unresolved_addresses: u64,
    /// JIT return addresses resolved.
    pub(crate) resolved_addresses: u64,
    /// Physical frames resolved per tier (see [`Tier`]).
    pub(crate) frames_by_tier: [u64; 4],
    /// Wasm function frames resolved per tier (see [`WasmTier`]), whether
    /// shown or not.
    pub(crate) wasm_frames_by_tier: [u64; 2],
    /// Wasm labels → (frame index, realm), valid for one generation of the
    /// recorded compilations.
    wasm_cache: HashMap<Box<str>, (u32, u64)>,
    wasm_generation: u64,
    /// Frame index of unlabelled wasm frames.
    wasm_unknown: Option<u32>,
}

impl Resolver {
    /// Forgets every cached frame (when the instrumentation goes off; the
    /// engine forgets its source list then too), keeping the counters.
    pub(crate) fn reset(&mut self) {
        *self = Resolver {
            unresolved_addresses: self.unresolved_addresses,
            resolved_addresses: self.resolved_addresses,
            frames_by_tier: self.frames_by_tier,
            wasm_frames_by_tier: self.wasm_frames_by_tier,
            ..Resolver::default()
        };
    }

    /// Call before each batch: allows one refresh of the source list, and
    /// forgets JIT addresses (within a batch an address names one piece of
    /// code: the sample positions keep all of it alive until the batch is
    /// done; across batches code may be freed and its address reused).
    pub(crate) fn begin_batch(&mut self) {
        self.sources_refreshed = false;
        self.jit_cache.clear();
        // A compilation recorded since may make a site ambiguous.
        let generation = crate::wasm::generation();
        if generation != self.wasm_generation {
            self.wasm_generation = generation;
            self.wasm_cache.clear();
        }
    }

    /// Resolves a raw stack into frames, root first.
    pub(crate) fn resolve(
        &mut self,
        cx: Context,
        registry: &ScriptRegistry,
        stack: &RawStack,
        out: &mut Vec<ResolvedFrame>,
    ) {
        out.clear();
        for frame in &stack.frames {
            match frame {
                RawFrame::Labelled {
                    label,
                    realm,
                    source_id,
                    tier,
                } => {
                    self.frames_by_tier[*tier as usize] += 1;
                    let index = self.intern(cx, registry, label, *source_id);
                    out.push(ResolvedFrame {
                        index,
                        realm: *realm,
                    });
                }
                RawFrame::Native { name } => {
                    let index = self.intern_native(name);
                    // A native's realm is its caller's (see `take_sample`).
                    out.push(ResolvedFrame { index, realm: 0 });
                }
                RawFrame::Wasm { label, tier } => {
                    let (index, realm) = self.intern_wasm(registry, label.as_deref());
                    if matches!(
                        self.descs[index as usize].1,
                        FrameClass::Wasm { .. } | FrameClass::WasmUnknown
                    ) {
                        self.wasm_frames_by_tier[*tier as usize] += 1;
                    }
                    out.push(ResolvedFrame { index, realm });
                }
                RawFrame::Jit { return_addr, tier } => {
                    self.frames_by_tier[*tier as usize] += 1;
                    if let Some(frames) = self.jit_cache.get(return_addr) {
                        out.extend_from_slice(frames);
                        self.resolved_addresses += 1;
                        continue;
                    }
                    let first = out.len();
                    let mut scratch = std::mem::take(&mut self.jit_scratch);
                    scratch.clear();
                    cx.resolve_jit(*return_addr, &mut scratch);
                    if scratch.is_empty() {
                        self.unresolved_addresses += 1;
                    } else {
                        self.resolved_addresses += 1;
                    }
                    for (label, realm, source_id) in &scratch {
                        let index = self.intern(cx, registry, label, *source_id);
                        out.push(ResolvedFrame {
                            index,
                            realm: *realm,
                        });
                    }
                    self.jit_scratch = scratch;
                    if out.len() > first {
                        self.jit_cache.insert(*return_addr, out[first..].to_vec());
                    }
                }
            }
        }
    }

    /// Interns a wasm frame: its frame index and the realm it is attributed
    /// to (0, no realm, unless attributed).
    fn intern_wasm(&mut self, registry: &ScriptRegistry, label: Option<&str>) -> (u32, u64) {
        let unnamed = FrameDesc {
            name: String::new(),
            resource: None,
            line: None,
            column: None,
        };
        let Some(label) = label else {
            if let Some(index) = self.wasm_unknown {
                return (index, 0);
            }
            let index = self.descs.len() as u32;
            self.descs.push((unnamed, FrameClass::WasmUnknown));
            self.wasm_unknown = Some(index);
            return (index, 0);
        };
        if let Some(&cached) = self.wasm_cache.get(label) {
            return cached;
        }
        let (desc, class, realm) = classify_wasm(registry, label).unwrap_or_else(|| {
            // Stubs and trampolines say so; anything else is unattributable.
            let class = if label.ends_with(" (in wasm)") {
                FrameClass::WasmStub
            } else {
                FrameClass::WasmUnknown
            };
            (unnamed, class, 0)
        });
        let index = self.descs.len() as u32;
        self.descs.push((desc, class));
        self.wasm_cache.insert(label.into(), (index, realm));
        (index, realm)
    }

    fn intern_native(&mut self, name: &str) -> u32 {
        if let Some(&index) = self.by_label.get(&NATIVE_SOURCE).and_then(|m| m.get(name)) {
            return index;
        }
        let index = self.descs.len() as u32;
        let desc = FrameDesc {
            name: name.to_owned(),
            resource: None,
            line: None,
            column: None,
        };
        self.descs.push((desc, FrameClass::Native));
        self.by_label
            .entry(NATIVE_SOURCE)
            .or_default()
            .insert(name.into(), index);
        index
    }

    fn intern(
        &mut self,
        cx: Context,
        registry: &ScriptRegistry,
        label: &str,
        source_id: u32,
    ) -> u32 {
        if let Some(&index) = self.by_label.get(&source_id).and_then(|m| m.get(label)) {
            return index;
        }
        let resolved = self.classify(cx, registry, label, source_id);
        let index = self.descs.len() as u32;
        self.descs.push(resolved);
        self.by_label
            .entry(source_id)
            .or_default()
            .insert(label.into(), index);
        index
    }

    /// The source's full file name and start line (the profile string's
    /// file name, possibly truncated, and no line when the engine does not
    /// list the source).
    fn source(
        &mut self,
        cx: Context,
        registry: &ScriptRegistry,
        source_id: u32,
        parsed: &str,
    ) -> (String, Option<u32>) {
        // The engine's source list is only needed when the profile string's
        // file name may be truncated, or to tell event handlers apart; it
        // lists every source, so it is not consulted otherwise.
        let needed =
            parsed.len() >= PROFILE_STRING_MAX_FILENAME || registry.has_event_handlers(parsed);
        if source_id != 0 && needed {
            if !self.sources.contains_key(&source_id) && !self.sources_refreshed {
                self.sources_refreshed = true;
                let sources = &mut self.sources;
                cx.script_sources(&mut |id, path, line| {
                    sources.insert(id, (path.to_owned(), line));
                });
            }
            if let Some((full, line)) = self.sources.get(&source_id) {
                return (full.clone(), Some(*line));
            }
        }
        (parsed.to_owned(), None)
    }

    fn classify(
        &mut self,
        cx: Context,
        registry: &ScriptRegistry,
        label: &str,
        source_id: u32,
    ) -> (FrameDesc, FrameClass) {
        let parsed = parse_profile_string(label);
        if parsed.file == "self-hosted" {
            let desc = FrameDesc {
                name: own_name(parsed.name).to_owned(),
                resource: None,
                line: None,
                column: None,
            };
            return (desc, FrameClass::Builtin);
        }
        let (file, start_line) = self.source(cx, registry, source_id, parsed.file);
        if start_line.is_some_and(|line| registry.is_event_handler(&file, line)) {
            let desc = FrameDesc {
                name: String::new(),
                resource: None,
                line: None,
                column: None,
            };
            return (desc, FrameClass::Hidden);
        }
        let (url, muted) = match registry.lookup(&file) {
            Some(info) => (info.url, info.muted_errors),
            // Fail closed: an unknown source is muted.
            None => (file, true),
        };
        let desc = FrameDesc {
            name: own_name(parsed.name).to_owned(),
            resource: Some(url),
            line: parsed.line,
            column: parsed.column,
        };
        (desc, FrameClass::Scripted { muted })
    }
}

/// A wasm function's frame: the function name from the label, the URL the
/// registry gives for the compiling script (the module's URL), the line of
/// that script at which the module was compiled, no column; its realm is
/// the compiling realm. `None` if the label names no single recorded
/// compilation (see `wasm.rs`).
pub(crate) fn classify_wasm(
    registry: &ScriptRegistry,
    label: &str,
) -> Option<(FrameDesc, FrameClass, u64)> {
    let attributed = crate::wasm::attribute(label)?;
    let crate::wasm::CompileRealm::One(realm) = attributed.realm else {
        return None;
    };
    // Fail closed: once a muted or unknown script (or none) has compiled
    // wasm in the realm, a label naming a visible site may be that module's
    // name cut at a NUL byte (see `wasm.rs`): no wasm frame of the realm is
    // attributed.
    let visible = |caller: &str| registry.lookup(caller).is_some_and(|i| !i.muted_errors);
    if !crate::wasm::realm_compiled_only_by(realm, visible) {
        return None;
    }
    // Fail closed: an unknown compiling script is muted.
    let info = registry.lookup(attributed.caller)?;
    let desc = FrameDesc {
        name: attributed.name.to_owned(),
        resource: Some(info.url),
        line: Some(u64::from(attributed.line)),
        column: None,
    };
    let class = FrameClass::Wasm {
        visible: !info.muted_errors,
    };
    Some((desc, class, realm))
}

/// The parts of a profile string `"name (file:line:col)"`, `"file:line:col"`
/// or `"file"`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ParsedLabel<'a> {
    pub name: &'a str,
    pub file: &'a str,
    pub line: Option<u64>,
    pub column: Option<u64>,
}

pub(crate) fn parse_profile_string(label: &str) -> ParsedLabel<'_> {
    let (name, location) = match label.strip_suffix(')').and_then(|l| l.split_once(" (")) {
        Some((name, loc)) => (name, loc),
        None => ("", label),
    };
    let split = location.rsplit_once(':').and_then(|(rest, col)| {
        let (file, line) = rest.rsplit_once(':')?;
        Some((file, line.parse::<u64>().ok()?, col.parse::<u64>().ok()?))
    });
    match split {
        Some((file, line, column)) => ParsedLabel {
            name,
            file,
            line: Some(line),
            column: Some(column),
        },
        None => ParsedLabel {
            name,
            file: location,
            line: None,
            column: None,
        },
    }
}

/// The function's own name: SpiderMonkey's guessed display names for
/// anonymous functions (`outer/total<`, `obj.method`, `a/<`) become "".
/// Own names keep their form (`get x`, `set x`, `[Symbol.iterator]`).
pub(crate) fn own_name(display: &str) -> &str {
    let base = display
        .strip_prefix("get ")
        .or_else(|| display.strip_prefix("set "))
        .unwrap_or(display);
    if base.starts_with('[') {
        return display;
    }
    if display.contains('/') || display.contains('<') || base.contains('.') {
        ""
    } else {
        display
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_strings() {
        assert_eq!(
            parse_profile_string("get value (https://a/x.js:3:12)"),
            ParsedLabel {
                name: "get value",
                file: "https://a/x.js",
                line: Some(3),
                column: Some(12)
            }
        );
        let p = parse_profile_string("https://a/x.js line 2 > eval:1:1");
        assert_eq!(
            (p.name, p.file, p.line),
            ("", "https://a/x.js line 2 > eval", Some(1))
        );
        let p = parse_profile_string("https://a:8080/x.js");
        assert_eq!((p.file, p.line), ("https://a:8080/x.js", None));
    }

    #[test]
    fn guessed_names_are_anonymous() {
        assert_eq!(own_name("outer/total<"), "");
        assert_eq!(own_name("obj.method"), "");
        assert_eq!(own_name("get x"), "get x");
        assert_eq!(own_name("[Symbol.iterator]"), "[Symbol.iterator]");
        assert_eq!(own_name("leaf"), "leaf");
    }
}
