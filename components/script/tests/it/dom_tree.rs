//! The DOM tree APIs (issue 15): CharacterData and Comment,
//! DocumentFragment, `<template>` contents, cloning and equality,
//! innerHTML/outerHTML/insertAdjacentHTML, the element accessors of
//! ParentNode/NonDocumentTypeChildNode, toggleAttribute, and
//! MutationObserver. Each test loads a page from a temp dir, then
//! evaluates expressions and compares their values with what the DOM
//! Standard and HTML say (checked against Chromium where noted).

use crate::common;
use jsprof_script::JsRuntime;

/// Loads `html` from a file and runs the page to idle.
fn load(name: &str, html: &str) -> JsRuntime {
    common::load_files(&common::temp_dir("domtree", name), &[("index.html", html)])
}

/// Evaluates `source` as a block (its declarations are its own) and
/// returns its completion value.
fn eval(rt: &mut JsRuntime, source: &str) -> String {
    match rt.evaluate(&format!("{{\n{source}\n}}"), "check.js", 1) {
        Ok(value) => value,
        Err(e) => panic!("{source}: {e:?}"),
    }
}

/// The name of the exception `source` throws ("none" if it does not).
fn thrown(rt: &mut JsRuntime, source: &str) -> String {
    eval(
        rt,
        &format!(
            "(() => {{ try {{ {source}; return 'none'; }} catch (e) {{ return e.name; }} }})()"
        ),
    )
}

#[test]
fn comments_are_kept_with_their_data() {
    let mut rt = load(
        "comments",
        "<!DOCTYPE html><body><!-- hello --><p id=p>x<!--in--></p></body>",
    );
    assert_eq!(
        eval(&mut rt, "document.body.firstChild instanceof Comment"),
        "true"
    );
    assert_eq!(eval(&mut rt, "document.body.firstChild.data"), " hello ");
    assert_eq!(
        eval(&mut rt, "document.body.firstChild.nodeName"),
        "#comment"
    );
    assert_eq!(
        eval(&mut rt, "document.body.firstChild.nodeValue"),
        " hello "
    );
    let c = "const c = document.createComment('a-b'); ";
    assert_eq!(
        eval(
            &mut rt,
            &format!("{c} [c.nodeType, c.data, c.length, c instanceof CharacterData]")
        ),
        "8,a-b,3,true"
    );
    assert_eq!(
        eval(&mut rt, "new Comment('z').data + new Comment().data.length"),
        "z0"
    );
    assert_eq!(
        eval(&mut rt, "document.getElementById('p').innerHTML"),
        "x<!--in-->"
    );
    // textContent of an element ignores comments.
    assert_eq!(
        eval(&mut rt, "document.getElementById('p').textContent"),
        "x"
    );
}

#[test]
fn character_data_offsets_are_utf16_and_checked() {
    let mut rt = load("chardata", "<!DOCTYPE html><p>");
    let t = "const t = new Text('h\u{e9}llo'); ";
    assert_eq!(
        eval(&mut rt, &format!("{t} t.substringData(1, 3)")),
        "\u{e9}ll"
    );
    assert_eq!(
        eval(&mut rt, &format!("{t} t.substringData(2, 100)")),
        "llo"
    );
    assert_eq!(
        eval(&mut rt, &format!("{t} t.insertData(0, '>'); t.appendData('!'); t.deleteData(1, 1); t.replaceData(0, 1, '[]'); t.data")),
        "[]\u{e9}llo!"
    );
    assert_eq!(
        thrown(&mut rt, &format!("{t} t.substringData(6, 1)")),
        "IndexSizeError"
    );
    assert_eq!(
        thrown(&mut rt, &format!("{t} t.deleteData(99, 1)")),
        "IndexSizeError"
    );
    // An astral character is two code units.
    assert_eq!(eval(&mut rt, "new Text('a\u{1F600}b').length"), "4");
    assert_eq!(
        eval(&mut rt, "new Text('a\u{1F600}b').substringData(3, 1)"),
        "b"
    );
    // nodeValue and textContent set the data.
    assert_eq!(
        eval(
            &mut rt,
            &format!("{t} t.nodeValue = 'x'; t.textContent += 'y'; t.data")
        ),
        "xy"
    );
    assert_eq!(eval(&mut rt, "document.body.nodeValue"), "null");
}

