// META: title=X-Content-Type-Options: nosniff on classic scripts
// META: script=resources/insert-script.js
"use strict";

const ran = tag => (window.nosniffLog || []).includes(tag);

promise_test(async () => {
  assert_equals(await insertScript("resources/nosniff-css.js"), "error");
  assert_false(ran("css"), "the stylesheet-typed script did not run");
}, "nosniff blocks a script served as text/css, with an error event");

promise_test(async () => {
  assert_equals(await insertScript("resources/nosniff-css.js?in-order", s => (s.async = false)), "error");
  assert_false(ran("css"));
}, "nosniff blocks an in-order script-inserted script too");

promise_test(async () => {
  assert_equals(await insertScript("resources/sniff-css.js"), "load");
  assert_true(ran("css-without-nosniff"));
}, "without nosniff a script served as text/css still runs");

promise_test(async () => {
  assert_equals(await insertScript("resources/nosniff-javascript.js"), "load");
  assert_true(ran("javascript"));
}, "nosniff (any case) lets a JavaScript MIME type with parameters run");

promise_test(async () => {
  assert_equals(await insertScript("resources/nosniff-unparsable-type.js"), "error");
  assert_false(ran("unparsable"));
}, "nosniff blocks a Content-Type that is not a MIME type");

promise_test(async () => {
  assert_equals(await insertScript("resources/nosniff-second-value.js"), "load");
  assert_true(ran("second-value"));
}, "only the first X-Content-Type-Options value counts");

promise_test(async () => {
  const path = new URL("resources/nosniff-css.js", location.href).pathname;
  const cross = `${location.protocol}//www.${location.host}${path}?cross`;
  assert_equals(await insertScript(cross), "error");
  assert_false(ran("css"));
}, "nosniff blocks a no-cors cross-origin script of another type");
