//! Event handler content attributes (`onclick="..."`, `<body onload>`,
//! `onerror`), set by the parser or by `setAttribute`, compiled as HTML's
//! "getting the current value of the event handler" says (scope chain
//! element, form owner, document; the document's URL and the attribute's
//! line); `HTMLElement.click()`; the event path of a dispatch through the
//! tree to the window; and the `UIEvent`, `MouseEvent`, `KeyboardEvent`,
//! `FocusEvent` and `InputEvent` constructors. Expected values were
//! checked in headless Chromium where a browser decides.

use crate::common;
use crate::common::{html, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

/// Serves `body` at /index.html and loads it in a test runtime.
fn page(server: &TestServer, body: &'static str) -> JsRuntime {
    server.route("/index.html", move |_| html(body));
    common::load(server, &server.http_url(SAME, "/index.html"))
}

/// `window.log` joined by `|`, after checking that the page reported no
/// error.
fn log(rt: &mut JsRuntime) -> String {
    let errors = rt.reported_errors();
    assert!(errors.is_empty(), "page errors: {errors:?}");
    eval(rt, "log.join('|')")
}

/// Loads a page made of `body` and evaluates `code` in it.
fn eval_on(body: &'static str, code: &str) -> String {
    let server = TestServer::start().unwrap();
    let mut rt = page(&server, body);
    eval(&mut rt, code)
}

fn eval(rt: &mut JsRuntime, code: &str) -> String {
    rt.evaluate(code, "check.js", 1).unwrap()
}

#[test]
fn parser_made_onclick_runs_with_click_and_this() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<!DOCTYPE html><script>window.log = [];</script>\n\
         <button id=b onclick=\"log.push('click:' + this.id + ':' + (event instanceof MouseEvent) + ':' + event.isTrusted + ':' + event.bubbles + ':' + event.cancelable + ':' + event.composed + ':' + (event.view === window))\">go</button>\n\
         <script>const b = document.getElementById('b'); b.click();\n\
         log.push(typeof b.onclick, b.onclick.name, String(b.onclick).split('\\n')[0]);</script>",
    );
    assert_eq!(
        log(&mut rt),
        "click:b:true:false:true:true:true:true|function|onclick|function onclick(event) {"
    );
}

/// The scope chain: the element first, then its form owner, then the
/// document, then the global (each object's own properties shadow the
/// ones further out).
#[test]
fn scope_chain_is_element_form_owner_document() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<!DOCTYPE html><script>window.log = []; window.inWindow = 'W'; window.shadowed = 'window';</script>\n\
         <form id=f><button id=b onclick=\"log.push([id, formOnly, docOnly, inWindow, shadowed, typeof URL, URL === document.URL].join())\">x</button></form>\n\
         <div id=d onclick=\"log.push([id, typeof formOnly, docOnly].join())\"></div>\n\
         <script>\n\
         const f = document.getElementById('f'); f.formOnly = 'F'; f.shadowed = 'form';\n\
         document.docOnly = 'D'; document.shadowed = 'document';\n\
         document.getElementById('b').click();\n\
         document.getElementById('d').click();\n\
         </script>",
    );
    assert_eq!(log(&mut rt), "b,F,D,W,form,string,true|d,undefined,D");
}

/// `setAttribute` compiles lazily (line 1 after parsing, as Chromium),
/// changing the attribute recompiles, removing it deactivates the handler,
/// and the IDL attribute and the content attribute set the same handler.
#[test]
fn set_attribute_change_remove_and_idl_attribute() {
    let out = eval_on(
        "<!DOCTYPE html><div id=d></div><script>window.log = [];</script>",
        "const d = document.getElementById('d');\n\
         d.setAttribute('onclick', 'log.push(\"a\")'); d.click();\n\
         d.setAttribute('ONCLICK', 'log.push(\"b\")'); d.click();\n\
         d.onclick = () => log.push('idl'); d.click();\n\
         d.setAttribute('onclick', 'log.push(\"c\")'); d.click();\n\
         d.removeAttribute('onclick'); d.click(); log.push(String(d.onclick));\n\
         d.setAttribute('onfoo', 'log.push(\"never\")'); d.dispatchEvent(new Event('foo'));\n\
         log.join()",
    );
    assert_eq!(out, "a,b,idl,c,null");
}

