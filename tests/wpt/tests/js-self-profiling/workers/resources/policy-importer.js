// A worker whose own script response carries `Document-Policy: js-profiling`
// (policy-importer.js.headers) and whose commands come from an imported
// script served without it.
"use strict";
importScripts("profiler-worker.js");
