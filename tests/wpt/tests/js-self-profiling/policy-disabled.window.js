// META: title=Document-Policy: js-profiling=?0
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingNotAllowed();
