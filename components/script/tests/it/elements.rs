//! Element interfaces (HTML's element interface for a name, SVGElement),
//! `createElementNS`'s validation, selectors (`querySelector(All)`,
//! `matches`, `closest`), `classList`, `style`, focus, CSSOM View's
//! layout-free values and form controls with their activation behavior.
//! Expected values were checked in headless Chromium where a browser
//! decides (the exceptions are commented).

use crate::common;
use crate::common::{html, SAME};
use jsprof_script::JsRuntime;
use jsprof_test_server::TestServer;

fn page(server: &TestServer, body: &'static str) -> JsRuntime {
    server.route("/index.html", move |_| html(body));
    common::load(server, &server.http_url(SAME, "/index.html"))
}

/// Loads `body` and evaluates `code` in it, checking the page reported no
/// error.
fn eval_on(body: &'static str, code: &str) -> String {
    let server = TestServer::start().unwrap();
    let mut rt = page(&server, body);
    let errors = rt.reported_errors();
    assert!(errors.is_empty(), "page errors: {errors:?}");
    rt.evaluate(code, "check.js", 1).unwrap()
}

const BLANK: &str = "<!DOCTYPE html><html><head><title>t</title></head><body></body></html>";

/// A helper defined in each evaluation: the name of the exception `f`
/// throws, or "ok:" and what it returns.
const TRY: &str =
    "function tryIt(f) { try { return 'ok:' + f(); } catch (e) { return e.name; } }\n";

#[test]
fn create_element_uses_the_element_interface_for_the_name() {
    let out = eval_on(
        BLANK,
        "['div', 'DIV', 'span', 'ul', 'ol', 'li', 'p', 'h1', 'h6', 'template', 'style', 'link', 'img', \
          'select', 'option', 'textarea', 'head', 'html', 'title', 'meta', 'input', 'button', 'form', \
          'label', 'a', 'script', 'body', 'iframe', 'section', 'blink', 'foo', 'my-el']\
         .map(n => document.createElement(n).constructor.name).join()",
    );
    assert_eq!(
        out,
        "HTMLDivElement,HTMLDivElement,HTMLSpanElement,HTMLUListElement,HTMLOListElement,\
         HTMLLIElement,HTMLParagraphElement,HTMLHeadingElement,HTMLHeadingElement,\
         HTMLTemplateElement,HTMLStyleElement,HTMLLinkElement,HTMLImageElement,HTMLSelectElement,\
         HTMLOptionElement,HTMLTextAreaElement,HTMLHeadElement,HTMLHtmlElement,HTMLTitleElement,\
         HTMLMetaElement,HTMLInputElement,HTMLButtonElement,HTMLFormElement,HTMLLabelElement,\
         HTMLAnchorElement,HTMLScriptElement,HTMLBodyElement,HTMLIFrameElement,HTMLElement,\
         HTMLUnknownElement,HTMLUnknownElement,HTMLElement"
    );
}

/// The parser goes through the same table; `instanceof` and the
/// prototype chain follow the interfaces' inheritance. (Chromium makes
/// `circle` an SVGCircleElement and `mi` a MathMLElement: the shell has
/// SVGElement only and no MathML interface.)
#[test]
fn parser_made_elements_have_their_interfaces() {
    let out = eval_on(
        "<!DOCTYPE html><ul class=todo-list><li><input type=checkbox><label>x</label></li></ul>\
         <svg><circle r=1></circle></svg><math><mi>x</mi></math>",
        "const li = document.querySelector('li');\n\
         const input = document.querySelector('input');\n\
         const svg = document.querySelector('svg');\n\
         const circle = document.querySelector('circle');\n\
         const mi = document.querySelector('mi');\n\
         [li instanceof HTMLLIElement, li instanceof HTMLElement, input instanceof HTMLInputElement,\n\
          Object.getPrototypeOf(HTMLInputElement.prototype) === HTMLElement.prototype,\n\
          svg instanceof SVGElement, svg instanceof HTMLElement, circle.constructor.name,\n\
          mi.constructor.name, mi instanceof Element, document.documentElement.constructor.name,\n\
          document.head.constructor.name, typeof SVGElement, typeof HTMLUnknownElement].join()",
    );
    assert_eq!(
        out,
        "true,true,true,true,true,false,SVGElement,Element,true,HTMLHtmlElement,HTMLHeadElement,function,function"
    );
}

