// META: title=The encoding of external classic scripts, and module scripts' UTF-8
"use strict";

// The five Polish letters every resource logs, written in windows-1250
// (cp1250-*.js) or UTF-8 (utf8-*.js); the .headers files say which charset
// the response declares.
const POLISH = "\u015b\u0107\u0105\u017c\u017a";
// The same windows-1250 bytes (9C E6 B9 BF 9F) decoded as UTF-8: 9C and 9F
// are not UTF-8, E6 B9 BF is U+6E7F.
const AS_UTF8 = "\ufffd\u6e7f\ufffd";

function load(src, configure) {
  const s = document.createElement("script");
  if (configure) configure(s);
  s.src = src;
  const done = new Promise((resolve, reject) => {
    s.onload = resolve;
    s.onerror = () => reject(new Error(`${src} fired error`));
  });
  document.head.appendChild(s);
  return done.then(() => window.charsetLog.at(-1));
}

promise_test(async () => {
  const logged = await load("resources/cp1250-labelled.js", s => (s.charset = "utf-8"));
  assert_equals(logged, "labelled:" + POLISH);
}, "the response's Content-Type charset wins over the charset attribute");

promise_test(async () => {
  const logged = await load("resources/cp1250-unlabelled.js", s => (s.charset = "windows-1250"));
  assert_equals(logged, "unlabelled:" + POLISH);
}, "without a charset in the response, the charset attribute decides");

promise_test(async () => {
  const logged = await load("resources/cp1250-unlabelled.js?2", s => (s.charset = "  CP1250 "));
  assert_equals(logged, "unlabelled:" + POLISH);
}, "the charset attribute is an encoding label (case and whitespace do not matter)");

promise_test(async () => {
  const logged = await load("resources/cp1250-unlabelled.js?3");
  assert_equals(logged, "unlabelled:" + AS_UTF8);
}, "without either, the document's encoding (UTF-8) decodes the script");

promise_test(async () => {
  const logged = await load("resources/cp1250-unlabelled.js?4", s => (s.charset = "bogus-label"));
  assert_equals(logged, "unlabelled:" + AS_UTF8);
}, "a charset attribute that is no encoding label falls back to the document's encoding");

promise_test(async () => {
  const logged = await load("resources/cp1250-bogus-label.js", s => (s.charset = "windows-1250"));
  assert_equals(logged, "bogus:" + POLISH);
}, "a response charset that is no encoding label falls back to the charset attribute");

promise_test(async () => {
  const logged = await load("resources/utf8-bom-labelled-cp1250.js");
  assert_equals(logged, "bom:" + POLISH);
}, "a UTF-8 byte order mark wins over the response's charset");

promise_test(async () => {
  const s = document.createElement("script");
  s.src = "resources/cp1250-unlabelled.js?5";
  s.charset = "windows-1250";
  const done = new Promise(resolve => (s.onload = resolve));
  document.head.appendChild(s);
  s.charset = "utf-8";
  await done;
  assert_equals(window.charsetLog.at(-1), "unlabelled:" + POLISH);
}, "the charset attribute is read when the script is prepared, not when it arrives");

promise_test(async () => {
  const logged = await load("resources/utf8-module-labelled-cp1250.js", s => {
    s.type = "module";
    s.charset = "windows-1250";
  });
  assert_equals(logged, "module:" + POLISH);
}, "module scripts are decoded as UTF-8 whatever the response and the attribute say");
