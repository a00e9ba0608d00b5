//! Frames mapped through source maps to original files, lines, columns
//! and function names (the `sourcemap` crate).
//! Source Map format: <https://tc39.es/ecma426/>

use std::collections::HashMap;

use sourcemap::SourceMap;

use crate::{ProfilerFrame, ProfilerTrace, TraceBuilder};

/// Source maps by the URL of the script they describe.
#[derive(Default)]
pub struct SourceMaps {
    maps: HashMap<String, Loaded>,
}

struct Loaded {
    map: SourceMap,
    /// Where the map came from: relative `sources` resolve against it.
    base: Option<url::Url>,
}

/// Why a source map was not loaded.
#[derive(Debug)]
pub struct MapError(pub String);

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MapError {}

impl SourceMaps {
    /// No maps.
    pub fn new() -> SourceMaps {
        SourceMaps::default()
    }

    /// Adds the map for `script_url` from the map's JSON; `map_url` (where
    /// the map was found, if anywhere) is the base for relative source
    /// paths, else the script's URL is. Index maps (`sections`) are
    /// flattened.
    pub fn add(
        &mut self,
        script_url: &str,
        map_json: &[u8],
        map_url: Option<&str>,
    ) -> Result<(), MapError> {
        let map = match sourcemap::decode_slice(map_json)
            .map_err(|e| MapError(format!("source map for {script_url}: {e}")))?
        {
            sourcemap::DecodedMap::Regular(map) => map,
            sourcemap::DecodedMap::Index(index) => index
                .flatten()
                .map_err(|e| MapError(format!("source map for {script_url}: {e}")))?,
            sourcemap::DecodedMap::Hermes(hermes) => (*hermes).clone(),
        };
        let base = map_url
            .and_then(|u| url::Url::parse(u).ok())
            .or_else(|| url::Url::parse(script_url).ok());
        self.maps
            .insert(script_url.to_owned(), Loaded { map, base });
        Ok(())
    }

    /// Whether there is a map for `script_url`.
    pub fn has(&self, script_url: &str) -> bool {
        self.maps.contains_key(script_url)
    }

    /// Number of maps.
    pub fn len(&self) -> usize {
        self.maps.len()
    }

    /// Whether there are no maps.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// The original position of `frame` (in `resources`), if its script
    /// has a map covering the frame's line and column.
    pub fn original(&self, frame: &ProfilerFrame, resources: &[String]) -> Option<Original> {
        let loaded = self.maps.get(frame.resource(resources)?)?;
        let line = u32::try_from(frame.line?.checked_sub(1)?).ok()?;
        let column = u32::try_from(frame.column.unwrap_or(1).saturating_sub(1)).ok()?;
        let token = loaded.map.lookup_token(line, column)?;
        if token.get_dst_line() != line {
            return None; // the nearest mapping is on an earlier line
        }
        let source = token.get_source()?;
        let file = match &loaded.base {
            Some(base) => base
                .join(source)
                .map(String::from)
                .unwrap_or_else(|_| source.to_owned()),
            None => source.to_owned(),
        };
        Some(Original {
            file,
            line: u64::from(token.get_src_line()) + 1,
            column: u64::from(token.get_src_col()) + 1,
            name: original_name(&loaded.map, &token, frame),
        })
    }
}

/// A frame's original position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Original {
    /// The original source file (its URL, resolved against the map's
    /// URL, else the script's).
    pub file: String,
    /// 1-based.
    pub line: u64,
    /// 1-based.
    pub column: u64,
    /// The original function name, when the map names it.
    pub name: Option<String>,
}