#[test]
fn document_fragment_insertion_moves_its_children() {
    let mut rt = load("fragment", "<!DOCTYPE html><ul id=list><li>0</li></ul>");
    let setup = "const f = document.createDocumentFragment(); \
                 for (const i of [1, 2, 3]) { const li = document.createElement('li'); li.textContent = i; f.appendChild(li); } \
                 window.list = document.getElementById('list'); ";
    assert_eq!(
        eval(
            &mut rt,
            &format!("{setup} const r = list.appendChild(f); [r === f, f.childNodes.length, list.textContent, list.childElementCount, f.nodeType, f.nodeName, f.parentNode]")
        ),
        "true,0,0123,4,11,#document-fragment,"
    );
    // insertBefore with a fragment keeps the order, before the child.
    assert_eq!(
        eval(
            &mut rt,
            "const g = new DocumentFragment(); g.appendChild(new Text('a')); g.appendChild(new Text('b')); \
             list.insertBefore(g, list.firstChild); list.textContent"
        ),
        "ab0123"
    );
    // replaceChild with a fragment.
    assert_eq!(
        eval(
            &mut rt,
            "const h = new DocumentFragment(); h.append; h.appendChild(document.createElement('i')); h.appendChild(document.createElement('b')); \
             list.replaceChild(h, list.firstChild); [list.firstChild.nodeName, list.childNodes[1].nodeName, list.childNodes[2].data].join()"
        ),
        "I,B,b"
    );
    // An empty fragment inserts nothing.
    assert_eq!(
        eval(&mut rt, "const n = list.childNodes.length; list.appendChild(new DocumentFragment()); list.childNodes.length === n"),
        "true"
    );
    assert_eq!(
        eval(&mut rt, "const q = new DocumentFragment(); q.appendChild(document.createElement('p')).id = 'x'; [q.getElementById('x').tagName, q.firstElementChild === q.lastElementChild, q.textContent = 't', q.childNodes.length, q.firstChild.data]"),
        "P,true,t,1,t"
    );
}

#[test]
fn document_fragment_hierarchy_errors() {
    let mut rt = load("hierarchy", "<!DOCTYPE html><p id=p>");
    // Two elements in a fragment cannot go under a document.
    assert_eq!(
        thrown(&mut rt, "const f = new DocumentFragment(); f.appendChild(document.createElement('a')); f.appendChild(document.createElement('b')); document.appendChild(f)"),
        "HierarchyRequestError"
    );
    // Nor text.
    assert_eq!(
        thrown(&mut rt, "const f = new DocumentFragment(); f.appendChild(new Text('x')); document.insertBefore(f, document.documentElement)"),
        "HierarchyRequestError"
    );
    // Nor one element when the document has its element.
    assert_eq!(
        thrown(&mut rt, "const f = new DocumentFragment(); f.appendChild(document.createElement('a')); document.appendChild(f)"),
        "HierarchyRequestError"
    );
    // Replacing the document element with a one-element fragment is fine.
    assert_eq!(
        eval(&mut rt, "const f = new DocumentFragment(); const h = document.createElement('html'); f.appendChild(h); document.replaceChild(f, document.documentElement); document.documentElement === h"),
        "true"
    );
    // A node cannot be inserted into itself or under a Text node; a
    // Comment cannot have children.
    assert_eq!(
        thrown(
            &mut rt,
            "const d = document.createElement('div'); d.appendChild(d)"
        ),
        "HierarchyRequestError"
    );
    assert_eq!(
        thrown(&mut rt, "new Text('x').appendChild(new Text('y'))"),
        "HierarchyRequestError"
    );
    assert_eq!(
        thrown(&mut rt, "new Comment('x').appendChild(new Text('y'))"),
        "HierarchyRequestError"
    );
    assert_eq!(
        thrown(
            &mut rt,
            "document.createElement('div').appendChild(document)"
        ),
        "HierarchyRequestError"
    );
    assert_eq!(
        thrown(
            &mut rt,
            "document.createElement('div').removeChild(new Text('x'))"
        ),
        "NotFoundError"
    );
}

