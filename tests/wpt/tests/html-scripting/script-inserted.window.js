// META: title=Script-inserted classic scripts
"use strict";

setup({ allow_uncaught_exception: true });

function insert(src, configure) {
  const s = document.createElement("script");
  if (configure) configure(s);
  s.src = src;
  document.head.appendChild(s);
  return s;
}

function events(s) {
  return new Promise(resolve => {
    s.onload = () => resolve("load");
    s.onerror = () => resolve("error");
  });
}

test(() => {
  const s = document.createElement("script");
  assert_true(s.async, "force async makes a new script element async");
  s.async = false;
  assert_false(s.async);
  s.async = true;
  assert_true(s.async);
  assert_equals(s.getAttribute("async"), "");
}, "async reflects force async");

test(() => {
  window.inlineRan = [];
  const s = document.createElement("script");
  s.text = "inlineRan.push(document.currentScript === window.inlineScript)";
  window.inlineScript = s;
  document.head.appendChild(s);
  assert_array_equals(inlineRan, [true]);
  document.head.appendChild(s);
  assert_array_equals(inlineRan, [true], "an already started script does not run again");
}, "an inserted inline script runs synchronously with currentScript set");

promise_test(async () => {
  const s = insert("resources/log.js?one");
  assert_equals(await events(s), "load");
  assert_array_equals(window.externalLog, ["one"]);
}, "an inserted external script runs and fires load");

promise_test(async () => {
  const s = insert("resources/does-not-exist.js");
  assert_equals(await events(s), "error");
}, "a 404 fires error");

promise_test(async () => {
  const s = document.createElement("script");
  document.head.appendChild(s);
  const p = events(s);
  s.setAttribute("src", "");
  assert_equals(await p, "error");
}, "setting src to the empty string on a connected script fires error");

promise_test(async () => {
  const s = insert("resources/plain.txt");
  assert_equals(await events(s), "load");
  assert_true(window.plainRan);
}, "a classic script served as text/plain runs (no nosniff)");

promise_test(async t => {
  const errors = [];
  const listener = e => { errors.push(e.message); e.preventDefault(); };
  addEventListener("error", listener);
  t.add_cleanup(() => removeEventListener("error", listener));
  const s = insert("resources/syntax-error.js");
  assert_equals(await events(s), "load", "a script that does not parse still fires load");
  assert_equals(errors.length, 1);
  assert_true(errors[0].startsWith("SyntaxError"), errors[0]);
}, "a syntax error in an inserted script is reported and load fires");

promise_test(async () => {
  window.externalLog = [];
  const loads = [];
  for (const n of ["a", "b", "c", "d"]) {
    loads.push(events(insert("resources/log.js?" + n, s => { s.async = false; })));
  }
  await Promise.all(loads);
  assert_array_equals(window.externalLog, ["a", "b", "c", "d"]);
}, "async = false scripts execute in insertion order");
