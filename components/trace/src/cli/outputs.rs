//! What `jsprof profile` writes next to its trace, and source maps found
//! by fetching the scripts a trace names.

use clap::Args;

use super::commands::{default_output, file_stem, write_format, write_text};
use crate::convert::Format;
use crate::symbolicate::{data_url_bytes, source_mapping_url, symbolicate, SourceMaps};
use crate::{Mode, Profile, ProfilerTrace};

/// What `jsprof profile` writes besides the trace: its output options.
#[derive(Clone, Debug, Default, Args)]
pub struct ProfileOutputs {
    /// Where to write the SVG flame graph (default: next to the trace,
    /// TRACE.svg)
    #[arg(
        long = "flamegraph",
        value_name = "PATH",
        overrides_with = "no_flamegraph"
    )]
    pub flamegraph_path: Option<String>,
    /// No flame graph
    #[arg(long = "no-flamegraph", overrides_with = "flamegraph_path")]
    pub no_flamegraph: bool,
    /// Also write FORMAT next to the trace (repeatable): firefox,
    /// cpuprofile, speedscope, pprof, sentry, folded
    #[arg(long = "format", value_name = "FORMAT", value_parser = super::format)]
    pub formats: Vec<Format>,
    /// Map frames through the scripts' source maps (sourceMappingURL
    /// comment, SourceMap header, data: maps)
    #[arg(long)]
    pub sourcemaps: bool,
}

impl ProfileOutputs {
    /// Writes the outputs for the trace just written as JSON to
    /// `trace_path` (symbolicating it in place first with `--sourcemaps`,
    /// fetching through `fetcher`), returning the files written.
    pub fn write(
        &self,
        trace_path: &str,
        trace_json: &str,
        interval_ms: f64,
        fetcher: &jsprof_net::Fetcher,
    ) -> Result<Vec<String>, String> {
        let mut written = Vec::new();
        let mut trace =
            crate::from_str(trace_json).map_err(|e| format!("the trace does not validate: {e}"))?;
        if self.sourcemaps {
            let mut maps = SourceMaps::new();
            let found = discover_maps(&trace, &mut maps, fetcher);
            for warning in found.warnings {
                eprintln!("jsprof: source map: {warning}");
            }
            trace = symbolicate(&trace, &maps);
            let text = serde_json::to_string(&trace).map_err(|e| e.to_string())?;
            write_text(trace_path, &text)?;
        }
        let mut profile = Profile::from_trace(&trace, Some(interval_ms));
        profile.name = file_stem(trace_path);
        let mut outputs: Vec<(Format, String)> = Vec::new();
        if !self.no_flamegraph {
            let path = self
                .flamegraph_path
                .clone()
                .unwrap_or_else(|| default_output(trace_path, Mode::Timeline, Format::Svg));
            outputs.push((Format::Svg, path));
        }
        for &format in &self.formats {
            outputs.push((format, default_output(trace_path, Mode::Timeline, format)));
        }
        for (format, path) in outputs {
            write_format(&profile, format, &path)?;
            written.push(path);
        }
        Ok(written)
    }
}

/// What [`discover_maps`] found.
#[derive(Debug, Default)]
pub struct Discovered {
    /// How many source maps were added.
    pub loaded: usize,
    /// Scripts and maps that could not be fetched or parsed, one line
    /// each.
    pub warnings: Vec<String>,
}

/// For every resource of `trace` without a map yet: fetches the script,
/// follows its `SourceMap` header or `//# sourceMappingURL=` comment
/// (resolved against the script's URL; `data:` maps inline) and adds the
/// map. Scripts without a map are left alone; fetch and parse failures
/// become warnings.
/// <https://tc39.es/ecma426/#sec-linking-generated-code>
pub fn discover_maps(
    trace: &ProfilerTrace,
    maps: &mut SourceMaps,
    fetcher: &jsprof_net::Fetcher,
) -> Discovered {
    let mut found = Discovered::default();
    for resource in &trace.resources {
        if maps.has(resource) {
            continue;
        }
        let Ok(script_url) = url::Url::parse(resource) else {
            continue;
        };
        let response = match fetcher.fetch_following(&script_url, &[]) {
            Ok(r) if r.response.is_ok() => r.response,
            Ok(r) => {
                found
                    .warnings
                    .push(format!("{resource}: status {}", r.response.status));
                continue;
            }
            Err(e) => {
                found.warnings.push(format!("{resource}: {e}"));
                continue;
            }
        };
        // The SourceMap header wins over the comment.
        let header = response
            .header("SourceMap")
            .or_else(|| response.header("X-SourceMap"));
        let text = String::from_utf8_lossy(&response.body);
        let Some(reference) = header.as_deref().or_else(|| source_mapping_url(&text)) else {
            continue;
        };
        let map_url = match response.url.join(reference.trim()) {
            Ok(u) => u,
            Err(e) => {
                found
                    .warnings
                    .push(format!("{resource}: bad source map URL {reference}: {e}"));
                continue;
            }
        };
        // A web script's map never comes from the local disk (a page
        // must not make the shell read local files).
        if map_url.scheme() == "file" && script_url.scheme() != "file" {
            found.warnings.push(format!(
                "{resource}: ignored the local source map {map_url} of a web script"
            ));
            continue;
        }
        let json = if map_url.scheme() == "data" {
            data_url_bytes(map_url.as_str())
                .ok_or_else(|| format!("{resource}: bad data: source map URL"))
        } else {
            match fetcher.fetch_following(&map_url, &[]) {
                Ok(r) if r.response.is_ok() => Ok(r.response.body),
                Ok(r) => Err(format!("{map_url}: status {}", r.response.status)),
                Err(e) => Err(format!("{map_url}: {e}")),
            }
        };
        let base = (map_url.scheme() != "data").then(|| map_url.to_string());
        match json.and_then(|json| {
            maps.add(resource, &json, base.as_deref())
                .map_err(|e| e.to_string())
        }) {
            Ok(()) => found.loaded += 1,
            Err(message) => found.warnings.push(message),
        }
    }
    found
}