/// (Chromium makes `svg` an SVGSVGElement, which the shell lacks.)
#[test]
fn create_element_ns_validates_and_extracts() {
    let out = eval_on(
        BLANK,
        &format!(
            "{TRY}const show = e => e.constructor.name + ':' + e.localName + ':' + e.prefix + ':' + e.namespaceURI;\n\
             [tryIt(() => show(document.createElementNS('http://www.w3.org/2000/svg', 'svg'))),\n\
              tryIt(() => show(document.createElementNS('x', 'a:b:c'))),\n\
              tryIt(() => show(document.createElementNS(null, 'x'))),\n\
              tryIt(() => document.createElementNS('x', ':a')),\n\
              tryIt(() => document.createElementNS('x', 'a:')),\n\
              tryIt(() => document.createElementNS('x', '1a')),\n\
              tryIt(() => document.createElementNS('x', '')),\n\
              tryIt(() => document.createElementNS(null, 'a:b')),\n\
              tryIt(() => document.createElementNS('x', 'xml:a')),\n\
              tryIt(() => show(document.createElementNS('http://www.w3.org/XML/1998/namespace', 'xml:a'))),\n\
              tryIt(() => document.createElementNS('x', 'xmlns')),\n\
              tryIt(() => document.createElementNS('http://www.w3.org/2000/xmlns/', 'a')),\n\
              tryIt(() => document.createElement('a b')),\n\
              tryIt(() => document.createElement('1a')),\n\
              tryIt(() => document.createElement('_x').localName),\n\
              tryIt(() => document.createElement('\u{e9}').constructor.name)].join('|')"
        ),
    );
    assert_eq!(
        out,
        "ok:SVGElement:svg:null:http://www.w3.org/2000/svg|ok:Element:b:a:x|ok:Element:x:null:null|\
         InvalidCharacterError|InvalidCharacterError|InvalidCharacterError|InvalidCharacterError|\
         NamespaceError|NamespaceError|ok:Element:a:xml:http://www.w3.org/XML/1998/namespace|\
         NamespaceError|NamespaceError|InvalidCharacterError|InvalidCharacterError|ok:_x|\
         ok:HTMLUnknownElement"
    );
}

const TODO: &str = "<!DOCTYPE html><section class=app><header><h1>todos</h1>\
    <input class=new-todo placeholder='What needs to be done?'></header>\
    <ul class=todo-list>\
    <li class='completed a' data-id=1><div class=view><input class=toggle type=checkbox checked><label>one</label><button class=destroy></button></div></li>\
    <li data-id=2><div class=view><input class=toggle type=checkbox><label>two</label><button class=destroy></button></div></li>\
    <li data-id=3 lang=en-US><div class=view><input class=toggle type=checkbox disabled><label>three</label></div></li>\
    </ul><p id=empty></p><footer><a href='#/'>All</a><a>none</a></footer></section>";

#[test]
fn selectors_match_with_combinators_and_pseudo_classes() {
    let out = eval_on(
        TODO,
        "const q = s => Array.from(document.querySelectorAll(s)).map(e => e.localName + (e.dataset ? '' : '') + (e.getAttribute('data-id') || '')).join(' ');\n\
         [q('.todo-list > li'), q('ul li:first-child'), q('li:nth-child(2n+1)'), q('li + li'), q('li:first-child ~ li'),\n\
          q('li:not(.completed)'), q(':is(h1, footer) a, h1'), q('[data-id=\"2\"]'), q('[data-id^=\"1\"], [lang|=en]'),\n\
          q('li[class~=a]'), q('input:checked'), q('input:disabled'), q('.toggle:enabled'), q('p:empty'),\n\
          q('a:link'), q('header > :placeholder-shown'), q('li:has(> .view input:checked)'), q('li:nth-last-child(1)'),\n\
          q('LI.COMPLETED'), q('html:root > body'), q('*|li, li::before, a:hover')].join('|')",
    );
    assert_eq!(
        out,
        "li1 li2 li3|li1|li1 li3|li2 li3|li2 li3|li2 li3|h1 a a|li2|li1 li3|li1|input|input|input input|p|a|input|li1|li3||body|li1 li2 li3"
    );
}

