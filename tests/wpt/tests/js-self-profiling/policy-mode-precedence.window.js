// META: title=Document-Policy: js-profiling-mode decides over js-profiling
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingAllowed();
