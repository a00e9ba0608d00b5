// META: title=Script-inserted module scripts with async = false execute in order
// META: script=resources/insert-script.js
"use strict";

const inOrder = s => (s.async = false);
const module = s => (s.type = "module");
const inOrderModule = s => {
  s.type = "module";
  s.async = false;
};

promise_test(async () => {
  window.orderLog = [];
  // A slow classic script first: the module behind it in the list waits.
  const events = [
    insertScript("resources/order-classic.js?1&pipe=trickle(d0.3)", inOrder),
    insertScript("resources/order-module.js?2", inOrderModule),
    insertScript("resources/order-classic.js?3", inOrder),
    insertScript("resources/order-module.js?4", inOrderModule),
  ];
  assert_array_equals(await Promise.all(events), ["load", "load", "load", "load"]);
  assert_array_equals(window.orderLog, [
    "classic?1&pipe=trickle(d0.3)",
    "module?2",
    "classic?3",
    "module?4",
  ]);
}, "an async = false module script joins the list of scripts that execute in order");

promise_test(async () => {
  window.orderLog = [];
  const slow = insertScript("resources/order-classic.js?5&pipe=trickle(d0.3)", inOrder);
  const asap = insertScript("resources/order-module.js?6", module);
  assert_equals(await asap, "load");
  assert_array_equals(window.orderLog, ["module?6"], "the async module did not wait");
  assert_equals(await slow, "load");
  assert_array_equals(window.orderLog, ["module?6", "classic?5&pipe=trickle(d0.3)"]);
}, "a script-inserted module script is async by default: it does not wait for the list");

promise_test(async () => {
  window.orderLog = [];
  const s = document.createElement("script");
  s.type = "module";
  s.async = false;
  s.textContent = "window.orderLog.push('inline-module')";
  document.head.appendChild(s);
  assert_array_equals(window.orderLog, [], "an inline module script does not run synchronously");
  await new Promise(resolve => step_timeout(resolve, 0));
  await new Promise(resolve => step_timeout(resolve, 0));
  assert_array_equals(window.orderLog, ["inline-module"]);
}, "an inline async = false module script runs from a task");

promise_test(async () => {
  window.orderLog = [];
  const missing = insertScript("resources/no-such-module.js", inOrderModule);
  const after = insertScript("resources/order-classic.js?7", inOrder);
  assert_array_equals(await Promise.all([missing, after]), ["error", "load"]);
  assert_array_equals(window.orderLog, ["classic?7"]);
}, "a module that fails to fetch fires error in its turn and does not block the list");
