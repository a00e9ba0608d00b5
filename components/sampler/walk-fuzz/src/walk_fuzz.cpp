/* The start-rule fuzzer of the register-started walk (test-only: built only
 * by this crate, which only tests link; the sampler's README, "Fuzzing the
 * start rules"). It hooks into the sampler's capture through
 * jsprof_glue::CaptureHooks (the sampler's src/glue.h).
 *
 * With jsprof_walk_fuzz_configure (lib.rs `configure`; JSPROF_WALK_FUZZ=N
 * and the other variables below are read by it first) before a capture
 * slot is created, the signal handler, after its normal capture, walks the
 * same interrupted thread again:
 *   1. once from the real registers (the reference walk, what the capture
 *      just did): the stack addresses of its frames are the truth;
 *   2. N times from mutated registers (fuzz_mutate: pc, fp and sp replaced
 *      by JIT code addresses, stack words, C++ addresses, addresses on and
 *      off the stack, aligned or not), checking each fuzzed walk: at most as
 *      many frames as the stack has, every frame inside [sp, the stack base)
 *      and in stack order, and every frame one the reference walk found. A
 *      frame that is not is a false frame: the start rules took something
 *      for a frame that is not one, and everything the capture would read
 *      through it (its callee token and script for a baseline-interpreter
 *      frame, its descriptor and caller for the next frame) is garbage. The
 *      fuzzed walk stops there unless JSPROF_WALK_FUZZ_UNGUARDED=1 (then it
 *      goes on, reading what the capture would read: a crash kills the
 *      run). When the reference walk was itself incomplete (lost, or no
 *      record), a frame it lacks cannot be judged: counted as unverified.
 *   3. the first JIT return addresses of each fuzzed walk are queued and,
 *      on the JS thread, resolved as the capture's are (JS::GetProfiledFrames,
 *      jsprof_resolve_jit) before the sample range start moves on (which
 *      keeps their code alive: the fuzzed walks pass the sample's position
 *      as the capture does). An unresolvable one is a violation.
 *
 * Invariants:
 *   - fuzz_sample runs in the sampling signal's handler (the capture's
 *     after_walk hook) and keeps the handler's rules: no allocation (the
 *     state is allocated with the slot, on the JS thread), no lock, stack
 *     reads only inside [sp, stack base) of the thread's own stack, code
 *     bytes read only through process_vm_readv (a syscall that fails
 *     instead of faulting).
 *   - fuzz_drain runs on the JS thread (the drain hook), never while the
 *     handler writes the queue: both run on the same thread, and the
 *     handler drops addresses while a drain is under way.
 *   - The counters and violation records are process-wide (relaxed
 *     atomics; a record being written when copied may be torn).
 *   - The fuzzed walks count in js::ProfilerJitWalkCounts like any other
 *     (the fuzzer counts its own per start).
 * Without a slot state (not configured, or walks 0) the capture pays one
 * predictable branch per sample. */

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>

#include "jsapi.h"
#include "js/ProfilingFrameIterator.h"

#include "glue.h"
#include "walk_fuzz_abi.h"

#if defined(JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH) && defined(__x86_64__)
/* The fuzzer exists where patch 0003's walk can: x86-64 builds with the
 * patches. */
#define JSPROF_WALK_FUZZ 1
namespace js {
/* Added by patch 0003 (the register-started walk): weak, so that a build
 * with 0001 and 0002 only links too (the fuzzer then never starts:
 * jit_register_walk_available() is false). */
__attribute__((weak)) void ProfilerJitWalkCounts(uint64_t* counts, size_t len);
/* SpiderMonkey-internal (global symbols of js_static, in every build), for
 * the fuzzer only: the stack base SpiderMonkey gives a context created on
 * the calling thread (util/NativeStack.h; JS thread, never in the handler),
 * and the two address tests the walk itself makes from its signal handler
 * (jit/ProcessExecutableMemory.h, wasm/WasmProcess.h). */
void* GetNativeStackBaseImpl();
namespace jit {
bool AddressIsInExecutableMemory(const void* p);
}  // namespace jit
namespace wasm {
bool InCompiledCode(void* pc);
}  // namespace wasm
}  // namespace js
#endif

