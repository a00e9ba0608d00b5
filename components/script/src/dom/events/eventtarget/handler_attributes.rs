//! Event handler content attributes: compiling an uncompiled handler
//! (with the document, form owner and element in scope), setting one from
//! an attribute, which attributes of which elements are event handlers,
//! and the attribute change steps.

use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::realm::AutoRealm;
use mozjs::rooted;

use super::{EventTarget, HandlerValue, UncompiledHandler};
use crate::dom::bindings::codegen::EventHandlerNonNull;
use crate::dom::bindings::reflector::DomObject;
use crate::dom::bindings::root::DomRoot;
use crate::dom::globals::window::Window;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::loading::script_registry::ScriptRecord;

impl EventTarget {
    /// Steps 1.1-1.12 of
    /// <https://html.spec.whatwg.org/#getting-the-current-value-of-the-event-handler>:
    /// compiles `handler` as the function `on<type_>` in the realm of the
    /// document the attribute belongs to, with the scope chain element,
    /// form owner, document. A syntax error (or a document with scripting
    /// disabled) gives `Err` with the steps that report it.
    #[allow(clippy::type_complexity)]
    pub(super) fn compile_event_handler(
        &self,
        cx: &mut JSContext,
        type_: &str,
        handler: &UncompiledHandler,
    ) -> Result<Rc<EventHandlerNonNull>, Box<dyn FnOnce(&mut JSContext)>> {
        use mozjs::jsapi::JS_GetFunctionObject;
        use mozjs::jsapi::JS::SupportUnscopables;
        use mozjs::rust::wrappers2::{CompileFunction1, JS_WrapObject};
        use mozjs::rust::{transform_str_to_source_text, CompileOptionsWrapper, EnvironmentChain};
        let nothing_to_report = || -> Box<dyn FnOnce(&mut JSContext)> { Box::new(|_| {}) };
        let object = self.reflector().get_jsobject();
        // Step 1.1: If eventTarget is an element, then let element be
        // eventTarget, and document be element's node document. Otherwise,
        // eventTarget is a Window object, let element be null, and
        // document be eventTarget's associated Document.
        // SAFETY: the reflector of a live DOM object.
        let element = unsafe { DomRoot::<Element>::try_from_object(object) };
        let document = match &element {
            Some(element) => element.upcast_node().owner_doc(),
            // SAFETY: `object` is rooted by the caller (the event target's reflector).
            None => unsafe { DomRoot::<Window>::try_from_object(object) }
                .and_then(|window| window.active_document()),
        };
        let Some(document) = document else {
            return Err(nothing_to_report());
        };
        // Step 1.2: If scripting is disabled for document (it has no
        // browsing context: it is not its window's active document), then
        // return null.
        let global = document.upcast_node().global();
        let has_browsing_context = global
            .as_window()
            .and_then(|w| w.active_document())
            .is_some_and(|d| d.reflector_object() == document.reflector_object());
        if !has_browsing_context {
            return Err(nothing_to_report());
        }
        // Step 1.3-1.4: body and location (handler).
        // Step 1.5: If element is not null and element has a form owner,
        // let form owner be that form owner. Otherwise, let form owner be
        // null.
        let form_owner = element.as_deref().and_then(form_owner);
        // Step 1.6: Let settings object be the relevant settings object of
        // document.
        // Step 1.8: Push settings object's realm execution context onto the
        // JavaScript execution context stack.
        let Some(global_object) = std::ptr::NonNull::new(global.global_object()) else {
            return Err(nothing_to_report());
        };
        let mut realm = AutoRealm::new(cx, global_object);
        let cx = &mut *realm;
        // Step 1.9, scope: realm's global environment; if eventHandler is
        // an element's event handler, NewObjectEnvironment(document),
        // then (form owner), then (element): SpiderMonkey's environment
        // chain lists the innermost object first.
        let chain = EnvironmentChain::new(cx, SupportUnscopables::Yes);
        if let Some(element) = &element {
            let scopes = [
                Some(element.reflector_object()),
                form_owner.as_ref().map(|f| f.reflector_object()),
                Some(document.reflector_object()),
            ];
            for scope in scopes.into_iter().flatten() {
                rooted!(&in(cx) let mut scope = scope);
                // SAFETY: a rooted object; wrapped into this compartment
                // (a node adopted from another document keeps its realm).
                if !unsafe { JS_WrapObject(cx, scope.handle_mut()) } {
                    return Err(Box::new(
                        crate::dom::globals::globalscope::report_pending_exception,
                    ));
                }
                chain.append(scope.get());
            }
        }
        // Step 1.9, parameters: "event", or for the onerror handler of a
        // Window "event, source, lineno, colno, error"; the function's
        // name is the handler's name.
        let is_window_onerror = element.is_none() && type_ == "error";
        let names: &[&std::ffi::CStr] = if is_window_onerror {
            &[c"event", c"source", c"lineno", c"colno", c"error"]
        } else {
            &[c"event"]
        };
        let argnames: Vec<*const std::os::raw::c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let name = std::ffi::CString::new(format!("on{type_}")).unwrap_or_default();
        // The function is the document's code: compiled with the
        // document's URL and the attribute's line, never muted (the
        // attribute is in the document's DOM, whoever set it), and
        // registered as such for the sampler and error reporting.
        if crate::loading::script_registry::lookup(&handler.url, handler.line)
            .is_none_or(|r| r.url != handler.url || r.start_line != handler.line)
        {
            crate::loading::script_registry::register(ScriptRecord::inline(
                &handler.url,
                handler.line,
            ));
        }
        let filename =
            std::ffi::CString::new(handler.url.replace('\0', "\u{FFFD}")).unwrap_or_default();
        let mut options = CompileOptionsWrapper::new(cx, filename, handler.line.max(1));
        options.set_muted_errors(false);
        let mut text = transform_str_to_source_text(&handler.body);
        // SAFETY: the chain, options and source outlive the call.
        let function = unsafe {
            CompileFunction1(
                cx,
                chain.get(),
                options.ptr,
                name.as_ptr(),
                argnames.len() as u32,
                argnames.as_ptr(),
                &mut text,
            )
        };
        // Step 1.7: If body is not parsable as FunctionBody or if parsing
        // detects an early error: a SyntaxError is pending; report it
        // (Step 1.7.2-1.7.3) in this realm.
        if function.is_null() {
            return Err(Box::new(move |cx: &mut JSContext| {
                let Some(global) = std::ptr::NonNull::new(global_object.as_ptr()) else {
                    return;
                };
                let mut realm = AutoRealm::new(cx, global);
                crate::dom::globals::globalscope::report_pending_exception(&mut realm);
            }));
        }
        // Step 1.10-1.11: leave the realm (when `realm` drops); the
        // function has no script or module.
        // SAFETY: a live function.
        rooted!(&in(cx) let function = unsafe { JS_GetFunctionObject(function) });
        // Step 1.12: an EventHandler callback function object whose object
        // reference is function and whose callback context is settings
        // object.
        // SAFETY: a rooted function object.
        Ok(unsafe { EventHandlerNonNull::new(cx, function.get()) })
    }
    /// The attribute change steps of an event handler content attribute
    /// (<https://html.spec.whatwg.org/#event-handler-attributes:concept-element-attributes-change-ext>)
    /// for a target already determined: `None` (the attribute was
    /// removed) deactivates the handler, else its value becomes the
    /// internal raw uncompiled handler and the handler is activated.
    pub fn set_event_handler_content_attribute(
        &self,
        type_: &str,
        value: Option<UncompiledHandler>,
    ) {
        match value {
            // Step 4: Otherwise (value is null), deactivate an event
            // handler given eventTarget and name.
            None => self.deactivate_event_handler(type_),
            // Step 3.1-3.3: Let location be the script location that
            // triggered the execution of these steps; set eventHandler's
            // value to the internal raw uncompiled handler value/location;
            // activate an event handler given eventTarget and name.
            Some(value) => self.set_and_activate(type_, HandlerValue::Uncompiled(value)),
        }
    }
}

