// META: title=No Document-Policy header
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingNotAllowed();