#ifdef JSPROF_WALK_FUZZ
namespace {

using jsprof_glue::jit_register_walk_available;
using jsprof_glue::register_walk_selected;

std::atomic<uint32_t> gFuzzWalks{0};
std::atomic<uint64_t> gFuzzSeed{0x9e3779b97f4a7c15ull};
std::atomic<bool> gFuzzUnguarded{false};
/* JSPROF_WALK_FUZZ_MODEL=frames: fp only the real one or a saved frame
 * pointer up the real chain, sp only real or nudged by less than 64 words,
 * no garbage pc (what a thread's registers can hold; fuzz_mutate). */
std::atomic<bool> gFuzzFramesOnly{false};

constexpr size_t kFuzzWords = sizeof(WalkFuzzStats) / sizeof(uint64_t);
std::atomic<uint64_t> gFuzzStats[kFuzzWords];
#define FUZZ_AT(field) (offsetof(WalkFuzzStats, field) / sizeof(uint64_t))

void fuzz_add(size_t at, uint64_t n = 1) {
  gFuzzStats[at].fetch_add(n, std::memory_order_relaxed);
}

/* The first 4 violations of each kind, the first 4 false frames from
 * reachable states, then a ring of the latest (fuzz_violation). */
WalkFuzzViolation gFuzzViolations[WALK_FUZZ_RECORDS];
std::atomic<uint64_t> gFuzzViolationCount{0};

struct WalkFuzz {
  static constexpr uint32_t kTruthCap = 16384;
  static constexpr uint32_t kPoolCap = 1024;
  static constexpr uint32_t kQueueCap = 8192;
  uint64_t rng = 0;
  /* The thread's stack base, as SpiderMonkey computes it for a context of
   * this thread (the walk's upper bound), and the lowest address of the
   * thread's stack (pthread_getattr_np). */
  uintptr_t base = 0;
  uintptr_t low = 0;
  /* The reference walk: its frames' stack addresses (in walk order, sorted
   * when `sorted`), tagged with kTruthJit in bit 0 for JIT frames (frames
   * are 8-byte aligned), whether it is complete, how it started, and its
   * first JIT frame. */
  uintptr_t truth[kTruthCap];
  uint32_t truth_len = 0;
  bool sorted = true;
  bool complete = false;
  uint32_t reference_start = 0;
  uintptr_t first_jit = 0;
  /* Whether the reference's innermost frame is wasm's (the real pc in wasm
   * code). */
  bool leaf_wasm = false;
  /* JIT code addresses seen (real pcs in JIT code, JIT return addresses):
   * where fuzzed pcs are drawn from. */
  void* pool[kPoolCap];
  uint32_t pool_len = 0;
  /* Real pcs outside JIT code (C++). */
  void* cpp_pc = nullptr;
  /* Fuzzed walks' return addresses awaiting resolution on the JS thread. */
  void* queue[kQueueCap];
  std::atomic<uint32_t> queue_len{0};
  std::atomic<bool> draining{false};
};

/* The tag of a JIT (not wasm) frame in WalkFuzz::truth: a wasm frame is no
 * JIT frame header, and taking one for it is a false frame too. */
constexpr uintptr_t kTruthJit = 1;

uint64_t fuzz_next(WalkFuzz* fz) {
  /* xorshift64* */
  uint64_t x = fz->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  fz->rng = x;
  return x * 0x2545f4914f6cdd1dull;
}

uint64_t fuzz_below(WalkFuzz* fz, uint64_t n) { return n ? fuzz_next(fz) % n : 0; }

void fuzz_pool_add(WalkFuzz* fz, void* pc) {
  if (!pc) {
    return;
  }
  if (fz->pool_len < WalkFuzz::kPoolCap) {
    fz->pool[fz->pool_len++] = pc;
  } else {
    fz->pool[fuzz_below(fz, WalkFuzz::kPoolCap)] = pc;
  }
}

/* The walk counts' start index that changed (the start the walk just
 * constructed took), or WALK_FUZZ_NOT_STARTED. Another thread walking at
 * the same moment can blur it (the fuzz tests run one JS thread). */
uint32_t fuzz_start_of(const uint64_t* before, const uint64_t* after) {
  for (uint32_t i = 0; i < JIT_WALK_START_COUNT; i++) {
    if (after[i] != before[i]) {
      return i;
    }
  }
  return WALK_FUZZ_NOT_STARTED;
}

void fuzz_counts(uint64_t* out) {
  js::ProfilerJitWalkCounts(out, JIT_WALK_START_COUNT);
}

/* The walk starts (js::ProfilerJitWalkStart) after which the reference walk
 * has every frame of the stack: the started ones, none (no JIT activation),
 * and walks that did not go through the start rules. After cpp-no-record
 * and the lost ones the innermost activation was not walked. */
bool fuzz_reference_complete(uint32_t start) {
  return start <= 6 || start == WALK_FUZZ_NOT_STARTED;
}

/* Starts after which the real pc was in JIT code (the pool's source). */
bool fuzz_pc_in_jit(uint32_t start) {
  return (start >= 1 && start <= 4) || (start >= 8 && start != 9 && start < 13);
}

bool fuzz_in_truth(const WalkFuzz* fz, uintptr_t a) {
  if (!fz->sorted) {
    for (uint32_t i = 0; i < fz->truth_len; i++) {
      if (fz->truth[i] == a) {
        return true;
      }
    }
    return false;
  }
  uint32_t lo = 0, hi = fz->truth_len;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (fz->truth[mid] < a) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < fz->truth_len && fz->truth[lo] == a;
}

/* The reference walk: the capture's walk again, recording its frames. */
void fuzz_reference(JSContext* cx, WalkFuzz* fz,
                    const JS::ProfilingFrameIterator::RegisterState& regs,
                    uint64_t position) {
  uint64_t before[JIT_WALK_START_COUNT], after[JIT_WALK_START_COUNT];
  fz->truth_len = 0;
  fz->sorted = true;
  fz->first_jit = 0;
  fz->leaf_wasm = false;
  bool overflow = false;
  fuzz_counts(before);
  JS::ProfilingFrameIterator it(cx, regs, mozilla::Some(position));
  fuzz_counts(after);
  fz->reference_start = fuzz_start_of(before, after);
  for (; !it.done(); ++it) {
    if (fz->truth_len == WalkFuzz::kTruthCap) {
      overflow = true;
      break;
    }
    uintptr_t a = uintptr_t(it.stackAddress()) | (it.isJSJit() ? kTruthJit : 0);
    if (fz->truth_len == 0) {
      fz->leaf_wasm = it.isWasm();
    }
    if (fz->truth_len > 0 && a < fz->truth[fz->truth_len - 1]) {
      fz->sorted = false;
    }
    fz->truth[fz->truth_len++] = a;
    if (it.isJSJit()) {
      if (!fz->first_jit) {
        fz->first_jit = a & ~kTruthJit;
      }
      mozilla::Maybe<JS::ProfilingFrameIterator::Frame> f =
          it.getPhysicalFrameWithoutLabel();
      if (f.isSome() && (f->kind == JS::ProfilingFrameIterator::Frame_Baseline ||
                         f->kind == JS::ProfilingFrameIterator::Frame_Ion)) {
        fuzz_pool_add(fz, f->returnAddress());
      }
    }
  }
  fz->complete = !overflow && fuzz_reference_complete(fz->reference_start);
  if (fuzz_pc_in_jit(fz->reference_start)) {
    fuzz_pool_add(fz, regs.pc);
  } else if (!js::jit::AddressIsInExecutableMemory(regs.pc)) {
    fz->cpp_pc = regs.pc;
  }
  fuzz_add(FUZZ_AT(reference_by_start) + fz->reference_start);
}

/* A word of the interrupted stack, or 0 outside [sp, base). */
uintptr_t fuzz_stack_word(uintptr_t sp, uintptr_t base, uintptr_t a) {
  a &= ~uintptr_t(7);
  if (a < sp || a >= base) {
    return 0;
  }
  return *reinterpret_cast<const uintptr_t*>(a);
}

/* A random 8-byte-aligned address in [sp, base), nearer sp more often (the
 * distance is log-uniform: frames near the leaf matter most). */
uintptr_t fuzz_stack_addr(WalkFuzz* fz, uintptr_t sp, uintptr_t base) {
  uintptr_t span = base - sp;
  uintptr_t limit = uintptr_t(8) << fuzz_below(fz, 24);
  if (limit > span) {
    limit = span;
  }
  return (sp + fuzz_below(fz, limit)) & ~uintptr_t(7);
}

/* The address of a stack word (in [sp, base), from a random place, up to
 * 64 words on) that points into JIT code, or 0. */
uintptr_t fuzz_jit_word_addr(WalkFuzz* fz, uintptr_t sp, uintptr_t base) {
  uintptr_t a = fuzz_stack_addr(fz, sp, base);
  for (int i = 0; i < 64 && a + 8 <= base; i++, a += 8) {
    if (js::jit::AddressIsInExecutableMemory(
            reinterpret_cast<void*>(fuzz_stack_word(sp, base, a)))) {
      return a;
    }
  }
  return 0;
}

uintptr_t fuzz_garbage(WalkFuzz* fz) {
  switch (fuzz_below(fz, 4)) {
    case 0:
      return 0;
    case 1:
      return fuzz_below(fz, 4096);
    case 2:
      return uintptr_t(-1) - fuzz_below(fz, 4096);
    default:
      return fuzz_next(fz);
  }
}

/* Mutates the interrupted registers. The classes (WalkFuzzStats's by-class
 * counters):
 *   pc: 0 the real pc; 1 a JIT code address seen (real pcs in JIT code and
 *       JIT return addresses of earlier samples); 2 the same plus a random
 *       byte offset in [-512, 512) (inside the same or a neighbouring
 *       table entry, stub or trampoline, and off instruction boundaries);
 *       3 a stack word that points into JIT code (return addresses, and
 *       stale ones); 4 any stack word; 5 a C++ address (a real pc in C++
 *       seen, or glue and libc code, plus a small offset); 6 garbage (0,
 *       small, near the top of the address space, random).
 *   fp: 0 the real fp; 1 a random 8-byte-aligned address in [sp, base);
 *       2 the same misaligned by 1-7; 3 a stack word's value; 4 the
 *       address just below a stack word that points into JIT code (where a
 *       frame header would be if that word were its return address); 5 the
 *       real fp plus a multiple of 8 in [-64, 64); 6 garbage; 7 a saved
 *       frame pointer up the real fp chain (1-8 hops).
 *   sp: 0 the real sp; 1 plus a multiple of 8 in [-16, 64) words; 2 plus
 *       a multiple of 8 in [0, 1024) words; 3 the fuzzed fp when on the
 *       stack. */
void fuzz_mutate(WalkFuzz* fz, const JS::ProfilingFrameIterator::RegisterState& regs,
                 JS::ProfilingFrameIterator::RegisterState* out, uint32_t* mutation) {
  uintptr_t sp = uintptr_t(regs.sp);
  uintptr_t base = fz->base;
  uint32_t pcc = uint32_t(fuzz_below(fz, 7));
  uint32_t fpc = uint32_t(fuzz_below(fz, 8));
  uint32_t spc = fuzz_below(fz, 2) ? 0 : 1 + uint32_t(fuzz_below(fz, 3));
  if (gFuzzFramesOnly.load(std::memory_order_relaxed)) {
    pcc = uint32_t(fuzz_below(fz, 6));
    fpc = fuzz_below(fz, 2) ? 0 : 7;
    spc = uint32_t(fuzz_below(fz, 2));
  }
  uintptr_t pc = uintptr_t(regs.pc);
  switch (pcc) {
    case 1:
    case 2:
      if (fz->pool_len) {
        pc = uintptr_t(fz->pool[fuzz_below(fz, fz->pool_len)]);
        if (pcc == 2) {
          pc += uintptr_t(fuzz_below(fz, 1024)) - 512;
        }
      }
      break;
    case 3: {
      uintptr_t a = fuzz_jit_word_addr(fz, sp, base);
      pc = a ? fuzz_stack_word(sp, base, a) : pc;
      break;
    }
    case 4:
      pc = fuzz_stack_word(sp, base, fuzz_stack_addr(fz, sp, base));
      break;
    case 5: {
      const void* code[] = {fz->cpp_pc, reinterpret_cast<const void*>(&memcpy),
                            reinterpret_cast<const void*>(&jsprof_glue::walk_jit),
                            reinterpret_cast<const void*>(&jsprof_glue::copy_str)};
      const void* c = code[fuzz_below(fz, 4)];
      pc = c ? uintptr_t(c) + fuzz_below(fz, 256) : pc;
      break;
    }
    case 6:
      pc = fuzz_garbage(fz);
      break;
    default:
      break;
  }
  uintptr_t fp = uintptr_t(regs.fp);
  switch (fpc) {
    case 1:
      fp = fuzz_stack_addr(fz, sp, base);
      break;
    case 2:
      fp = fuzz_stack_addr(fz, sp, base) + 1 + fuzz_below(fz, 7);
      break;
    case 3:
      fp = fuzz_stack_word(sp, base, fuzz_stack_addr(fz, sp, base));
      break;
    case 4: {
      uintptr_t a = fuzz_jit_word_addr(fz, sp, base);
      fp = a ? a - 8 : fp;
      break;
    }
    case 5:
      fp += (uintptr_t(fuzz_below(fz, 16)) - 8) * 8;
      break;
    case 6:
      fp = fuzz_garbage(fz);
      break;
    case 7: {
      uint64_t hops = 1 + fuzz_below(fz, 8);
      for (uint64_t i = 0; i < hops; i++) {
        uintptr_t up = fuzz_stack_word(sp, base, fp);
        if (up <= fp || up >= base) {
          break;
        }
        fp = up;
      }
      break;
    }
    default:
      break;
  }
  uintptr_t nsp = sp;
  switch (spc) {
    case 1:
      nsp = sp + (uintptr_t(fuzz_below(fz, 80)) - 16) * 8;
      break;
    case 2:
      nsp = sp + uintptr_t(fuzz_below(fz, 1024)) * 8;
      break;
    case 3:
      nsp = (fp >= sp && fp < base) ? (fp & ~uintptr_t(7)) : sp;
      break;
    default:
      break;
  }
  if (nsp >= base) {
    nsp = sp;
  }
  out->pc = reinterpret_cast<void*>(pc);
  out->fp = reinterpret_cast<void*>(fp);
  out->sp = reinterpret_cast<void*>(nsp);
  out->lr = nullptr;
  *mutation = pcc | (fpc << 4) | (spc << 8);
}

/* Whether `frame` is on the real frame-pointer chain (saved frame pointers
 * followed up from the real fp while they go up the stack): then it is a
 * frame of some code (a stub's, a trampoline's, an exit frame, C++ built
 * with frame pointers), not stray stack memory. A hint for the report. */
bool fuzz_in_chain(uintptr_t sp, uintptr_t base, uintptr_t fp, uintptr_t frame) {
  for (int hop = 0; hop < 100000 && fp >= sp && fp < base; hop++) {
    if (fp == frame) {
      return true;
    }
    uintptr_t up = fuzz_stack_word(sp, base, fp);
    if (up <= fp) {
      return false;
    }
    fp = up;
  }
  return false;
}

/* Whether the frames of the real frame-pointer chain from `fp` up to
 * (not including) `frame` all lie below `sp`: popped, so that a thread can
 * have `frame` in fp with that sp. A live frame between sp and fp is one
 * no stub running with that fp can have under it: a stub's fp is its own
 * frame or its caller's. */
bool fuzz_chain_popped(uintptr_t real_sp, uintptr_t base, uintptr_t fp,
                       uintptr_t frame, uintptr_t sp) {
  for (int hop = 0; hop < 64 && fp != frame; hop++) {
    if (fp >= sp) {
      return false;
    }
    uintptr_t up = fuzz_stack_word(real_sp, base, fp);
    if (up <= fp) {
      return false;
    }
    fp = up;
  }
  return fp == frame;
}

/* What a checked walk found first (kind FUZZ_KINDS: nothing). */
struct FuzzFinding {
  WalkFuzzKind kind;
  uintptr_t frame;
  uint32_t index;
};

void fuzz_violation(const FuzzFinding& found,
                    const JS::ProfilingFrameIterator::RegisterState& st,
                    const JS::ProfilingFrameIterator::RegisterState& regs,
                    uintptr_t base, uint32_t start, uint32_t reference_start,
                    uint32_t mutation, uint32_t minimal, bool reachable) {
  /* The first 4 of each kind, the first 4 false frames from reachable
   * states, then a ring of the latest. */
  uint64_t nth = gFuzzStats[FUZZ_AT(violations) + found.kind].fetch_add(
      1, std::memory_order_relaxed);
  uint64_t nth_reachable =
      reachable ? gFuzzStats[FUZZ_AT(false_reachable)].fetch_add(
                      1, std::memory_order_relaxed)
                : UINT64_MAX;
  uint64_t n = gFuzzViolationCount.fetch_add(1, std::memory_order_relaxed);
  const uint64_t per_kind = 4, kept = per_kind * FUZZ_KINDS + 4;
  const uint64_t ring = WALK_FUZZ_RECORDS - kept;
  WalkFuzzViolation& v =
      gFuzzViolations[nth_reachable < 4 ? kept - 4 + nth_reachable
                      : nth < per_kind  ? found.kind * per_kind + nth
                                        : kept + n % ring];
  uintptr_t sp = uintptr_t(regs.sp);
  v.pc = uint64_t(uintptr_t(st.pc));
  v.sp = uint64_t(uintptr_t(st.sp));
  v.fp = uint64_t(uintptr_t(st.fp));
  v.real_pc = uint64_t(uintptr_t(regs.pc));
  v.real_sp = uint64_t(sp);
  v.real_fp = uint64_t(uintptr_t(regs.fp));
  v.frame = found.frame;
  v.base = base;
  /* The frame's header words (caller's fp, return address, descriptor)
   * and its caller's, where they are on the stack. */
  uintptr_t caller = sp ? fuzz_stack_word(sp, base, found.frame) : 0;
  for (int w = 0; w < 3; w++) {
    v.words[w] = sp ? fuzz_stack_word(sp, base, found.frame + 8 * w) : 0;
    v.words[3 + w] = sp && caller ? fuzz_stack_word(sp, base, caller + 8 * w) : 0;
  }
  v.kind = found.kind;
  v.start = start;
  v.reference_start = reference_start;
  v.mutation = mutation;
  v.index = found.index;
  v.minimal = minimal;
  v.in_chain = sp && fuzz_in_chain(sp, base, uintptr_t(regs.fp), found.frame);
  v.pad_ = 0;
}

/* Queues a fuzzed walk's JIT return address for resolution on the JS
 * thread (fuzz_drain). The handler and the drain run on the same thread:
 * the handler never writes while the drain is under way. */
void fuzz_enqueue(WalkFuzz* fz, void* addr) {
  uint32_t n = fz->queue_len.load(std::memory_order_relaxed);
  if (fz->draining.load(std::memory_order_relaxed) || n == WalkFuzz::kQueueCap) {
    fuzz_add(FUZZ_AT(dropped));
    return;
  }
  fz->queue[n] = addr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  fz->queue_len.store(n + 1, std::memory_order_relaxed);
  fuzz_add(FUZZ_AT(queued));
}

/* Walks from `st` and checks the walk against the reference; returns the
 * first violation. `record`: count the frames, queue the return addresses
 * and count an unverified walk (not when minimising). */
FuzzFinding fuzz_check(JSContext* cx, WalkFuzz* fz,
                       const JS::ProfilingFrameIterator::RegisterState& regs,
                       const JS::ProfilingFrameIterator::RegisterState& st,
                       uint64_t position, bool record, uint32_t* start) {
  FuzzFinding found{FUZZ_KINDS, 0, 0};
  uint64_t before[JIT_WALK_START_COUNT], after[JIT_WALK_START_COUNT];
  fuzz_counts(before);
  JS::ProfilingFrameIterator it(cx, st, mozilla::Some(position));
  fuzz_counts(after);
  *start = fuzz_start_of(before, after);
  uintptr_t base = fz->base;
  uintptr_t lo = uintptr_t(st.sp) < uintptr_t(regs.sp) ? uintptr_t(st.sp)
                                                          : uintptr_t(regs.sp);
  uint32_t bound = fz->truth_len + 64;
  bool unguarded = gFuzzUnguarded.load(std::memory_order_relaxed);
  uintptr_t prev = 0;
  uint32_t index = 0, queued = 0;
  auto note = [&](WalkFuzzKind kind, uintptr_t a) {
    if (found.kind == FUZZ_KINDS) {
      found = FuzzFinding{kind, a, index};
    }
  };
  for (; !it.done(); ++it, index++) {
    uintptr_t a = uintptr_t(it.stackAddress());
    if (index >= bound) {
      note(FUZZ_BOUND, a);
      break;
    }
    if (a < lo || a >= base) {
      note(FUZZ_RANGE, a);
      break;
    }
    if (a < prev) {
      note(FUZZ_ORDER, a);
      break;
    }
    prev = a;
    if (!fuzz_in_truth(fz, a | (it.isJSJit() ? kTruthJit : 0))) {
      /* A frame below the reference's first JIT frame after a window start
       * may be the leaf being built (real, not walked by the reference). */
      bool leaf = fz->reference_start == 3 && a < fz->first_jit;
      if (fz->complete && !leaf) {
        note(FUZZ_FALSE_FRAME, a);
      } else if (record) {
        fuzz_add(FUZZ_AT(unverified));
        fuzz_add(FUZZ_AT(unverified_by_start) + *start);
      }
      if (!unguarded) {
        break;
      }
    }
    if (record) {
      fuzz_add(FUZZ_AT(frames));
    }
    mozilla::Maybe<JS::ProfilingFrameIterator::Frame> f =
        it.getPhysicalFrameWithoutLabel();
    if (f.isSome() && record && queued < 4 &&
        (f->kind == JS::ProfilingFrameIterator::Frame_Baseline ||
         f->kind == JS::ProfilingFrameIterator::Frame_Ion)) {
      fuzz_enqueue(fz, f->returnAddress());
      queued++;
    } else if (f.isSome() &&
               f->kind == JS::ProfilingFrameIterator::Frame_BaselineInterpreter &&
               f->label) {
      /* What copy_str reads of the label. */
      volatile size_t label_len = strlen(f->label);
      (void)label_len;
    }
  }
  return found;
}

/* Whether the 16 bytes around `pc` are readable (process_vm_readv on the
 * process itself: a syscall, async-signal-safe). A thread can only be
 * interrupted in mapped code, but the fuzzer's pcs may come from code freed
 * since (JIT code discarded by a GC or a session's end, whose table entry
 * may stay while its sample position is in the buffer) or from any stack
 * word; the start rules read the instruction bytes around a pc in function
 * code. */
bool fuzz_code_readable(void* pc) {
  uint8_t bytes[16];
  struct iovec local = {bytes, sizeof(bytes)};
  struct iovec remote = {static_cast<uint8_t*>(pc) - 8, sizeof(bytes)};
  return syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0) ==
         ssize_t(sizeof(bytes));
}

