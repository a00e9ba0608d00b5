/* What the walk fuzzer (walk_fuzz.cpp) and its Rust side (lib.rs) exchange,
 * defined once, as the sampler's glue_abi.h does for the capture: build.rs
 * runs bindgen over this header (OUT_DIR/walk_fuzz_abi.rs, with layout
 * checks), walk_fuzz.cpp includes it, and the static_asserts at the end
 * hold libclang and the C++ compiler to the same sizes. Only <stdint.h>
 * and the sampler's glue_abi.h (for JIT_WALK_START_COUNT). */

#ifndef JSPROF_WALK_FUZZ_ABI_H
#define JSPROF_WALK_FUZZ_ABI_H

#include <stdint.h>

#include "glue_abi.h"

/* The fuzzer's walks are counted by
 * how the innermost JIT activation's walk started: the js::ProfilerJitWalkStart
 * values, then WALK_FUZZ_NOT_STARTED for a walk whose innermost activation
 * did not go through the start rules (no JIT activation, or wasm's own
 * unwinder). Mutation classes: see walk_fuzz.cpp (fuzz_mutate). */
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
 * (JS::GetProfiledFrames, as the sampler resolves them) could not resolve. */
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

#if UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(WalkFuzzStats) % 8 == 0 && alignof(WalkFuzzStats) == 8,
              "WalkFuzzStats is all 64-bit counters");
static_assert(sizeof(WalkFuzzViolation) == 144 &&
                  alignof(WalkFuzzViolation) == 8,
              "WalkFuzzViolation's layout");
#endif

#endif /* JSPROF_WALK_FUZZ_ABI_H */
