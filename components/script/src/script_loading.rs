//! Loading a page into a window: the [`Loader`] abstraction, the HTML
//! parser driving html5ever with our own tree sink (nodes are the
//! generated-binding DOM objects), "prepare the script element", "execute
//! the script element", "run a classic script", and the end-of-parsing
//! steps (`DOMContentLoaded`, deferred scripts, `load`).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ffi::CString;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::Arc;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, QualName, TokenizerResult};
use jsprof_document::{
    is_secure_context, process_response_policy, CorsSettings, CrossOriginIsolation, Environment,
    Origin, ScriptCorsOutcome, ScriptFetchParams,
};
use jsprof_net::{
    ApiRequest, ApiResponse, BlobEntry, BlobStore, ClassicScriptFetch, CookieJar, Fetcher,
    FollowedResponse, HopRequest, NetError, RawResponse,
};
use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::{evaluate_script, CompileOptionsWrapper};

use crate::browsing_context;
use crate::dom::bindings::root::DomRoot;
use crate::dom::document::{Document, DocumentReadyState};
use crate::dom::element::Element;
use crate::dom::event::Event;
use crate::dom::globalscope::{report_pending_exception, GlobalScope};
use crate::dom::htmliframeelement::HTMLIFrameElement;
use crate::dom::htmlscriptelement::HTMLScriptElement;
use crate::dom::node::Node;
use crate::dom::text::Text;
use crate::dom::window::Window;
use crate::event_loop::EventLoop;
use crate::html_tree_builder::{DepthCap, DepthLimiter, ElementNameRef, HasDepthCap, ParserHandle};
use crate::runtime::ScriptError;
use crate::script_registry::{self, ScriptRecord};

/// What loads documents and scripts: every load of the shell goes through
/// a [`jsprof_net::Fetcher`] (which implements this trait); the embedder
/// may wrap one to serve internal pages (the bundled demo).
pub trait Loader {
    /// A navigation fetch of `url`: follows redirects (Fetch's redirect
    /// mode "follow"); the response keeps its URL list and headers. `Err`
    /// is a network error.
    fn fetch_document(&self, url: &url::Url) -> Result<FollowedResponse, NetError>;

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-classic-script>:
    /// `jsprof_document`'s per-hop state machine decides the request mode,
    /// each hop's `Origin` header, the CORS check and muted errors; the
    /// loader sends the hops.
    fn fetch_classic_script(
        &self,
        params: ScriptFetchParams,
    ) -> Result<ClassicScriptFetch, NetError>;

    /// The blob URL store `blob:` URLs resolve in (shared with
    /// `URL.createObjectURL`).
    fn blob_store(&self) -> Arc<BlobStore>;

    /// One request, redirects not followed (for `fetch()`, which checks
    /// each redirect's target before requesting it).
    fn fetch_hop(&self, request: &HopRequest) -> Result<RawResponse, NetError>;

    /// The Fetch Standard's fetch of a script-made request (`fetch()`,
    /// `XMLHttpRequest`): [`jsprof_net::api_fetch::fetch`] over this
    /// loader's hops. The default uses a preflight cache of its own for
    /// the call; a [`Fetcher`] uses its configuration's shared one.
    /// `cancelled` is polled before each hop. Blocking: called on a fetch
    /// thread.
    fn fetch_api(
        &self,
        request: ApiRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<ApiResponse, NetError> {
        jsprof_net::api_fetch::fetch(
            &|hop| self.fetch_hop(hop),
            &jsprof_net::PreflightCache::new(),
            request,
            cancelled,
        )
    }

    /// The cookie jar the loader's `http(s)` hops use (for
    /// `document.cookie`); `None` if it has none.
    fn cookie_jar(&self) -> Option<Arc<CookieJar>> {
        None
    }

    /// A loader usable from a dedicated worker's thread, sharing this
    /// one's network configuration and blob URL store. `None`: this loader
    /// cannot be shared, and workers created under it can load `data:`
    /// and `blob:` scripts only (from the same blob URL store).
    fn for_workers(&self) -> Option<Arc<dyn Loader + Send + Sync>> {
        None
    }

    /// Aborts the fetches in flight on this loader and fails the later ones
    /// (`NetError::Aborted`): what "terminate a worker" does to the
    /// loader [`Loader::for_workers`] made for that worker. Thread-safe. The
    /// default does nothing (the worker's wait is still bounded, see
    /// `crate::workers::WorkerLoader`).
    fn abort(&self) {}
}

/// A shared loader seen through the per-thread `Rc<dyn Loader>` interface
/// (on a worker's thread).
pub(crate) struct SharedLoader(pub(crate) Arc<dyn Loader + Send + Sync>);

impl Loader for SharedLoader {
    fn fetch_document(&self, url: &url::Url) -> Result<FollowedResponse, NetError> {
        self.0.fetch_document(url)
    }

    fn fetch_classic_script(
        &self,
        params: ScriptFetchParams,
    ) -> Result<ClassicScriptFetch, NetError> {
        self.0.fetch_classic_script(params)
    }

    fn blob_store(&self) -> Arc<BlobStore> {
        self.0.blob_store()
    }

    fn fetch_hop(&self, request: &HopRequest) -> Result<RawResponse, NetError> {
        self.0.fetch_hop(request)
    }