/* One fuzzed walk from `st`, checked against the reference. A false frame
 * (guarded) is minimised: the smallest part of the mutation (pc 1, fp 2,
 * sp 4) that still leads a walk to it, the rest being the real registers. */
void fuzz_walk(JSContext* cx, WalkFuzz* fz,
               const JS::ProfilingFrameIterator::RegisterState& regs,
               const JS::ProfilingFrameIterator::RegisterState& st,
               uint32_t mutation, uint64_t position) {
  uint32_t pcc = mutation & 15, fpc = (mutation >> 4) & 15;
  uint32_t start = 0;
  FuzzFinding found = fuzz_check(cx, fz, regs, st, position, true, &start);
  fuzz_add(FUZZ_AT(walks));
  fuzz_add(FUZZ_AT(walks_by_start) + start);
  fuzz_add(FUZZ_AT(walks_by_pc) + pcc);
  fuzz_add(FUZZ_AT(walks_by_fp) + fpc);
  if (found.kind == FUZZ_KINDS) {
    return;
  }
  /* sp above the real one by under 64 words (the stub has popped), never
   * below it: the words under the real sp are dead, stale return addresses
   * among them, which no stub at that pc has on its stack. */
  uintptr_t lift = uintptr_t(st.sp) - uintptr_t(regs.sp);
  bool sp_ok = uintptr_t(st.sp) >= uintptr_t(regs.sp) && lift < 64 * 8;
  bool record = start == 5 || start == 6;
  /* A stub or trampoline runs on a wasm function's registers only when
   * wasm code called it (the pre-barrier), its return address pushed below
   * the real sp, which the fuzzer never lowers (the jumps from wasm go to
   * the exception tail, where no walk starts): with the real pc in wasm
   * code, a stub start is from a state no thread can be in. */
  bool stub_ok = start == 4 && !fz->leaf_wasm;
  /* fp up the real chain (class 7): only when the frames under it are
   * popped (below the fuzzed sp), as at a stub's return after `pop rbp`. */
  bool fp_ok = fpc == 0 ||
               (fpc == 7 && fuzz_chain_popped(uintptr_t(regs.sp), fz->base,
                                              uintptr_t(regs.fp),
                                              uintptr_t(st.fp),
                                              uintptr_t(st.sp)));
  bool reachable =
      found.kind == FUZZ_FALSE_FRAME && sp_ok && (record || (stub_ok && fp_ok));
  uint32_t minimal = 7;
  if (found.kind == FUZZ_FALSE_FRAME &&
      !gFuzzUnguarded.load(std::memory_order_relaxed)) {
    for (uint32_t m : {1u, 2u, 4u, 3u, 5u, 6u}) {
      JS::ProfilingFrameIterator::RegisterState t = regs;
      t.pc = (m & 1) ? st.pc : regs.pc;
      t.fp = (m & 2) ? st.fp : regs.fp;
      t.sp = (m & 4) ? st.sp : regs.sp;
      uint32_t ignored = 0;
      if (fuzz_check(cx, fz, regs, t, position, false, &ignored).kind ==
          FUZZ_FALSE_FRAME) {
        minimal = m;
        break;
      }
    }
  }
  fuzz_violation(found, st, regs, fz->base, start, fz->reference_start,
                 mutation, minimal, reachable);
  if (found.kind == FUZZ_FALSE_FRAME) {
    fuzz_add(FUZZ_AT(false_by_start) + start);
  }
  fuzz_add(FUZZ_AT(violations_by_pc) + pcc);
  fuzz_add(FUZZ_AT(violations_by_fp) + fpc);
}

