/* The engine hooks: the sampler's calls into SpiderMonkey on the JS thread
 * (the profiling stack and its registration, turning the profiler
 * instrumentation on and off, the choice of walk, resolving JIT return
 * addresses, the profiler's script sources) and the callbacks it installs
 * (wasm compilations, destroyed realms, GC slices and minor GCs). The
 * signal-safe capture is in glue_capture.cpp; see src/glue.rs for the
 * invariants of the Rust side.
 *
 * Invariants:
 *   - Everything here runs on the JS thread of the context it is given
 *     (never in the signal handler, never on the sampling thread), except
 *     the pure queries (jsprof_glue_implementation_version,
 *     jsprof_jit_register_walk_available/selected, jsprof_jit_walk_counts,
 *     jsprof_stack_depth: an atomic load), which any thread may make.
 *   - While the instrumentation is toggled (the engine rebuilds its
 *     profiler state), the thread's capture slot's gate is closed: a
 *     sampling signal handled in the middle captures nothing.
 *   - The callbacks call back into Rust (jsprof_note_wasm_compilation,
 *     jsprof_note_realm_destroyed), which catches panics; the GC slice
 *     callback is chained to the one it replaced, and restored when the
 *     watch ends.
 *   - The GC callbacks keep the agent's GC depth counter above 0 during
 *     every GC slice and minor GC; the handler reads it (one atomic load).
 *   - One internal SpiderMonkey function is called (not in its public
 *     headers): js::jit::ResetPerfSpewer, see jsprof_enable_instrumentation.
 *     A SpiderMonkey without it fails to link. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <atomic>

#include "jsapi.h"
#include "jsfriendapi.h"
#include "js/ProfilingFrameIterator.h"
#include "js/ProfilingSources.h"
#include "js/GCAPI.h"
#include "js/Principals.h"
#include "js/ProfilingStack.h"
#include "js/Realm.h"
#include "js/RealmOptions.h"

#include "glue.h"

/* SpiderMonkey-internal (jit/PerfSpewer.h; a global symbol of js_static, not
 * in the public headers): the only use of an internal function in the
 * sampler, see jsprof_enable_instrumentation. A SpiderMonkey without it
 * fails to link, it cannot be silently skipped. */
namespace js::jit {
void ResetPerfSpewer(bool enabled);
}  // namespace js::jit

#ifdef JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH
/* Added by third_party/mozjs_sys-patches/0001 (jit/ProfilerJitBookkeeping.h,
 * not exported); the sampler's build script defines the macro only when the
 * linked SpiderMonkey carries the patch. */
namespace js {
bool SetContextProfilerJitFrameBookkeeping(JSContext* cx, bool enabled);
/* Added by patch 0003 (the register-started walk): weak, so that a build with
 * 0001 and 0002 only links too; jit_register_walk_available() checks. */
__attribute__((weak)) bool ProfilerJitRegisterWalkSupported();
__attribute__((weak)) void ProfilerJitWalkCounts(uint64_t* counts, size_t len);
}  // namespace js
#endif

namespace {

/* Whether sessions run on the register-started walk (patches 0003, 0005,
 * 0006) unless `profiler.jit-frame-bookkeeping` was chosen explicitly
 * (`=1`: SpiderMonkey's bookkeeping, the walk of an unpatched engine). On:
 * the start-rule fuzzer passes with every piece of its workload (README,
 * "Fuzzing the start rules"). */
constexpr bool kRegisterWalkByDefault = true;

/* Set once `profiler.jit-frame-bookkeeping` was chosen explicitly
 * (jsprof_set_jit_option); otherwise the first enable picks the
 * register-started walk when kRegisterWalkByDefault and the engine has it. */
std::atomic<bool> gBookkeepingChosen{false};
/* The value chosen (meaningful once gBookkeepingChosen). */
std::atomic<bool> gBookkeepingChosenOn{true};

}  // namespace

