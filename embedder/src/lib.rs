//! The jsprof shell: the command line around the engine components.

use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jsprof_document::{HeaderList, ScriptFetchParams};
use jsprof_net::{
    BlobStore, ClassicScriptFetch, Fetcher, FollowedResponse, HopRequest, NetConfig, NetError,
    RawResponse,
};
use jsprof_script::script_loading::Loader;
use jsprof_script::{JsRuntime, ScriptError};

/// The bundled demo script, run by `jsprof eval` examples and tests.
pub const DEMO_SCRIPT: &str = include_str!("../demo/demo.js");
/// The file name the demo script is compiled with.
pub const DEMO_FILENAME: &str = "jsprof:demo/demo.js";
/// The bundled demo page, loaded when `jsprof` is given no page.
pub const DEMO_PAGE: &str = include_str!("../demo/index.html");
/// The internal URL the demo page is served at.
pub const DEMO_PAGE_URL: &str = "jsprof:demo/index.html";

/// Evaluates one classic script in a fresh runtime on this thread and returns
/// its completion value as a string.
pub fn evaluate(source: &str, filename: &str) -> Result<String, EvalError> {
    let mut runtime = JsRuntime::new().map_err(EvalError::Engine)?;
    runtime
        .evaluate(source, filename, 1)
        .map_err(EvalError::Script)
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
        if url.as_str() == DEMO_PAGE_URL {
            return Ok(FollowedResponse {
                url_list: vec![url.clone()],
                response: RawResponse {
                    url: url.clone(),
                    status: 200,
                    status_text: "OK".to_owned(),
                    headers: HeaderList::new().with("Content-Type", "text/html;charset=utf-8"),
                    body: DEMO_PAGE.as_bytes().to_vec(),
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

/// Options of a page run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub timeout: Option<Duration>,
    /// Host rules, certificates, and the rest of the network
    /// configuration.
    pub net: NetConfig,
    /// No shell messages (console output and script errors still print).
    pub quiet: bool,
}

/// Loads the page at `url` and runs it to idle (or the timeout). Script
/// errors are reported on stderr, not returned; `Err` means the document
/// could not be loaded.
pub fn run_page(url: &url::Url, options: &RunOptions) -> Result<(), String> {
    let loader = ShellLoader::new(options.net.clone()).map_err(|e| e.to_string())?;
    let mut runtime = JsRuntime::new()?;
    let deadline = options.timeout.map(|t| Instant::now() + t);
    runtime
        .load_page(url, Rc::new(loader))
        .map_err(|e| e.to_string())?;
    if !runtime.run_until_idle(deadline) && !options.quiet {
        eprintln!("jsprof: timeout reached, stopping the page");
    }
    Ok(())
}
