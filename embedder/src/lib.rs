//! The jsprof shell: the command line around the engine components.

#![forbid(unsafe_code)]

use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use jsprof_document::{HeaderList, ScriptFetchParams};
use jsprof_net::{
    BlobStore, ClassicScriptFetch, Fetcher, FollowedResponse, HopRequest, NetConfig, NetError,
    RawResponse,
};
use jsprof_script::loading::script_loading::Loader;
use jsprof_script::{JsRuntime, ScriptError};

/// The bundled event-loop demo page (`examples/demo.html`, one copy for
/// the shell and for loading from disk).
pub const DEMO_PAGE: &str = include_str!("../../examples/demo.html");
/// The internal URL the demo page is served at.
pub const DEMO_PAGE_URL: &str = "jsprof:demo/index.html";
/// The bundled page-load demo, profiled when `jsprof` is given no argument.
pub const PAGELOAD_DEMO: &str = include_str!("../demo/pageload.html");
/// The internal URL the page-load demo is served at.
pub const PAGELOAD_DEMO_URL: &str = "jsprof:demo/pageload.html";

/// Evaluates one classic script in a fresh runtime on this thread and returns
/// its completion value as a string.
pub fn evaluate(source: &str, filename: &str) -> Result<String, EvalError> {
    let mut runtime = JsRuntime::new().map_err(EvalError::Engine)?;
    runtime
        .evaluate(source, filename, 1)
        .map_err(EvalError::Script)
}

/// Evaluates one classic script like [`evaluate`] under the options'
/// limits (`timeout` and `max_heap_mb`; the watchdog interrupts the script
/// as on a page). The outer `Err` is an engine or watchdog start failure;
/// the [`RunEnd`] says whether the watchdog stopped the script (then the
/// evaluation's own result is the termination it caused).
pub fn evaluate_with_limits(
    source: &str,
    filename: &str,
    options: &RunOptions,
) -> Result<(Result<String, EvalError>, RunEnd), String> {
    with_limits(options, options.timeout, |runtime, _| {
        Ok(runtime
            .evaluate(source, filename, 1)
            .map_err(EvalError::Script))
    })
}

/// Why an evaluation produced no result.
#[derive(Debug)]
pub enum EvalError {
    /// SpiderMonkey could not be started.
    Engine(String),
    /// The script threw or did not compile.
    Script(ScriptError),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Engine(message) => write!(f, "engine error: {message}"),
            EvalError::Script(error) => write!(f, "uncaught exception: {error}"),
        }
    }
}

/// The shell's loader: the bundled demo at [`DEMO_PAGE_URL`], every other
/// URL through the `jsprof-net` [`Fetcher`].
#[derive(Clone)]
pub struct ShellLoader {
    fetcher: Fetcher,
}

impl ShellLoader {
    /// A loader with this network configuration (host rules, trusted
    /// certificates, timeout, blob store).
    pub fn new(config: NetConfig) -> Result<ShellLoader, NetError> {
        Ok(ShellLoader {
            fetcher: Fetcher::new(config)?,
        })
    }
}

impl Loader for ShellLoader {
    fn fetch_document(&self, url: &url::Url) -> Result<FollowedResponse, NetError> {
        let bundled = match url.as_str() {
            DEMO_PAGE_URL => Some(DEMO_PAGE),
            PAGELOAD_DEMO_URL => Some(PAGELOAD_DEMO),
            _ => None,
        };
        if let Some(page) = bundled {
            return Ok(FollowedResponse {
                url_list: vec![url.clone()],
                response: RawResponse {
                    url: url.clone(),
                    status: 200,
                    status_text: "OK".to_owned(),
                    headers: HeaderList::new().with("Content-Type", "text/html;charset=utf-8"),
                    body: page.as_bytes().to_vec(),
                },
            });
        }
        self.fetcher.fetch_document(url)
    }

    fn fetch_classic_script(
        &self,
        params: ScriptFetchParams,
    ) -> Result<ClassicScriptFetch, NetError> {
        Loader::fetch_classic_script(&self.fetcher, params)
    }

    fn blob_store(&self) -> Arc<BlobStore> {
        Loader::blob_store(&self.fetcher)
    }

    fn fetch_hop(&self, request: &HopRequest) -> Result<RawResponse, NetError> {
        self.fetcher.fetch_hop(request)
    }

