// META: title=innerHTML, outerHTML and insertAdjacentHTML
"use strict";

setup({ allow_uncaught_exception: true });

test(() => {
  const div = document.createElement("div");
  div.innerHTML = "<p>a<b>b</p>c";
  assert_equals(div.innerHTML, "<p>a<b>b</b></p><b>c</b>");
  div.innerHTML = null;
  assert_equals(div.childNodes.length, 0, "null is the empty string");
}, "broken markup is repaired as the HTML parser does");

async_test(t => {
  window.innerHtmlRan = false;
  const div = document.body.appendChild(document.createElement("div"));
  div.innerHTML = "<script>window.innerHtmlRan = true<\/script>";
  div.insertAdjacentHTML("beforeend", "<script>window.innerHtmlRan = true<\/script>");
  t.step_timeout(() => {
    assert_false(window.innerHtmlRan);
    div.remove();
    t.done();
  }, 50);
}, "scripts inserted by innerHTML and insertAdjacentHTML do not run");

test(() => {
  const div = document.body.appendChild(document.createElement("div"));
  div.innerHTML = '<button onclick="this.clicked = true">x</button>';
  const button = div.firstChild;
  button.click();
  assert_true(button.clicked);
  div.remove();
}, "event handler content attributes from innerHTML work");

test(() => {
  const template = document.createElement("template");
  template.innerHTML = "<li>1</li><li>2</li>";
  assert_equals(template.childNodes.length, 0);
  assert_equals(template.content.childNodes.length, 2);
  const clone = template.content.cloneNode(true);
  assert_true(clone instanceof DocumentFragment);
  const ul = document.createElement("ul");
  ul.appendChild(clone);
  assert_equals(ul.children.length, 2);
  assert_equals(clone.childNodes.length, 0, "insertion moved the fragment's children");
}, "template contents and DocumentFragment insertion");

test(() => {
  const parent = document.createElement("div");
  const child = parent.appendChild(document.createElement("span"));
  assert_throws_dom("SyntaxError", () => child.insertAdjacentHTML("nowhere", "x"));
  assert_throws_dom("NoModificationAllowedError", () => document.documentElement.outerHTML = "<p>");
  child.outerHTML = "<i>1</i><i>2</i>";
  assert_equals(parent.innerHTML, "<i>1</i><i>2</i>");
}, "outerHTML and insertAdjacentHTML errors and replacement");

test(() => {
  const span = document.createElement("span");
  span.setAttribute("title", 'a<b>"&\u00a0');
  span.textContent = "<&>\u00a0\"";
  assert_equals(span.outerHTML, '<span title="a&lt;b&gt;&quot;&amp;&nbsp;">&lt;&amp;&gt;&nbsp;"</span>');
}, "serialization escapes text and attribute values (< and > in attributes too)");