#[test]
fn template_contents_hold_the_parsed_children() {
    let mut rt = load(
        "template",
        "<!DOCTYPE html><template id=t><li class=a>one</li><li>two</li></template>",
    );
    let t = "const t = document.getElementById('t'); ";
    assert_eq!(
        eval(&mut rt, &format!("{t} [t instanceof HTMLTemplateElement, t.childNodes.length, t.content instanceof DocumentFragment, t.content.childNodes.length, t.content.firstChild.className]")),
        "true,0,true,2,a"
    );
    // The contents live in the inert template document, not this one.
    assert_eq!(
        eval(&mut rt, &format!("{t} [t.content.ownerDocument !== document, t.content.firstChild.ownerDocument === t.content.ownerDocument, t.content.firstChild.isConnected]")),
        "true,true,false"
    );
    // innerHTML reads and writes the contents.
    assert_eq!(
        eval(&mut rt, &format!("{t} t.innerHTML")),
        "<li class=\"a\">one</li><li>two</li>"
    );
    assert_eq!(
        eval(&mut rt, &format!("{t} t.innerHTML = '<b>x</b>'; [t.content.childNodes.length, t.content.firstChild.tagName, t.childNodes.length]")),
        "1,B,0"
    );
    // A deep clone copies the contents; importing them by cloneNode works.
    assert_eq!(
        eval(&mut rt, &format!("{t} const c = t.cloneNode(true); [c.content.firstChild.tagName, c.content !== t.content, t.cloneNode(false).content.childNodes.length, document.body.appendChild(t.content.cloneNode(true)).nodeType, document.body.lastChild.tagName]")),
        "B,true,0,11,B"
    );
    assert_eq!(
        eval(
            &mut rt,
            "document.createElement('template').content.childNodes.length"
        ),
        "0"
    );
}

#[test]
fn clone_and_equality() {
    let mut rt = load(
        "clone",
        "<!DOCTYPE html><div id=d class=x data-a=1><span>t</span><!--c--></div>",
    );
    let d = "const d = document.getElementById('d'); ";
    assert_eq!(
        eval(&mut rt, &format!("{d} const s = d.cloneNode(); [s.id, s.className, s.getAttribute('data-a'), s.childNodes.length, s.parentNode, s === d]")),
        "d,x,1,0,,false"
    );
    assert_eq!(
        eval(&mut rt, &format!("{d} const c = d.cloneNode(true); [c.innerHTML, c.isEqualNode(d), d.isEqualNode(c), c.isSameNode(d), d.isSameNode(d), d.isEqualNode(null)]")),
        "<span>t</span><!--c-->,true,true,false,true,false"
    );
    assert_eq!(
        eval(&mut rt, &format!("{d} const c = d.cloneNode(true); c.firstChild.firstChild.data = 'u'; [c.isEqualNode(d), d.firstChild.textContent]")),
        "false,t"
    );
    assert_eq!(
        eval(
            &mut rt,
            &format!(
                "{d} const c = d.cloneNode(true); c.setAttribute('data-a', '2'); c.isEqualNode(d)"
            )
        ),
        "false"
    );
    // Attribute order does not matter for equality.
    assert_eq!(
        eval(&mut rt, "const a = document.createElement('p'); a.setAttribute('x', 1); a.setAttribute('y', 2); \
                       const b = document.createElement('p'); b.setAttribute('y', 2); b.setAttribute('x', 1); a.isEqualNode(b)"),
        "true"
    );
    assert_eq!(
        eval(&mut rt, "new Text('a').isEqualNode(new Comment('a'))"),
        "false"
    );
    assert_eq!(thrown(&mut rt, "document.cloneNode()"), "NotSupportedError");
    // A clone of a tree deeper than any recursion limit.
    assert_eq!(
        eval(&mut rt, "let root = document.createElement('div'), n = root; for (let i = 0; i < 100000; i++) n = n.appendChild(document.createElement('div')); \
                       const deep = root.cloneNode(true); let depth = 0; for (let m = deep; m.firstChild; m = m.firstChild) depth++; [depth, deep.isEqualNode(root), root.innerHTML.length]"),
        "100000,true,1100000"
    );
}