    fn fetch_api(
        &self,
        request: jsprof_net::ApiRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<jsprof_net::ApiResponse, NetError> {
        self.fetcher.fetch_api(request, cancelled)
    }

    fn cookie_jar(&self) -> Option<Arc<jsprof_net::CookieJar>> {
        Some(self.fetcher.config().cookie_jar.clone())
    }

    /// Workers load with the same network configuration and blob URL
    /// store, over connections of their own (so that terminating a worker
    /// aborts its fetches only); the bundled demo pages are documents, not
    /// worker scripts.
    fn for_workers(&self) -> Option<Arc<dyn Loader + Send + Sync>> {
        let fetcher = self
            .fetcher
            .with_own_connections()
            .unwrap_or_else(|_| self.fetcher.clone());
        Some(Arc::new(ShellLoader { fetcher }))
    }

    fn abort(&self) {
        self.fetcher.abort()
    }
}

/// Turns a command-line argument into a URL: absolute URLs as they are,
/// anything else as a file path.
pub fn url_from_argument(argument: &str) -> Result<url::Url, String> {
    if let Ok(url) = url::Url::parse(argument) {
        if url.scheme().len() > 1 {
            return Ok(url);
        }
    }
    let path = std::path::Path::new(argument);
    let absolute = std::path::absolute(path).map_err(|e| format!("{argument}: {e}"))?;
    url::Url::from_file_path(&absolute).map_err(|_| format!("{argument}: not a valid path"))
}

/// The exit status of a run that ended normally (the page ran to idle, or
/// `jsprof profile`'s `--duration` stopped it).
pub const EXIT_OK: u8 = 0;
/// The exit status of a failure: bad arguments, a document that could not
/// be loaded, an uncaught exception in `jsprof eval`, a trace that could
/// not be written.
pub const EXIT_ERROR: u8 = 1;
/// The exit status when `--timeout` stopped the page (its script
/// interrupted, or the page still busy: timers, messages, workers), as GNU
/// `timeout` does.
pub const EXIT_TIMEOUT: u8 = 124;

/// Options of a page run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Stop the page's agents after this long (the watchdog: running script
    /// is interrupted, see `jsprof_script::runtime::watchdog`).
    pub timeout: Option<Duration>,
    /// The heap ceiling of each agent, in MiB (`None`:
    /// [`jsprof_script::runtime::watchdog::DEFAULT_MAX_HEAP_MB`]).
    pub max_heap_mb: Option<u32>,
    /// Host rules, certificates, and the rest of the network
    /// configuration.
    pub net: NetConfig,
    /// No shell messages (console output and script errors still print).
    pub quiet: bool,
}

/// How a page run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Nothing was left to run.
    Idle,
    /// The time limit passed: the watchdog stopped the page's agents.
    Stopped(jsprof_script::runtime::watchdog::Interruption),
}

impl RunEnd {
    /// The line the shell prints on stderr for a stopped page, naming the
    /// option that stopped it: `timeout: script interrupted after 3 s in
    /// URL:LINE`, or `timeout: page stopped after 3 s (no script was
    /// running)`.
    pub fn describe(&self, option: &str) -> Option<String> {
        let RunEnd::Stopped(interruption) = self else {
            return None;
        };
        let after = interruption.after.as_secs_f64();
        Some(match &interruption.location {
            Some(location) => format!(
                "{option}: script interrupted after {after} s in {}:{}{}",
                location.url,
                location.line,
                if location.in_worker {
                    " (a dedicated worker)"
                } else {
                    ""
                }
            ),
            None => format!("{option}: page stopped after {after} s (no script was running)"),
        })
    }
}

/// Runs `run` on a fresh runtime of this thread under the options' limits
/// (the heap ceiling of every agent, and a watchdog at `limit`); drops the
/// runtime (workers joined, samplers shut down) before saying how the run
/// ended.
fn with_limits<T>(
    options: &RunOptions,
    limit: Option<Duration>,
    run: impl FnOnce(&mut JsRuntime, &ShellLoader) -> Result<T, String>,
) -> Result<(T, RunEnd), String> {
    let loader = ShellLoader::new(options.net.clone()).map_err(|e| e.to_string())?;
    jsprof_script::runtime::watchdog::set_max_heap_mb(
        options
            .max_heap_mb
            .unwrap_or(jsprof_script::runtime::watchdog::DEFAULT_MAX_HEAP_MB),
    );
    let watchdog = limit
        .map(jsprof_script::runtime::watchdog::Watchdog::arm)
        .transpose()?;
    if let Some(watchdog) = &watchdog {
        // A fetch the page waits for (a parser-blocking script from a slow
        // server) is no script: the watchdog aborts the page's fetches.
        let fetcher = loader.fetcher.clone();
        watchdog.on_fire(move || fetcher.abort());
    }
    let mut runtime = JsRuntime::new()?;
    let result = run(&mut runtime, &loader);
    drop(runtime);
    let end = match watchdog.as_ref().and_then(|w| w.interruption()) {
        Some(interruption) => RunEnd::Stopped(interruption),
        None => RunEnd::Idle,
    };
    drop(watchdog);
    Ok((result?, end))
}