/// The handler keeps its place among listeners from its first activation
/// (DOM "add an event listener" once; later values reuse the listener).
#[test]
fn handler_keeps_its_listener_position() {
    let out = eval_on(
        "<!DOCTYPE html><div id=d></div><script>window.log = [];</script>",
        "const d = document.getElementById('d');\n\
         d.addEventListener('click', () => log.push(1));\n\
         d.setAttribute('onclick', 'log.push(2)');\n\
         d.addEventListener('click', () => log.push(3));\n\
         d.setAttribute('onclick', 'log.push(\"2b\")');\n\
         d.click(); log.join()",
    );
    assert_eq!(out, "1,2b,3");
}

/// `<body onload>` and `<body onerror>` are the Window's handlers; the
/// Window's `onerror` is compiled with five parameters.
#[test]
fn body_onload_and_onerror_are_the_windows() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<!DOCTYPE html><script>window.log = [];</script>\n\
         <body onload=\"log.push('load:' + (this === window) + ':' + event.type)\" \
         onerror=\"log.push('error')\">\n\
         <script>log.push(typeof window.onload, String(window.onerror).split('\\n')[0]);\n\
         setTimeout(() => { throw new Error('boom'); }, 0);</script>",
    );
    assert!(rt.run_until_idle(None));
    assert_eq!(
        eval(&mut rt, "log.join('|')"),
        "function|function onerror(event, source, lineno, colno, error) {|load:true:load|error"
    );
}

/// A handler with a syntax error: reading it reports a SyntaxError at the
/// document's URL and the attribute's line, once; its value becomes null;
/// the page goes on.
#[test]
fn syntax_error_in_a_handler_is_reported_not_fatal() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<!DOCTYPE html><script>window.log = [];\n\
         addEventListener('error', e => log.push('error-event:' + e.message.split(':')[0] + ':' + e.lineno));</script>\n\
         <p>\n\
         <button id=b\n\
           onclick=\"return )\">x</button>\n\
         <script>const b = document.getElementById('b');\n\
         b.click(); log.push('after:' + b.onclick); b.click(); log.push('done');</script>",
    );
    let url = server.http_url(SAME, "/index.html").to_string();
    let errors = rt.reported_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.starts_with("SyntaxError"), "{errors:?}");
    assert_eq!(errors[0].filename, url);
    // The function starts on line 5, where the start tag ends (the
    // parser's position when it made the element, as in Chromium;
    // html5ever gives no attribute positions); its body, as in HTML's
    // source text "function onclick(event) {" LF body LF "}", on the next
    // line. Chromium differs there: V8 compiles the body itself at the
    // parser's position, so it reports line 5. We keep the function (the
    // frame a profiler shows) at the attribute's position.
    assert_eq!(errors[0].line, 6, "{errors:?}");
    assert_eq!(
        eval(&mut rt, "log.join('|')"),
        "error-event:SyntaxError:6|after:null|done"
    );
}

/// A handler's exception is reported like a listener's, with the
/// document's URL and the handler's line; the dispatch goes on.
#[test]
fn handler_exception_is_reported_with_its_position() {
    let server = TestServer::start().unwrap();
    let mut rt = page(
        &server,
        "<!DOCTYPE html><script>window.log = [];</script>\n\
         \n\
         <div id=d onclick=\"log.push('first');\nnull.x;\">x</div>\n\
         <script>const d = document.getElementById('d'); d.addEventListener('click', () => log.push('second'));\n\
         d.click();</script>",
    );
    let errors = rt.reported_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.starts_with("TypeError"), "{errors:?}");
    assert_eq!(
        errors[0].filename,
        server.http_url(SAME, "/index.html").to_string()
    );
    // The function starts on line 4, where the tag ends; the body's
    // second line is the function's third: line 6.
    assert_eq!(errors[0].line, 6, "{errors:?}");
    assert_eq!(eval(&mut rt, "log.join()"), "first,second");
}

