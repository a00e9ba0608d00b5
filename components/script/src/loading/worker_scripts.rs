//! Fetching the scripts of dedicated workers (HTML's "fetch a classic
//! worker script" for `new Worker()`, and "fetch a classic
//! worker-imported script" for `importScripts()`), with the response checks
//! both share. The worker threads themselves are in [`crate::runtime::workers`].

use jsprof_document::{CorsSettings, Origin, ScriptCorsOutcome, ScriptFetchParams};
use jsprof_net::{BlobEntry, HopRequest, RawResponse};

use crate::loading::script_loading::{fetched_script_record, is_javascript_mime_type, Loader};
use crate::loading::script_registry::ScriptRecord;

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
        if crate::runtime::workers::current_worker_terminated() {
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
    if crate::runtime::workers::current_worker_terminated() {
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
