// META: title=Document-Policy: js-profiling-mode with an unknown value
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingNotAllowed();