#[test]
fn element_accessors_and_toggle_attribute() {
    let mut rt = load(
        "accessors",
        "<!DOCTYPE html><ul id=u>a<li id=one></li>b<!--c--><li id=two></li>d</ul>",
    );
    let u = "const u = document.getElementById('u'); ";
    assert_eq!(
        eval(&mut rt, &format!("{u} [u.firstElementChild.id, u.lastElementChild.id, u.childElementCount, u.firstElementChild.nextElementSibling.id, u.lastElementChild.previousElementSibling.id, u.firstElementChild.previousElementSibling, u.firstChild.nextElementSibling.id, u.lastChild.previousElementSibling.id]")),
        "one,two,2,two,one,,one,two"
    );
    assert_eq!(
        eval(&mut rt, "[document.firstElementChild.tagName, document.childElementCount, document.documentElement.isConnected, document.createElement('p').isConnected]"),
        "HTML,1,true,false"
    );
    assert_eq!(
        eval(&mut rt, &format!("{u} [u.toggleAttribute('hidden'), u.getAttribute('hidden'), u.toggleAttribute('HIDDEN'), u.hasAttribute('hidden'), u.toggleAttribute('x', true), u.toggleAttribute('x', true), u.toggleAttribute('y', false), u.hasAttribute('y')]")),
        "true,,false,false,true,true,false,false"
    );
    assert_eq!(
        thrown(&mut rt, &format!("{u} u.toggleAttribute('a b')")),
        "InvalidCharacterError"
    );
    assert_eq!(
        thrown(&mut rt, &format!("{u} u.toggleAttribute('')")),
        "InvalidCharacterError"
    );
}

#[test]
fn inner_html_parses_as_a_fragment_and_serializes_back() {
    let mut rt = load(
        "innerhtml",
        "<!DOCTYPE html><div id=d></div><table id=t></table>",
    );
    let d = "const d = document.getElementById('d'); ";
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<p class=\"a\" title=\\'x&quot;y\\'>1 &amp; 2 &lt; 3&nbsp;</p><br><img src=a.png>text'; [d.childNodes.length, d.firstChild.tagName, d.innerHTML]")),
        "4,P,<p class=\"a\" title=\"x&quot;y\">1 &amp; 2 &lt; 3&nbsp;</p><br><img src=\"a.png\">text"
    );
    // Broken markup is repaired as the HTML parser repairs it (checked in
    // Chromium): unclosed and misnested tags, a stray end tag, an
    // unterminated comment, a lone '<'.
    assert_eq!(
        eval(
            &mut rt,
            &format!("{d} d.innerHTML = '<b><i>x</b>y</i></span><p>a<p>b'; d.innerHTML")
        ),
        "<b><i>x</i></b><i>y</i><p>a</p><p>b</p>"
    );
    assert_eq!(
        eval(
            &mut rt,
            &format!("{d} d.innerHTML = 'a < b <!-- open'; d.innerHTML")
        ),
        "a &lt; b <!-- open-->"
    );
    assert_eq!(
        eval(
            &mut rt,
            &format!("{d} d.innerHTML = '<div'; [d.innerHTML, d.childNodes.length]")
        ),
        ",0"
    );
    // <html>, <head>, <body> tags in a fragment are dropped, their
    // contents kept.
    assert_eq!(eval(&mut rt, &format!("{d} d.innerHTML = '<html><head><title>x</title></head><body>y</body></html>'; d.innerHTML")), "<title>x</title>y");
    // The context element decides the parse: rows in a table.
    assert_eq!(
        eval(&mut rt, "const t = document.getElementById('t'); t.innerHTML = '<tr><td>1</td></tr>'; t.innerHTML"),
        "<tbody><tr><td>1</td></tr></tbody>"
    );
    // Raw text in a <script> or <style> serializes literally.
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<style>a > b {{ }}</style><textarea>&lt;x></textarea>'; d.innerHTML")),
        "<style>a > b { }</style><textarea>&lt;x&gt;</textarea>"
    );
    // Setting replaces the children; the old ones are detached.
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<i>1</i>'; const old = d.firstChild; d.innerHTML = ''; [old.parentNode, d.childNodes.length, d.innerHTML]")),
        ",0,"
    );
    // Void elements serialize as empty; SVG keeps its local names.
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<svg viewBox=\"0 0 1 1\"><circle r=1 /></svg>'; [d.innerHTML, d.firstChild.namespaceURI]")),
        "<svg viewBox=\"0 0 1 1\"><circle r=\"1\"></circle></svg>,http://www.w3.org/2000/svg"
    );
    assert_eq!(
        eval(
            &mut rt,
            "const br = document.createElement('br'); br.appendChild(new Text('x')); br.innerHTML"
        ),
        ""
    );
}