/// The elements that are form-associated and listed
/// (<https://html.spec.whatwg.org/multipage/forms.html#form-associated-element>),
/// whose event handlers have their form owner in scope.
const FORM_ASSOCIATED: &[&str] = &[
    "button", "fieldset", "img", "input", "object", "output", "select", "textarea",
];

/// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-owner>
/// of `element`, found as "reset the form owner" would set it: the element
/// with the `form` attribute's ID in the same tree if that is a `form`,
/// else the nearest `form` ancestor (never for `img` with a `form`
/// attribute, which is not listed).
fn form_owner(element: &Element) -> Option<DomRoot<Element>> {
    let is_html_form = |e: &Element| e.is_html("form");
    if !FORM_ASSOCIATED.iter().any(|name| element.is_html(name)) {
        return None;
    }
    // Step 3 of "reset the form owner": If element is listed, has a form
    // content attribute, and is connected, then: if the first element in
    // element's tree, in tree order, whose ID is element's form content
    // attribute value is a form element, associate element with it.
    if let Some(id) = element.get_attribute("form") {
        if element.upcast_node().is_connected() && !element.is_html("img") {
            let root = element.upcast_node().root_ref();
            return root
                .descendants()
                .into_iter()
                .filter_map(|n| n.downcast::<Element>())
                .find(|e| e.get_attribute("id").as_deref() == Some(id.as_str()))
                .filter(|e| is_html_form(e));
        }
        return None;
    }
    // Step 4: Otherwise, if element has an ancestor form element, then
    // associate element with the nearest such ancestor form element.
    let mut parent = element.upcast_node().parent();
    while let Some(node) = parent {
        if let Some(form) = node.downcast::<Element>().filter(|e| is_html_form(e)) {
            return Some(form);
        }
        parent = node.parent();
    }
    None
}