/// Loads the page at `url` and runs it to idle, or until the timeout, when
/// the watchdog interrupts whatever script runs. Script errors are
/// reported on stderr, not returned; `Err` means the document could not be
/// loaded.
pub fn run_page(url: &url::Url, options: &RunOptions) -> Result<RunEnd, String> {
    let ((), end) = with_limits(options, options.timeout, |runtime, loader| {
        runtime
            .load_page(url, Rc::new(loader.clone()))
            .map_err(|e| e.to_string())?;
        runtime.run_until_idle(None);
        Ok(())
    })?;
    Ok(end)
}

/// What `jsprof profile` records.
#[derive(Clone, Debug)]
pub struct ProfileOptions {
    /// The requested sample interval (ms); the effective one is the next
    /// interval the engine supports (whole milliseconds, at least 1).
    pub interval_ms: f64,
    /// The session's sample buffer limit.
    pub max_samples: usize,
    /// Stop the page after this long even if it is not idle.
    pub duration: Option<Duration>,
}

impl Default for ProfileOptions {
    fn default() -> Self {
        ProfileOptions {
            interval_ms: 1.0,
            max_samples: 100_000,
            duration: None,
        }
    }
}

/// A finished `jsprof profile` run.
pub struct Profile {
    pub trace: jsprof_sampler::ProfilerTrace,
    /// The effective sample interval (ms).
    pub interval_ms: f64,
    /// Whether the sample buffer filled before the page was done.
    pub buffer_full: bool,
    /// How the page run ended: `Stopped` when `--timeout` or `--duration`
    /// passed (the trace holds the samples taken until then).
    pub end: RunEnd,
}

/// Loads the page at `url` with a profiling session started by the shell
/// in the page's main realm at document creation (as the spec's page-load
/// example does from script; the document's policy is enabled for it: it
/// is the user's own page), runs it to its load event and then to idle
/// (or until `duration` or the timeout, when the watchdog interrupts
/// whatever script runs), and returns the session's trace.
pub fn profile_page(
    url: &url::Url,
    options: &RunOptions,
    profile: &ProfileOptions,
) -> Result<Profile, String> {
    let limit = [options.timeout, profile.duration]
        .into_iter()
        .flatten()
        .min();
    let ((trace, interval_ms, buffer_full), end) =
        with_limits(options, limit, |runtime, loader| {
            jsprof_script::runtime::profiling::request_shell_profile(
                jsprof_script::runtime::profiling::ShellProfileRequest {
                    interval_ms: profile.interval_ms,
                    max_samples: profile.max_samples,
                },
            );
            let loaded = runtime
                .load_page(url, Rc::new(loader.clone()))
                .map_err(|e| e.to_string());
            if loaded.is_ok() {
                runtime.run_until_idle(None);
            }
            let session = jsprof_script::runtime::profiling::shell_session();
            loaded?;
            let session =
                session.ok_or("the page's document was not created, nothing was profiled")?;
            let buffer_full = session.buffer_full();
            let interval_ms = session.sample_interval_ms();
            // (The session's samples up to an interruption are kept: stopping
            // runs no script.)
            let trace = session
                .stop()
                .map_err(|e| format!("the profiling session ended early: {e:?}"))?;
            Ok((trace, interval_ms, buffer_full))
        })?;
    Ok(Profile {
        trace,
        interval_ms,
        buffer_full,
        end,
    })
}

/// The trace as JSON (the `ProfilerTrace` format of the explainer's
/// appendix).
pub fn trace_json(trace: &jsprof_sampler::ProfilerTrace) -> String {
    serde_json::to_string(trace).expect("a trace serializes")
}