namespace jsprof_glue {

/* Whether SpiderMonkey carries patch 0003 (third_party/mozjs_sys-patches):
 * with the JIT frame bookkeeping off, JS::ProfilingFrameIterator then starts
 * the innermost JIT activation's walk from the sampled registers. */
bool jit_register_walk_available() {
#ifdef JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH
  return &js::ProfilerJitRegisterWalkSupported != nullptr &&
         js::ProfilerJitRegisterWalkSupported();
#else
  return false;
#endif
}

/* Whether sessions use the register-started walk: the engine has it, and
 * the bookkeeping was turned off explicitly or not chosen at all
 * (kRegisterWalkByDefault). */
bool register_walk_selected() {
  return jit_register_walk_available() &&
         (gBookkeepingChosen.load() ? !gBookkeepingChosenOn.load()
                                    : kRegisterWalkByDefault);
}

}  // namespace jsprof_glue

using jsprof_glue::jit_register_walk_available;
using jsprof_glue::register_walk_selected;

extern "C" {

const char* jsprof_glue_implementation_version() {
  return JS_GetImplementationVersion();
}

ProfilingStack* jsprof_stack_new() { return new ProfilingStack(); }

/* Frees a stack; the caller guarantees it is empty and uninstalled. */
void jsprof_stack_delete(ProfilingStack* ps) { delete ps; }

uint32_t jsprof_stack_depth(ProfilingStack* ps) { return ps->stackSize(); }

void jsprof_install_stack(JSContext* cx, ProfilingStack* ps) {
  js::SetContextProfilingStack(cx, ps);
}

void jsprof_enable_instrumentation(JSContext* cx, bool on) {
  if (!on) {
    /* Test-only (the walk fuzzer): before the JIT code is discarded. */
    jsprof_glue::drain_capture_hooks(cx);
  }
  /* No capture while the engine rebuilds its profiler state (a pending
   * sampling signal could be handled in the middle of it). */
  jsprof_glue::close_capture_gate();
  if (on && !gBookkeepingChosen.load() && kRegisterWalkByDefault &&
      jit_register_walk_available()) {
    /* The register-started walk (patch 0003): JIT code without the
     * lastProfilingFrame bookkeeping (README, "The register-started walk").
     * Settable only while the runtime's profiler is off (false otherwise,
     * when the choice was already made). */
#ifdef JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH
    (void)js::SetContextProfilerJitFrameBookkeeping(cx, false);
#endif
  }
  js::EnableContextProfilingStack(cx, on);
  if (on) {
    /* Enabling the profiler also turns on the JIT "perf spewer" for the
     * Gecko profiler: every JIT compilation then records a source position
     * per generated instruction (Ion: js::PCToLineNumber, a scan of the
     * script's source notes, per LIR instruction) into JS::JitCodeRecords,
     * which only JS::LookupJitCodeRecord reads, for the *current*
     * line/column of JIT frames (ProfiledFrameHandle::line/column). The
     * sampler never reads those (it reports definition positions, from the
     * profile strings), and on TypeScript's transpileModule they cost 5 %
     * of all instructions (README, "Cost of profiling"). Turned off again
     * here; nothing else of the profiler depends on it. */
    js::jit::ResetPerfSpewer(false);
  }
  jsprof_glue::open_capture_gate();
}

/* Sets one of SpiderMonkey's global JIT options by its pref name
 * ("ion.enable", "blinterp.warmup.trigger", ...; the names of
 * JIT_COMPILER_OPTIONS in jsapi.h). Returns false for an unknown name. For
 * measurements (the cost breakdown isolates tiers with these); JS thread. */
bool jsprof_set_jit_option(JSContext* cx, const char* name, size_t len,
                           uint32_t value) {
  struct Option {
    const char* name;
    JSJitCompilerOption option;
  };
  static const Option kOptions[] = {
#define JSPROF_JIT_OPTION(key, str) {str, JSJITCOMPILER_##key},
      JIT_COMPILER_OPTIONS(JSPROF_JIT_OPTION)
#undef JSPROF_JIT_OPTION
  };
  for (const Option& o : kOptions) {
    if (strlen(o.name) == len && memcmp(o.name, name, len) == 0) {
      JS_SetGlobalJitCompilerOption(cx, o.option, value);
      return true;
    }
  }
  /* For the cost breakdown only: SpiderMonkey built with the repository's
   * patch 0001 (third_party/mozjs_sys-patches) can generate JIT code without
   * the lastProfilingFrame bookkeeping; its innermost JIT frames are then
   * not walked, so samples lose them: never for a real session. Only before
   * the profiler is first enabled. */
  static const char kBookkeeping[] = "profiler.jit-frame-bookkeeping";
#ifdef JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH
  if (len == sizeof(kBookkeeping) - 1 && memcmp(kBookkeeping, name, len) == 0) {
    bool set = js::SetContextProfilerJitFrameBookkeeping(cx, value != 0);
    if (set) {
      gBookkeepingChosenOn.store(value != 0);
      gBookkeepingChosen.store(true);
    }
    return set;
  }
#else
  (void)kBookkeeping;
#endif
  return false;
}

bool jsprof_instrumentation_enabled(JSContext* cx) {
  return JS::IsProfilingEnabledForContext(cx);
}

/* Whether the register-started walk (patch 0003) is in this build. */
bool jsprof_jit_register_walk_available() {
  return jit_register_walk_available();
}

/* Whether sessions use it: in this build and not replaced by SpiderMonkey's
 * bookkeeping through profiler.jit-frame-bookkeeping=1. */
bool jsprof_jit_register_walk_selected() {
  return register_walk_selected();
}

/* Copies the process-wide counts of how walks of the innermost JIT
 * activation started (js::ProfilerJitWalkStart, patch 0003) into `out`;
 * returns how many there are, 0 without the patch. */
size_t jsprof_jit_walk_counts(uint64_t* out, size_t len) {
#ifdef JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH
  if (!jit_register_walk_available() || &js::ProfilerJitWalkCounts == nullptr) {
    return 0;
  }
  js::ProfilerJitWalkCounts(out, len);
  return JIT_WALK_START_COUNT;
#else
  (void)out;
  (void)len;
  return 0;
#endif
}

/* Resolves a JIT return address into its frames, outermost first. Returns
 * the number of frames (at most cap). JS thread only. */
uint32_t jsprof_resolve_jit(JSContext* cx, void* addr, ResolvedJitRec* out,
                            uint32_t cap) {
  JS::ProfiledFrameRange range = JS::GetProfiledFrames(cx, addr);
  uint32_t n = 0;
  for (JS::ProfiledFrameHandle handle : range) {
    if (n == cap) {
      break;
    }
    out[n].label = handle.label();
    out[n].realm_id = handle.realmID();
    out[n].source_id = handle.sourceId();
    out[n].pad_ = 0;
    n++;
  }
  return n;
}

void jsprof_set_range_start(JSContext* cx, uint64_t start) {
  /* Test-only (the walk fuzzer): the fuzzed walks' return addresses are
   * resolved while the range still keeps their code. */
  jsprof_glue::drain_capture_hooks(cx);
  JS::SetJSContextProfilerSampleBufferRangeStart(cx, start);
}

typedef void (*jsprof_source_cb)(void* data, uint32_t source_id,
                                 const char* path, size_t len,
                                 uint32_t start_line);

/* Lists the sources the profiler has seen (full file names). JS thread. */
void jsprof_script_sources(JSContext* cx, jsprof_source_cb cb, void* data) {
  js::ProfilerJSSources sources =
      js::GetProfilerScriptSources(JS_GetRuntime(cx), false);
  for (const ProfilerJSSourceData& s : sources) {
    if (s.filePathLength() > 0) {
      cb(data, s.sourceId(), s.filePath(), s.filePathLength(), s.startLine());
    }
  }
}

/* Implemented in glue.rs: records that a wasm module is being compiled in
 * realm `realm_id`, by the script SpiderMonkey names as the compilation's
 * scripted caller (`filename`, `line`). JS thread. */
void jsprof_note_wasm_compilation(const char* filename, size_t len,
                                  uint32_t line, uint64_t realm_id);
/* Implemented in glue.rs: realm `realm_id` was destroyed. */
void jsprof_note_realm_destroyed(uint64_t realm_id);

}  // extern "C"