/// The event handlers of `GlobalEventHandlers` that are content
/// attributes on every HTML element
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#globaleventhandlers>).
pub const GLOBAL_EVENT_HANDLERS: &[&str] = &[
    "onabort",
    "onauxclick",
    "onbeforeinput",
    "onbeforematch",
    "onbeforetoggle",
    "onblur",
    "oncancel",
    "oncanplay",
    "oncanplaythrough",
    "onchange",
    "onclick",
    "onclose",
    "oncommand",
    "oncontextlost",
    "oncontextmenu",
    "oncontextrestored",
    "oncopy",
    "oncuechange",
    "oncut",
    "ondblclick",
    "ondrag",
    "ondragend",
    "ondragenter",
    "ondragleave",
    "ondragover",
    "ondragstart",
    "ondrop",
    "ondurationchange",
    "onemptied",
    "onended",
    "onerror",
    "onfocus",
    "onformdata",
    "oninput",
    "oninvalid",
    "onkeydown",
    "onkeypress",
    "onkeyup",
    "onload",
    "onloadeddata",
    "onloadedmetadata",
    "onloadstart",
    "onmousedown",
    "onmouseenter",
    "onmouseleave",
    "onmousemove",
    "onmouseout",
    "onmouseover",
    "onmouseup",
    "onpaste",
    "onpause",
    "onplay",
    "onplaying",
    "onprogress",
    "onratechange",
    "onreset",
    "onresize",
    "onscroll",
    "onscrollend",
    "onsecuritypolicyviolation",
    "onseeked",
    "onseeking",
    "onselect",
    "onslotchange",
    "onstalled",
    "onsubmit",
    "onsuspend",
    "ontimeupdate",
    "ontoggle",
    "onvolumechange",
    "onwaiting",
    "onwheel",
];

/// The Window-reflecting body element event handler set and the
/// `WindowEventHandlers` names
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#window-reflecting-body-element-event-handler-set>,
/// <https://html.spec.whatwg.org/multipage/webappapis.html#windoweventhandlers>):
/// on `body` (and `frameset`) they are the Window's handlers.
const WINDOW_REFLECTING: &[&str] = &[
    "onblur",
    "onerror",
    "onfocus",
    "onload",
    "onresize",
    "onscroll",
    "onafterprint",
    "onbeforeprint",
    "onbeforeunload",
    "onhashchange",
    "onlanguagechange",
    "onmessage",
    "onmessageerror",
    "onoffline",
    "ononline",
    "onpagehide",
    "onpagereveal",
    "onpageshow",
    "onpageswap",
    "onpopstate",
    "onrejectionhandled",
    "onstorage",
    "onunhandledrejection",
    "onunload",
];

/// The attribute change steps for event handler content attributes
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-attributes:concept-element-attributes-change-ext>),
/// run when `element`'s attribute `local_name` (no namespace) changed to
/// `value` (`None`: removed).
pub fn event_handler_attribute_changed(element: &Element, local_name: &str, value: Option<&str>) {
    // Step 1: If namespace is not null, or localName is not the name of an
    // event handler content attribute on element, then return (content
    // attributes of HTML elements; the parser and setAttribute give
    // attributes without a namespace).
    if element.namespace() != Some(HTML_NAMESPACE) {
        return;
    }
    let is_body = element.is_html("body") || element.is_html("frameset");
    let is_handler = GLOBAL_EVENT_HANDLERS.contains(&local_name)
        || (is_body && WINDOW_REFLECTING.contains(&local_name));
    if !is_handler {
        return;
    }
    let type_ = &local_name[2..];
    // Step 2: Let eventTarget be the result of determining the target of
    // an event handler given element and localName.
    let Some(document) = element.upcast_node().owner_doc() else {
        return;
    };
    let target: DomRoot<EventTarget> = if is_body && WINDOW_REFLECTING.contains(&local_name) {
        // Determining the target, step 3-4: if eventTarget's node document
        // is not an active document, return null; else return its
        // relevant global object.
        let Some(window) = document.upcast_node().global().as_window() else {
            return;
        };
        let active = window
            .active_document()
            .is_some_and(|d| d.reflector_object() == document.reflector_object());
        if !active {
            return;
        }
        DomRoot::from_ref(window.upcast_event_target())
    } else {
        DomRoot::from_ref(element.upcast_node().as_ref())
    };
    // Step 3: (value not null) Step 3.1: If the "Should element's inline
    // behavior be blocked by Content Security Policy?" algorithm returns
    // "Blocked": no Content Security Policy here.
    // Step 3.2: Let handlerMap be eventTarget's event handler map; Step
    // 3.3: let eventHandler be handlerMap[localName]; Step 3.4: location
    // is the script location that triggered these steps: the parser's
    // position while the document is being parsed, else line 1 (as
    // Chromium, whose event handler position is its parser's text
    // position, else the minimum position).
    let handler = value.map(|body| UncompiledHandler {
        body: body.to_owned(),
        url: document.url().to_string(),
        line: document.parser_line().unwrap_or(1),
    });
    target.set_event_handler_content_attribute(type_, handler);
}
