//! "Prepare the script element"
//! (<https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>):
//! its type, whether scripting is enabled, and which set or list a
//! script joins (module scripts and import maps through
//! `crate::loading::module_loading`).

use std::ptr::NonNull;

use mozjs::context::JSContext;
use mozjs::realm::AutoRealm;

use super::execute::{execute_the_script_element, fire_simple_event};
use super::fetch::{fetch_completed, start_fetch, start_waiting};
use super::{ClassicScript, ParserScripts, PendingScript, WhenReady};
use crate::dom::bindings::root::DomRoot;
use crate::dom::html::htmlscriptelement::HTMLScriptElement;
use crate::dom::nodes::document::Document;
use crate::dom::nodes::element::Element;
use crate::loading::script_loading::{
    classic_script_fetch_params, classic_script_from_fetch, is_javascript_mime_type_essence_match,
};
use crate::loading::script_registry::ScriptRecord;
use crate::runtime::event_loop::EventLoop;

/// The script block's type string of `element`
/// (<https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// step 8).
fn script_block_type_string(element: &Element) -> String {
    let type_ = element.get_attribute("type");
    let language = element.get_attribute("language");
    match (type_, language) {
        // If el has a type attribute whose value is the empty string; el
        // has no type attribute but has a language attribute whose value
        // is the empty string; or el has neither: "text/javascript".
        (Some(t), _) if t.is_empty() => "text/javascript".to_owned(),
        (None, Some(l)) if l.is_empty() => "text/javascript".to_owned(),
        (None, None) => "text/javascript".to_owned(),
        // Otherwise, if el has a type attribute: its value with leading
        // and trailing ASCII whitespace stripped.
        (Some(t), _) => t.trim_matches(|c: char| c.is_ascii_whitespace()).to_owned(),
        // Otherwise: "text/" followed by the language attribute's value.
        (None, Some(l)) => format!("text/{l}"),
    }
}

