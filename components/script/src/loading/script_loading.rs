//! Loading a page into a window: the [`Loader`] abstraction, navigation
//! fetches and document creation, fetching classic scripts (the request
//! and the response to script), "run a classic script", and the
//! end-of-parsing steps (`DOMContentLoaded`, deferred scripts, `load`).
//! The parser's tree sink is in [`crate::loading::html_tree_sink`], script element
//! processing in [`crate::loading::script_element`], module loading in
//! [`crate::loading::module_loading`], worker script fetching in
//! [`crate::loading::worker_scripts`] and iframe navigation in
//! [`crate::navigation::browsing_context`].

use std::cell::RefCell;
use std::ffi::CString;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::Arc;

use jsprof_document::{
    is_secure_context, process_response_policy, CorsSettings, CrossOriginIsolation, Environment,
    Origin, ScriptCorsOutcome, ScriptFetchParams,
};
use jsprof_net::{
    ApiRequest, ApiResponse, BlobStore, ClassicScriptFetch, CookieJar, Fetcher, FollowedResponse,
    HopRequest, NetError, RawResponse,
};
use mozjs::context::JSContext;
use mozjs::jsval::UndefinedValue;
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::{evaluate_script, CompileOptionsWrapper};

use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::{report_pending_exception, GlobalScope};
use crate::dom::globals::window::Window;
use crate::dom::html::htmliframeelement::HTMLIFrameElement;
use crate::dom::nodes::document::{Document, DocumentReadyState};
use crate::dom::nodes::element::Element;
use crate::loading::script_registry::{self, ScriptRecord};
use crate::navigation::browsing_context;
use crate::runtime::event_loop::EventLoop;
use crate::runtime::ScriptError;

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
    /// `crate::runtime::workers::WorkerLoader`).
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

pub use jsprof_document::mime::{is_javascript_mime_type, is_javascript_mime_type_essence_match};

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
    // the watchdog stopped the page's agents (`crate::runtime::watchdog`).
    if crate::runtime::watchdog::interrupting() {
        return false;
    }
    crate::runtime::watchdog::collect_after_out_of_memory(cx);
    // Step 4: Prepare to run script (the caller entered the realm).
    // SAFETY: `cx` is this thread's live context and the caller entered the
    // realm (step 4); the result is null-checked and rooted just below.
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
        // SAFETY: `cx` is this thread's live context; clearing the pending
        // exception touches no GC thing we hold.
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
    // SAFETY: `options` and `text` live on this frame for the whole call; the
    // returned script is rooted at once, before anything can GC.
    rooted!(&in(cx) let script = unsafe { Compile1(cx, options.ptr, &mut text) });
    if script.get().is_null() {
        // SAFETY: `cx` is this thread's live context; this only reads its state.
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
        let error = crate::dom::globals::globalscope::take_pending_exception(cx);
        return ClassicScriptRun::ParseError(error);
    }
    // Step 1-4: settings, "check if we can run script" (not once the
    // watchdog stopped the agents: `crate::runtime::watchdog`), prepare to run
    // script (the caller entered the realm).
    if crate::runtime::watchdog::interrupting() {
        return ClassicScriptRun::Aborted;
    }
    // Step 7: Otherwise, set evaluationStatus to
    // ScriptEvaluation(script's record).
    rooted!(&in(cx) let mut rval = UndefinedValue());
    // SAFETY: `script` is rooted and non-null (checked above) and was compiled
    // in the current realm, which the caller entered; `rval` is rooted.
    if unsafe { JS_ExecuteScript(cx, script.handle(), rval.handle_mut()) } {
        // Step 9-10: clean up after running script (the caller performs
        // the microtask checkpoint); a normal completion.
        return ClassicScriptRun::Completed;
    }
    // "If ScriptEvaluation does not complete because the user agent has
    // aborted the running script, leave evaluationStatus as null."
    // (The memory ceiling's stop is no abort but an out-of-memory error,
    // reported as step 8.3 does: see `crate::runtime::watchdog`.)
    // SAFETY: `cx` is this thread's live context; this only reads its state.
    if !unsafe { JS_IsExceptionPending(cx) } {
        if crate::runtime::watchdog::memory_stopped() {
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

/// The page-load state the end-of-parsing steps need.
struct PageState {
    /// <https://html.spec.whatwg.org/multipage/scripting.html#list-of-scripts-that-will-execute-when-the-document-has-finished-parsing>
    deferred: RefCell<Vec<crate::loading::script_element::PendingScript>>,
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
    // SAFETY: the caller entered `window`'s realm (this function's contract),
    // so the current global is that window's, made by
    // `GlobalScope::create_global` and kept alive by `window`, which the
    // caller holds for longer than `global` is used here.
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
    if crate::dom::bindings::glue::expose_secure_context_members_if_secure(cx, global).is_err() {
        return Err(PageLoadError::Fetch(
            "could not define the [SecureContext] members".to_owned(),
        ));
    }
    let isolation = CrossOriginIsolation::from_response(&response.headers, secure);
    global.set_cross_origin_isolated(isolation.is_cross_origin_isolated());
    crate::runtime::profiling::note_realm_origin(global);
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
    crate::runtime::profiling::document_created(cx, global, &document, creator.is_none());

    // The parser's work (and the end's, outside script) is `other` for
    // the markers extension.
    let _parsing = crate::runtime::profiling::other_work(global);
    // Decoding: UTF-8 (no charset sniffing; invalid sequences become
    // U+FFFD).
    let text = String::from_utf8_lossy(&response.body).into_owned();
    let state = Rc::new(PageState {
        deferred: RefCell::new(Vec::new()),
    });
    crate::loading::html_tree_sink::parse_document(cx, &document, &text, |cx, script| {
        let parser = crate::loading::script_element::ParserScripts {
            loader: &*loader,
            deferred: &state.deferred,
        };
        crate::loading::script_element::prepare_the_script_element(cx, script, Some(&parser));
    });
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
    character_encoding: &'static encoding_rs::Encoding,
) -> crate::loading::script_element::ScriptResult {
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
            // Step 5.3: Let potentialMIMETypeForEncoding be the result of
            // extracting a MIME type given response's header list.
            let potential_mime_type = jsprof_document::mime::extract_mime_type(&response.headers);
            // Step 5.4: Set character encoding to the result of legacy
            // extracting an encoding given potentialMIMETypeForEncoding and
            // character encoding.
            let character_encoding =
                legacy_extract_an_encoding(potential_mime_type.as_ref(), character_encoding);
            // Step 5.5: Let sourceText be the result of decoding bodyBytes
            // to Unicode, using character encoding as the fallback encoding.
            let source = decode(&response.body, character_encoding);
            // Step 5.7: create a classic script given sourceText,
            // settingsObject, response's URL, options, mutedErrors.
            Some(crate::loading::script_element::ClassicScript {
                source,
                record: fetched_script_record(&response_url, muted_errors, client_origin),
            })
        }
    }
}

