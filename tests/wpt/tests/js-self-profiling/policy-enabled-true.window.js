// META: title=Document-Policy: js-profiling=?1
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingAllowed();