/// <https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element>
/// given `script`, for classic scripts (a module or import map type is
/// left to the module loader: not run here). `parser` is the parser of the
/// script's parser document for a parser-inserted script that the parser
/// prepares (at its end tag); `None` for every other trigger. `cx` is in
/// the realm of the script's node document's global.
pub(crate) fn prepare_the_script_element(
    cx: &mut JSContext,
    script: &HTMLScriptElement,
    parser: Option<&ParserScripts<'_>>,
) {
    let element = script.element();
    // Step 1: If el's already started is true, then return.
    if script.already_started() {
        return;
    }
    // Step 2: Let parser document be el's parser document.
    // Step 3: Set el's parser document to null.
    let parser_document = script.parser_inserted();
    script.set_parser_document(false);
    // Step 4: If parser document is non-null and el does not have an async
    // attribute, then set el's force async to true.
    if parser_document && element.get_attribute("async").is_none() {
        script.set_force_async(true);
    }
    // (Steps 3-4 are why a parser-inserted script that does not run here,
    // being empty or of an unsupported type, can run later, async, when a
    // script changes it: it is no longer parser-inserted.)
    // Step 5: Let source text be el's child text content.
    let source_text = script.source_text();
    // Step 6: If el has no src attribute, and source text is the empty
    // string, then return.
    if element.get_attribute("src").is_none() && source_text.is_empty() {
        return;
    }
    // Step 7: If el is not connected, then return.
    if !element.upcast_node().is_connected() {
        return;
    }
    // Step 8: the script block's type string.
    let type_string = script_block_type_string(element);
    // Step 9: If the script block's type string is a JavaScript MIME type
    // essence match, then set el's type to "classic".
    // Step 10-12: "module" and "importmap" go to the module loader
    // (`module_loading`, which runs the rest of these steps for them);
    // otherwise return (no script is executed, el's type is left null).
    if !is_javascript_mime_type_essence_match(&type_string) {
        let lowered = type_string.to_ascii_lowercase();
        if matches!(lowered.as_str(), "module" | "importmap") {
            prepare_module_or_import_map(cx, script, parser, parser_document, &lowered);
        }
        return;
    }
    // Step 13: If parser document is non-null, then set el's parser
    // document back to parser document and set el's force async to false.
    if parser_document {
        script.set_parser_document(true);
        script.set_force_async(false);
    }
    // Step 14: Set el's already started to true.
    script.set_already_started(true);
    // Step 15: Set el's preparation-time document to its node document.
    let Some(document) = element.upcast_node().owner_doc() else {
        return;
    };
    script.set_preparation_time_document(Some(&document));
    // Step 16: If parser document is non-null, and parser document is not
    // equal to el's preparation-time document, then return. (The parser
    // document is the node document here: the parser's nodes are not
    // moved to other documents before they run.)
    // Step 17: If scripting is disabled for el, then return.
    if scripting_is_disabled(cx, &document) {
        return;
    }
    // Step 18: If el has a nomodule content attribute and its type is
    // "classic", then return.
    if element.get_attribute("nomodule").is_some() {
        return;
    }
    // Step 19-20: (Content Security Policy; the `event`/`for` attributes:
    // no such script blocks here.)
    if let (Some(event), Some(for_)) =
        (element.get_attribute("event"), element.get_attribute("for"))
    {
        // Step 20.1-20.5: for must be "window" and event "onload" or
        // "onload()" (ASCII case-insensitive, whitespace stripped), else
        // return.
        let strip = |s: &str| {
            s.trim_matches(|c: char| c.is_ascii_whitespace())
                .to_ascii_lowercase()
        };
        if strip(&for_) != "window" || !matches!(strip(&event).as_str(), "onload" | "onload()") {
            return;
        }
    }
    // Step 21: If el has a charset attribute, then let encoding be the
    // result of getting an encoding from the value of the charset
    // attribute. If el does not have a charset attribute, or if getting an
    // encoding failed, then let encoding be el's node document's encoding.
    let encoding = element
        .get_attribute("charset")
        .and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()))
        .unwrap_or_else(|| document_encoding(&document));
    // Step 22: Let classic script CORS setting be the current state of el's
    // crossorigin content attribute (read by the fetch's parameters).
    // Step 23-30: the fetch options and settings object (the document's).
    match element.get_attribute("src") {
        // Step 31: If el has a src content attribute, then:
        Some(src) => {
            // Step 31.2: Let src be the value of el's src attribute.
            // Step 31.3: If src is the empty string, then queue an element
            // task on the DOM manipulation task source given el to fire an
            // event named error at el, and return.
            // Step 31.4: Set el's from an external file to true.
            // Step 31.5: Let url be the result of encoding-parsing a URL
            // given src, relative to el's node document.
            // Step 31.6: If url is failure, then queue an element task ...
            // to fire an event named error at el, and return.
            let url = if src.is_empty() {
                None
            } else {
                script.set_from_an_external_file(true);
                script.resolved_src().and_then(Result::ok)
            };
            let Some(url) = url else {
                queue_error_event(script);
                return;
            };
            // Step 33 (el's type is "classic" and el has a src attribute):
            let is_async = element.get_attribute("async").is_some() || script.force_async();
            match parser {
                // Step 33.2: If el has an async attribute or el's force
                // async is true: the set of scripts that will execute as
                // soon as possible.
                _ if is_async => start_fetch(
                    &document,
                    script,
                    &url,
                    encoding,
                    WhenReady::AsSoonAsPossible,
                ),
                // Step 33.3: Otherwise, if el is not parser-inserted: the
                // list of scripts that will execute in order as soon as
                // possible.
                None => start_fetch(&document, script, &url, encoding, WhenReady::InOrder),
                Some(parser) => {
                    // Step 31.8-31.11: fetch a classic script (for the
                    // parser, synchronously: the parser waits for a
                    // parser-blocking script, and a deferred one is
                    // fetched before parsing goes on).
                    let params = classic_script_fetch_params(&document, &url, element);
                    let origin = params.client_origin.clone();
                    let fetched = parser.loader.fetch_classic_script(params);
                    let pending = PendingScript {
                        element: DomRoot::from_ref(script),
                        result: classic_script_from_fetch(&url, fetched, &origin, encoding),
                        module: None,
                    };
                    if element.get_attribute("defer").is_some() {
                        // Step 33.4: Otherwise, if el has a defer
                        // attribute: append el to its parser document's
                        // list of scripts that will execute when the
                        // document has finished parsing.
                        parser.deferred.borrow_mut().push(pending);
                    } else {
                        // Step 33.5: Otherwise: el is the pending
                        // parsing-blocking script; the parser executes it
                        // once ready (which it is: it was fetched above).
                        execute_the_script_element(cx, &document, pending);
                    }
                }
            }
        }
        // Step 32: If el does not have a src content attribute:
        None => {
            // Step 32.1: Let base URL be el's node document's document base
            // URL.
            // Step 32.2 ("classic"): Let script be the result of creating
            // a classic script using source text, settings object, base
            // URL, and options (compiled in "run a classic script", with
            // the document's URL as its file name and, for a
            // parser-inserted script, the line its text starts on).
            // Mark as ready el given script.
            let line = if parser_document { script.line() } else { 1 };
            let record = ScriptRecord::inline(document.url().as_str(), line);
            // Step 34.3: Otherwise, immediately execute the script element
            // el, even if other scripts are already executing.
            let pending = PendingScript {
                element: DomRoot::from_ref(script),
                result: Some(ClassicScript {
                    source: source_text,
                    record,
                }),
                module: None,
            };
            execute_the_script_element(cx, &document, pending);
        }
    }
}