#[test]
fn scripts_inserted_by_inner_html_do_not_run_but_handlers_compile() {
    let mut rt = load(
        "innerhtml-scripts",
        "<!DOCTYPE html><div id=d></div><script>window.ran = 0;</script>",
    );
    let d = "const d = document.getElementById('d'); ";
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<script>window.ran++</script><script src=\"x.js\"></script>'; d.insertAdjacentHTML('beforeend', '<script>window.ran++</script>'); d.outerHTML = '<div id=d><script>window.ran++</script></div>'; window.ran")),
        "0"
    );
    // Moving such a script elsewhere does not run it either (it is
    // "already started"), nor does a clone.
    assert_eq!(
        eval(&mut rt, "const s = document.getElementById('d').firstChild; document.body.appendChild(s); document.body.appendChild(s.cloneNode(true)); window.ran"),
        "0"
    );
    assert!(rt.run_until_idle(None));
    assert_eq!(eval(&mut rt, "window.ran"), "0");
    // An event handler content attribute set through innerHTML compiles
    // like any content attribute.
    assert_eq!(
        eval(&mut rt, "const d = document.getElementById('d'); d.innerHTML = '<button id=b onclick=\"window.clicked = this.id\">x</button>'; \
                       const b = document.getElementById('b'); [typeof b.onclick, (b.click(), window.clicked)]"),
        "function,b"
    );
    assert!(rt.take_reported_errors().is_empty());
}

#[test]
fn outer_html_and_insert_adjacent_html() {
    let mut rt = load(
        "outerhtml",
        "<!DOCTYPE html><div id=p><span id=s>x</span></div>",
    );
    assert_eq!(
        eval(&mut rt, "document.getElementById('s').outerHTML"),
        "<span id=\"s\">x</span>"
    );
    assert_eq!(
        eval(&mut rt, "document.getElementById('s').outerHTML = '<b>1</b><i>2</i>'; document.getElementById('p').innerHTML"),
        "<b>1</b><i>2</i>"
    );
    // Without a parent, nothing happens; under the document, an error.
    assert_eq!(
        eval(
            &mut rt,
            "const e = document.createElement('a'); e.outerHTML = '<b></b>'; e.outerHTML"
        ),
        "<a></a>"
    );
    assert_eq!(
        thrown(&mut rt, "document.documentElement.outerHTML = '<p>'"),
        "NoModificationAllowedError"
    );
    // Under a fragment the context is a body element.
    assert_eq!(
        eval(&mut rt, "const f = new DocumentFragment(); const a = f.appendChild(document.createElement('a')); a.outerHTML = '<tr>x'; f.childNodes.length + ':' + f.firstChild.data"),
        "1:x"
    );
    let p = "const p = document.getElementById('p'); p.innerHTML = '<i>m</i>'; ";
    assert_eq!(
        eval(&mut rt, &format!("{p} p.insertAdjacentHTML('beforebegin', '<a>1</a>'); p.insertAdjacentHTML('AfterBegin', '<a>2</a>'); p.insertAdjacentHTML('beforeend', '<a>3</a>'); p.insertAdjacentHTML('afterend', '<a>4</a>'); document.body.innerHTML")),
        "<a>1</a><div id=\"p\"><a>2</a><i>m</i><a>3</a></div><a>4</a>"
    );
    assert_eq!(
        thrown(&mut rt, &format!("{p} p.insertAdjacentHTML('middle', 'x')")),
        "SyntaxError"
    );
    assert_eq!(
        thrown(
            &mut rt,
            "document.documentElement.insertAdjacentHTML('afterend', 'x')"
        ),
        "NoModificationAllowedError"
    );
    assert_eq!(
        thrown(
            &mut rt,
            "document.createElement('p').insertAdjacentHTML('beforebegin', 'x')"
        ),
        "NoModificationAllowedError"
    );
}