/// `click()` returns without firing for a disabled form control and does
/// not recurse (click in progress flag); a handler returning false cancels.
#[test]
fn click_disabled_reentrancy_and_cancel() {
    let out = eval_on(
        "<!DOCTYPE html><button id=off disabled onclick=\"log.push('off')\">x</button>\n\
         <div id=d></div><a id=a onclick='return false'></a><script>window.log = [];</script>",
        "document.getElementById('off').click();\n\
         const d = document.getElementById('d');\n\
         d.onclick = () => { log.push('d'); d.click(); };\n\
         d.click();\n\
         let canceled;\n\
         const a = document.getElementById('a');\n\
         a.addEventListener('click', e => { canceled = e.defaultPrevented; });\n\
         a.click();\n\
         log.join() + '|' + canceled",
    );
    assert_eq!(out, "d|true");
}

/// Dispatch goes through the tree to the document and the window:
/// capturing listeners from the window down, then bubbling back up;
/// `stopPropagation` stops it; a non-bubbling event has only the capture
/// phase and the target.
#[test]
fn event_path_captures_and_bubbles_through_the_tree() {
    let out = eval_on(
        "<!DOCTYPE html><body><div id=outer><span id=inner></span></div><script>window.log = [];</script>",
        "const inner = document.getElementById('inner'), outer = document.getElementById('outer');\n\
         const add = (t, name) => {\n\
           t.addEventListener('click', e => log.push(name + '-capture:' + e.eventPhase), true);\n\
           t.addEventListener('click', e => log.push(name + ':' + e.eventPhase));\n\
         };\n\
         add(window, 'window'); add(document, 'document'); add(document.body, 'body');\n\
         add(outer, 'outer'); add(inner, 'inner');\n\
         inner.click();\n\
         log.push('|');\n\
         outer.addEventListener('click', e => e.stopPropagation());\n\
         inner.click();\n\
         log.push('|');\n\
         inner.dispatchEvent(new Event('click'));\n\
         log.join(' ')",
    );
    assert_eq!(
        out,
        "window-capture:1 document-capture:1 body-capture:1 outer-capture:1 \
         inner-capture:2 inner:2 outer:3 body:3 document:3 window:3 | \
         window-capture:1 document-capture:1 body-capture:1 outer-capture:1 \
         inner-capture:2 inner:2 outer:3 | \
         window-capture:1 document-capture:1 body-capture:1 outer-capture:1 \
         inner-capture:2 inner:2"
    );
}

#[test]
fn ui_event_constructors_and_dictionaries() {
    let out = eval_on(
        "<!DOCTYPE html><div id=d></div>",
        "const d = document.getElementById('d');\n\
         const m = new MouseEvent('click', { bubbles: true, clientX: 1.5, screenY: -2, button: 2, buttons: 3, ctrlKey: true, modifierCapsLock: true, relatedTarget: d, view: window, detail: 7 });\n\
         const k = new KeyboardEvent('keydown', { key: 'a', code: 'KeyA', location: KeyboardEvent.DOM_KEY_LOCATION_LEFT, repeat: true, shiftKey: true, keyCode: 65 });\n\
         const f = new FocusEvent('focus', { relatedTarget: d });\n\
         const i = new InputEvent('input', { data: 'x', inputType: 'insertText', isComposing: true });\n\
         const u = new UIEvent('u');\n\
         let typeError; try { new UIEvent('u', { view: {} }); } catch (e) { typeError = e.name; }\n\
         [\n\
           m instanceof UIEvent && m instanceof Event, m.type, m.bubbles, m.cancelable, m.clientX, m.screenY, m.clientY, m.button, m.buttons,\n\
           m.ctrlKey, m.shiftKey, m.getModifierState('Control'), m.getModifierState('CapsLock'), m.getModifierState('control'),\n\
           m.relatedTarget === d, m.view === window, m.detail, m.isTrusted,\n\
           k.key, k.code, k.location, k.repeat, k.shiftKey, k.getModifierState('Shift'), k.keyCode, k.charCode, k.isComposing,\n\
           f.relatedTarget === d, f instanceof UIEvent,\n\
           i.data, i.inputType, i.isComposing, new InputEvent('input').data,\n\
           u.view, u.detail, typeError\n\
         ].join()",
    );
    assert_eq!(
        out,
        "true,click,true,false,1.5,-2,0,2,3,true,false,true,true,false,true,true,7,false,\
         a,KeyA,1,true,true,true,65,0,false,true,true,x,insertText,true,,,0,TypeError"
    );
}