/// <https://fetch.spec.whatwg.org/#legacy-extract-an-encoding>: the
/// encoding `mime_type`'s `charset` parameter names, else `encoding`.
pub(crate) fn legacy_extract_an_encoding(
    mime_type: Option<&jsprof_document::mime::MimeType>,
    encoding: &'static encoding_rs::Encoding,
) -> &'static encoding_rs::Encoding {
    // Step 1: If mimeType is failure, then return encoding.
    // Step 2: If mimeType["charset"] does not exist, then return encoding.
    let Some(charset) = mime_type.and_then(|m| m.parameter("charset")) else {
        return encoding;
    };
    // Step 3: Let tentativeEncoding be the result of getting an encoding
    // from mimeType["charset"].
    // Step 4: If tentativeEncoding is failure, then return encoding.
    // Step 5: Return tentativeEncoding.
    encoding_rs::Encoding::for_label(charset.as_bytes()).unwrap_or(encoding)
}

/// <https://encoding.spec.whatwg.org/#decode>: `bytes` decoded with
/// `fallback`, unless they start with a UTF-8, UTF-16LE or UTF-16BE byte
/// order mark (which is removed and decides the encoding); malformed
/// sequences become U+FFFD.
pub(crate) fn decode(bytes: &[u8], fallback: &'static encoding_rs::Encoding) -> String {
    fallback.decode(bytes).0.into_owned()
}

/// <https://encoding.spec.whatwg.org/#utf-8-decode>: `bytes` decoded as
/// UTF-8 whatever their labels say (a UTF-8 byte order mark is removed;
/// malformed sequences become U+FFFD): module scripts' source text.
pub(crate) fn utf8_decode(bytes: &[u8]) -> String {
    encoding_rs::UTF_8
        .decode_with_bom_removal(bytes)
        .0
        .into_owned()
}

/// <https://html.spec.whatwg.org/multipage/parsing.html#the-end>
fn the_end(cx: &mut JSContext, window: &Window, document: &Document, state: &Rc<PageState>) {
    // Step 1: Update the current document readiness to "interactive".
    with_realm(cx, document, |cx, document| {
        document.update_the_current_document_readiness(cx, DocumentReadyState::Interactive);
    });
    // Step 2-4: Pop all the nodes off the stack of open elements.
    // Step 5: While the list of scripts that will execute when the
    // document has finished parsing is not empty: execute the first one.
    let deferred = std::mem::take(&mut *state.deferred.borrow_mut());
    for pending in deferred {
        crate::loading::script_element::execute_the_script_element(cx, document, pending);
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
            doc.update_the_current_document_readiness(cx, DocumentReadyState::Complete);
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
pub(crate) fn fetched_script_record(
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
