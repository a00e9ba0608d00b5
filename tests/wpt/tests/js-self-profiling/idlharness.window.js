// META: title=JS Self-Profiling IDL
// META: script=/resources/WebIDLParser.js
// META: script=/resources/idlharness.js
"use strict";

// The interface as the specification defines it, tested against the
// implementation; its dependencies are declared but not tested.
const PROFILER_IDL = `
[Exposed=Window]
interface Profiler : EventTarget {
  readonly attribute DOMHighResTimeStamp sampleInterval;
  readonly attribute boolean stopped;

  constructor(ProfilerInitOptions options);
  Promise<ProfilerTrace> stop();
};

typedef DOMString ProfilerResource;

dictionary ProfilerTrace {
  required sequence<ProfilerResource> resources;
  required sequence<ProfilerFrame> frames;
  required sequence<ProfilerStack> stacks;
  required sequence<ProfilerSample> samples;
};

dictionary ProfilerSample {
  required DOMHighResTimeStamp timestamp;
  unsigned long long stackId;
};

dictionary ProfilerStack {
  unsigned long long parentId;
  required unsigned long long frameId;
};

dictionary ProfilerFrame {
  required DOMString name;
  unsigned long long resourceId;
  unsigned long long line;
  unsigned long long column;
};

dictionary ProfilerInitOptions {
  required DOMHighResTimeStamp sampleInterval;
  required unsigned long maxBufferSize;
};
`;

const DEPENDENCIES_IDL = `
typedef double DOMHighResTimeStamp;
[Exposed=*]
interface EventTarget {
  constructor();
};
[Global=Window, Exposed=Window]
interface Window : EventTarget {};
`;

const idl = new IdlArray();
idl.add_idls(PROFILER_IDL);
idl.add_untested_idls(DEPENDENCIES_IDL);
idl.add_objects({ Profiler: ["new Profiler({ sampleInterval: 10, maxBufferSize: 100 })"] });
idl.test();
