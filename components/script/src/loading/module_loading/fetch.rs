//! The module map of a global and "fetch a single module script": the
//! module map's look-ups, the CORS fetch with its MIME type check, and
//! "create a JavaScript (or JSON) module script" (compiled, registered in
//! the script registry, given its host-defined data).

use std::ffi::CString;

use jsprof_document::{CorsSettings, Origin, ScriptCorsOutcome, ScriptFetchParams};
use mozjs::context::JSContext;
use mozjs::jsapi::{Heap, JSObject};
use mozjs::jsval::{Int32Value, JSVal, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2;
use mozjs::rust::CompileOptionsWrapper;

use super::errors::take_exception;
use super::{Kind, ModuleInfo, ModuleScript, MODULE_INFOS};
use crate::dom::globals::globalscope::GlobalScope;
use crate::loading::script_registry::{self, ScriptRecord};

/// What fetching a single module script gave: the record or the parse
/// error (both rooted by the caller right away), or null.
pub(super) enum Fetched {
    Record(*mut JSObject),
    ParseError(JSVal),
    Null,
}

/// Looks `(url, kind)` up in `global`'s module map.
pub(super) fn module_map_get(global: &GlobalScope, url: &url::Url, kind: Kind) -> Option<Fetched> {
    let map = global.modules().map.borrow();
    let script = map.get(&(url.clone(), kind))?;
    Some(if !script.record.get().is_null() {
        Fetched::Record(script.record.get())
    } else {
        Fetched::ParseError(script.parse_error.get())
    })
}

/// Stores a module script in `global`'s module map; a null one removes
/// the entry instead (null is not cached).
pub(super) fn module_map_set(global: &GlobalScope, url: url::Url, kind: Kind, fetched: &Fetched) {
    let script = Box::new(ModuleScript {
        record: Heap::default(),
        parse_error: Heap::default(),
    });
    match fetched {
        Fetched::Null => {
            global.modules().map.borrow_mut().remove(&(url, kind));
            return;
        }
        Fetched::Record(record) => script.record.set(*record),
        Fetched::ParseError(error) => script.parse_error.set(*error),
    }
    global
        .modules()
        .map
        .borrow_mut()
        .insert((url, kind), script);
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-single-module-script>
/// (`cx` in `global`'s realm): the module map first; else a request in
/// mode "cors" (credentials from `credentials`) through the document
/// component's script fetch state machine (a cross-origin response without
/// `Access-Control-Allow-Origin` is a network error), an ok status and a
/// JavaScript (or JSON) MIME type; then "create a module script", stored
/// in the module map (a null result is not stored).
pub(super) fn fetch_single_module_script(
    cx: &mut JSContext,
    global: &GlobalScope,
    url: &url::Url,
    kind: Kind,
    credentials: CorsSettings,
) -> Fetched {
    // Step 4-5: If moduleMap[(url, moduleType)] exists, run onComplete
    // given moduleMap[(url, moduleType)], and return. (Fetches complete
    // synchronously: no entry stays "fetching".)
    if let Some(fetched) = module_map_get(global, url, kind) {
        return fetched;
    }
    let fetched = match fetch_module_source(global, url, kind, credentials) {
        Err(reason) => {
            // processResponseConsumeBody: a network error, a status that is
            // not ok, or a MIME type that is not acceptable: moduleScript
            // is null. Null is not stored: moduleMap[(url, moduleType)] is
            // removed, so a later request fetches again
            // (<https://github.com/whatwg/html/pull/10327>).
            eprintln!("module script not loaded: {reason}");
            Fetched::Null
        }
        // Step 12.6: create a JavaScript (or JSON) module script given
        // sourceText, settingsObject, response's URL, and options.
        Ok((source, response_url)) => {
            let record = fetched_module_record(&response_url, &global.origin());
            create_module_script(cx, &source, record, &response_url, kind, credentials)
        }
    };
    // Step 12.7: Set moduleMap[(url, moduleType)] to moduleScript (for a
    // null moduleScript: remove the entry).
    module_map_set(global, url.clone(), kind, &fetched);
    fetched
}

/// The network part of "fetch a single module script": the source text
/// and the response URL, or why the result is null.
fn fetch_module_source(
    global: &GlobalScope,
    url: &url::Url,
    kind: Kind,
    credentials: CorsSettings,
) -> Result<(String, url::Url), String> {
    let loader = crate::navigation::browsing_context::loader()
        .ok_or_else(|| format!("{url}: no loader on this thread"))?;
    if crate::runtime::workers::current_worker_terminated() {
        return Err(format!("{url}: the worker was terminated"));
    }
    // Step 7: Let request be a new request whose URL is url, mode is
    // "cors", referrer is referrer, and client is fetchClient.
    // Step 11: Set up the module script request given request and options
    // (credentials mode from options).
    let params = ScriptFetchParams {
        url: url.clone(),
        cors_setting: match credentials {
            CorsSettings::UseCredentials => CorsSettings::UseCredentials,
            _ => CorsSettings::Anonymous,
        },
        client_origin: global.origin(),
        embedder_policy: global.embedder_policy(),
    };
    let fetched = loader
        .fetch_classic_script(params)
        .map_err(|e| format!("{url}: {e}"))?;
    let response_url = match fetched.outcome {
        ScriptCorsOutcome::Blocked(reason) => {
            return Err(format!("{url}: blocked by the CORS check: {reason:?}"))
        }
        ScriptCorsOutcome::Run {
            muted_errors: true, ..
        } => return Err(format!("{url}: a module response must pass the CORS check")),
        ScriptCorsOutcome::Run { response_url, .. } => response_url,
    };
    let response = fetched
        .response
        .ok_or_else(|| format!("{url}: no response"))?;
    // processResponseConsumeBody, step 1: If bodyBytes is null or failure,
    // or response's status is not an ok status, then the result is null.
    if !response.is_ok() {
        return Err(format!(
            "{}: HTTP status {} {}",
            response.url, response.status, response.status_text
        ));
    }
    // Step 2: Let mimeType be the result of extracting a MIME type from
    // response's header list. Step 6: a JavaScript MIME type for
    // "javascript-or-wasm", a JSON MIME type for "json"; anything else is
    // null.
    let mime_type = response.mime_type();
    let acceptable = match kind {
        Kind::JavaScript => mime_type
            .as_ref()
            .is_some_and(crate::loading::script_loading::is_javascript_mime_type),
        Kind::Json => mime_type.as_ref().is_some_and(|m| {
            let essence = m.essence();
            essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
        }),
    };
    if !acceptable {
        return Err(format!(
            "{}: not a {} MIME type ({:?})",
            response.url,
            match kind {
                Kind::JavaScript => "JavaScript",
                Kind::Json => "JSON",
            },
            response.header("Content-Type").unwrap_or_default()
        ));
    }
    // Step 6.1: Let sourceText be the result of UTF-8 decoding bodyBytes
    // (whatever the Content-Type's charset says).
    let source = crate::loading::script_loading::utf8_decode(&response.body);
    Ok((source, response_url))
}

/// The registry record of a fetched module: its response URL, line 1,
/// "basic" (same origin or `data:`) or "cors", never muted.
pub(super) fn fetched_module_record(
    response_url: &url::Url,
    client_origin: &Origin,
) -> ScriptRecord {
    let basic =
        Origin::of(response_url).same_origin(client_origin) || response_url.scheme() == "data";
    ScriptRecord {
        url: response_url.to_string(),
        start_line: 1,
        cors_status: if basic { "basic" } else { "cors" }.to_owned(),
        muted_errors: false,
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#creating-a-javascript-module-script>
/// (and, for `Kind::Json`, "creating a JSON module script"), in the
/// current realm: `record` names the script (compile file name, start
/// line); it goes into the script registry first. `base_url` is the
/// script's base URL (a fetched module's response URL; an inline one's
/// document base URL).
pub(super) fn create_module_script(
    cx: &mut JSContext,
    source: &str,
    record: ScriptRecord,
    base_url: &url::Url,
    kind: Kind,
    credentials: CorsSettings,
) -> Fetched {
    // Step 4-6: script's base URL, fetch options; parse error and error to
    // rethrow null.
    let base_url = base_url.clone();
    let filename = CString::new(record.url.replace('\0', "\u{FFFD}")).unwrap_or_default();
    let line = record.start_line.max(1);
    script_registry::register(record);
    let options = CompileOptionsWrapper::new(cx, filename, line);
    let mut text = mozjs::rust::transform_str_to_source_text(source);
    // Step 7: Let result be ParseModule(source, settings's realm, script)
    // (JSON: ParseJSONModule).
    // SAFETY: `cx` is in the realm the module is compiled for (the caller's
    // contract); `options` and `text` are live locals for the call, and
    // `text` borrows `source`, which outlives it. The result is rooted at
    // once by `rooted!`.
    rooted!(&in(cx) let module = unsafe {
        match kind {
            Kind::JavaScript => wrappers2::CompileModule1(cx, options.ptr, &mut text),
            Kind::Json => wrappers2::CompileJsonModule1(cx, options.ptr, &mut text),
        }
    });
    if module.get().is_null() {
        // Step 8: If result is a list of errors, then set script's parse
        // error to result[0] and return script.
        rooted!(&in(cx) let mut error = UndefinedValue());
        take_exception(cx, error.handle_mut());
        return Fetched::ParseError(error.get());
    }
    // A JSON module is a synthetic module record: no script, no
    // host-defined data (it imports nothing and has no import.meta).
    if kind == Kind::Json {
        return Fetched::Record(module.get());
    }
    // Step 9: Set script's record to result (its host-defined data: the
    // private value, an index into this agent's module infos).
    let index = MODULE_INFOS.with(|infos| {
        let mut infos = infos.borrow_mut();
        infos.push(ModuleInfo {
            base_url,
            credentials,
        });
        infos.len() - 1
    });
    let private = Int32Value(index as i32);
    // SAFETY: `module` is a rooted, non-null (checked above) JavaScript
    // module record; an int32 private value is no GC thing, so no barrier
    // or tracing is needed for it.
    unsafe { mozjs::jsapi::SetModulePrivate(module.get(), &private) };
    Fetched::Record(module.get())
}
