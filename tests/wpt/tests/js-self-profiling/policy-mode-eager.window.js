// META: title=Document-Policy: js-profiling-mode=eager
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingAllowed();