/* After the capture, in the handler (the after_walk hook): the reference
 * walk, then N fuzzed walks. */
void fuzz_sample(void* state, JSContext* cx,
                 const JS::ProfilingFrameIterator::RegisterState& regs,
                 uint64_t position) {
  uint32_t n = gFuzzWalks.load(std::memory_order_relaxed);
  WalkFuzz* fz = static_cast<WalkFuzz*>(state);
  uintptr_t sp = uintptr_t(regs.sp);
  if (!n || !register_walk_selected()) {
    return;
  }
  /* Only on the thread's own stack: a signal handler running on an
   * alternate stack (SpiderMonkey's wasm trap handler, SA_ONSTACK) can be
   * interrupted by the sampling signal, and between that stack and the
   * thread's lies unmapped memory (the sampler's README, "Not done yet"). */
  if (sp < fz->low || sp >= fz->base) {
    fuzz_add(FUZZ_AT(skipped), n);
    return;
  }
  fuzz_add(FUZZ_AT(samples));
  fuzz_reference(cx, fz, regs, position);
  for (uint32_t i = 0; i < n; i++) {
    JS::ProfilingFrameIterator::RegisterState st;
    uint32_t mutation = 0;
    fuzz_mutate(fz, regs, &st, &mutation);
    if (js::wasm::InCompiledCode(st.pc) ||
        (js::jit::AddressIsInExecutableMemory(st.pc) &&
         !fuzz_code_readable(st.pc))) {
      fuzz_add(FUZZ_AT(skipped));
      continue;
    }
    fuzz_walk(cx, fz, regs, st, mutation, position);
  }
}