namespace {

/* SpiderMonkey asks this before compiling wasm bytes (WebAssembly.Module,
 * compile, instantiate with bytes), in the compiling realm and with the
 * caller's frames on the stack: the same scripted caller SpiderMonkey then
 * writes into the module's profiling labels as
 * "<filename> line <line> > WebAssembly.<api>". It permits everything, as
 * SpiderMonkey does without a callback. */
bool note_runtime_code(JSContext* cx, JS::RuntimeCode kind, JS::Handle<JSString*>,
                       JS::CompilationType,
                       JS::Handle<JS::StackGCVector<JSString*>>,
                       JS::Handle<JSString*>,
                       JS::Handle<JS::StackGCVector<JS::Value>>,
                       JS::Handle<JS::Value>, bool* outCanCompileStrings) {
  *outCanCompileStrings = true;
  if (kind != JS::RuntimeCode::WASM) {
    return true;
  }
  JS::Realm* realm = JS::GetCurrentRealmOrNull(cx);
  if (!realm) {
    return true;
  }
  uint64_t realm_id = JS::RealmCreationOptionsRef(realm).profilerRealmID();
  JS::AutoFilename filename;
  uint32_t line = 0;
  if (!JS::DescribeScriptedCaller(&filename, cx, &line) || !filename.get()) {
    /* No scripted caller (e.g. called from a promise job): the labels say
     * "?", but the module's name section could still spell a visible site
     * (cut at a NUL byte). Record an unknown compiling script (empty name),
     * which makes the realm's wasm frames unattributable (wasm.rs). */
    jsprof_note_wasm_compilation("", 0, 0, realm_id);
    return true;
  }
  jsprof_note_wasm_compilation(filename.get(), strlen(filename.get()), line,
                               realm_id);
  return true;
}

const JSSecurityCallbacks kSecurityCallbacks = {note_runtime_code, nullptr,
                                                nullptr};

/* The GC depth of this thread's agent, and the slice callback we replaced. */
thread_local std::atomic<uint32_t>* tGcDepth = nullptr;
thread_local JS::GCSliceCallback tPreviousSliceCallback = nullptr;

/* Wall time this thread spent in GC (markers: the sampled `gc` share is
 * checked against it), and when the current outermost GC began. */
thread_local uint64_t tGcTotalNs = 0;
thread_local uint64_t tGcStartedNs = 0;

void time_gc(uint32_t depth_before, uint32_t depth_after) {
  if (depth_before == 0 && depth_after > 0) {
    tGcStartedNs = jsprof_glue::monotonic_ns();
  } else if (depth_before > 0 && depth_after == 0) {
    tGcTotalNs += jsprof_glue::monotonic_ns() - tGcStartedNs;
  }
}

void depth_add(std::atomic<uint32_t>* depth, bool enter) {
  uint32_t before = depth->load();
  if (enter) {
    depth->fetch_add(1);
  } else if (before > 0) {
    depth->fetch_sub(1);
  }
  time_gc(before, depth->load());
}

/* Markers: the realm a GC interrupts (glue_capture.cpp, tGcRealmId), at the
 * outermost GC's start; JS thread, in the GC callbacks. */
void note_gc_realm(JSContext* cx, const std::atomic<uint32_t>* depth,
                   bool enter) {
  if (enter && depth->load() == 0) {
    JS::Realm* realm = js::GetContextRealm(cx);
    jsprof_glue::note_gc_realm_id(
        realm ? JS::RealmCreationOptionsRef(realm).profilerRealmID() : 0);
  }
}

void on_gc_slice(JSContext* cx, JS::GCProgress progress,
                 const JS::GCDescription& desc) {
  if (tGcDepth) {
    note_gc_realm(cx, tGcDepth, progress == JS::GC_SLICE_BEGIN);
    if (progress == JS::GC_SLICE_BEGIN) {
      depth_add(tGcDepth, true);
    } else if (progress == JS::GC_SLICE_END) {
      depth_add(tGcDepth, false);
    }
  }
  if (tPreviousSliceCallback) {
    tPreviousSliceCallback(cx, progress, desc);
  }
}

void on_nursery_collection(JSContext* cx, JS::GCNurseryProgress progress,
                           JS::GCReason, void* data) {
  note_gc_realm(
      cx, static_cast<std::atomic<uint32_t>*>(data),
      progress == JS::GCNurseryProgress::GC_NURSERY_COLLECTION_START);
  depth_add(static_cast<std::atomic<uint32_t>*>(data),
            progress == JS::GCNurseryProgress::GC_NURSERY_COLLECTION_START);
}

void note_realm_destroyed(JS::GCContext*, JS::Realm* realm) {
  jsprof_note_realm_destroyed(
      JS::RealmCreationOptionsRef(realm).profilerRealmID());
}

}  // namespace

