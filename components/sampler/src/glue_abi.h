/* Everything the C++ glue (glue_capture.cpp, glue_engine.cpp) and glue.rs
 * exchange, defined once: the values and the layouts of the records the
 * capture (the signal handler) writes and Rust reads. The glue includes this
 * header (through glue.h); build.rs runs bindgen over it to
 * generate the Rust constants and #[repr(C)] structs glue.rs uses
 * (OUT_DIR/glue_abi.rs). So:
 *   - renaming or removing a value or a field fails the build of whichever
 *     side still uses the old name; renumbering a value or changing a field
 *     changes both sides at once;
 *   - bindgen's layout checks (compile-time `const` asserts in the generated
 *     file) hold every Rust struct to the size, alignment and field offsets
 *     libclang computes for this text, and the static_asserts at the end
 *     hold libclang (at bindgen time) and the C++ compiler building the glue
 *     to the same sizes: the two compilers cannot disagree on a record
 *     without a build error.
 *
 * C++ (enums with a fixed underlying type); nothing but <stdint.h> (and
 * <atomic> for the glue), so that bindgen needs no SpiderMonkey headers. */

#ifndef JSPROF_SAMPLER_GLUE_ABI_H
#define JSPROF_SAMPLER_GLUE_ABI_H

#include <stdint.h>

/* A copied ProfilingStack frame's kind (PsFrameRec::kind): a label frame, an
 * SP marker, a JS frame (OSR or not), or a native built-in's label frame
 * (category JS_Builtin: label + method). */
enum PsKind : uint32_t { PS_LABEL, PS_SP_MARKER, PS_JS, PS_JS_OSR, PS_BUILTIN };

/* A physical frame's kind (JitFrameRec::kind): the JIT tiers, then wasm
 * frames by tier; stubs and trampolines are JIT_WASM_OTHER (they may also
 * appear under a tier when their code lives in a tier's block: their labels
 * tell them apart). */
enum JitKind : uint32_t {
  JIT_BLINTERP, JIT_BASELINE, JIT_ION,
  JIT_WASM_BASELINE, JIT_WASM_ION, JIT_WASM_OTHER
};

/* How many ways a register-started walk can start (patch 0003's
 * js::ProfilerJitWalkStart::Count): the length of glue.rs's JIT_WALK_STARTS
 * names and of the counts jsprof_jit_walk_counts copies. */
enum JitWalkStartCount : uint32_t { JIT_WALK_START_COUNT = 13 };

/* A string length meaning "no string" (the *_len fields of the records). */
enum StringLen : uint32_t { NO_STRING = UINT32_MAX };

/* A capture slot's state: IDLE -> SENT (requester) -> IN_HANDLER -> DONE
 * (handler) -> IDLE (collector); SENT -> ABANDONED (requester, after a
 * timeout) -> IDLE (the late handler). jsprof_capture_state returns it. */
enum CaptureState : int32_t {
  REQ_IDLE, REQ_SENT, REQ_IN_HANDLER, REQ_DONE, REQ_ABANDONED
};

/* The result of jsprof_request_capture: sent; failed (no signal installed,
 * or tgkill failed); busy (a request is in flight, or an abandoned one's
 * signal never came). */
enum RequestResult : int32_t { REQUEST_SENT, REQUEST_FAILED, REQUEST_BUSY };

/* A capture's status (jsprof_finish_capture, jsprof_capture_on_thread). */
enum CaptureCode : int32_t {
  CAPTURE_OK = 0,
  /* Instrumentation was off: only the ProfilingStack was copied. */
  CAPTURE_NO_INSTRUMENTATION = 2,
  /* The slot's gate was closed (the JS thread was toggling the
   * instrumentation): nothing was captured. */
  CAPTURE_GATED = 3
};

/* The atomics the capture reads through CaptureBuf. bindgen sees plain
 * integers and build.rs leaves these two names out of its output: glue.rs
 * defines them as AtomicU32/AtomicU64 (same size and alignment). */