/* Resolves the queued return addresses as the capture's are resolved
 * (jsprof_resolve_jit); JS thread, never in the handler (the drain hook,
 * for the slot of `cx`). */
void fuzz_drain(void* state, JSContext* cx) {
  WalkFuzz* fz = static_cast<WalkFuzz*>(state);
  fz->draining.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  uint32_t n = fz->queue_len.load(std::memory_order_relaxed);
  JS::ProfilingFrameIterator::RegisterState none;
  for (uint32_t i = 0; i < n; i++) {
    void* addr = fz->queue[i];
    uint32_t frames = 0;
    bool labelled = true;
    for (JS::ProfiledFrameHandle handle : JS::GetProfiledFrames(cx, addr)) {
      frames++;
      labelled = labelled && handle.label() != nullptr;
    }
    if (frames == 0 || !labelled) {
      JS::ProfilingFrameIterator::RegisterState at;
      at.pc = addr;
      fuzz_violation(FuzzFinding{FUZZ_UNRESOLVED, 0, 0}, at, none, fz->base, 0,
                     0, 0, 0, false);
    } else {
      fuzz_add(FUZZ_AT(resolved));
    }
  }
  fz->queue_len.store(0, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  fz->draining.store(false, std::memory_order_relaxed);
}

/* With JSPROF_WALK_FUZZ=N (N > 0) in the environment: the counters on
 * stderr at exit. Per-start arrays in js::ProfilerJitWalkStart's order,
 * then "not started". */
void fuzz_print_at_exit() {
  uint64_t w[kFuzzWords];
  for (size_t i = 0; i < kFuzzWords; i++) {
    w[i] = gFuzzStats[i].load(std::memory_order_relaxed);
  }
  WalkFuzzStats st;
  memcpy(&st, w, sizeof(st));
  fprintf(stderr,
          "jsprof walk fuzz: samples %llu, walks %llu (skipped %llu), frames "
          "%llu, unverified %llu, addresses queued %llu resolved %llu "
          "dropped %llu; violations bound %llu range %llu order %llu "
          "false-frame %llu unresolved %llu\n",
          (unsigned long long)st.samples, (unsigned long long)st.walks,
          (unsigned long long)st.skipped, (unsigned long long)st.frames,
          (unsigned long long)st.unverified, (unsigned long long)st.queued,
          (unsigned long long)st.resolved, (unsigned long long)st.dropped,
          (unsigned long long)st.violations[FUZZ_BOUND],
          (unsigned long long)st.violations[FUZZ_RANGE],
          (unsigned long long)st.violations[FUZZ_ORDER],
          (unsigned long long)st.violations[FUZZ_FALSE_FRAME],
          (unsigned long long)st.violations[FUZZ_UNRESOLVED]);
  fprintf(stderr, "jsprof walk fuzz: by start (reference/fuzzed/false/unverified):");
  for (uint32_t i = 0; i < WALK_FUZZ_STARTS; i++) {
    fprintf(stderr, " %u:%llu/%llu/%llu/%llu", i,
            (unsigned long long)st.reference_by_start[i],
            (unsigned long long)st.walks_by_start[i],
            (unsigned long long)st.false_by_start[i],
            (unsigned long long)st.unverified_by_start[i]);
  }
  fprintf(stderr, "\n");
  for (uint64_t i = 0; i < WALK_FUZZ_RECORDS; i++) {
    const WalkFuzzViolation& v = gFuzzViolations[i];
    if (v.kind == 0 && v.pc == 0 && v.frame == 0) {
      continue;
    }
    fprintf(stderr,
            "jsprof walk fuzz: violation %u pc %#llx sp %#llx fp %#llx (real "
            "%#llx %#llx %#llx) frame %#llx #%u start %u reference %u "
            "mutation %#x minimal %u chain %u\n",
            v.kind, (unsigned long long)v.pc, (unsigned long long)v.sp,
            (unsigned long long)v.fp, (unsigned long long)v.real_pc,
            (unsigned long long)v.real_sp, (unsigned long long)v.real_fp,
            (unsigned long long)v.frame, v.index, v.start, v.reference_start,
            v.mutation, v.minimal, v.in_chain);
  }
}

/* JSPROF_WALK_FUZZ=N, JSPROF_WALK_FUZZ_SEED=S, JSPROF_WALK_FUZZ_UNGUARDED=1,
 * JSPROF_WALK_FUZZ_MODEL=frames: read once, by the first configuration or
 * slot creation (JS thread). */
void fuzz_read_env() {
  static const bool once = [] {
    if (const char* n = getenv("JSPROF_WALK_FUZZ")) {
      gFuzzWalks.store(uint32_t(strtoul(n, nullptr, 10)));
      if (gFuzzWalks.load() > 0) {
        atexit(fuzz_print_at_exit);
      }
    }
    if (const char* s = getenv("JSPROF_WALK_FUZZ_SEED")) {
      gFuzzSeed.store(strtoull(s, nullptr, 0));
    }
    if (const char* u = getenv("JSPROF_WALK_FUZZ_UNGUARDED")) {
      gFuzzUnguarded.store(u[0] == '1');
    }
    if (const char* m = getenv("JSPROF_WALK_FUZZ_MODEL")) {
      gFuzzFramesOnly.store(strcmp(m, "frames") == 0);
    }
    return true;
  }();
  (void)once;
}

/* A capture slot's fuzzer state (the slot_new hook; JS thread), or null
 * when the fuzzer is off. */
void* fuzz_new(pid_t tid) {
  fuzz_read_env();
  if (!gFuzzWalks.load() || !jit_register_walk_available()) {
    return nullptr;
  }
  WalkFuzz* fz = new WalkFuzz();
  fz->base = uintptr_t(js::GetNativeStackBaseImpl());
  pthread_attr_t attr;
  void* low = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
  }
  /* Unknown bounds: fuzz nothing (every sample is skipped). */
  fz->low = low ? uintptr_t(low) : fz->base;
  fz->rng = (gFuzzSeed.load() ^ (uint64_t(tid) * 0x9e3779b97f4a7c15ull)) | 1;
  return fz;
}