extern "C" {

/* Installs GC callbacks that keep *depth > 0 during every GC slice and
 * minor GC of the context (JS thread). The slice callback is chained to the
 * one it replaces. */
void jsprof_watch_gc(JSContext* cx, std::atomic<uint32_t>* depth) {
  tGcDepth = depth;
  JS::GCSliceCallback previous = JS::SetGCSliceCallback(cx, on_gc_slice);
  if (previous != on_gc_slice) {
    tPreviousSliceCallback = previous;
  }
  JS::AddGCNurseryCollectionCallback(cx, on_nursery_collection, depth);
}

/* Wall time this thread spent in GC while watched (ns). */
uint64_t jsprof_gc_total_ns() { return tGcTotalNs; }

/* Undoes jsprof_watch_gc (JS thread). */
void jsprof_unwatch_gc(JSContext* cx, std::atomic<uint32_t>* depth) {
  JS::RemoveGCNurseryCollectionCallback(cx, on_nursery_collection, depth);
  if (tGcDepth == depth) {
    tGcDepth = nullptr;
    /* Restore the callback we replaced only if ours is still installed;
     * if someone replaced ours since, put theirs back (on_gc_slice, if
     * they chain to it, then only forwards to the saved callback). */
    JS::GCSliceCallback current =
        JS::SetGCSliceCallback(cx, tPreviousSliceCallback);
    if (current != on_gc_slice) {
      JS::SetGCSliceCallback(cx, current);
    } else {
      tPreviousSliceCallback = nullptr;
    }
  }
}

/* Installs note_runtime_code as the context's security callbacks and
 * note_realm_destroyed as its destroy-realm callback. Returns false (and
 * installs nothing) if the embedder has security callbacks of its own. */
bool jsprof_install_wasm_compile_hook(JSContext* cx) {
  const JSSecurityCallbacks* current = JS_GetSecurityCallbacks(cx);
  if (current == &kSecurityCallbacks) {
    return true;
  }
  if (current && (current->contentSecurityPolicyAllows ||
                  current->codeForEvalGets || current->subsumes)) {
    return false;
  }
  JS_SetSecurityCallbacks(cx, &kSecurityCallbacks);
  JS::SetDestroyRealmCallback(cx, note_realm_destroyed);
  return true;
}

}  // extern "C"
