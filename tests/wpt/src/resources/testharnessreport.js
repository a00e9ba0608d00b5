// testharnessreport.js of the jsprof WPT harness (served at
// /resources/testharnessreport.js in place of WPT's).
//
// Reports every subtest result, and the completion with the harness status,
// as one console.log line each: the marker, then a JSON object. The harness
// reads them from the shell's standard output. The timeout multiplier below
// is filled in by the server.
(function () {
  "use strict";
  var MARK = "@@MARK@@";
  var TEST_STATUS = ["PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"];
  var HARNESS_STATUS = ["OK", "ERROR", "TIMEOUT", "PRECONDITION_FAILED"];

  function text(value) {
    return value === null || value === undefined ? null : String(value);
  }

  function record(test) {
    return {
      name: String(test.name),
      status: TEST_STATUS[test.status] || "UNKNOWN(" + test.status + ")",
      message: text(test.message),
      stack: text(test.stack),
    };
  }

  function emit(object) {
    console.log(MARK + JSON.stringify(object));
  }

  // No DOM output: the shell has no renderer, and the log table is not read.
  setup({ output: false, timeout_multiplier: @@MULTIPLIER@@ });

  add_result_callback(function (test) {
    var r = record(test);
    r.type = "result";
    emit(r);
  });

  add_completion_callback(function (tests, harness_status) {
    emit({
      type: "complete",
      status: HARNESS_STATUS[harness_status.status] || "UNKNOWN(" + harness_status.status + ")",
      message: text(harness_status.message),
      stack: text(harness_status.stack),
      tests: tests.map(record),
    });
  });
})();