#[test]
fn mutation_observer_delivers_records_at_microtask_timing() {
    let mut rt = load("mo", "<!DOCTYPE html><div id=d><p id=p>t</p></div>");
    eval(
        &mut rt,
        "window.seen = []; window.d = document.getElementById('d'); \
         window.mo = new MutationObserver((records, observer) => { \
           seen.push(observer === mo); \
           for (const r of records) seen.push([r.type, r.target.id || r.target.nodeName, r.addedNodes.length, r.removedNodes.length, \
             r.previousSibling && r.previousSibling.nodeName, r.nextSibling && r.nextSibling.nodeName, r.attributeName, r.oldValue].join('/')); \
         }); \
         mo.observe(d, { childList: true, attributes: true, attributeOldValue: true, subtree: true, characterData: true, characterDataOldValue: true }); \
         d.appendChild(document.createElement('b')); \
         window.syncCount = seen.length; \
         d.setAttribute('title', 'a'); d.setAttribute('title', 'b'); \
         document.getElementById('p').firstChild.data = 'u'; \
         d.firstChild.remove(); \
         Promise.resolve().then(() => seen.push('promise'));",
    );
    assert_eq!(
        eval(&mut rt, "window.syncCount"),
        "0",
        "nothing is delivered synchronously"
    );
    assert_eq!(
        eval(&mut rt, "seen.join(' | ')"),
        "true | childList/d/1/0/P/// | attributes/d/0/0///title/ | attributes/d/0/0///title/a | characterData/#text/0/0////t | childList/d/0/1//B// | promise"
    );
    // innerHTML is one record with all added and removed nodes.
    eval(&mut rt, "seen.length = 0; d.innerHTML = '<i></i><i></i>';");
    assert_eq!(
        eval(&mut rt, "seen.join(' | ')"),
        "true | childList/d/2/1////"
    );
    // takeRecords empties the queue; disconnect stops observing.
    assert_eq!(
        eval(&mut rt, "seen.length = 0; d.id = 'd'; const taken = mo.takeRecords(); mo.disconnect(); d.appendChild(new Text('z')); [taken.length, taken[0].attributeName, taken[0].oldValue, mo.takeRecords().length]"),
        "1,id,d,0"
    );
    rt.perform_microtask_checkpoint();
    assert_eq!(eval(&mut rt, "seen.length"), "0");
}