/// Invalid selectors throw a "SyntaxError" DOMException from every
/// selector API; `matches`/`closest` use `:scope`.
#[test]
fn invalid_selectors_throw_syntax_error() {
    let out = eval_on(
        TODO,
        &format!(
            "{TRY}const li = document.querySelector('li');\n\
             const bad = ['', 'a >', '> a', '..x', '[x=', 'a:nope', '::nope', 'a,', '#1', 'li:nth-child(x)', '('];\n\
             const r = bad.map(s => [tryIt(() => document.querySelector(s)), tryIt(() => document.querySelectorAll(s)),\n\
               tryIt(() => li.matches(s)), tryIt(() => li.closest(s)), tryIt(() => li.querySelector(s))].join());\n\
             const e = (() => {{ try {{ document.querySelector('a >'); }} catch (e) {{ return (e instanceof DOMException) + ':' + e.code + ':' + e.message; }} }})();\n\
             [r.every(x => x === 'SyntaxError,SyntaxError,SyntaxError,SyntaxError,SyntaxError') ? 'all' : r.join('/'), e,\n\
              li.matches('ul > li.completed'), li.webkitMatchesSelector(':scope.a'), li.closest('section').className,\n\
              li.closest(':scope').getAttribute('data-id'), li.closest('li > *'), li.querySelector(':scope > div').className,\n\
              document.querySelector('li:nth-child(2) label').textContent].join('|')"
        ),
    );
    assert_eq!(
        out,
        "all|true:12:'a >' is not a valid selector|true|true|app|1||view|two"
    );
}

#[test]
fn class_list_follows_the_class_attribute() {
    let out = eval_on(
        BLANK,
        &format!(
            "{TRY}const p = document.createElement('p');\n\
             const l = p.classList; const out = [l === p.classList, l.length, l.value, String(p.getAttribute('class'))];\n\
             l.remove('x'); out.push(p.hasAttribute('class'));\n\
             p.className = '  a b a  '; out.push(l.length, l.item(0), l.item(1), l.item(2), l.value);\n\
             l.add('c', 'a'); out.push(p.className);\n\
             out.push(l.toggle('a'), l.toggle('a'), l.toggle('z', false), l.toggle('b', true), p.className);\n\
             out.push(l.replace('b', 'c'), p.className, l.replace('nope', 'x'), l.contains('c'), l.contains('b'));\n\
             out.push(tryIt(() => l.add('')), tryIt(() => l.add('a b')), tryIt(() => l.toggle('')), tryIt(() => l.replace('a', '')),\n\
               tryIt(() => l.remove('\\t')), tryIt(() => l.supports('a')));\n\
             l.value = 'q r'; out.push(p.className, l.length);\n\
             out.join('|')"
        ),
    );
    assert_eq!(
        out,
        "true|0||null|false|2|a|b||  a b a  |a b c|false|true|false|true|b c a|true|c a|false|true|false|\
         SyntaxError|InvalidCharacterError|SyntaxError|SyntaxError|InvalidCharacterError|TypeError|q r|2"
    );
}