    fn fetch_api(
        &self,
        request: ApiRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<ApiResponse, NetError> {
        self.0.fetch_api(request, cancelled)
    }

    fn cookie_jar(&self) -> Option<Arc<CookieJar>> {
        self.0.cookie_jar()
    }

    /// A nested worker's loader: one of its own, from this one.
    fn for_workers(&self) -> Option<Arc<dyn Loader + Send + Sync>> {
        self.0.for_workers()
    }

    fn abort(&self) {
        self.0.abort()
    }
}

impl Loader for Fetcher {
    fn fetch_document(&self, url: &url::Url) -> Result<FollowedResponse, NetError> {
        self.fetch_following(url, &[])
    }

    fn fetch_classic_script(
        &self,
        params: ScriptFetchParams,
    ) -> Result<ClassicScriptFetch, NetError> {
        Fetcher::fetch_classic_script(self, params)
    }

    fn blob_store(&self) -> Arc<BlobStore> {
        self.config().blob_store.clone()
    }

    fn fetch_hop(&self, request: &HopRequest) -> Result<RawResponse, NetError> {
        Fetcher::fetch_hop(self, request)
    }

    fn fetch_api(
        &self,
        request: ApiRequest,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<ApiResponse, NetError> {
        Fetcher::fetch_api(self, request, cancelled)
    }

    fn cookie_jar(&self) -> Option<Arc<CookieJar>> {
        Some(self.config().cookie_jar.clone())
    }

    /// The same configuration and blob URL store, with connections of its
    /// own: aborting it (the worker is terminated) ends that worker's
    /// fetches only.
    fn for_workers(&self) -> Option<Arc<dyn Loader + Send + Sync>> {
        match self.with_own_connections() {
            Ok(fetcher) => Some(Arc::new(fetcher)),
            Err(_) => Some(Arc::new(self.clone())),
        }
    }

    fn abort(&self) {
        Fetcher::abort(self)
    }
}

/// <https://mimesniff.spec.whatwg.org/#javascript-mime-type>: whether the
/// essence of `mime_type` is one of the JavaScript MIME type essences.
pub fn is_javascript_mime_type(mime_type: &jsprof_net::MimeType) -> bool {
    is_javascript_mime_type_essence_match(&mime_type.essence())
}

/// <https://mimesniff.spec.whatwg.org/#javascript-mime-type-essence-match>:
/// whether `string` is an ASCII case-insensitive match for one of the
/// JavaScript MIME type essence strings.
pub fn is_javascript_mime_type_essence_match(string: &str) -> bool {
    matches!(
        string.to_ascii_lowercase().as_str(),
        "application/ecmascript"
            | "application/javascript"
            | "application/x-ecmascript"
            | "application/x-javascript"
            | "text/ecmascript"
            | "text/javascript"
            | "text/javascript1.0"
            | "text/javascript1.1"
            | "text/javascript1.2"
            | "text/javascript1.3"
            | "text/javascript1.4"
            | "text/javascript1.5"
            | "text/jscript"
            | "text/livescript"
            | "text/x-ecmascript"
            | "text/x-javascript"
    )
}

/// A fetched worker script: its source text, response URL and headers.
#[derive(Clone, Debug)]
pub struct WorkerScriptResponse {
    /// The body, UTF-8 decoded.
    pub source: String,
    /// The response's URL (after redirects).
    pub url: url::Url,
    /// The response's headers (the worker's `Document-Policy`, COEP).
    pub headers: jsprof_document::HeaderList,
    /// For a `blob:` script: the policy container of its blob URL entry's
    /// environment (the blob URL's creator), which the worker gets
    /// (<https://html.spec.whatwg.org/multipage/browsers.html#creating-a-policy-container-from-a-fetch-response>
    /// step 1).
    pub blob_creator_policy: Option<jsprof_document::PolicyContainer>,
}

/// <https://html.spec.whatwg.org/multipage/workers.html#fetch-a-classic-worker-script>
/// for a dedicated worker (destination "worker"), given the worker URL and
/// the origin of the outside settings (the request's origin), and
/// `blob_entry`, `url`'s blob URL entry as the URL parser resolved it when
/// `new Worker()` parsed the URL
/// (<https://url.spec.whatwg.org/#concept-url-blob-entry>): a blob URL
/// revoked after that still loads; `None` for a `blob:` URL that named no
/// entry then (a network error). `Err` is a null script (the `Worker` gets
/// an `error` event), with the reason for the console.
pub fn fetch_classic_worker_script(
    loader: &dyn Loader,
    url: &url::Url,
    client_origin: &Origin,
    blob_entry: Option<&BlobEntry>,
) -> Result<WorkerScriptResponse, String> {
    // Step 1: Let request be a new request whose URL is url, client is
    // fetchClient, destination is destination, initiator type is "other",
    // mode is "same-origin", credentials mode is "same-origin", parser
    // metadata is "not parser-inserted", and whose use-URL-credentials
    // flag is set. (Redirect mode "follow".)
    // Step 2-3: Fetch request (main fetch and HTTP-redirect fetch, hop by
    // hop, so that each URL is checked against the "same-origin" mode).
    let mut current = url.clone();
    let mut redirects = 0;
    let mut blob_creator_policy = None;
    let response = loop {
        // A terminated worker fetches nothing more (its loader fails the
        // hop in flight; this ends the redirect chain between hops).
        if crate::workers::current_worker_terminated() {
            return Err(format!("{current}: the worker was terminated"));
        }
        // https://fetch.spec.whatwg.org/#main-fetch step 12: a same-origin
        // URL and a data: URL are fetched; otherwise, with request's mode
        // "same-origin", the result is a network error. (A blob: URL's
        // origin is its blob URL entry's environment's origin,
        // https://url.spec.whatwg.org/#concept-url-origin.)
        let url_origin = match current.scheme() {
            "blob" => blob_entry
                .map(|entry| entry.origin.clone())
                .unwrap_or_else(Origin::new_opaque),
            _ => Origin::of(&current),
        };
        if current.scheme() != "data" && !url_origin.same_origin(client_origin) {
            return Err(format!(
                "{current}: a worker script must be same origin with its owner ({})",
                client_origin.ascii_serialization()
            ));
        }
        let response = if current.scheme() == "blob" {
            // https://fetch.spec.whatwg.org/#scheme-fetch "blob", step 1:
            // Let blobURLEntry be request's current URL's blob URL entry
            // (resolved when the URL was parsed).
            // Step 2: If request's method is not `GET` or blobURLEntry is
            // null, then return a network error.
            let Some(entry) = blob_entry else {
                return Err(format!("{current}: no blob URL entry (revoked or unknown)"));
            };
            blob_creator_policy = Some(entry.policy);
            // Step 11 (no `Range`): a response whose status message is
            // `OK`, header list is « (`Content-Length`,
            // serializedFullLength), (`Content-Type`, type) », and body is
            // the blob's bytes.
            RawResponse {
                url: current.clone(),
                status: 200,
                status_text: "OK".to_owned(),
                headers: jsprof_document::HeaderList::new()
                    .with("Content-Length", entry.bytes.len().to_string())
                    .with("Content-Type", entry.mime_type.as_str()),
                body: entry.bytes.to_vec(),
            }
        } else {
            loader
                .fetch_hop(&HopRequest::get(current.clone()))
                .map_err(|e| e.to_string())?
        };
        // https://fetch.spec.whatwg.org/#http-redirect-fetch
        // Step 3: Let locationURL be internalResponse's location URL given
        // request's current URL's fragment. Step 5: If locationURL is
        // failure, then return a network error.
        match response.location_url().map_err(|e| e.to_string())? {
            Some(next) => {
                // Step 6: If locationURL's scheme is not an HTTP(S) scheme,
                // then return a network error.
                if !matches!(next.scheme(), "http" | "https") {
                    return Err(format!(
                        "{}: redirected to a non-HTTP(S) URL ({})",
                        response.url,
                        next.scheme()
                    ));
                }
                // Step 7: If request's redirect count is 20, then return a
                // network error.
                if redirects == jsprof_net::REDIRECT_LIMIT {
                    return Err(format!("{url}: too many redirects"));
                }
                // Step 8: Increase request's redirect count by 1.
                redirects += 1;
                current = next;
            }
            None => break response,
        }
    };
    // processResponseConsumeBody, steps 1-2: a non-ok status or a
    // non-JavaScript MIME type runs onComplete given null (see
    // `check_worker_script_response`).
    check_worker_script_response(&response)?;
    // Step 3: Let sourceText be the result of UTF-8 decoding bodyBytes.
    let source = String::from_utf8_lossy(&response.body).into_owned();
    // Step 4-5: create a classic script (by the caller, which compiles it
    // in the worker's realm) and run onComplete.
    Ok(WorkerScriptResponse {
        source,
        url: response.url,
        headers: response.headers,
        blob_creator_policy,
    })
}

/// Why [`fetch_classic_worker_imported_script`] produced no script.
#[derive(Debug)]
pub enum ImportError {
    /// A network error, a blocked or non-ok response, or a non-JavaScript
    /// MIME type: the caller throws a "NetworkError" DOMException.
    Network(String),
}

/// The checks of a worker script's response (HTML's "fetch a classic
/// worker script" processResponseConsumeBody steps 1-2, and "fetch a
/// classic worker-imported script" step 5): the response's status must be
/// an ok status, and an HTTP(S) response's MIME type a JavaScript MIME
/// type. The error describes the failure.
fn check_worker_script_response(response: &RawResponse) -> Result<(), String> {
    // processResponseConsumeBody, step 1: If either of the following
    // conditions are met: bodyBytes is null or failure; or response's
    // status is not an ok status, then run onComplete given null, and
    // abort these steps.
    if !response.is_ok() {
        return Err(format!(
            "{}: HTTP status {} {}",
            response.url, response.status, response.status_text
        ));
    }
    // Step 2: If all of the following are true: response's URL's scheme is
    // an HTTP(S) scheme; and the result of extracting a MIME type from
    // response's header list is not a JavaScript MIME type, then run
    // onComplete given null, and abort these steps.
    if matches!(response.url.scheme(), "http" | "https")
        && !response
            .mime_type()
            .is_some_and(|m| is_javascript_mime_type(&m))
    {
        return Err(format!(
            "{}: not a JavaScript MIME type ({})",
            response.url,
            response.header("Content-Type").unwrap_or_default()
        ));
    }
    Ok(())
}

/// <https://html.spec.whatwg.org/multipage/workers.html#fetch-a-classic-worker-imported-script>
/// for `importScripts`: a "no-cors" request for destination "script"
/// (cross-origin scripts load, with muted errors), through the document
/// component's classic script fetch state machine (each hop's CORS state
/// and muted errors). Returns the source and the script's host-defined
/// data.
pub fn fetch_classic_worker_imported_script(
    loader: &dyn Loader,
    url: &url::Url,
    client_origin: &Origin,
    embedder_policy: jsprof_document::EmbedderPolicyValue,
) -> Result<(String, ScriptRecord), ImportError> {
    // Step 1: Let response be null. Step 2: Let bodyBytes be null.
    // Step 3: Let request be a new request whose URL is url, client is
    // settingsObject, destination is "script", initiator type is "other",
    // parser metadata is "not parser-inserted", and whose
    // use-URL-credentials flag is set (mode "no-cors").
    let params = ScriptFetchParams {
        url: url.clone(),
        cors_setting: CorsSettings::NoCors,
        client_origin: client_origin.clone(),
        embedder_policy,
    };
    // A terminated worker fetches nothing more (see `WorkerLoader`).
    if crate::workers::current_worker_terminated() {
        return Err(ImportError::Network(format!(
            "{url}: the worker was terminated"
        )));
    }
    // Step 4: Fetch request (and wait for processResponseConsumeBody).
    let fetched = loader
        .fetch_classic_script(params)
        .map_err(|e| ImportError::Network(e.to_string()))?;
    let (muted_errors, response_url) = match fetched.outcome {
        ScriptCorsOutcome::Blocked(reason) => {
            return Err(ImportError::Network(format!(
                "{url}: script blocked: {reason:?}"
            )))
        }
        ScriptCorsOutcome::Run {
            muted_errors,
            response_url,
        } => (muted_errors, response_url),
    };
    let Some(response) = fetched.response else {
        return Err(ImportError::Network(format!("{url}: no response")));
    };
    // Step 5: If any of the following are true: bodyBytes is null or
    // failure; or response's status is not an ok status, then throw a
    // "NetworkError" DOMException. (With the JavaScript MIME type check
    // of worker scripts, for HTTP(S) responses.)
    check_worker_script_response(&response).map_err(ImportError::Network)?;
    // Step 6-7: Let sourceText be the result of UTF-8 decoding bodyBytes.
    let source = String::from_utf8_lossy(&response.body).into_owned();
    // Step 8: Let mutedErrors be true if response was CORS-cross-origin,
    // and false otherwise (`muted_errors`, in the script's record). Step
    // 9-10: create a classic script (by the caller) and return it.
    Ok((
        source,
        fetched_script_record(&response_url, muted_errors, client_origin),
    ))
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#run-a-classic-script>:
/// compiles `source` with `filename` and `line` (and SpiderMonkey's
/// muted-errors flag from `record`), records the script's host-defined data
/// in the registry, runs it in the current realm, and reports an uncaught
/// exception. Returns false if it threw.
pub fn run_classic_script(
    cx: &mut JSContext,
    source: &str,
    filename: &str,
    line: u32,
    record: ScriptRecord,
) -> bool {
    let muted = record.muted_errors;
    script_registry::register(record);
    // Step 1-2: settings; Step 3: check if we can run script: not once
    // the watchdog stopped the page's agents (`crate::watchdog`).
    if crate::watchdog::interrupting() {
        return false;
    }
    crate::watchdog::collect_after_out_of_memory(cx);
    // Step 4: Prepare to run script (the caller entered the realm).
    let global = unsafe { mozjs::rust::wrappers2::CurrentGlobalOrNull(cx) };
    if global.is_null() {
        return false;
    }
    rooted!(&in(cx) let global = global);
    let filename_c = CString::new(filename.replace('\0', "\u{FFFD}")).unwrap_or_default();
    let mut options = CompileOptionsWrapper::new(cx, filename_c, line.max(1));
    options.set_muted_errors(muted);
    rooted!(&in(cx) let mut rval = UndefinedValue());
    // Step 6-8: evaluate; if it threw, report the exception (Step 8.3:
    // "report an exception given by evaluationStatus.[[Value]]").
    if evaluate_script(cx, global.handle(), source, rval.handle_mut(), options).is_err() {
        report_pending_exception(cx);
        return false;
    }
    // Step 9: Clean up after running script (the event loop performs the
    // microtask checkpoint after the task).
    true
}

/// How [`run_classic_script_with`] ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ClassicScriptRun {
    /// The script ran to completion.
    Completed,
    /// The script did not parse ("create a classic script" set its error
    /// to rethrow). With rethrow errors, the error is pending (a
    /// "NetworkError" for a muted script); otherwise it is returned here,
    /// not reported.
    ParseError(Option<ScriptError>),
    /// The script threw: pending (rethrow errors) or reported.
    Threw,
    /// The script was aborted (its worker was terminated): nothing is
    /// pending, the termination continues in the caller.
    Aborted,
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#creating-a-classic-script>
/// (compile `source` with the host-defined data `record`) and
/// <https://html.spec.whatwg.org/multipage/webappapis.html#run-a-classic-script>
/// with `rethrow_errors`, in the current realm. Separate compilation tells
/// a parse error (a worker's `error` event, without the error's details)
/// from an exception thrown while running.
pub(crate) fn run_classic_script_with(
    cx: &mut JSContext,
    source: &str,
    record: ScriptRecord,
    rethrow_errors: bool,
) -> ClassicScriptRun {
    use crate::dom::bindings::error::{throw_dom_error, DomExceptionName, Error};
    use mozjs::rust::wrappers2::{Compile1, JS_ExecuteScript, JS_IsExceptionPending};
    let muted = record.muted_errors;
    let filename = record.url.clone();
    let line = record.start_line.max(1);
    script_registry::register(record);
    // Throws the "NetworkError" that stands for a muted script's error.
    let muted_network_error = |cx: &mut JSContext| {
        unsafe { mozjs::rust::wrappers2::JS_ClearPendingException(cx) };
        throw_dom_error(
            cx,
            Error::dom_with_message(
                DomExceptionName::NetworkError,
                "a script with muted errors failed",
            ),
        );
    };
    // Creating a classic script, step 11-12: Let result be
    // ParseScript(source, realm, script); if result is a list of errors,
    // set script's parse error and its error to rethrow to result[0].
    let filename_c = CString::new(filename.replace('\0', "\u{FFFD}")).unwrap_or_default();
    let mut options = CompileOptionsWrapper::new(cx, filename_c, line);
    options.set_muted_errors(muted);
    let mut text = mozjs::rust::transform_str_to_source_text(source);
    rooted!(&in(cx) let script = unsafe { Compile1(cx, options.ptr, &mut text) });
    if script.get().is_null() {
        if !unsafe { JS_IsExceptionPending(cx) } {
            return ClassicScriptRun::Aborted;
        }
        // Run a classic script, step 6: If script's error to rethrow is
        // not null, then set evaluationStatus to ThrowCompletion(script's
        // error to rethrow).
        if rethrow_errors {
            // Step 8.1-8.2: rethrow it (a NetworkError when muted).
            if muted {
                muted_network_error(cx);
            }
            return ClassicScriptRun::ParseError(None);
        }
        let error = crate::dom::globalscope::take_pending_exception(cx);
        return ClassicScriptRun::ParseError(error);
    }
    // Step 1-4: settings, "check if we can run script" (not once the
    // watchdog stopped the agents: `crate::watchdog`), prepare to run
    // script (the caller entered the realm).
    if crate::watchdog::interrupting() {
        return ClassicScriptRun::Aborted;
    }
    // Step 7: Otherwise, set evaluationStatus to
    // ScriptEvaluation(script's record).
    rooted!(&in(cx) let mut rval = UndefinedValue());
    if unsafe { JS_ExecuteScript(cx, script.handle(), rval.handle_mut()) } {
        // Step 9-10: clean up after running script (the caller performs
        // the microtask checkpoint); a normal completion.
        return ClassicScriptRun::Completed;
    }
    // "If ScriptEvaluation does not complete because the user agent has
    // aborted the running script, leave evaluationStatus as null."
    // (The memory ceiling's stop is no abort but an out-of-memory error,
    // reported as step 8.3 does: see `crate::watchdog`.)
    if !unsafe { JS_IsExceptionPending(cx) } {
        if crate::watchdog::memory_stopped() {
            report_pending_exception(cx);
            return ClassicScriptRun::Threw;
        }
        return ClassicScriptRun::Aborted;
    }
    // Step 8: evaluationStatus is an abrupt completion.
    if rethrow_errors {
        // Step 8.1: rethrow evaluationStatus.[[Value]] (left pending), or
        // Step 8.2: with muted errors, throw a "NetworkError" DOMException.
        if muted {
            muted_network_error(cx);
        }
        return ClassicScriptRun::Threw;
    }
    // Step 8.3: Report an exception given by evaluationStatus.[[Value]]
    // for script's settings object's global object.
    report_pending_exception(cx);
    ClassicScriptRun::Threw
}

/// The tree sink: builds the DOM of `document`. Holds the raw context
/// because html5ever's sink methods take `&self` only.
struct Sink {
    cx: *mut RawJSContext,
    document: DomRoot<Document>,
    current_line: Cell<u64>,
    /// The parser's nesting depth limit (`html_tree_builder`).
    depth_cap: DepthCap,
}

impl HasDepthCap for Sink {
    fn depth_cap(&self) -> &DepthCap {
        &self.depth_cap
    }
}

impl Sink {
    fn cx(&self) -> JSContext {
        // SAFETY: the context outlives the parse, on this thread.
        unsafe { JSContext::from_ptr(NonNull::new(self.cx).expect("a live context")) }
    }

    fn append_text(&self, parent: &Node, text: &str, before: Option<&Node>) {
        // Merge with an adjacent Text node (the parser's "insert a
        // character").
        let previous = match before {
            Some(b) => parent.child_before(b),
            None => parent.last_child(),
        };
        if let Some(t) = previous.and_then(|p| p.downcast::<Text>()) {
            t.append_data(text);
            return;
        }
        let mut cx = self.cx();
        let node = Text::new(&mut cx, parent.global(), Some(&self.document), text);
        parent.insert(node.upcast_node(), before);
    }
}

impl TreeSink for Sink {
    type Handle = ParserHandle;
    type Output = ();
    type ElemName<'a> = ElementNameRef<'a>;

    fn finish(self) {}

    fn parse_error(&self, _msg: Cow<'static, str>) {
        // Parse errors are not fatal (the parser recovers as HTML says).
    }

    fn get_document(&self) -> ParserHandle {
        ParserHandle::new(self.document.clone().upcast::<Node>())
    }

    fn elem_name<'a>(&'a self, target: &'a ParserHandle) -> ElementNameRef<'a> {
        ElementNameRef::of(target)
    }

    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<Attribute>,
        _flags: ElementFlags,
    ) -> ParserHandle {
        let mut cx = self.cx();
        let attributes = attrs
            .into_iter()
            .map(|a| (a.name.local.to_string(), a.value.to_string()))
            .collect();
        let ns = name.ns.to_string();
        let namespace = (!ns.is_empty()).then_some(ns.as_str());
        let prefix = name.prefix.as_ref().map(|p| p.to_string());
        let element = Element::create(
            &mut cx,
            &self.document,
            namespace,
            prefix.as_deref(),
            &name.local,
            attributes,
        );
        if let Some(script) = element.downcast::<HTMLScriptElement>() {
            // The script's text starts on the line its start tag ends on.
            script.set_parser_inserted(true, self.current_line.get() as u32);
        }
        ParserHandle::new(element.upcast::<Node>())
    }

    fn create_comment(&self, _text: StrTendril) -> ParserHandle {
        let mut cx = self.cx();
        ParserHandle::new(Node::new_comment(&mut cx, &self.document))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> ParserHandle {
        let mut cx = self.cx();
        ParserHandle::new(Node::new_comment(&mut cx, &self.document))
    }

    fn append(&self, parent: &ParserHandle, child: NodeOrText<ParserHandle>) {
        match child {
            NodeOrText::AppendNode(node) => {
                // Past the depth limit the node goes next to its parent.
                let parent = self.depth_cap.parent_for(parent, &node);
                parent.insert(&node, None)
            }
            NodeOrText::AppendText(text) => self.append_text(parent, &text, None),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &ParserHandle,
        prev_element: &ParserHandle,
        child: NodeOrText<ParserHandle>,
    ) {
        if element.parent().is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        _name: StrTendril,
        _public: StrTendril,
        _system: StrTendril,
    ) {
        // DocumentType nodes are not represented.
    }

    fn mark_script_already_started(&self, node: &ParserHandle) {
        if let Some(script) = node.downcast::<HTMLScriptElement>() {
            script.set_already_started(true);
        }
    }

    fn get_template_contents(&self, target: &ParserHandle) -> ParserHandle {
        // No DocumentFragment: template contents are the template itself.
        target.clone()
    }

    fn same_node(&self, x: &ParserHandle, y: &ParserHandle) -> bool {
        x.same(y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.document.set_quirks(mode == QuirksMode::Quirks);
    }

    fn append_before_sibling(&self, sibling: &ParserHandle, new_node: NodeOrText<ParserHandle>) {
        let Some(parent) = sibling.parent() else {
            return;
        };
        match new_node {
            NodeOrText::AppendNode(node) => parent.insert(&node, Some(sibling)),
            NodeOrText::AppendText(text) => self.append_text(&parent, &text, Some(sibling)),
        }
    }

    fn add_attrs_if_missing(&self, target: &ParserHandle, attrs: Vec<Attribute>) {
        if let Some(element) = target.downcast::<Element>() {
            element.add_attributes_if_missing(
                attrs
                    .into_iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect(),
            );
        }
    }

    fn remove_from_parent(&self, target: &ParserHandle) {
        if let Some(parent) = target.parent() {
            parent.remove(target);
        }
    }

    fn reparent_children(&self, node: &ParserHandle, new_parent: &ParserHandle) {
        for child in node.children() {
            new_parent.insert(&child, None);
        }
    }

    fn set_current_line(&self, line: u64) {
        self.current_line.set(line);
        self.document
            .set_parser_line(Some(u32::try_from(line).unwrap_or(u32::MAX)));
    }
}

/// The page-load state the end-of-parsing steps need.
struct PageState {
    /// <https://html.spec.whatwg.org/multipage/scripting.html#list-of-scripts-that-will-execute-when-the-document-has-finished-parsing>
    deferred: RefCell<Vec<crate::script_element::PendingScript>>,
}

/// How a page load ended.
#[derive(Debug)]
pub enum PageLoadError {
    /// The document could not be fetched (network error or a non-ok
    /// status).
    Fetch(String),
}

impl std::fmt::Display for PageLoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageLoadError::Fetch(m) => write!(f, "could not load the document: {m}"),
        }
    }
}

/// Navigates `window` to `url`: fetches the document with `loader`, parses
/// it (running scripts as HTML says), and queues the end-of-parsing steps.
/// The caller then runs the event loop to idle. `cx` is in the window's
/// realm.
pub fn load_page(
    cx: &mut JSContext,
    window: &Window,
    url: &url::Url,
    loader: Rc<dyn Loader>,
) -> Result<(), PageLoadError> {
    browsing_context::set_loader(loader.clone());
    window.navigable_id();
    load_document(cx, window, url, loader, None)
}

/// The navigation of `window` (a top-level one, or a child navigable's
/// with its creator's origin and its top-level document's URL).
fn load_document(
    cx: &mut JSContext,
    window: &Window,
    url: &url::Url,
    loader: Rc<dyn Loader>,
    creator: Option<(Origin, url::Url)>,
) -> Result<(), PageLoadError> {
    let response = fetch_navigation_response(&*loader, url)?;
    load_fetched_document(cx, window, response, loader, creator)
}

/// <https://html.spec.whatwg.org/multipage/browsing-the-web.html#create-navigation-params-by-fetching>
/// (navigation fetch with redirect mode "follow"): the final response, or
/// an error for a network error or a non-ok status.
pub(crate) fn fetch_navigation_response(
    loader: &dyn Loader,
    url: &url::Url,
) -> Result<RawResponse, PageLoadError> {
    let followed = loader
        .fetch_document(url)
        .map_err(|e| PageLoadError::Fetch(e.to_string()))?;
    let response = followed.response;
    if !response.is_ok() {
        return Err(PageLoadError::Fetch(format!(
            "{}: HTTP status {} {}",
            response.url, response.status, response.status_text
        )));
    }
    Ok(response)
}

/// Loads the document of navigation `response` in `window` (`cx` in its
/// realm): creates and initializes the Document, parses it (running its
/// scripts), and queues the end-of-parsing steps.
pub(crate) fn load_fetched_document(
    cx: &mut JSContext,
    window: &Window,
    response: RawResponse,
    loader: Rc<dyn Loader>,
    creator: Option<(Origin, url::Url)>,
) -> Result<(), PageLoadError> {
    let global =
        unsafe { GlobalScope::from_global(mozjs::rust::wrappers2::CurrentGlobalOrNull(cx)) };
    // The document's URL is the response's URL (the last of the URL list).
    let document = Document::new(cx, global, response.url.clone());
    document.set_response_headers(response.headers.clone());
    // https://html.spec.whatwg.org/multipage/browsing-the-web.html#initialise-the-document-object:
    // a top-level document's environment is a secure context when its URL
    // is potentially trustworthy; COOP and COEP come from the response
    // (obtain an opener / embedder policy), and decide the global's
    // cross-origin isolated capability.
    // https://html.spec.whatwg.org/multipage/document-sequences.html#determining-the-origin
    let origin = browsing_context::determine_origin(&response.url, creator.as_ref().map(|c| &c.0));
    window.set_origin(origin);
    let top_level_url = creator
        .as_ref()
        .map_or_else(|| response.url.clone(), |c| c.1.clone());
    let secure = is_secure_context(Environment::Window {
        top_level_creation_url: &top_level_url,
    });
    window.set_secure_context(secure);
    // https://webidl.spec.whatwg.org/#SecureContext: the [SecureContext]
    // interfaces and members exist from now on.
    if crate::dom::bindings::interface::expose_secure_context_members_if_secure(cx, global).is_err()
    {
        return Err(PageLoadError::Fetch(
            "could not define the [SecureContext] members".to_owned(),
        ));
    }
    let isolation = CrossOriginIsolation::from_response(&response.headers, secure);
    global.set_cross_origin_isolated(isolation.is_cross_origin_isolated());
    crate::profiling::note_realm_origin(global);
    document.set_embedder_policy(isolation.embedder_policy.value);
    // https://wicg.github.io/document-policy/#algo-process-response-policy
    let policy = process_response_policy(&response.headers);
    if let Some(warning) = &policy.warning {
        eprintln!("{}: {warning}", response.url);
    }
    document.set_document_policy(
        response
            .headers
            .contains("document-policy")
            .then_some(policy.policy),
    );
    window.set_document(&document);
    // The JS Self-Profiling API at document creation: the realm's earlier
    // sessions stop, an eager policy prepares the sampler, and `jsprof
    // profile` starts its session in a top-level document's realm.
    crate::profiling::document_created(cx, global, &document, creator.is_none());

    // The parser's work (and the end's, outside script) is `other` for
    // the markers extension.
    let _parsing = crate::profiling::other_work(global);
    // Decoding: UTF-8 (no charset sniffing; invalid sequences become
    // U+FFFD).
    let text = String::from_utf8_lossy(&response.body).into_owned();
    let state = Rc::new(PageState {
        deferred: RefCell::new(Vec::new()),
    });
    let sink = Sink {
        cx: unsafe { cx.raw_cx() },
        document: document.clone(),
        current_line: Cell::new(1),
        depth_cap: DepthCap::default(),
    };
    let tree_builder = TreeBuilder::new(sink, TreeBuilderOpts::default());
    let tokenizer = Tokenizer::new(DepthLimiter { tree_builder }, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(text.as_str()));
    loop {
        match tokenizer.feed(&input) {
            TokenizerResult::Done => break,
            TokenizerResult::Script(node) => {
                if let Some(script) = node.downcast::<HTMLScriptElement>() {
                    let parser = crate::script_element::ParserScripts {
                        loader: &*loader,
                        deferred: &state.deferred,
                    };
                    crate::script_element::prepare_the_script_element(cx, &script, Some(&parser));
                }
            }
            TokenizerResult::EncodingIndicator(_) => {}
        }
    }
    tokenizer.end();
    document.set_parser_line(None);
    the_end(cx, window, &document, &state);
    Ok(())
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-classic-script>,
/// the request: the request mode comes from `element`'s `crossorigin`
/// attribute
/// (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#cors-settings-attributes>),
/// the client is `document`'s settings object. The loader's
/// `fetch_classic_script` then runs `jsprof-document`'s state machine,
/// which decides, hop by hop, the CORS check, redirects and the muted
/// errors; [`classic_script_from_fetch`] turns its outcome into the
/// script. One path for every classic script element, parser-inserted or
/// not, fetched on the JS thread or a fetch thread.
pub(crate) fn classic_script_fetch_params(
    document: &Document,
    url: &url::Url,
    element: &Element,
) -> ScriptFetchParams {
    // Step 1: Let request be the result of creating a potential-CORS
    // request given url, "script", and corsSetting.
    // Step 2: Set request's client to settingsObject.
    ScriptFetchParams {
        url: url.clone(),
        cors_setting: CorsSettings::from_attribute(element.get_attribute("crossorigin").as_deref()),
        client_origin: document_origin(document),
        embedder_policy: document.embedder_policy(),
    }
}

/// The end of <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-classic-script>
/// for the fetch of `url` (any thread's result, processed on the JS
/// thread): `None` is "result is null" (fire `error`), with the reason on
/// the console; else the classic script with its response URL and muted
/// errors as the document component decided (`client_origin` is the
/// request's client's origin).
pub(crate) fn classic_script_from_fetch(
    url: &url::Url,
    fetched: Result<ClassicScriptFetch, NetError>,
    client_origin: &Origin,
) -> crate::script_element::ScriptResult {
    // Step 5: Fetch request (a network error is a null result).
    let fetched = match fetched {
        Ok(fetched) => fetched,
        Err(error) => {
            eprintln!("{error}");
            return None;
        }
    };
    match fetched.outcome {
        ScriptCorsOutcome::Blocked(reason) => {
            eprintln!("{url}: script blocked: {reason:?}");
            None
        }
        ScriptCorsOutcome::Run {
            muted_errors,
            response_url,
        } => {
            let response = fetched.response?;
            // Step 5.4: Let sourceText be the result of decoding bodyBytes
            // to Unicode (UTF-8 here).
            let source = String::from_utf8_lossy(&response.body).into_owned();
            // Step 5.7: create a classic script given sourceText,
            // settingsObject, response's URL, options, mutedErrors.
            Some(crate::script_element::ClassicScript {
                source,
                record: fetched_script_record(&response_url, muted_errors, client_origin),
            })
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#the-end>
fn the_end(cx: &mut JSContext, window: &Window, document: &Document, state: &Rc<PageState>) {
    // Step 1: Update the current document readiness to "interactive".
    document.set_ready_state(DocumentReadyState::Interactive);
    // Step 2-4: Pop all the nodes off the stack of open elements.
    // Step 5: While the list of scripts that will execute when the
    // document has finished parsing is not empty: execute the first one.
    let deferred = std::mem::take(&mut *state.deferred.borrow_mut());
    for pending in deferred {
        crate::script_element::execute_the_script_element(cx, document, pending);
        crate::runtime::perform_microtask_checkpoint(cx);
    }
    // Step 6: Queue a global task on the DOM manipulation task source
    // given the Document's relevant global object to fire an event named
    // DOMContentLoaded at the Document, with its bubbles attribute
    // initialized to true.
    let doc = DomRoot::from_ref(document);
    EventLoop::current().queue_task(Box::new(move |cx| {
        with_realm(cx, &doc, |cx, doc| {
            let event = Event::new(
                cx,
                doc.upcast_node().global(),
                "DOMContentLoaded",
                true,
                false,
            );
            event.set_trusted(true);
            doc.upcast_node().as_ref().dispatch(cx, &event);
        });
    }));
    // Step 7: Spin the event loop until the set of scripts that will
    // execute as soon as possible is empty (async scripts are queued
    // tasks ahead of the load task).
    // Step 8: Queue a global task on the DOM manipulation task source given
    // the Document's relevant global object to run: update readiness to
    // "complete", then fire an event named load at window.
    queue_load_task(DomRoot::from_ref(document), DomRoot::from_ref(window));
}

/// Step 8 of "the end" (queued again while something delays the load
/// event: step 7's "spin the event loop until ... nothing delays the load
/// event").
fn queue_load_task(doc: DomRoot<Document>, win: DomRoot<Window>) {
    EventLoop::current().queue_task(Box::new(move |cx| {
        if doc.load_delayed() {
            queue_load_task(doc, win);
            return;
        }
        with_realm(cx, &doc, |cx, doc| {
            // Step 8.1: Update the current document readiness to "complete".
            doc.set_ready_state(DocumentReadyState::Complete);
            // Step 8.3-8.4: fire an event named load at window, with legacy
            // target override flag set.
            let event = Event::new(cx, doc.upcast_node().global(), "load", false, false);
            event.set_trusted(true);
            win.upcast_event_target().dispatch(cx, &event);
        });
        // https://html.spec.whatwg.org/multipage/document-lifecycle.html#completely-finish-loading
        // Step 5-6: if the document's navigable has a container, queue an
        // element task on the DOM manipulation task source given the
        // container to run the iframe load event steps.
        // (Only while this window is its navigable's active one: a
        // document replaced by a later navigation has no say.)
        let id = win.navigable_id();
        let active = browsing_context::global_of(id) == Some(win.global_object());
        if let Some(container) = browsing_context::container_of(id).filter(|_| active) {
            HTMLIFrameElement::queue_iframe_load_event_steps(container);
        }
    }));
}

/// The origin of `document` (its window's settings object's origin).
/// The record of a fetched classic script (whole source, from line 1):
/// its response's URL, whether its errors are muted, and its response type
/// (<https://fetch.spec.whatwg.org/#concept-response-type>): "basic" for a
/// same-origin (with `client_origin`) or data: response, "cors" for a CORS
/// request that passed the check, "opaque" when muted.
fn fetched_script_record(
    response_url: &url::Url,
    muted_errors: bool,
    client_origin: &Origin,
) -> ScriptRecord {
    let cors_status = if muted_errors {
        "opaque"
    } else if Origin::of(response_url).same_origin(client_origin) || response_url.scheme() == "data"
    {
        "basic"
    } else {
        "cors"
    };
    ScriptRecord {
        url: response_url.to_string(),
        start_line: 1,
        cors_status: cors_status.to_owned(),
        muted_errors,
    }
}

fn document_origin(document: &Document) -> Origin {
    match document.upcast_node().global().as_window() {
        Some(window) => window.origin(),
        None => Origin::of(&document.url()),
    }
}

fn with_realm(cx: &mut JSContext, document: &Document, f: impl FnOnce(&mut JSContext, &Document)) {
    let global = document.upcast_node().global().global_object();
    let Some(global) = NonNull::new(global) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global);
    f(&mut realm, document);
}
