//! The host hooks SpiderMonkey calls: `HostLoadImportedModule` (static
//! imports and dynamic `import()`, with the referrer's base URL and module
//! specifier resolution), finishing a dynamic `import()`, and
//! `HostGetImportMetaProperties` (`import.meta.url`, `import.meta.resolve`).

use std::ptr::NonNull;

use jsprof_document::CorsSettings;
use mozjs::context::{JSContext, RawJSContext};
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::{
    ColumnNumberOneOrigin, Handle as RawHandle, HandleObject as RawHandleObject,
    HandleValue as RawHandleValue, Heap, JSObject, JSScript,
};
use mozjs::jsval::{JSVal, ObjectValue, StringValue, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2;
use mozjs::rust::Handle;

use super::fetch::module_map_get;
use super::graph::{
    fetch_imported_module, finish_loading_imported_module, load_requested_modules, GraphOutcome,
};
use super::{Kind, ModuleInfo, PendingLoad, MODULE_INFOS, STATIC_LOADS};
use crate::dom::globals::globalscope::{report_pending_exception, GlobalScope};
use crate::runtime::event_loop::EventLoop;

/// Installs the host hooks on this thread's runtime: `HostLoadImportedModule`
/// (static imports and `import()`) and `HostGetImportMetaProperties`.
pub(crate) fn install_hooks(cx: &mut JSContext) {
    // SAFETY: `cx` is this thread's live context, so its runtime is live;
    // the hooks are `extern "C"` functions with the hook signatures, valid
    // for the whole process.
    unsafe {
        let runtime = mozjs::jsapi::JS_GetRuntime(cx.raw_cx());
        mozjs::jsapi::SetModuleLoadHook(runtime, Some(host_load_imported_module));
        mozjs::jsapi::SetModuleMetadataHook(runtime, Some(host_get_import_meta_properties));
    }
}

/// The host-defined data of the script or module `script` (null: none).
fn referrer_info(cx: &mut JSContext, script: *mut JSScript) -> Option<ModuleInfo> {
    if script.is_null() {
        return None;
    }
    rooted!(&in(cx) let mut private = UndefinedValue());
    // SAFETY: `script` is non-null (checked above) and live: it is read from
    // the rooted referrer handle SpiderMonkey passed to the load hook just
    // before this call, with no GC in between; `private` is rooted.
    unsafe { mozjs::glue::JS_GetScriptPrivate(script, private.handle_mut().into()) };
    if !private.get().is_int32() {
        return None;
    }
    let index = private.get().to_int32() as usize;
    MODULE_INFOS.with(|infos| infos.borrow().get(index).cloned())
}

/// The base URL of a classic script (or of code it compiled from a
/// string, or of an event handler): an external script's is its file name
/// (its response URL); code compiled under the document's URL (inline
/// scripts, event handlers, timer strings) gets the settings object's API
/// base URL, the document base URL. (Not done: an inline script's base URL
/// is the document base URL when it was prepared, not when the import
/// runs; they differ only if a `base` element changed in between.)
fn classic_referrer_base_url(cx: &mut JSContext, global: &GlobalScope) -> url::Url {
    let document_url = global.as_window().map(|window| window.url());
    mozjs::rust::describe_scripted_caller(cx)
        .ok()
        .and_then(|caller| url::Url::parse(&caller.filename).ok())
        .filter(|url| !matches!(url.scheme(), "about"))
        .filter(|url| Some(url) != document_url.as_ref())
        .unwrap_or_else(|| global.api_base_url())
}

/// The specifier string of a module request.
fn request_specifier(cx: &mut JSContext, request: Handle<*mut JSObject>) -> String {
    // SAFETY: `request` is the rooted handle to the ModuleRequestObject that
    // SpiderMonkey passed to the load hook (alive for the hook's call).
    let string = unsafe { wrappers2::GetModuleRequestSpecifier(cx, request) };
    match NonNull::new(string) {
        // SAFETY: `string` is non-null and is the request's specifier, kept
        // alive by the rooted request object; it is read at once.
        Some(string) => unsafe { mozjs::conversions::jsstr_to_string(cx, string) },
        None => String::new(),
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#resolve-a-module-specifier>
/// in `global`, from a script whose base URL is `base_url`.
fn resolve_module_specifier(
    global: &GlobalScope,
    specifier: &str,
    base_url: &url::Url,
) -> Result<url::Url, String> {
    global
        .modules()
        .imports
        .borrow_mut()
        .resolve(specifier, base_url, global.as_window().is_some())
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#hostloadimportedmodule>
/// (SpiderMonkey's `JS::ModuleLoadHook`), steps 1-15; step 16's fetch
/// happens later: for a static import in
/// [`drain_static_loads`](super::graph::drain_static_loads), for
/// `import()` in a queued task ([`continue_dynamic_import`]), unless the
/// module is in the module map already (then at once).
unsafe extern "C" fn host_load_imported_module(
    cx: *mut RawJSContext,
    referrer: RawHandle<*mut JSScript>,
    module_request: RawHandleObject,
    host_defined: RawHandleValue,
    payload: RawHandleValue,
    _line: u32,
    _column: ColumnNumberOneOrigin,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: SpiderMonkey calls the hook on this thread's live context.
    let mut cx = unsafe { JSContext::from_ptr(raw) };
    let cx = &mut cx;
    // (The referrer and payload are read from their handles where they are
    // used, not copied out here: a copy would be a raw GC pointer held
    // across calls that can collect and move it.)
    // SAFETY: SpiderMonkey passes rooted handles, valid for the hook's call;
    // `module_request` is a handle to a non-null ModuleRequestObject.
    let request = unsafe { Handle::from_raw(module_request) };
    // SAFETY: as above, a rooted handle; the value is converted to a plain
    // number at once (an int32 is no GC thing).
    let graph = unsafe { *host_defined.ptr };
    let graph = graph.is_int32().then(|| graph.to_int32() as u32);
    // Step 1: Let settingsObject be the current settings object.
    // SAFETY: the current realm (entered by SpiderMonkey to run the
    // importing script) keeps its global alive while it is entered, i.e.
    // for this whole hook call; `global` is not used after the hook returns
    // (the queued task re-reads it from the rooted `load.global`).
    let Some(global) = (unsafe { GlobalScope::current(cx) }) else {
        return false;
    };
    // Step 3-6: the referencing script's base URL and fetch options (a
    // module's from its host-defined data; a classic script's from its
    // file name; none: the settings object's API base URL).
    // SAFETY: `referrer` is a rooted handle passed by SpiderMonkey, valid for
    // the hook's call; the pointer is used at once by `referrer_info`.
    let referrer_script = unsafe { *referrer.ptr };
    let info = referrer_info(cx, referrer_script).unwrap_or_else(|| ModuleInfo {
        base_url: classic_referrer_base_url(cx, global),
        credentials: CorsSettings::Anonymous,
    });
    let specifier = request_specifier(cx, request);
    // Step 8-9: Let moduleType be the result of running the module type
    // from module request steps given moduleRequest; if the module type
    // allowed steps give false, the completion is a TypeError.
    // SAFETY: `request` is the rooted handle to the hook's
    // ModuleRequestObject.
    let module_type = unsafe { wrappers2::GetModuleRequestType(cx, request) };
    // Step 10: Let url be the result of resolving a module specifier
    // given referencingScript and moduleRequest.[[Specifier]], catching
    // any exceptions.
    let target = match Kind::from_module_type(module_type) {
        None => Err(format!(
            "{specifier:?}: this module type is not supported (only JavaScript and JSON modules)"
        )),
        Some(kind) => {
            resolve_module_specifier(global, &specifier, &info.base_url).map(|url| (url, kind))
        }
    };
    // Step 11 for `import()`: if resolving threw, perform
    // FinishLoadingImportedModule(referrer, moduleRequest, payload,
    // ThrowCompletion(resolutionError)) now: returning false with the
    // TypeError pending makes SpiderMonkey finish the load with it, so the
    // promise is rejected without waiting for a task.
    if graph.is_none() {
        if let Err(message) = &target {
            crate::dom::bindings::error::throw_type_error(cx, message);
            return false;
        }
    }
    let load = PendingLoad {
        global: RootedTraceableBox::new(Heap::default()),
        referrer: RootedTraceableBox::new(Heap::default()),
        request: RootedTraceableBox::new(Heap::default()),
        payload: RootedTraceableBox::new(Heap::default()),
        target,
        credentials: info.credentials,
        graph,
    };
    load.global.set(global.global_object());
    // SAFETY: `referrer` and `payload` are rooted handles SpiderMonkey
    // passed to this hook, valid for its call; the values are read now,
    // after the calls above that can collect, and stored at once in the
    // `load`'s roots (no GC in between).
    load.referrer.set(unsafe { *referrer.ptr });
    load.request.set(request.get());
    // SAFETY: as above.
    load.payload.set(unsafe { *payload.ptr });
    match graph {
        Some(_) => STATIC_LOADS.with(|loads| {
            let mut loads = loads.borrow_mut();
            // Step 7: a resolution error of any request of the referrer is
            // reported before its other requests are fetched (so it wins
            // over a fetch failure of an earlier one).
            if load.target.is_err() {
                loads.push_front(load);
            } else {
                loads.push_back(load);
            }
        }),
        // Step 16 for `import()` of a module already in the module map:
        // "fetch a single module script" runs onComplete at once (step 5),
        // so the load finishes now, without a task (SpiderMonkey links and
        // evaluates it from a promise job).
        None if load
            .target
            .as_ref()
            .is_ok_and(|(url, kind)| module_map_get(global, url, *kind).is_some()) =>
        {
            finish_dynamic_import(cx, &load);
        }
        None => EventLoop::current().queue_task(Box::new(move |cx| {
            let Some(global) = NonNull::new(load.global.get()) else {
                return;
            };
            let mut realm = AutoRealm::new(cx, global);
            continue_dynamic_import(&mut realm, load);
        })),
    }
    true
}

/// Step 16 of HostLoadImportedModule for `import()`, in a task: see
/// [`finish_dynamic_import`]; then the microtask checkpoint of the task.
fn continue_dynamic_import(cx: &mut JSContext, load: PendingLoad) {
    finish_dynamic_import(cx, &load);
    crate::runtime::perform_microtask_checkpoint(cx);
}

/// Step 16 of HostLoadImportedModule for `import()`: fetch a single
/// imported module script (or find it in the module map), load its
/// descendants, then FinishLoadingImportedModule (SpiderMonkey links and
/// evaluates it from a promise job and settles the promise with its
/// namespace), or reject the promise with the TypeError, parse error, or
/// resolution error.
fn finish_dynamic_import(cx: &mut JSContext, load: &PendingLoad) {
    rooted!(&in(cx) let payload = load.payload.get());
    rooted!(&in(cx) let mut error = UndefinedValue());
    if let Some(record) = fetch_imported_module(cx, load, error.handle_mut()) {
        rooted!(&in(cx) let record = record);
        match load_requested_modules(cx, record.handle()) {
            GraphOutcome::Loaded => {
                if !finish_loading_imported_module(cx, load, record.handle(), true) {
                    report_pending_exception(cx);
                }
                return;
            }
            GraphOutcome::Failed(error_to_rethrow, failure) => {
                error.set(error_to_rethrow.as_ref().unwrap_or(&failure).get());
            }
        }
    }
    // SAFETY: `payload` and `error` are rooted locals; `payload` is the
    // engine's payload for this `import()` (kept alive by `load`'s roots);
    // no exception is pending (each failure above took it into `error`).
    unsafe { wrappers2::FinishLoadingImportedModuleFailed(cx, payload.handle(), error.handle()) };
}

/// `import.meta.resolve(specifier)`
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#hostgetimportmetaproperties>
/// step 4): resolve a module specifier given the module script (whose
/// base URL is in reserved slot 0) and `ToString(specifier)`.
unsafe extern "C" fn import_meta_resolve(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: a JSNative called by SpiderMonkey on this thread: `raw` is the
    // live context and `vp`/`argc` its rooted argument vector, whose callee
    // is the `resolve` function made by `host_get_import_meta_properties`
    // (one reserved slot, the base URL string, kept alive by the rooted
    // callee). `base` is read and converted before any call that can
    // collect; the argument and every new string are rooted or stored in
    // the rooted return value at once. `global` is the entered realm's
    // global, alive while it is entered (this call).
    unsafe {
        let args = mozjs::jsapi::CallArgs::from_vp(vp, argc);
        let mut cx = JSContext::from_ptr(raw);
        let cx = &mut cx;
        let base = *mozjs::jsapi::GetFunctionNativeReserved(args.callee(), 0);
        let base_url = if base.is_string() {
            NonNull::new(base.to_string())
                .map(|s| mozjs::conversions::jsstr_to_string(cx, s))
                .and_then(|s| url::Url::parse(&s).ok())
        } else {
            None
        };
        // Step 4.1: Set specifier to ? ToString(specifier).
        rooted!(&in(cx) let argument = *args.get(0).ptr);
        let string = mozjs::rust::ToString(cx, argument.handle());
        let Some(string) = NonNull::new(string) else {
            return false;
        };
        let specifier = mozjs::conversions::jsstr_to_string(cx, string);
        let Some(global) = GlobalScope::current(cx) else {
            return false;
        };
        let base_url = base_url.unwrap_or_else(|| global.api_base_url());
        // Step 4.2: Let url be the result of resolving a module specifier
        // given moduleScript and specifier.
        match resolve_module_specifier(global, &specifier, &base_url) {
            // Step 4.3: Return the serialization of url.
            Ok(url) => {
                let text: Vec<u16> = url.as_str().encode_utf16().collect();
                let string = wrappers2::JS_NewUCStringCopyN(cx, text.as_ptr(), text.len());
                if string.is_null() {
                    return false;
                }
                args.rval().set(StringValue(&*string));
                true
            }
            Err(message) => {
                crate::dom::bindings::error::throw_type_error(cx, &message);
                false
            }
        }
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#hostgetimportmetaproperties>
/// (SpiderMonkey's module metadata hook): `import.meta.url` is the module
/// script's base URL, serialized; `import.meta.resolve` resolves against
/// it.
unsafe extern "C" fn host_get_import_meta_properties(
    cx: *mut RawJSContext,
    module: RawHandleObject,
    meta: RawHandleObject,
) -> bool {
    let Some(raw) = NonNull::new(cx) else {
        return false;
    };
    // SAFETY: called by SpiderMonkey on this thread's live context with
    // rooted handles to a non-null module record and its `import.meta`
    // object, valid for this call; `module` is read just for the private
    // query (no GC); every new string or function is null-checked and
    // rooted before the next call that can collect; `text` outlives the
    // copy; the names are static C strings.
    unsafe {
        let mut cx = JSContext::from_ptr(raw);
        let cx = &mut cx;
        rooted!(&in(cx) let mut private = UndefinedValue());
        mozjs::glue::JS_GetModulePrivate(*module.ptr, private.handle_mut().into());
        // Step 1: Let moduleScript be module.[[HostDefined]].
        let info = private
            .get()
            .is_int32()
            .then(|| {
                MODULE_INFOS.with(|i| i.borrow().get(private.get().to_int32() as usize).cloned())
            })
            .flatten();
        let Some(info) = info else {
            return true;
        };
        // Step 3: Let urlString be moduleScript's base URL, serialized.
        let text: Vec<u16> = info.base_url.as_str().encode_utf16().collect();
        let string = wrappers2::JS_NewUCStringCopyN(cx, text.as_ptr(), text.len());
        if string.is_null() {
            return false;
        }
        rooted!(&in(cx) let url = StringValue(&*string));
        rooted!(&in(cx) let meta = *meta.ptr);
        // Step 6: Return « Record { [[Key]]: "url", [[Value]]: urlString },
        // Record { [[Key]]: "resolve", [[Value]]: resolveFunction } ».
        if !wrappers2::JS_DefineProperty(
            cx,
            meta.handle(),
            c"url".as_ptr(),
            url.handle(),
            mozjs::jsapi::JSPROP_ENUMERATE as u32,
        ) {
            return false;
        }
        // Step 4-5: Let resolveFunction be
        // ! CreateBuiltinFunction(steps, 1, "resolve", « »).
        let function = mozjs::jsapi::NewFunctionWithReserved(
            cx.raw_cx(),
            Some(import_meta_resolve),
            1,
            0,
            c"resolve".as_ptr(),
        );
        if function.is_null() {
            return false;
        }
        rooted!(&in(cx) let resolve = mozjs::jsapi::JS_GetFunctionObject(function));
        mozjs::jsapi::SetFunctionNativeReserved(resolve.get(), 0, &url.get());
        rooted!(&in(cx) let resolve_value = ObjectValue(resolve.get()));
        wrappers2::JS_DefineProperty(
            cx,
            meta.handle(),
            c"resolve".as_ptr(),
            resolve_value.handle(),
            (mozjs::jsapi::JSPROP_ENUMERATE) as u32,
        )
    }
}