/// `style` is a declaration bag synced with the `style` attribute (no
/// value parsing: Chromium lowercases `RED` and orders `--X` first; the
/// shell keeps the source text and the order).
#[test]
fn style_is_a_declaration_block_synced_with_the_attribute() {
    let out = eval_on(
        BLANK,
        "const d = document.createElement('div');\n\
         d.setAttribute('style', 'color: red; margin-top:1px !important; --X: a; bad; width: ;');\n\
         const s = d.style; const out = [s === d.style, s.cssText, s.length, s.item(1), s.item(9), s.color, s.marginTop,\n\
           s.getPropertyValue('MARGIN-TOP'), s.getPropertyPriority('margin-top'), s.getPropertyValue('--X'), s.getPropertyValue('--x')];\n\
         s.backgroundColor = 'blue'; out.push(d.getAttribute('style'));\n\
         s.setProperty('color', ''); out.push(d.getAttribute('style'));\n\
         s.setProperty('width', '10px', 'IMPORTANT'); s.setProperty('height', '1px', 'bogus'); s.setProperty('top', '1px;');\n\
         s.setProperty('left', 'a !important'); out.push(s.width, s.height, s.top, s.left, s.getPropertyPriority('width'));\n\
         out.push(s.removeProperty('width'), s.removeProperty('width'), s.length);\n\
         d.setAttribute('style', 'display:none'); out.push(s.display, s.length, s.cssText);\n\
         s.cssText = 'float: left; z-index: 2'; out.push(s.cssFloat, s.zIndex, d.getAttribute('style'));\n\
         d.removeAttribute('style'); out.push(s.length, s.cssText === '');\n\
         s.display = 'flex'; out.push(d.getAttribute('style'));\n\
         out.join('|')",
    );
    assert_eq!(
        out,
        "true|color: red; margin-top: 1px !important; --X: a;|3|margin-top||red|1px|1px|important|a||\
         color: red; margin-top: 1px !important; --X: a; background-color: blue;|\
         margin-top: 1px !important; --X: a; background-color: blue;|10px||||important|10px||3|\
         none|1|display: none;|left|2|float: left; z-index: 2;|0|true|display: flex;"
    );
}

/// No layout: boxes are zero-sized (CSSOM View's "no associated box"
/// steps).
#[test]
fn layout_queries_are_zero_without_layout() {
    let out = eval_on(
        "<!DOCTYPE html><div id=d style='width: 100px'>x</div>",
        "const d = document.getElementById('d'); const r = d.getBoundingClientRect();\n\
         d.scrollTop = 50; d.scrollIntoView();\n\
         [r instanceof DOMRect, r instanceof DOMRectReadOnly, r.x, r.y, r.width, r.height, r.top, r.right, r.bottom, r.left,\n\
          d.offsetWidth, d.offsetHeight, d.offsetTop, d.offsetLeft, d.offsetParent, d.clientWidth, d.clientHeight,\n\
          d.scrollTop, d.scrollHeight, new DOMRect(1, 2, -3, 4).left, new DOMRect(1, 2, 3, 4).bottom].join()",
    );
    assert_eq!(out, "true,true,0,0,0,0,0,0,0,0,0,0,0,0,,0,0,0,0,-2,6");
}

/// Removing the focused element moves the focus to the viewport without
/// events (HTML's focus fixup rule; Chromium fires blur and focusout
/// at the removed element).
#[test]
fn focus_and_blur_fire_events_and_move_active_element() {
    let out = eval_on(
        "<!DOCTYPE html><input id=a><input id=b><div id=d></div><div id=t tabindex=2></div><button id=x disabled></button>",
        "const log = []; const $ = id => document.getElementById(id);\n\
         for (const t of ['focus', 'blur', 'focusin', 'focusout']) document.addEventListener(t, e =>\n\
           log.push(e.type + ':' + e.target.id + ':' + (e.relatedTarget && e.relatedTarget.id) + ':' + (e instanceof FocusEvent) + ':' + e.bubbles), true);\n\
         const out = [document.activeElement === document.body];\n\
         $('a').focus(); $('a').focus(); $('b').focus(); $('d').focus(); $('x').focus();\n\
         out.push(document.activeElement.id, document.querySelector(':focus').id, $('t').tabIndex, $('d').tabIndex, $('a').tabIndex);\n\
         $('t').focus(); $('t').blur(); out.push(document.activeElement === document.body);\n\
         $('a').focus(); $('a').remove(); out.push(document.activeElement === document.body);\n\
         out.concat(log).join('|')",
    );
    assert_eq!(
        out,
        "true|b|b|2|-1|0|true|true|\
         focus:a:null:true:false|focusin:a:null:true:true|\
         blur:a:b:true:false|focusout:a:b:true:true|focus:b:a:true:false|focusin:b:a:true:true|\
         blur:b:t:true:false|focusout:b:t:true:true|focus:t:b:true:false|focusin:t:b:true:true|\
         blur:t:null:true:false|focusout:t:null:true:true|focus:a:null:true:false|focusin:a:null:true:true"
    );
}