/* The slot_delete hook (JS thread, no handler runs any more). */
void fuzz_delete(void* state) { delete static_cast<WalkFuzz*>(state); }

const jsprof_glue::CaptureHooks kHooks = {fuzz_new, fuzz_delete, fuzz_sample,
                                          fuzz_drain};

}  // namespace
#endif

extern "C" {

/* N fuzzed walks per sample of capture slots created from now on (0: off),
 * the seed of their generators, and whether a fuzzed walk goes on past a
 * false frame; installs the fuzzer's capture hooks. JS thread, before the
 * agent's slot is created. Returns false where there is no fuzzer (no patch
 * 0003, not x86-64). */
bool jsprof_walk_fuzz_configure(uint32_t walks, uint64_t seed, bool unguarded) {
#ifdef JSPROF_WALK_FUZZ
  fuzz_read_env();
  gFuzzWalks.store(walks);
  gFuzzSeed.store(seed);
  gFuzzUnguarded.store(unguarded);
  jsprof_glue::set_capture_hooks(&kHooks);
  return jit_register_walk_available();
#else
  (void)walks;
  (void)seed;
  (void)unguarded;
  return false;
#endif
}

/* Copies the fuzzer's counters; false where there is no fuzzer. */
bool jsprof_walk_fuzz_stats(WalkFuzzStats* out) {
#ifdef JSPROF_WALK_FUZZ
  uint64_t words[kFuzzWords];
  for (size_t i = 0; i < kFuzzWords; i++) {
    words[i] = gFuzzStats[i].load(std::memory_order_relaxed);
  }
  memcpy(out, words, sizeof(words));
  return true;
#else
  memset(out, 0, sizeof(*out));
  return false;
#endif
}

/* Copies up to `cap` violation records (the first 4 of each kind, the
 * first 4 reachable false frames, then the latest), leaving out empty
 * slots; returns how many. A record being
 * written by a handler at that moment may be torn (diagnostics only). */
size_t jsprof_walk_fuzz_violations(WalkFuzzViolation* out, size_t cap) {
#ifdef JSPROF_WALK_FUZZ
  size_t n = 0;
  for (size_t i = 0; i < WALK_FUZZ_RECORDS && n < cap; i++) {
    if (gFuzzViolations[i].kind != 0 || gFuzzViolations[i].pc != 0 ||
        gFuzzViolations[i].frame != 0) {
      out[n++] = gFuzzViolations[i];
    }
  }
  return n;
#else
  (void)out;
  (void)cap;
  return 0;
#endif
}

}  // extern "C"
