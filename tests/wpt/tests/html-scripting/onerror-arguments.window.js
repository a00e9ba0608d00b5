// META: title=OnErrorEventHandler and reportError()
"use strict";

setup({ allow_uncaught_exception: true });

test(t => {
  const calls = [];
  window.onerror = function (message, source, lineno, colno, error) {
    calls.push({ self: this, message, source, lineno, colno, error });
    return true;
  };
  t.add_cleanup(() => { window.onerror = null; });
  let prevented;
  const listener = e => { prevented = e.defaultPrevented; };
  addEventListener("error", listener);
  t.add_cleanup(() => removeEventListener("error", listener));
  const error = new TypeError("boom");
  reportError(error);
  assert_equals(calls.length, 1);
  assert_equals(calls[0].self, window);
  assert_equals(typeof calls[0].message, "string");
  assert_true(calls[0].message.includes("boom"), calls[0].message);
  // The error's own position: where it was created (this file).
  assert_equals(calls[0].source, new URL("onerror-arguments.window.js", location.href).href);
  assert_equals(typeof calls[0].lineno, "number");
  assert_equals(typeof calls[0].colno, "number");
  assert_equals(calls[0].error, error);
  assert_true(prevented, "returning true cancels the event");
}, "window.onerror gets five arguments and returning true cancels");

test(t => {
  window.onerror = () => false;
  t.add_cleanup(() => { window.onerror = null; });
  let prevented;
  const listener = e => { prevented = e.defaultPrevented; e.preventDefault(); };
  addEventListener("error", listener);
  t.add_cleanup(() => removeEventListener("error", listener));
  reportError(1);
  assert_false(prevented, "returning false does not cancel an error event");
}, "returning false from window.onerror does not cancel");

test(() => {
  window.onerror = "not callable";
  assert_equals(window.onerror, null);
  const f = (a, b, c, d, e) => {};
  window.onerror = f;
  assert_equals(window.onerror, f);
  window.onerror = null;
}, "window.onerror is an OnErrorEventHandler attribute");

test(t => {
  let args;
  window.onerror = (...a) => { args = a; };
  t.add_cleanup(() => { window.onerror = null; });
  dispatchEvent(new ErrorEvent("error", { message: "m", filename: "f", lineno: 1, colno: 2, error: 3 }));
  assert_array_equals(args, ["m", "f", 1, 2, 3]);
  const plain = new Event("error");
  dispatchEvent(plain);
  assert_array_equals(args, [plain], "an Event that is not an ErrorEvent is passed as is");
}, "a synthetic ErrorEvent at the window gets the five-argument call");
