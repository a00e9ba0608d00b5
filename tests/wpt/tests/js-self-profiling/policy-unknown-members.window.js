// META: title=Document-Policy: unknown members are ignored
// META: script=resources/profiling-helpers.js
"use strict";

testProfilingAllowed();