/// A checkbox's `click()` toggles it before the listeners run and fires
/// `input` then `change`; a canceled click puts it back without events.
#[test]
fn checkbox_and_radio_activation() {
    let out = eval_on(
        "<!DOCTYPE html><input id=c type=checkbox><form><input id=r1 type=radio name=g checked><input id=r2 type=radio name=g></form>\
         <label id=l for=c>label</label><label id=wrap><span id=s>x</span><input id=w type=checkbox></label>",
        "const log = []; const $ = id => document.getElementById(id);\n\
         for (const t of ['click', 'input', 'change']) document.addEventListener(t, e => log.push(t + ':' + e.target.id + ':' + e.target.checked + ':' + e.bubbles));\n\
         const c = $('c'); c.click(); const out = [c.checked, c.defaultChecked, c.hasAttribute('checked')];\n\
         c.addEventListener('click', e => e.preventDefault(), { once: true }); c.click(); out.push(c.checked);\n\
         c.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })); out.push(c.checked);\n\
         c.dispatchEvent(new Event('click', { bubbles: true })); out.push(c.checked);\n\
         $('r2').click(); out.push($('r1').checked, $('r2').checked);\n\
         $('r1').addEventListener('click', e => e.preventDefault(), { once: true }); $('r1').click(); out.push($('r1').checked, $('r2').checked);\n\
         $('l').click(); out.push(c.checked); $('s').click(); out.push($('w').checked);\n\
         c.indeterminate = true; c.click(); out.push(c.indeterminate);\n\
         c.setAttribute('checked', ''); out.push(c.checked); c.checked = true; c.removeAttribute('checked'); out.push(c.checked);\n\
         out.push(document.querySelectorAll(':checked').length);\n\
         out.concat(log).join('|')",
    );
    assert_eq!(
        out,
        "true|false|false|true|false|false|false|true|false|true|true|true|false|false|true|3|\
         click:c:true:true|input:c:true:true|change:c:true:true|click:c:false:true|\
         click:c:false:true|input:c:false:true|change:c:false:true|click:c:false:true|\
         click:r2:true:true|input:r2:true:true|change:r2:true:true|click:r1:true:true|\
         click:l:undefined:true|click:c:true:true|input:c:true:true|change:c:true:true|\
         click:s:undefined:true|click:w:true:true|input:w:true:true|change:w:true:true|\
         click:c:false:true|input:c:false:true|change:c:false:true"
    );
}

/// Submit buttons, `requestSubmit()` and `submit()`; `reset()`.
#[test]
fn form_submission_and_reset() {
    let out = eval_on(
        "<!DOCTYPE html><form id=f action=/done method=POST><input id=t name=title value=init>\
         <input id=k type=checkbox checked><textarea id=ta>text</textarea>\
         <select id=s><option>a<option value=x selected>b<option>c</select>\
         <button id=b>go</button><button id=n type=button>no</button><input id=i type=submit></form>\
         <button id=out form=f>outside</button><button id=other>other</button>",
        "const log = []; const $ = id => document.getElementById(id); const f = $('f');\n\
         f.addEventListener('submit', e => { log.push('submit:' + (e instanceof SubmitEvent) + ':' + (e.submitter && e.submitter.id) + ':' + e.bubbles + ':' + e.cancelable + ':' + e.isTrusted); e.preventDefault(); });\n\
         f.addEventListener('reset', e => log.push('reset'));\n\
         $('b').click(); $('n').click(); $('i').click(); $('out').click(); f.requestSubmit(); f.requestSubmit($('i')); f.submit();\n\
         const out = [f.method, f.action.endsWith('/done'), f.length, $('b').form === f, $('out').form === f, $('other').form,\n\
           $('b').type, $('n').type, $('s').value, $('s').selectedIndex, $('s').type, $('s').length, $('s').item(1).text, $('ta').value,\n\
           ['x', 'n'].map(id => {{ try {{ f.requestSubmit($(id === 'x' ? 'other' : 'n')); return 'ok'; }} catch (e) {{ return e.name; }} }}).join('/')];\n\
         $('t').value = 'typed\\nline'; $('k').checked = false; $('ta').value = 'edited'; $('s').value = 'c';\n\
         out.push($('t').value, $('t').defaultValue, $('s').selectedIndex, $('ta').defaultValue);\n\
         f.addEventListener('reset', e => e.preventDefault(), { once: true }); f.reset(); out.push($('t').value);\n\
         f.reset(); out.push($('t').value, $('k').checked, $('ta').value, $('s').value);\n\
         out.concat(log).join('|')",
    );
    assert_eq!(
        out,
        "post|true|8|true|true||submit|button|x|1|select-one|3|b|text|NotFoundError/TypeError|\
         typedline|init|2|text|typedline|init|true|text|x|\
         submit:true:b:true:true:true|submit:true:i:true:true:true|submit:true:out:true:true:true|\
         submit:true:null:true:true:true|submit:true:i:true:true:true|reset|reset"
    );
}