#[test]
fn mutation_observer_options() {
    let mut rt = load("mo-options", "<!DOCTYPE html><div id=d><p id=p></p></div>");
    // Invalid option sets throw TypeError (the DOM Standard's observe()
    // steps 3-6).
    for options in [
        "{}",
        "{ subtree: true }",
        "{ childList: true, attributeOldValue: true, attributes: false }",
        "{ childList: true, attributeFilter: ['a'], attributes: false }",
        "{ childList: true, characterDataOldValue: true, characterData: false }",
    ] {
        assert_eq!(
            thrown(
                &mut rt,
                &format!("new MutationObserver(() => {{}}).observe(document.body, {options})")
            ),
            "TypeError",
            "{options}"
        );
    }
    assert_eq!(thrown(&mut rt, "new MutationObserver(1)"), "TypeError");
    assert_eq!(
        thrown(
            &mut rt,
            "new MutationObserver(() => {}).observe(null, { childList: true })"
        ),
        "TypeError"
    );
    // attributeFilter implies attributes; only the listed names; no
    // subtree means children's changes are not seen; no old value unless
    // asked.
    eval(
        &mut rt,
        "window.got = []; window.d = document.getElementById('d'); const p = document.getElementById('p'); \
         const mo = new MutationObserver(rs => rs.forEach(r => got.push(r.attributeName + '=' + r.oldValue))); \
         mo.observe(d, { attributeFilter: ['a'] }); \
         d.setAttribute('a', '1'); d.setAttribute('b', '1'); p.setAttribute('a', '1'); \
         const mo2 = new MutationObserver(rs => rs.forEach(r => got.push('2:' + r.type + ':' + r.target.id))); \
         mo2.observe(d, { childList: true }); mo2.observe(d, { attributes: true }); \
         d.appendChild(new Text('x')); d.setAttribute('c', '');",
    );
    assert_eq!(eval(&mut rt, "got.join()"), "a=null,2:attributes:d");
    // A callback that throws is reported and the others still run.
    eval(
        &mut rt,
        "window.after = 0; new MutationObserver(() => { throw new Error('boom'); }).observe(d, { attributes: true }); \
         new MutationObserver(() => { after++; }).observe(d, { attributes: true }); d.setAttribute('e', '');",
    );
    assert_eq!(eval(&mut rt, "window.after"), "1");
    let errors = rt.take_reported_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn node_lists_and_html_collections() {
    let mut rt = load(
        "collections",
        "<!DOCTYPE html><div id=d>a<p class='x y'>1</p><!--c--><p class=x id=two name=n>2</p><span class=Y></span></div>",
    );
    let d = "const d = document.getElementById('d'); ";
    // childNodes: live, indexed, item(), iterable, the same object.
    assert_eq!(
        eval(&mut rt, &format!("{d} const l = d.childNodes; const before = l.length; d.appendChild(new Text('z')); \
            [l === d.childNodes, l instanceof NodeList, before, l.length, l[0].data, l.item(1).tagName, l[99], l.item(99), [...l].length, Array.from(l.keys()).join('')]")),
        "true,true,5,6,a,P,,,6,012345"
    );
    // children: elements only, live, named access by id and name.
    assert_eq!(
        eval(&mut rt, &format!("{d} const c = d.children; \
            [c === d.children, c instanceof HTMLCollection, c.length, c[0].textContent, c.item(2).tagName, c.namedItem('two').textContent, c.two.textContent, c.n.id, c.namedItem(''), Object.keys(c).join(), Array.prototype.map.call(c, e => e.tagName).join(''), d.removeChild(d.lastElementChild) && c.length]")),
        "true,true,3,1,SPAN,2,2,two,,0,1,2,PPSPAN,2"
    );
    // getElementsByClassName: all the classes, live; getElementsByTagName.
    assert_eq!(
        eval(&mut rt, &format!("{d} const x = document.getElementsByClassName('x'); const xy = d.getElementsByClassName(' y  x '); const n0 = x.length; \
            d.appendChild(document.createElement('i')).className = 'x'; \
            [n0, x.length, xy.length, xy[0].textContent, document.getElementsByClassName('').length, document.getElementsByClassName('y').length, d.getElementsByTagName('p').length, document.getElementsByTagName('*').length > 5]")),
        "2,3,1,1,0,1,2,true"
    );
}

#[test]
fn parent_node_and_child_node_mixins() {
    let mut rt = load("mixins", "<!DOCTYPE html><div id=d><b id=b></b></div>");
    let d = "const d = document.getElementById('d'); const b = document.getElementById('b'); ";
    assert_eq!(
        eval(
            &mut rt,
            &format!(
                "{d} d.append('x', document.createElement('i'), 'y'); d.prepend('p'); d.innerHTML"
            )
        ),
        "p<b id=\"b\"></b>x<i></i>y"
    );
    assert_eq!(
        eval(
            &mut rt,
            &format!("{d} b.before('1', '2'); b.after(document.createElement('u')); d.innerHTML")
        ),
        "p12<b id=\"b\"></b><u></u>x<i></i>y"
    );
    // Inserting this's own siblings: the viable sibling skips them.
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<a></a><b id=b></b><c></c>'; const b2 = document.getElementById('b'); b2.before(d.lastChild, d.firstChild); d.innerHTML")),
        "<c></c><a></a><b id=\"b\"></b>"
    );
    assert_eq!(
        eval(&mut rt, &format!("{d} const b3 = document.getElementById('b'); b3.replaceWith('t', b3); const t = d.childNodes[2]; t.replaceWith(); [d.innerHTML, t.parentNode]")),
        "<c></c><a></a><b id=\"b\"></b>,"
    );
    assert_eq!(
        eval(&mut rt, &format!("{d} d.replaceChildren('only'); const f = new DocumentFragment(); f.append('a', 'b'); [d.innerHTML, f.childNodes.length, f.children.length]")),
        "only,2,0"
    );
    assert_eq!(
        eval(
            &mut rt,
            &format!("{d} d.replaceChildren(); d.childNodes.length")
        ),
        "0"
    );
    // A detached node's before/after/replaceWith do nothing.
    assert_eq!(eval(&mut rt, "const n = new Comment('c'); n.before('x'); n.after('y'); n.replaceWith('z'); n.parentNode"), "null");
    // Errors: a node cannot contain its ancestor; the document takes one
    // element only; replaceChildren checks before removing anything.
    assert_eq!(
        thrown(&mut rt, &format!("{d} d.append(document.body)")),
        "HierarchyRequestError"
    );
    assert_eq!(
        thrown(&mut rt, "document.append(document.createElement('p'))"),
        "HierarchyRequestError"
    );
    assert_eq!(
        thrown(&mut rt, "document.append('text')"),
        "HierarchyRequestError"
    );
    assert_eq!(
        eval(&mut rt, &format!("{d} d.innerHTML = '<i></i>'; let e; try {{ d.replaceChildren(document.body); }} catch (x) {{ e = x.name; }} [e, d.innerHTML]")),
        "HierarchyRequestError,<i></i>"
    );
    // A mutation observer sees one record for append() of several nodes.
    eval(
        &mut rt,
        "window.records = []; const d = document.getElementById('d'); new MutationObserver(rs => rs.forEach(r => records.push(r.addedNodes.length + '+' + r.removedNodes.length))).observe(d, { childList: true }); \
         d.append('a', 'b', 'c'); d.replaceChildren('z');",
    );
    assert_eq!(eval(&mut rt, "records.join()"), "3+0,1+4");
}

