// META: title=HTMLElement.innerText, Node.baseURI, HTMLScriptElement.supports()
"use strict";

test(() => {
  const div = document.createElement("div");
  div.innerHTML = "<b>a</b>b<i>c<span>d</span></i>";
  assert_equals(div.innerText, "abcd");
  const script = document.createElement("script");
  script.textContent = "let x = 1;";
  assert_equals(script.innerText, "let x = 1;");
}, "innerText of an element that is not rendered is its descendant text content");

test(() => {
  const div = document.createElement("div");
  div.innerHTML = "<b>old</b>";
  div.innerText = "one\ntwo\r\nthree\rfour\n\n";
  const parts = [...div.childNodes].map(n => n.nodeType === Node.TEXT_NODE ? n.data : n.localName);
  assert_array_equals(parts, ["one", "br", "two", "br", "three", "br", "four", "br", "br"]);
  div.innerText = "";
  assert_equals(div.childNodes.length, 0);
  div.innerText = "plain";
  assert_equals(div.firstChild.data, "plain");
  assert_equals(div.childNodes.length, 1);
}, "setting innerText makes text and br elements for line breaks");

test(() => {
  const script = document.createElement("script");
  script.innerText = '{ "imports": {} }';
  assert_equals(script.text, '{ "imports": {} }');
}, "innerText sets a script's source text");

test(() => {
  assert_equals(document.baseURI, location.href);
  assert_equals(document.body.baseURI, location.href);
  const detached = document.createElement("p");
  assert_equals(detached.baseURI, location.href);
  assert_equals(document.createTextNode("x").baseURI, location.href);
  assert_equals(new URL("a.js", document.baseURI).href, new URL("a.js", location.href).href);
}, "baseURI is the node document's base URL");

test(() => {
  for (const type of ["classic", "module", "importmap"]) {
    assert_true(HTMLScriptElement.supports(type), type);
  }
  for (const type of ["Classic", "MODULE", "Importmap", " importmap", "importmap ", "text/javascript", ""]) {
    assert_false(HTMLScriptElement.supports(type), JSON.stringify(type));
  }
}, "HTMLScriptElement.supports() matches its types exactly");