/// A content attribute handler is the document's code in a trace: the
/// frame `onclick` at the document's URL and the attribute's line (the
/// parser's position: where the start tag ends), under its visible
/// caller; one set by `setAttribute` after parsing is at line 1.
#[test]
fn handler_frames_in_a_trace_are_the_documents() {
    let server = TestServer::start().unwrap();
    let mut rt = common::page_with_policy(
        &server,
        "",
        "<script>window.tb = new TestBinding(); window.result = 'pending';\n\
         const p = new Profiler({ sampleInterval: 100000, maxBufferSize: 10 });</script>\n\
         <button id=b onclick=\"tb.forceProfilerSample()\">x</button>\n\
         <script>\n\
         function frameOf(t, s) { const st = t.stacks[s.stackId]; const f = t.frames[st.frameId];\n\
           return [f.name, t.resources[f.resourceId], f.line, t.frames[t.stacks[st.parentId].frameId].name].join(); }\n\
         function visibleClicker(id) { document.getElementById(id).click(); }\n\
         addEventListener('load', () => {\n\
           const d = document.createElement('div'); d.id = 'd'; document.body.appendChild(d);\n\
           d.setAttribute('onclick', 'tb.forceProfilerSample()');\n\
           visibleClicker('b'); visibleClicker('d');\n\
           p.stop().then(t => { window.result = t.samples.map(s => frameOf(t, s)).join('|'); });\n\
         });\n\
         </script>",
    );
    let url = server.http_url(SAME, "/index.html");
    assert_eq!(
        common::result(&mut rt),
        format!("onclick,{url},3,visibleClicker|onclick,{url},1,visibleClicker")
    );
}

/// `HTMLBodyElement`'s Window-reflecting handlers are the Window's (also
/// for a body element not in the tree, whose node document is active);
/// its other handlers are its own.
#[test]
fn body_idl_handlers_are_the_windows() {
    let out = eval_on(
        "<!DOCTYPE html><body><script>window.log = [];</script>",
        "const f = () => log.push('f'), g = () => log.push('g');\n\
         document.body.onload = f;\n\
         const detached = document.createElement('body');\n\
         detached.onerror = g;\n\
         document.body.onclick = g;\n\
         [document.body instanceof HTMLBodyElement, window.onload === f, document.body.onload === f,\n\
          window.onerror === g, detached.onerror === g, document.body.onclick === g, window.onclick].join()",
    );
    assert_eq!(out, "true,true,true,true,true,true,");
}

/// Every event constructor initializes `composed` (and `bubbles`,
/// `cancelable`) from its dictionary's `EventInit` members
/// (<https://dom.spec.whatwg.org/#concept-event-constructor>: each member
/// of the dictionary initializes the attribute of the same name, as in
/// Chromium); `composed` is false when not given.
#[test]
fn event_constructors_initialize_every_event_init_member() {
    let out = eval_on(
        "<!DOCTYPE html><p>x</p>",
        "const init = {composed: true, bubbles: true, cancelable: true};\n\
         const make = [\n\
           i => new CustomEvent('a', i), i => new ErrorEvent('a', i),\n\
           i => new HashChangeEvent('a', i), i => new MessageEvent('a', i),\n\
           i => new PopStateEvent('a', i), i => new StorageEvent('a', i),\n\
           i => new ProgressEvent('a', i), i => new SubmitEvent('a', i),\n\
           i => new PromiseRejectionEvent('a', Object.assign({promise: Promise.resolve()}, i)),\n\
           i => new UIEvent('a', i), i => new FocusEvent('a', i), i => new InputEvent('a', i),\n\
           i => new KeyboardEvent('a', i), i => new MouseEvent('a', i),\n\
         ];\n\
         const given = make.map(m => m(init)).map(e => e.composed && e.bubbles && e.cancelable);\n\
         const absent = make.map(m => m({})).map(e => e.composed || e.bubbles || e.cancelable);\n\
         given.join() + '|' + absent.join()",
    );
    let given = vec!["true"; 14].join(",");
    let absent = vec!["false"; 14].join(",");
    assert_eq!(out, format!("{given}|{absent}"));
}
