// META: title=Document-Policy: js-profiling
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingAllowed();
