// META: title=Document-Policy: js-profiling with a non-boolean value fails the header
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingNotAllowed();
