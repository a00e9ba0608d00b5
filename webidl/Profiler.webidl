// JS Self-Profiling API
// https://wicg.github.io/js-self-profiling/#the-profiler-interface
//
// Deviation: the specification exposes Profiler on Window only ("until
// consensus is reached on ... Worker integration"); the shell also exposes
// it in dedicated workers, whose sessions sample the worker's own agent
// (see components/script/src/dom/profiler.rs).

[Exposed=(Window,DedicatedWorker)]
interface Profiler : EventTarget {
  readonly attribute DOMHighResTimeStamp sampleInterval;
  readonly attribute boolean stopped;

  constructor(ProfilerInitOptions options);
  Promise<ProfilerTrace> stop();
};

// https://wicg.github.io/js-self-profiling/#the-profilertrace-dictionary
typedef DOMString ProfilerResource;

dictionary ProfilerTrace {
  required sequence<ProfilerResource> resources;
  required sequence<ProfilerFrame> frames;
  required sequence<ProfilerStack> stacks;
  required sequence<ProfilerSample> samples;
};

// https://wicg.github.io/js-self-profiling/#the-profilersample-dictionary
// with the markers extension
// (https://github.com/WICG/js-self-profiling/blob/main/markers.md): the
// marker exists only in cross-origin isolated realms. The proposal writes
// `ProfilerMarker? marker`; a sample without marker has no `marker` member
// (idle, or work the profiler may not see), never `null`, as in Chromium.
dictionary ProfilerSample {
  required DOMHighResTimeStamp timestamp;
  unsigned long long stackId;
  [CrossOriginIsolated] ProfilerMarker marker;
};

// https://github.com/WICG/js-self-profiling/blob/main/markers.md
// The shell produces "script", "gc" and "other" (it computes no style,
// does no layout and paints nothing).
enum ProfilerMarker { "script", "gc", "style", "layout", "paint", "other" };

// https://wicg.github.io/js-self-profiling/#the-profilerstack-dictionary
dictionary ProfilerStack {
  unsigned long long parentId;
  required unsigned long long frameId;
};

// https://wicg.github.io/js-self-profiling/#the-profilerframe-dictionary
dictionary ProfilerFrame {
  required DOMString name;
  unsigned long long resourceId;
  unsigned long long line;
  unsigned long long column;
};

// https://wicg.github.io/js-self-profiling/#the-profilerinitoptions-dictionary
dictionary ProfilerInitOptions {
  required DOMHighResTimeStamp sampleInterval;
  required unsigned long maxBufferSize;
};