/// The share of samples per marker (the markers extension,
/// <https://github.com/WICG/js-self-profiling/blob/main/markers.md>), as a
/// summary line; `None` when no sample has a marker (the profiled realm
/// was not cross-origin isolated, or the trace predates markers). Samples
/// without a marker are counted as `none`.
pub fn marker_shares(samples: &[jsprof_sampler::ProfilerSample]) -> Option<String> {
    use jsprof_sampler::ProfilerMarker as M;
    if samples.iter().all(|s| s.marker.is_none()) {
        return None;
    }
    let kinds = [
        (Some(M::Script), "script"),
        (Some(M::Gc), "gc"),
        (Some(M::Style), "style"),
        (Some(M::Layout), "layout"),
        (Some(M::Paint), "paint"),
        (Some(M::Other), "other"),
        (None, "none"),
    ];
    let parts: Vec<String> = kinds
        .iter()
        .filter_map(|(kind, name)| {
            let n = samples.iter().filter(|s| s.marker == *kind).count();
            (n > 0).then(|| {
                format!(
                    "{name} {:.1} % ({n})",
                    n as f64 * 100.0 / samples.len() as f64
                )
            })
        })
        .collect();
    Some(format!("markers: {}\n", parts.join(", ")))
}

/// A short text summary: total samples, then the top `top` functions by
/// self samples (the sample's leaf frame) and by total samples (on the
/// stack, once per sample), each with its resource and line.
pub fn summarize(profile: &Profile, top: usize) -> String {
    use std::fmt::Write;
    let trace = &profile.trace;
    let frames = trace.frames.len();
    let mut self_counts = vec![0usize; frames];
    let mut total_counts = vec![0usize; frames];
    let mut with_stack = 0;
    let mut seen = vec![usize::MAX; frames];
    for (index, sample) in trace.samples.iter().enumerate() {
        let Some(mut stack_id) = sample.stack_id else {
            continue;
        };
        with_stack += 1;
        let mut leaf = true;
        // Walk leaf to root (bounded by the number of stacks).
        for _ in 0..trace.stacks.len() {
            let Some(stack) = trace.stacks.get(stack_id as usize) else {
                break;
            };
            let frame = stack.frame_id as usize;
            if frame < frames {
                if leaf {
                    self_counts[frame] += 1;
                }
                if seen[frame] != index {
                    seen[frame] = index;
                    total_counts[frame] += 1;
                }
            }
            leaf = false;
            match stack.parent_id {
                Some(parent) => stack_id = parent,
                None => break,
            }
        }
    }
    let describe = |frame: usize| -> String {
        let f = &trace.frames[frame];
        let name = match (f.name.is_empty(), f.line) {
            (false, _) => f.name.as_str(),
            // A script's top-level code has a resource but no definition
            // position.
            (true, None) => "(top level)",
            (true, Some(_)) => "(anonymous)",
        };
        match f.resource_id.and_then(|r| trace.resources.get(r as usize)) {
            Some(resource) if f.line.is_none() => format!("{name}  {resource}"),
            Some(resource) => format!(
                "{name}  {resource}:{}:{}",
                f.line.unwrap_or(0),
                f.column.unwrap_or(0)
            ),
            None => format!("{name}  (built-in)"),
        }
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "total samples: {} ({} with JS on the stack, {} idle) at {} ms{}",
        trace.samples.len(),
        with_stack,
        trace.samples.len() - with_stack,
        profile.interval_ms,
        if profile.buffer_full {
            " (the sample buffer filled: --max-samples)"
        } else {
            ""
        }
    );
    if let Some(shares) = marker_shares(&trace.samples) {
        out.push_str(&shares);
    }
    if let RunEnd::Stopped(interruption) = &profile.end {
        let _ = writeln!(
            out,
            "interrupted: the page was stopped after {} s{}; the trace ends there",
            interruption.after.as_secs_f64(),
            match &interruption.location {
                Some(location) =>
                    format!(" (script running at {}:{})", location.url, location.line),
                None => String::new(),
            }
        );
    }
    for (title, counts) in [("self", &self_counts), ("total", &total_counts)] {
        let mut order: Vec<usize> = (0..frames).filter(|&f| counts[f] > 0).collect();
        order.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
        let _ = writeln!(out, "top functions by {title} samples:");
        if order.is_empty() {
            let _ = writeln!(out, "  (none)");
        }
        for &frame in order.iter().take(top) {
            let percent = 100.0 * counts[frame] as f64 / trace.samples.len().max(1) as f64;
            let _ = writeln!(
                out,
                "  {:>6} {:>5.1}%  {}",
                counts[frame],
                percent,
                describe(frame)
            );
        }
    }
    out
}