#[test]
fn reflected_attributes() {
    let out = eval_on(
        BLANK,
        "const e = n => document.createElement(n);\n\
         const i = e('input'); const out = [i.type, i.value, i.size, i.maxLength, i.checked];\n\
         i.type = 'CHECKBOX'; out.push(i.type, i.value, i.getAttribute('type')); i.type = 'bogus'; out.push(i.type);\n\
         i.type = 'number'; i.value = '12x'; out.push(JSON.stringify(i.value)); i.value = '-1.5e3'; out.push(i.value);\n\
         const ol = e('ol'); out.push(ol.start, ol.reversed); ol.start = 3; ol.reversed = true; out.push(ol.getAttribute('start'), ol.getAttribute('reversed'));\n\
         const a = e('a'); a.href = 'x?y'; out.push(a.href.endsWith('/x?y'), a.getAttribute('href'));\n\
         const img = e('img'); out.push(img.src, img.alt); img.isMap = true; out.push(img.outerHTML === undefined ? img.getAttribute('ismap') : img.getAttribute('ismap'));\n\
         const d = e('div'); out.push(d.hidden, d.tabIndex); d.hidden = true; out.push(d.getAttribute('hidden'));\n\
         const li = e('li'); li.setAttribute('value', ' 7px'); out.push(li.value);\n\
         const m = e('meta'); m.httpEquiv = 'refresh'; out.push(m.getAttribute('http-equiv'));\n\
         const l = e('label'); l.htmlFor = 'q'; out.push(l.getAttribute('for'), l.control);\n\
         const t = document.querySelector('title'); t.text = 'New'; out.push(document.title);\n\
         try { i.maxLength = -1; } catch (x) { out.push(x.name); }\n\
         out.join('|')",
    );
    assert_eq!(
        out,
        "text||20|-1|false|checkbox|on|CHECKBOX|text|\"\"|-1.5e3|1|false|3||true|x?y||||false|-1||7|refresh|q||New|IndexSizeError"
    );
}

/// `dataset` maps `data-*` attributes to camel-cased names; `classList`
/// and `style` are indexed, `classList` iterable and stringified.
#[test]
fn dataset_and_indexed_collections() {
    let out = eval_on(
        "<!DOCTYPE html><div id=d data-id=7 data-foo-bar=x data-Upper=u class='a b'></div>",
        &format!(
            "{TRY}const d = document.getElementById('d'); const ds = d.dataset;\n\
             const out = [ds === d.dataset, Object.keys(ds).join(), ds.id, ds.fooBar, ds['foo-bar'], 'upper' in ds, ds.nope];\n\
             ds.newThing = 5; out.push(d.getAttribute('data-new-thing'), typeof ds.newThing);\n\
             delete ds.fooBar; out.push(d.hasAttribute('data-foo-bar'), Object.keys(ds).join());\n\
             out.push(tryIt(() => {{ ds['a-b'] = 1; }}), tryIt(() => {{ ds['x y'] = 1; }}));\n\
             const l = d.classList; out.push(l[0], l[1], l[2], l.length, [...l].join('+'), String(l), l + '!', Array.from(l.entries()).join(';'));\n\
             d.style.color = 'red'; d.style.top = '0'; out.push(d.style[0], d.style[1], d.style[2]);\n\
             out.join('|')"
        ),
    );
    assert_eq!(
        out,
        "true|id,fooBar,upper|7|x||true||5|string|false|id,upper,newThing|SyntaxError|InvalidCharacterError|\
         a|b||2|a+b|a b|a b!|0,a;1,b|color|top|"
    );
}
