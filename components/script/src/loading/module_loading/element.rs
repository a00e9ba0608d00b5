//! `<script type="module">` and `<script type="importmap">`: what
//! "prepare the script element" and "execute the script element" do for
//! them, and registering an import map.

use std::ptr::NonNull;

use jsprof_document::CorsSettings;
use mozjs::context::JSContext;
use mozjs::realm::AutoRealm;

use super::errors::throw_json_syntax_error;
use super::evaluate::run_module_script;
use super::fetch::create_module_script;
use super::graph::{fetch_descendants_and_link, fetch_external_module_script_graph};
use super::{Kind, ModuleResult};
use crate::dom::bindings::root::DomRoot;
use crate::dom::events::event::Event;
use crate::dom::globals::globalscope::{report_pending_exception, GlobalScope};
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::loading::import_map::{parse_import_map_string, ImportMapError};
use crate::loading::script_registry::ScriptRecord;
use crate::runtime::event_loop::EventLoop;

/// What "prepare the script element" does with a `module` or `importmap`
/// script (<https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// from step 12 on, `cx` in the document's realm): an import map is
/// registered at once (`None`); a module script's graph is fetched and
/// linked now (fetches are synchronous) and returned with whether el has
/// an `async` attribute (`script_element` picks the set or list el joins).
pub(crate) fn prepare_module_or_import_map(
    cx: &mut JSContext,
    document: &Document,
    script: &HTMLScriptElement,
    type_: &str,
) -> Option<(ModuleResult, bool)> {
    let element = script.element();
    // Step 10-11: an ASCII case-insensitive match for "module" or
    // "importmap" (the type string has no leading or trailing ASCII
    // whitespace).
    let module = match type_
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase()
        .as_str()
    {
        "module" => true,
        "importmap" => false,
        // Step 11: Otherwise, return (a data block).
        _ => return None,
    };
    // Step 12: Set el's already started to true.
    script.set_already_started(true);
    let global = document.upcast_node().global();
    let src = script.resolved_src();
    if !module {
        // Step 30.1 (src, importmap): queue an element task on the DOM
        // manipulation task source given el to fire an event named error
        // at el, and return (external import maps are not supported).
        if src.is_some() {
            eprintln!("{}: external import maps are not supported", document.url());
            queue_element_event(DomRoot::from_ref(script), "error");
            return None;
        }
        // Step 31 (importmap): Let result be the result of creating an
        // import map parse result given source text and base URL; then
        // "execute the script element": register an import map.
        register_import_map(cx, global, &script.source_text(), &document.url());
        return None;
    }
    let credentials = CorsSettings::from_attribute(element.get_attribute("crossorigin").as_deref());
    let result = match src {
        // Step 30.3-30.5: If the src attribute's value is the empty string
        // or does not parse: queue an element task to fire error, return.
        Some(Err(raw)) => {
            eprintln!(
                "{}: <script type=module src={raw:?}>: not a valid URL",
                document.url()
            );
            queue_element_event(DomRoot::from_ref(script), "error");
            return None;
        }
        // Step 30.11 (module): fetch an external module script graph given
        // url, settings object, options, and onComplete.
        Some(Ok(url)) => fetch_external_module_script_graph(cx, global, &url, credentials),
        // Step 31.2 (module): fetch an inline module script graph, given
        // source text, base URL, settings object, options, and onComplete.
        None => {
            let source = script.source_text();
            if source.is_empty() {
                // Step 6: no src and an empty source text: return.
                return None;
            }
            // (Its base URL: el's node document's document base URL; its
            // file name for the profiler: the document's URL.)
            let record = ScriptRecord::inline(document.url().as_str(), script.line());
            let base_url = document.base_url();
            let fetched = create_module_script(
                cx,
                &source,
                record,
                &base_url,
                Kind::JavaScript,
                credentials,
            );
            fetch_descendants_and_link(cx, fetched, false)
        }
    };
    // Step 33: whether el has an async attribute (the caller picks the
    // set or list el joins, with el's force async and parser document).
    let is_async = element.get_attribute("async").is_some();
    Some((result, is_async))
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#execute-the-script-element>
/// for a module script (`cx` in any realm).
pub(crate) fn execute_module_script_element(
    cx: &mut JSContext,
    document: &Document,
    element: &HTMLScriptElement,
    result: ModuleResult,
) {
    let global = document.upcast_node().global();
    let Some(global_object) = NonNull::new(global.global_object()) else {
        return;
    };
    let mut realm = AutoRealm::new(cx, global_object);
    let cx = &mut *realm;
    // Step 2: If el's result is null, then fire an event named error at
    // el, and return.
    if result.is_null() {
        fire_element_event(cx, element, "error");
        return;
    }
    // Step 6 (module): Set document's currentScript attribute to null; run
    // the module script given by el's result.
    let previous = document.current_script();
    document.set_current_script(None);
    run_module_script(cx, &result);
    crate::runtime::perform_microtask_checkpoint(cx);
    // Step 7: Set document's currentScript attribute to oldCurrentScript.
    document.set_current_script(previous.as_deref());
    // Step 8: If el's from an external file is true, then fire an event
    // named load at el.
    if result.external {
        fire_element_event(cx, element, "load");
    }
}

fn fire_element_event(cx: &mut JSContext, element: &HTMLScriptElement, name: &str) {
    let node = element.element().upcast_node();
    let event = Event::new(cx, node.global(), name, false, false);
    event.set_trusted(true);
    node.as_ref().dispatch(cx, &event);
}

/// Queues an element task firing `name` at `element`.
fn queue_element_event(element: DomRoot<HTMLScriptElement>, name: &'static str) {
    EventLoop::current().queue_task(Box::new(move |cx| {
        let global = element.element().upcast_node().global().global_object();
        let Some(global) = NonNull::new(global) else {
            return;
        };
        let mut realm = AutoRealm::new(cx, global);
        fire_element_event(&mut realm, &element, name);
    }));
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#create-an-import-map-parse-result>
/// and <https://html.spec.whatwg.org/multipage/webappapis.html#register-an-import-map>
/// (`cx` in `global`'s realm).
fn register_import_map(cx: &mut JSContext, global: &GlobalScope, input: &str, base_url: &url::Url) {
    // Create an import map parse result, step 2: Parse an import map
    // string given input and baseURL, catching any exceptions; if this
    // threw, set result's error to rethrow to the exception.
    let parsed = match parse_import_map_string(input, base_url) {
        Ok(parsed) => parsed,
        Err(error) => {
            // Register an import map, step 1: If result's error to rethrow
            // is not null, then report an exception given by result's error
            // to rethrow for global, and return.
            match error {
                ImportMapError::Syntax(message) => throw_json_syntax_error(cx, input, &message),
                ImportMapError::Type(message) => {
                    crate::dom::bindings::error::throw_type_error(cx, &message)
                }
            }
            report_pending_exception(cx);
            return;
        }
    };
    for warning in &parsed.warnings {
        eprintln!("{base_url}: {warning}");
    }
    // Step 2: Merge existing and new import maps, given global and
    // result's import map.
    let warnings = global.modules().imports.borrow_mut().merge(parsed.map);
    for warning in warnings {
        eprintln!("{base_url}: {warning}");
    }
}
