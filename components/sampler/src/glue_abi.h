/* Everything glue.cpp and glue.rs exchange, defined once: the values and the
 * layouts of the records the capture (the signal handler) writes and Rust
 * reads. glue.cpp includes this header; build.rs runs bindgen over it to
 * generate the Rust constants and #[repr(C)] structs glue.rs uses
 * (OUT_DIR/glue_abi.rs). So:
 *   - renaming or removing a value or a field fails the build of whichever
 *     side still uses the old name; renumbering a value or changing a field
 *     changes both sides at once;
 *   - bindgen's layout checks (compile-time `const` asserts in the generated
 *     file) hold every Rust struct to the size, alignment and field offsets
 *     libclang computes for this text, and the static_asserts at the end
 *     hold libclang (at bindgen time) and the C++ compiler building glue.cpp
 *     to the same sizes: the two compilers cannot disagree on a record
 *     without a build error.
 *
 * C++ (enums with a fixed underlying type); nothing but <stdint.h> (and
 * <atomic> for glue.cpp), so that bindgen needs no SpiderMonkey headers. */

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

/* The start-rule fuzzer (test-only, off by default: glue.cpp "Fuzzing the
 * start rules", README "Fuzzing the start rules"). Its walks are counted by
 * how the innermost JIT activation's walk started: the js::ProfilerJitWalkStart
 * values, then WALK_FUZZ_NOT_STARTED for a walk whose innermost activation
 * did not go through the start rules (no JIT activation, or wasm's own
 * unwinder). Mutation classes: see glue.cpp (fuzz_mutate). */
enum WalkFuzzConst : uint32_t {
  WALK_FUZZ_NOT_STARTED = JIT_WALK_START_COUNT,
  WALK_FUZZ_STARTS = JIT_WALK_START_COUNT + 1,
  WALK_FUZZ_CLASSES = 8,
  WALK_FUZZ_RECORDS = 32
};

/* What a fuzzed walk violated (WalkFuzzViolation::kind): more frames than
 * the stack has (a loop); a frame outside [sp, the stack base); frames out
 * of stack order; a frame that is not a frame of the stack (not one the
 * walk from the real registers found, when that walk was complete); a JIT
 * return address of a fuzzed walk that the resolution on the JS thread
 * (JS::GetProfiledFrames, as glue.rs's resolution) could not resolve. */
enum WalkFuzzKind : uint32_t {
  FUZZ_BOUND, FUZZ_RANGE, FUZZ_ORDER, FUZZ_FALSE_FRAME, FUZZ_UNRESOLVED,
  FUZZ_KINDS
};

/* The fuzzer's process-wide counters (jsprof_walk_fuzz_stats). */
struct WalkFuzzStats {
  /* Samples whose interrupted state was fuzzed. */
  uint64_t samples;
  /* Fuzzed walks run, and mutated states not walked (pc in wasm code:
   * wasm's own unwinder, not the start rules; pc in JIT code that is not
   * readable, freed since it was seen: no thread runs there; or the
   * sample interrupted
   * code running on another stack than the thread's, e.g. a signal
   * handler's alternate stack: all its walks). */
  uint64_t walks;
  uint64_t skipped;
  /* Frames of fuzzed walks checked against the reference. */
  uint64_t frames;
  /* Fuzzed walks stopped at a frame the reference walk could not vouch for
   * (it was itself lost, or hit no record): not checkable. */
  uint64_t unverified;
  /* Violations by WalkFuzzKind. */
  uint64_t violations[FUZZ_KINDS];
  /* False frames from states a thread can be in: walks started by the
   * rules that do not take fp as the frame of the code at pc (a stub's or
   * trampoline's fp, jit-stub-frame, but not with the real pc in wasm
   * code; the ABI-call record, cpp-from-*) with fp the real one or a saved
   * frame pointer up the real chain whose frames under it are below the
   * fuzzed sp (or any fp for the record starts, which do not read it) and
   * sp real or raised by
   * less than 64 words (never lowered: the words below the real sp are
   * dead, stale return addresses among them). The rest mutate what the
   * function-code rules
   * (jit-body, jit-ion-ic, jit-window) take as given: that in Ion,
   * Baseline, interpreter or IC code fp is that code's frame, and [sp] its
   * return address in the windows. */
  uint64_t false_reachable;
  /* Fuzzed walks' JIT return addresses queued for resolution, resolved,
   * and dropped (queue full or being drained). */
  uint64_t queued;
  uint64_t resolved;
  uint64_t dropped;
  /* Per start (WALK_FUZZ_STARTS): reference walks, fuzzed walks, fuzzed
   * walks with a false frame, unverified fuzzed walks. */
  uint64_t reference_by_start[WALK_FUZZ_STARTS];
  uint64_t walks_by_start[WALK_FUZZ_STARTS];
  uint64_t false_by_start[WALK_FUZZ_STARTS];
  uint64_t unverified_by_start[WALK_FUZZ_STARTS];
  /* Per mutation class of pc and of fp: fuzzed walks, and those with a
   * violation. */
  uint64_t walks_by_pc[WALK_FUZZ_CLASSES];
  uint64_t walks_by_fp[WALK_FUZZ_CLASSES];
  uint64_t violations_by_pc[WALK_FUZZ_CLASSES];
  uint64_t violations_by_fp[WALK_FUZZ_CLASSES];
};

/* One violation, for minimising it: the fuzzed registers, the real ones,
 * the offending frame's stack address, the stack base, the header words of
 * that frame and of its caller (caller's fp, return address, descriptor;
 * 0 off the stack), the starts of the fuzzed and the reference walk, the
 * mutation (pc class | fp class << 4 | sp class << 8), the frame's index
 * in the fuzzed walk, the smallest part of the mutation that still leads a
 * walk to the false frame (pc 1 | fp 2 | sp 4; 7 when not minimised), and
 * whether the frame is on the real frame-pointer chain (a frame of some
 * code rather than stray stack memory). */
struct WalkFuzzViolation {
  uint64_t pc;
  uint64_t sp;
  uint64_t fp;
  uint64_t real_pc;
  uint64_t real_sp;
  uint64_t real_fp;
  uint64_t frame;
  uint64_t base;
  uint64_t words[6];
  /* WalkFuzzKind. */
  uint32_t kind;
  uint32_t start;
  uint32_t reference_start;
  uint32_t mutation;
  uint32_t index;
  uint32_t minimal;
  uint32_t in_chain;
  uint32_t pad_;
};

/* The records' sizes on the 64-bit targets the sampler's signal path runs
 * on (x86-64, aarch64), checked by libclang under bindgen and by the C++
 * compiler of glue.cpp (see the top of this file). */
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
static_assert(sizeof(WalkFuzzStats) % 8 == 0 && alignof(WalkFuzzStats) == 8,
              "WalkFuzzStats is all 64-bit counters");
static_assert(sizeof(WalkFuzzViolation) == 144 &&
                  alignof(WalkFuzzViolation) == 8,
              "WalkFuzzViolation's layout");
#endif

#endif /* JSPROF_SAMPLER_GLUE_ABI_H */