/// Steps 13-34 of "prepare the script element" for a `module` or
/// `importmap` script (`type_` lowercased): the module graph is fetched
/// and linked now (`module_loading`), then a parser-inserted module
/// script without `async` goes to the list of scripts that will execute
/// when the document has finished parsing, any other one executes as soon
/// as possible (a task). An import map is registered at once.
fn prepare_module_or_import_map(
    cx: &mut JSContext,
    script: &HTMLScriptElement,
    parser: Option<&ParserScripts<'_>>,
    parser_document: bool,
    type_: &str,
) {
    // Step 13: If parser document is non-null, then set el's parser
    // document back to parser document and set el's force async to false.
    if parser_document {
        script.set_parser_document(true);
        script.set_force_async(false);
    }
    // Step 15: Set el's preparation-time document to its node document.
    let Some(document) = script.element().upcast_node().owner_doc() else {
        return;
    };
    script.set_preparation_time_document(Some(&document));
    // Step 17: If scripting is disabled for el, then return (after step
    // 14: el's already started is true).
    if scripting_is_disabled(cx, &document) {
        script.set_already_started(true);
        return;
    }
    // Step 14 (already started) and the fetch: `module_loading`.
    let Some((module, _)) =
        crate::loading::module_loading::prepare_module_or_import_map(cx, &document, script, type_)
    else {
        return;
    };
    // Step 34 (el's type is "module"):
    // Step 34.2: If el has an async attribute or el's force async is true
    // (a script-inserted script unless `async = false`): the set of scripts
    // that will execute as soon as possible.
    let is_async = script.element().get_attribute("async").is_some() || script.force_async();
    match parser {
        // Step 34.2 (the graph is fetched already, so its result is ready:
        // the steps to run then execute it, in a task).
        _ if is_async => {
            let pending = PendingScript {
                element: DomRoot::from_ref(script),
                result: None,
                module: Some(module),
            };
            EventLoop::current().queue_task(Box::new(move |cx| {
                let Some(global) = NonNull::new(document.upcast_node().global().global_object())
                else {
                    return;
                };
                let mut realm = AutoRealm::new(cx, global);
                execute_the_script_element(&mut realm, &document, pending);
            }));
        }
        // Step 34.3: Otherwise, if el is not parser-inserted: the list of
        // scripts that will execute in order as soon as possible.
        None => append_ready_module_to_in_order_list(&document, script, module),
        // Step 34.4: Otherwise (parser-inserted, type "module"): the list
        // of scripts that will execute when the document has finished
        // parsing.
        Some(parser) => parser.deferred.borrow_mut().push(PendingScript {
            element: DomRoot::from_ref(script),
            result: None,
            module: Some(module),
        }),
    }
}

/// Step 34.3 of "prepare the script element" for a module script whose
/// graph is already fetched (`module_loading` fetches synchronously):
/// set el's delaying the load event to true, append el to its
/// preparation-time document's list of scripts that will execute in order
/// as soon as possible, and mark el as ready in a task (as a fetch
/// completing would), so that it runs after the in-order scripts inserted
/// before it and before those inserted after it.
fn append_ready_module_to_in_order_list(
    document: &Document,
    script: &HTMLScriptElement,
    module: crate::loading::module_loading::ModuleResult,
) {
    let id = start_waiting(document, script, WhenReady::InOrder);
    EventLoop::current().queue_task(Box::new(move |cx| {
        fetch_completed(cx, id, None, Some(module));
    }));
}

/// Queues an element task on the DOM manipulation task source given
/// `script` to fire an event named error at it.
pub(super) fn queue_error_event(script: &HTMLScriptElement) {
    let script = DomRoot::from_ref(script);
    EventLoop::current().queue_task(Box::new(move |cx| {
        let node = script.element().upcast_node();
        let Some(global) = NonNull::new(node.global().global_object()) else {
            return;
        };
        let mut realm = AutoRealm::new(cx, global);
        fire_simple_event(&mut realm, &script, "error");
    }));
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-n-noscript>
/// for a script element whose node document is `document`: scripting is
/// disabled when the document has no browsing context (it is not its
/// window's document: `createHTMLDocument()`, `DOMParser`-like documents).
fn scripting_is_disabled(cx: &mut JSContext, document: &Document) -> bool {
    match document.upcast_node().global().as_window() {
        Some(window) => !std::ptr::eq(&*window.document(cx), document),
        None => true,
    }
}

/// <https://dom.spec.whatwg.org/#concept-document-encoding> of
/// `document`: UTF-8, as its `characterSet` says (the shell decodes every
/// document as UTF-8).
fn document_encoding(_document: &Document) -> &'static encoding_rs::Encoding {
    encoding_rs::UTF_8
}