#ifdef JSPROF_GLUE_ABI_BINDGEN
typedef uint32_t JsprofAtomicU32;
typedef uint64_t JsprofAtomicU64;
#else
#include <atomic>
typedef std::atomic<uint32_t> JsprofAtomicU32;
typedef std::atomic<uint64_t> JsprofAtomicU64;
#endif

/* A copied ProfilingStack frame. Strings are (offset, length) in the
 * capture's arena, length NO_STRING for none. */
struct PsFrameRec {
  uint64_t realm_id;
  uint64_t stack_addr;
  uint32_t source_id;
  /* PsKind. */
  uint32_t kind;
  uint32_t str_off;
  uint32_t str_len;
  /* PS_BUILTIN: the second string (method name or "constructor"). */
  uint32_t str2_off;
  uint32_t str2_len;
};

/* A physical JIT/wasm frame found by JS::ProfilingFrameIterator. */
struct JitFrameRec {
  uint64_t realm_id;
  uint64_t stack_addr;
  /* Baseline/Ion: resolved later on the JS thread (jsprof_resolve_jit). */
  uint64_t return_addr;
  /* JitKind. */
  uint32_t kind;
  uint32_t source_id;
  uint32_t str_off;
  uint32_t str_len;
};

/* A capture request: the preallocated buffers the handler copies into, with
 * their capacities (set by Rust) and lengths (set by the capture). */
struct CaptureBuf {
  PsFrameRec* ps;
  uint32_t ps_cap;
  uint32_t ps_len;
  /* Frames on the ProfilingStack (>= ps_len when truncated). */
  uint32_t ps_total;
  /* Frames that did not fit (root end), 0 when complete. */
  uint32_t jit_truncated;
  JitFrameRec* jit;
  uint32_t jit_cap;
  uint32_t jit_len;
  char* arena;
  uint32_t arena_cap;
  uint32_t arena_len;
  uint32_t arena_truncated;
  /* Wasm frames whose label was not read (see walk_jit). */
  uint32_t wasm_withheld;
  /* The agent's GC depth (see jsprof_watch_gc), read while stopped. */
  const JsprofAtomicU32* gc_depth;
  /* Whether the thread was stopped inside a GC slice or minor GC, where
   * SpiderMonkey suppresses JS::ProfilingFrameIterator: the JIT and wasm
   * frames are then missing from the capture. */
  uint32_t in_gc;
  uint32_t pad_;
  /* Markers (marker.rs): the agent's activity word, and what the capture
   * read from it and the context's current realm (note_marker_state). */
  const JsprofAtomicU64* activity;
  uint64_t activity_at_capture;
  uint64_t realm_at_capture;
};

/* One frame of a resolved JIT return address (jsprof_resolve_jit). */
struct ResolvedJitRec {
  const char* label;
  uint64_t realm_id;
  uint32_t source_id;
  uint32_t pad_;
};

/* The records' sizes on the 64-bit targets the sampler's signal path runs
 * on (x86-64, aarch64), checked by libclang under bindgen and by the C++
 * compiler of the glue (see the top of this file). */
#if UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(JsprofAtomicU32) == 4 && sizeof(JsprofAtomicU64) == 8,
              "the atomics are plain integers in Rust's view");
static_assert(sizeof(PsFrameRec) == 40 && alignof(PsFrameRec) == 8,
              "PsFrameRec's layout");
static_assert(sizeof(JitFrameRec) == 40 && alignof(JitFrameRec) == 8,
              "JitFrameRec's layout");
static_assert(sizeof(CaptureBuf) == 104 && alignof(CaptureBuf) == 8,
              "CaptureBuf's layout");
static_assert(sizeof(ResolvedJitRec) == 24 && alignof(ResolvedJitRec) == 8,
              "ResolvedJitRec's layout");
#endif

#endif /* JSPROF_SAMPLER_GLUE_ABI_H */