#[test]
fn element_attributes_named_node_map() {
    let mut rt = load("attributes", "<!DOCTYPE html><p id=p class=c data-x=1>");
    let p = "const p = document.getElementById('p'); ";
    assert_eq!(
        eval(&mut rt, &format!("{p} const a = p.attributes; \
            [a === p.attributes, a instanceof NamedNodeMap, a.length, a[0].name, a.item(1).value, a.getNamedItem('DATA-X').value, a['data-x'].value, a.item(9), a.getNamedItem('nope'), Array.prototype.map.call(a, x => x.name).join(' ')]")),
        "true,true,3,id,c,1,1,,,id class data-x"
    );
    // The Attr node: same object while the attribute stays, value live,
    // settable; after removal it keeps its last value and has no element.
    assert_eq!(
        eval(&mut rt, &format!("{p} const attr = p.attributes.getNamedItem('class'); \
            const same = attr === p.attributes[1]; p.className = 'd'; const live = attr.value; attr.value = 'e'; \
            [same, live, p.className, attr.ownerElement === p, attr.nodeType, attr.nodeName, attr.nodeValue, attr.textContent, attr.specified, attr instanceof Node]")),
        "true,d,e,true,2,class,e,e,true,true"
    );
    assert_eq!(
        eval(&mut rt, &format!("{p} const attr = p.attributes.class; p.removeAttribute('class'); \
            [attr.ownerElement, attr.value, p.attributes.length, p.hasAttributes(), p.getAttributeNames().join()]")),
        ",e,2,true,id,data-x"
    );
    // An Attr cannot be inserted into the tree.
    assert_eq!(
        thrown(&mut rt, &format!("{p} p.appendChild(p.attributes[0])")),
        "HierarchyRequestError"
    );
    assert_eq!(
        eval(&mut rt, &format!("{p} const c = p.attributes[0].cloneNode(); [c.name, c.value, c.ownerElement, c.isEqualNode(p.attributes[0])]")),
        "id,p,,true"
    );
}

#[test]
fn mutation_observer_follows_removed_nodes_until_delivery() {
    let mut rt = load(
        "mo-transient",
        "<!DOCTYPE html><div id=d><p id=p><b id=b></b></p></div>",
    );
    // A node removed from an observed subtree stays observed (a transient
    // registered observer) until the records are delivered.
    eval(
        &mut rt,
        "window.got = []; const d = document.getElementById('d'); window.removed = document.getElementById('p'); \
         const mo = new MutationObserver(rs => rs.forEach(r => got.push(r.type + ':' + r.target.id))); \
         mo.observe(d, { subtree: true, attributes: true, childList: true }); \
         removed.remove(); removed.setAttribute('x', '1'); removed.firstChild.setAttribute('y', '1');",
    );
    assert_eq!(
        eval(&mut rt, "got.join()"),
        "childList:d,attributes:p,attributes:b"
    );
    // After delivery, the removed subtree is no longer observed.
    eval(
        &mut rt,
        "got.length = 0; removed.setAttribute('z', '1'); removed.firstChild.remove();",
    );
    assert_eq!(eval(&mut rt, "got.length"), "0");
}

#[test]
fn html_collections_stay_live_through_attribute_and_tree_changes() {
    let mut rt = load(
        "collections-live",
        "<!DOCTYPE html><div id=d><i class=a></i><i></i></div>",
    );
    assert_eq!(
        eval(&mut rt, "const a = document.getElementsByClassName('a'); const i = document.getElementsByTagName('i'); const d = document.getElementById('d'); \
            const r = [a.length, i.length]; d.lastChild.className = 'a'; r.push(a.length, a[1] === d.lastChild); \
            d.firstChild.removeAttribute('class'); r.push(a.length, a[0] === d.lastChild); d.firstChild.remove(); r.push(i.length, a.length); \
            d.children[0].id = 'x'; r.push(d.children.x === d.lastChild, 'x' in d.children); r.join()"),
        "1,2,2,true,1,true,1,1,true,true"
    );
    // A document-wide collection read in a loop (each read uses the cached
    // elements while nothing changes).
    assert_eq!(
        eval(&mut rt, "const d = document.getElementById('d'); for (let k = 0; k < 20000; k++) d.appendChild(document.createElement('b')); \
            const all = document.getElementsByTagName('b'); let n = 0; for (let k = 0; k < all.length; k++) if (all[k].parentNode === d) n++; n"),
        "20000"
    );
}