/// The original name of the function whose definition starts at `token`:
/// the token's own name, or the first named mapping within the span of
/// `async function* name` after it (bundlers name the identifier, not the
/// `function` keyword, where the engine's position points).
fn original_name(
    map: &SourceMap,
    token: &sourcemap::Token<'_>,
    frame: &ProfilerFrame,
) -> Option<String> {
    if let Some(name) = token.get_name() {
        return Some(name.to_owned());
    }
    if frame.name.is_empty() {
        return None;
    }
    let line = token.get_dst_line();
    let start = token.get_dst_col();
    let span = "async function* ".len() as u32 + frame.name.len() as u32;
    let count = map.get_token_count() as usize;
    // Tokens are sorted by destination position: the first at or after
    // the frame's.
    let (mut low, mut high) = (0, count);
    while low < high {
        let middle = (low + high) / 2;
        match map.get_token(middle) {
            Some(t) if t.get_dst() < (line, start) => low = middle + 1,
            _ => high = middle,
        }
    }
    let index = low;
    (index..count)
        .map_while(|i| map.get_token(i))
        .take_while(|t| t.get_dst_line() == line && t.get_dst_col() <= start + span)
        .find_map(|t| t.get_name().map(str::to_owned))
}

/// The trace with every frame that a map covers replaced by its original
/// file, line, column and (when the map names it) function name; other
/// frames stay as they are. Frames that map to the same original frame
/// merge, and so do their stacks.
pub fn symbolicate(trace: &ProfilerTrace, maps: &SourceMaps) -> ProfilerTrace {
    let mut builder = TraceBuilder::default();
    let frame_ids: Vec<u64> = trace
        .frames
        .iter()
        .map(|frame| {
            let mapped = match maps.original(frame, &trace.resources) {
                Some(original) => ProfilerFrame {
                    name: original.name.unwrap_or_else(|| frame.name.clone()),
                    resource_id: Some(builder.resource_id(&original.file)),
                    line: Some(original.line),
                    column: Some(original.column),
                },
                None => ProfilerFrame {
                    resource_id: frame
                        .resource(&trace.resources)
                        .map(|r| builder.resource_id(r)),
                    ..frame.clone()
                },
            };
            builder.frame_id(mapped)
        })
        .collect();
    // Stacks in an order where parents come first (depth order).
    let depths = trace.stack_depths();
    let mut order: Vec<usize> = (0..trace.stacks.len()).collect();
    order.sort_by_key(|&i| depths[i].unwrap_or(u32::MAX));
    let mut stack_ids = vec![None; trace.stacks.len()];
    for i in order {
        let stack = &trace.stacks[i];
        let parent = match stack.parent_id {
            Some(p) => match stack_ids.get(p as usize).copied().flatten() {
                Some(id) => Some(id),
                None => continue, // a broken chain (not in a validated trace)
            },
            None => None,
        };
        let Some(&frame) = frame_ids.get(stack.frame_id as usize) else {
            continue;
        };
        stack_ids[i] = Some(builder.stack_id(parent, frame));
    }
    let mut out = builder.finish();
    out.samples = trace
        .samples
        .iter()
        .map(|s| crate::ProfilerSample {
            stack_id: s
                .stack_id
                .and_then(|id| stack_ids.get(id as usize).copied().flatten()),
            ..s.clone()
        })
        .collect();
    out
}

/// The `sourceMappingURL` of a script: the value of the last
/// `//# sourceMappingURL=` (or the legacy `//@`) comment.
/// <https://tc39.es/ecma426/#sec-linking-generated-code>
pub fn source_mapping_url(script: &str) -> Option<&str> {
    script.lines().rev().find_map(|line| {
        let line = line.trim();
        let rest = line
            .strip_prefix("//# sourceMappingURL=")
            .or_else(|| line.strip_prefix("//@ sourceMappingURL="))?;
        let url = rest.trim();
        (!url.is_empty() && !url.contains(char::is_whitespace)).then_some(url)
    })
}

/// The bytes of a `data:` URL (`base64` or percent-encoded), as inline
/// source maps use; `None` if `url` is not a valid `data:` URL.
pub fn data_url_bytes(url: &str) -> Option<Vec<u8>> {
    let rest = url.strip_prefix("data:")?;
    let (meta, data) = rest.split_once(',')?;
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(data).collect();
    if meta.ends_with(";base64") {
        use base64::Engine;
        let text: Vec<u8> = bytes
            .into_iter()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        base64::engine::general_purpose::STANDARD.decode(text).ok()
    } else {
        Some(bytes)
    }
}
