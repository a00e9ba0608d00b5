// A worker whose own script response has no Document-Policy header, and
// which imports its commands from a script served with
// `Document-Policy: js-profiling` (a header that must not count: the policy
// is the worker's script response's).
"use strict";
importScripts("profiler-worker.js?pipe=header(Document-Policy,js-profiling)");
