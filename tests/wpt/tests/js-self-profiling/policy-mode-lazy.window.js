// META: title=Document-Policy: js-profiling-mode=lazy
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingAllowed();
