/* The sampler's only C++: access to SpiderMonkey's public profiling headers
 * that mozjs's bindings do not expose. See src/glue.rs for the invariants.
 *
 * The capture (on_sample_signal and the helpers it calls) runs inside the
 * sampling signal's handler, on the JS thread, at whatever instruction the
 * signal interrupted. It must not allocate, lock, or call anything that
 * could (the interrupted code may hold the allocator's or any other lock),
 * nor block. It only reads the ProfilingStack, runs
 * JS::ProfilingFrameIterator from the interrupted registers (which Gecko
 * runs on a suspended thread, the same situation) and copies into
 * preallocated buffers. */

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

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

#include "glue_abi.h"

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

#if defined(JSPROF_HAS_JIT_FRAME_BOOKKEEPING_SWITCH) && defined(__x86_64__)
/* The start-rule fuzzer (test-only, see "Fuzzing the start rules" below)
 * exists where patch 0003's walk can: x86-64 builds with the patches. */
#define JSPROF_WALK_FUZZ 1
namespace js {
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

namespace {

/* The records (PsFrameRec, JitFrameRec, CaptureBuf, ResolvedJitRec) are
 * defined in glue_abi.h, shared with glue.rs. */

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

/* Whether sessions use the register-started walk: the engine has it, and
 * the bookkeeping was turned off explicitly or not chosen at all
 * (kRegisterWalkByDefault). */
bool register_walk_selected() {
  return jit_register_walk_available() &&
         (gBookkeepingChosen.load() ? !gBookkeepingChosenOn.load()
                                    : kRegisterWalkByDefault);
}

/* Copies a NUL-terminated string into the arena; async-signal-safe. */
void copy_str(CaptureBuf* buf, const char* s, uint32_t* off, uint32_t* len) {
  *off = 0;
  *len = NO_STRING;
  if (!s) {
    return;
  }
  size_t n = strlen(s);
  if (n > buf->arena_cap - buf->arena_len) {
    /* Count the missing bytes so the arena can grow to fit. */
    buf->arena_truncated += uint32_t(n > UINT32_MAX / 4 ? UINT32_MAX / 4 : n);
    return;
  }
  memcpy(buf->arena + buf->arena_len, s, n);
  *off = buf->arena_len;
  *len = uint32_t(n);
  buf->arena_len += uint32_t(n);
}

/* Copies the leaf end of the ProfilingStack (root-end frames are dropped when
 * the buffer is too small). No allocation, no locks. */
void copy_profiling_stack(ProfilingStack* ps, CaptureBuf* buf) {
  buf->ps_len = 0;
  js::ProfilingStackFrame* frames = ps->frames;
  uint32_t depth = ps->stackSize();
  if (depth > ps->stackCapacity()) {
    depth = ps->stackCapacity();
  }
  if (!frames) {
    depth = 0;
  }
  buf->ps_total = depth;
  uint32_t first = depth > buf->ps_cap ? depth - buf->ps_cap : 0;
  for (uint32_t i = first; i < depth; i++) {
    js::ProfilingStackFrame& f = frames[i];
    PsFrameRec& r = buf->ps[buf->ps_len++];
    r.realm_id = 0;
    r.stack_addr = 0;
    r.source_id = 0;
    r.str_off = 0;
    r.str_len = NO_STRING;
    r.str2_off = 0;
    r.str2_len = NO_STRING;
    if (f.isJsFrame()) {
      r.kind = f.isOSRFrame() ? PS_JS_OSR : PS_JS;
      r.realm_id = f.realmID();
      /* sourceId() is an out-of-line accessor that only reads the field. */
      r.source_id = f.sourceId();
      copy_str(buf, f.dynamicString(), &r.str_off, &r.str_len);
    } else {
      r.kind = f.isSpMarkerFrame() ? PS_SP_MARKER : PS_LABEL;
      r.stack_addr = uint64_t(uintptr_t(f.stackAddress()));
      r.str2_off = 0;
      r.str2_len = NO_STRING;
      if (f.isLabelFrame() &&
          f.categoryPair() == JS::ProfilingCategoryPair::JS_Builtin &&
          (f.flags() & uint32_t(js::ProfilingStackFrame::Flags::RELEVANT_FOR_JS))) {
        /* Built-in labels and method names are static strings; copied
         * anyway so that resolution never depends on their lifetime. */
        r.kind = PS_BUILTIN;
        copy_str(buf, f.label(), &r.str_off, &r.str_len);
        copy_str(buf, f.dynamicString(), &r.str2_off, &r.str2_len);
      }
    }
  }
}

/* Walks the JIT/wasm frames, innermost first, keeping only what must be read
 * while the thread is stopped; JIT return addresses are resolved later on the
 * JS thread. Stops when the buffer is full, which drops root-end frames.
 *
 * Wasm frames have no return address to resolve later: their only identity
 * is the label (`funcName (filename:offset)`), read now with
 * ProfilingFrameIterator::extractStack. For a wasm function that read takes
 * the module's profiling-label lock (wasm::Code::profilingLabel), which the
 * stopped thread itself may hold (it takes it when an instance is created
 * while profiling is on). So, from another thread, labels are read only when
 * the walk proves that the stopped thread was executing compiled code (the
 * lock is only held by C++ that never calls compiled code):
 *   - the first frame is wasm and starts at the stopped sp: the wasm
 *     iterator was built from a pc inside wasm code (a thread that exited to
 *     C++ from wasm starts at its exit frame instead, above sp);
 *   - or the first frame is Baseline/Ion JIT code resuming at the stopped pc.
 * Otherwise (C++, the C++ interpreter, the baseline interpreter, a trampoline)
 * the wasm frames are recorded without label and never shown. On the JS
 * thread itself (`on_thread`) the lock cannot be held by the walker's own
 * thread, so labels are always read. */
void walk_jit(JSContext* cx, const JS::ProfilingFrameIterator::RegisterState& regs,
              uint64_t position, CaptureBuf* buf, bool on_thread) {
  buf->jit_len = 0;
  buf->jit_truncated = 0;
  buf->wasm_withheld = 0;
  JS::ProfilingFrameIterator it(cx, regs, mozilla::Some(position));
  bool first = true;
  bool wasm_labels = on_thread;
  for (; !it.done(); ++it) {
    mozilla::Maybe<JS::ProfilingFrameIterator::Frame> frame =
        it.getPhysicalFrameWithoutLabel();
    if (first) {
      first = false;
      if (!on_thread && frame.isSome()) {
        switch (frame->kind) {
          case JS::ProfilingFrameIterator::Frame_WasmBaseline:
          case JS::ProfilingFrameIterator::Frame_WasmIon:
          case JS::ProfilingFrameIterator::Frame_WasmOther:
            wasm_labels = frame->stackAddress == regs.sp;
            break;
          case JS::ProfilingFrameIterator::Frame_Baseline:
          case JS::ProfilingFrameIterator::Frame_Ion:
            wasm_labels = frame->returnAddress() == regs.pc;
            break;
          default:
            break;
        }
      }
    }
    if (frame.isNothing()) {
      continue;
    }
    if (buf->jit_len == buf->jit_cap) {
      /* Keep counting (no copying) so the buffer can grow to fit. */
      buf->jit_truncated++;
      continue;
    }
    JitFrameRec& r = buf->jit[buf->jit_len++];
    r.stack_addr = uint64_t(uintptr_t(frame->stackAddress));
    r.realm_id = frame->realmID;
    r.source_id = frame->sourceId;
    r.return_addr = 0;
    r.str_off = 0;
    r.str_len = NO_STRING;
    switch (frame->kind) {
      case JS::ProfilingFrameIterator::Frame_BaselineInterpreter:
        r.kind = JIT_BLINTERP;
        copy_str(buf, frame->label, &r.str_off, &r.str_len);
        break;
      case JS::ProfilingFrameIterator::Frame_Baseline:
        r.kind = JIT_BASELINE;
        r.return_addr = uint64_t(uintptr_t(frame->returnAddress()));
        break;
      case JS::ProfilingFrameIterator::Frame_Ion:
        r.kind = JIT_ION;
        r.return_addr = uint64_t(uintptr_t(frame->returnAddress()));
        break;
      case JS::ProfilingFrameIterator::Frame_WasmBaseline:
      case JS::ProfilingFrameIterator::Frame_WasmIon:
        r.kind = frame->kind == JS::ProfilingFrameIterator::Frame_WasmIon
                     ? JIT_WASM_ION
                     : JIT_WASM_BASELINE;
        if (wasm_labels) {
          JS::ProfilingFrameIterator::Frame labelled;
          if (it.extractStack(&labelled, 0, 1) == 1) {
            copy_str(buf, labelled.label, &r.str_off, &r.str_len);
          }
        } else {
          buf->wasm_withheld++;
        }
        break;
      default:
        /* Trampolines and stubs: never shown, no label needed. */
        r.kind = JIT_WASM_OTHER;
        break;
    }
  }
}

/* One agent's capture slot: the request the sampling thread posts and the
 * JS thread's signal handler serves. The handler finds its thread's slot
 * through tSlot (initial-exec TLS: a plain load, async-signal-safe). */
struct CaptureSlot {
  /* REQ_* (glue_abi.h: the transitions). Only the thread that moves the
   * state out of IDLE, or the handler while IN_HANDLER, touches the request
   * fields. */
  std::atomic<CaptureState> state{REQ_IDLE};
  /* > 0 while the JS thread toggles the instrumentation (the engine's
   * profiler state is being rebuilt): a handler then captures nothing. Only
   * the JS thread writes it, and the handler runs on that thread. */
  std::atomic<uint32_t> gate{0};
  JSContext* cx = nullptr;
  ProfilingStack* ps = nullptr;
  /* The thread to signal (tgkill: one syscall, where pthread_kill makes
   * four). */
  pid_t pid = 0;
  pid_t tid = 0;
  /* Request, written before SENT. */
  uint64_t position = 0;
  CaptureBuf* buf = nullptr;
  /* Result, written before DONE. */
  CaptureCode status = CAPTURE_OK;
  uint64_t captured_at_ns = 0;
  uint64_t capture_ns = 0;
  /* The start-rule fuzzer's state (null unless JSPROF_WALK_FUZZ was on
   * when the slot was created): test-only. */
  struct WalkFuzz* fuzz = nullptr;
};
thread_local CaptureSlot* tSlot __attribute__((tls_model("initial-exec"))) =
    nullptr;
std::atomic<int> gSignal{0};

uint64_t monotonic_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

/* The marker inputs at a capture (marker.rs): the embedder's activity word
 * and the profilerRealmID of the context's current realm (0 without one).
 * One atomic load, an inline field read and an out-of-line accessor that
 * returns a field: async-signal-safe. */
/* The profilerRealmID of the realm that was current when the outermost GC
 * of this thread began (set by the GC callbacks, read by the handler on the
 * same thread): SpiderMonkey leaves the realm while it collects. */
thread_local std::atomic<uint64_t> tGcRealmId
    __attribute__((tls_model("initial-exec"))){0};

void note_marker_state(JSContext* cx, CaptureBuf* buf) {
  if (!buf->activity) {
    /* No session of the agent has markers. */
    buf->activity_at_capture = 0;
    buf->realm_at_capture = 0;
    return;
  }
  buf->activity_at_capture = buf->activity->load(std::memory_order_relaxed);
  JS::Realm* realm = js::GetContextRealm(cx);
  buf->realm_at_capture =
      realm ? JS::RealmCreationOptionsRef(realm).profilerRealmID()
      : buf->in_gc ? tGcRealmId.load(std::memory_order_relaxed)
                   : 0;
}

void reset_buf(CaptureBuf* buf) {
  buf->arena_len = 0;
  buf->arena_truncated = 0;
  buf->ps_len = 0;
  buf->ps_total = 0;
  buf->jit_len = 0;
  buf->jit_truncated = 0;
  buf->wasm_withheld = 0;
  buf->in_gc = 0;
}

/* ---- Fuzzing the start rules (test-only; README "Fuzzing the start
 * rules") ----
 *
 * With JSPROF_WALK_FUZZ=N (or glue.rs's walk_fuzz_configure) before a
 * capture slot is created, the signal handler, after its normal capture,
 * walks the same interrupted thread again:
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
 * Off (no slot state), it costs one predictable branch per sample. The
 * handler's rules hold: no allocation (the state is allocated with the
 * slot), no lock, stack reads only inside [sp, stack base). The fuzzed walks
 * count in js::ProfilerJitWalkCounts like any other (the fuzzer counts its
 * own per start). */
#ifdef JSPROF_WALK_FUZZ
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
                            reinterpret_cast<const void*>(&walk_jit),
                            reinterpret_cast<const void*>(&copy_str)};
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

/* After the capture, in the handler: the reference walk, then N fuzzed
 * walks. */
void fuzz_sample(CaptureSlot* slot,
                 const JS::ProfilingFrameIterator::RegisterState& regs) {
  uint32_t n = gFuzzWalks.load(std::memory_order_relaxed);
  WalkFuzz* fz = slot->fuzz;
  uintptr_t sp = uintptr_t(regs.sp);
  if (!n || !register_walk_selected()) {
    return;
  }
  /* Only on the thread's own stack: a signal handler running on an
   * alternate stack (SpiderMonkey's wasm trap handler, SA_ONSTACK) can be
   * interrupted by the sampling signal, and between that stack and the
   * thread's lies unmapped memory (README, "Not done yet"). */
  if (sp < fz->low || sp >= fz->base) {
    fuzz_add(FUZZ_AT(skipped), n);
    return;
  }
  fuzz_add(FUZZ_AT(samples));
  fuzz_reference(slot->cx, fz, regs, slot->position);
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
    fuzz_walk(slot->cx, fz, regs, st, mutation, slot->position);
  }
}

/* Resolves the queued return addresses as the capture's are resolved
 * (jsprof_resolve_jit); JS thread, never in the handler. */
void fuzz_drain(JSContext* cx) {
  CaptureSlot* slot = tSlot;
  if (!slot || !slot->fuzz || slot->cx != cx) {
    return;
  }
  WalkFuzz* fz = slot->fuzz;
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

/* For a process fuzzed through the environment (./mach stress, the shell):
 * the counters on stderr at exit. Per-start arrays in
 * js::ProfilerJitWalkStart's order, then "not started". */
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

/* JSPROF_WALK_FUZZ=N, JSPROF_WALK_FUZZ_SEED=S, JSPROF_WALK_FUZZ_UNGUARDED=1:
 * read once, on the first slot's creation (JS thread). */
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

WalkFuzz* fuzz_new(pid_t tid) {
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
#else
struct WalkFuzz {};
void fuzz_sample(CaptureSlot*, const JS::ProfilingFrameIterator::RegisterState&) {}
void fuzz_drain(JSContext*) {}
WalkFuzz* fuzz_new(pid_t) { return nullptr; }
#endif

/* The sampling signal's handler: the JS thread captures its own stack from
 * the interrupted registers, into the preallocated buffers of its slot, and
 * returns. No allocation, no lock (see walk_jit for the wasm label rule), no
 * syscall besides clock_gettime (vDSO): the thread is never put to sleep. */
void on_sample_signal(int, siginfo_t*, void* ucontext_v) {
  int saved_errno = errno;
  CaptureSlot* slot = tSlot;
  CaptureState expected = REQ_SENT;
  if (!slot || !slot->state.compare_exchange_strong(expected, REQ_IN_HANDLER)) {
    /* Abandoned (or stray): nothing to capture. */
    if (slot && expected == REQ_ABANDONED) {
      slot->state.store(REQ_IDLE);
    }
    errno = saved_errno;
    return;
  }
  uint64_t start = monotonic_ns();
  CaptureBuf* buf = slot->buf;
  reset_buf(buf);
  CaptureCode status = CAPTURE_OK;
  if (slot->gate.load(std::memory_order_relaxed) > 0) {
    status = CAPTURE_GATED;
  } else {
    buf->in_gc = buf->gc_depth && buf->gc_depth->load() > 0 ? 1 : 0;
    note_marker_state(slot->cx, buf);
    copy_profiling_stack(slot->ps, buf);
    if (JS::IsProfilingEnabledForContext(slot->cx)) {
      ucontext_t* uc = static_cast<ucontext_t*>(ucontext_v);
      JS::ProfilingFrameIterator::RegisterState regs;
#if defined(__x86_64__)
      regs.pc = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
      regs.sp = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RSP]);
      regs.fp = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RBP]);
      regs.lr = nullptr;
#elif defined(__aarch64__)
      regs.pc = reinterpret_cast<void*>(uc->uc_mcontext.pc);
      regs.sp = reinterpret_cast<void*>(uc->uc_mcontext.sp);
      regs.fp = reinterpret_cast<void*>(uc->uc_mcontext.regs[29]);
      regs.lr = reinterpret_cast<void*>(uc->uc_mcontext.regs[30]);
#else
      (void)uc;
#endif
      walk_jit(slot->cx, regs, slot->position, buf, false);
      if (__builtin_expect(slot->fuzz != nullptr, 0)) {
        /* Test-only (JSPROF_WALK_FUZZ): see "Fuzzing the start rules". */
        fuzz_sample(slot, regs);
      }
    } else {
      status = CAPTURE_NO_INSTRUMENTATION;
    }
  }
  slot->status = status;
  slot->captured_at_ns = start;
  slot->capture_ns = monotonic_ns() - start;
  slot->state.store(REQ_DONE, std::memory_order_release);
  errno = saved_errno;
}

}  // namespace

extern "C" {

size_t jsprof_glue_profiling_stack_size() { return sizeof(ProfilingStack); }
size_t jsprof_glue_capture_buf_size() { return sizeof(CaptureBuf); }
size_t jsprof_glue_ps_rec_size() { return sizeof(PsFrameRec); }
size_t jsprof_glue_jit_rec_size() { return sizeof(JitFrameRec); }

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
  /* No capture while the engine rebuilds its profiler state (a pending
   * sampling signal could be handled in the middle of it). */
  CaptureSlot* slot = tSlot;
  if (!on) {
    /* Test-only (JSPROF_WALK_FUZZ): before the JIT code is discarded. */
    fuzz_drain(cx);
  }
  if (slot) {
    slot->gate.fetch_add(1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
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
  if (slot) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    slot->gate.fetch_sub(1);
  }
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

/* Installs the sampling signal's handler once per process. Returns the signal
 * number, or 0 when the signal path is unavailable on this platform. */
int jsprof_install_signal_handler() {
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
  int sig = gSignal.load();
  if (sig) {
    return sig;
  }
  sig = SIGRTMIN + 4;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_sample_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sig, &sa, nullptr) != 0) {
    return 0;
  }
  gSignal.store(sig);
  return sig;
#else
  return 0;
#endif
}

/* Creates the calling (JS) thread's capture slot for `cx`. */
CaptureSlot* jsprof_slot_new(JSContext* cx, ProfilingStack* ps) {
  CaptureSlot* slot = new CaptureSlot();
  slot->cx = cx;
  slot->ps = ps;
  slot->pid = getpid();
  slot->tid = pid_t(syscall(SYS_gettid));
  slot->fuzz = fuzz_new(slot->tid);
  tSlot = slot;
  return slot;
}

/* Deletes a slot (its JS thread; no request may be served afterwards: a
 * late signal finds no slot). */
void jsprof_slot_delete(CaptureSlot* slot) {
  if (tSlot == slot) {
    tSlot = nullptr;
  }
  delete slot->fuzz;
  delete slot;
}

/* Posts a capture request into `buf` and signals the slot's thread.
 * Does not wait. */
RequestResult jsprof_request_capture(CaptureSlot* slot, uint64_t position,
                                     CaptureBuf* buf) {
  int sig = gSignal.load();
  if (!sig) {
    return REQUEST_FAILED;
  }
  if (slot->state.load(std::memory_order_acquire) != REQ_IDLE) {
    return REQUEST_BUSY;
  }
  slot->position = position;
  slot->buf = buf;
  slot->state.store(REQ_SENT, std::memory_order_release);
  if (syscall(SYS_tgkill, slot->pid, slot->tid, sig) != 0) {
    CaptureState sent = REQ_SENT;
    if (slot->state.compare_exchange_strong(sent, REQ_IDLE)) {
      return REQUEST_FAILED;
    }
  }
  return REQUEST_SENT;
}

/* The slot's state (REQ_*). */
CaptureState jsprof_capture_state(CaptureSlot* slot) {
  return slot->state.load(std::memory_order_acquire);
}

/* Takes a finished capture's result and frees the slot (state DONE only). */
void jsprof_finish_capture(CaptureSlot* slot, CaptureCode* status,
                           uint64_t* captured_at_ns, uint64_t* capture_ns) {
  *status = slot->status;
  *captured_at_ns = slot->captured_at_ns;
  *capture_ns = slot->capture_ns;
  slot->state.store(REQ_IDLE, std::memory_order_release);
}

/* Gives up a request whose signal was not handled (blocked signal). Returns
 * true if abandoned; false if the handler got in (collect it instead). */
bool jsprof_abandon_capture(CaptureSlot* slot) {
  CaptureState sent = REQ_SENT;
  return slot->state.compare_exchange_strong(sent, REQ_ABANDONED);
}

/* Capture on the JS thread itself (force_sample and the interrupt-driven
 * fallback). */
CaptureCode jsprof_capture_on_thread(JSContext* cx, ProfilingStack* ps,
                                     uint64_t position, CaptureBuf* buf) {
  reset_buf(buf);
  note_marker_state(cx, buf);
  copy_profiling_stack(ps, buf);
  if (!JS::IsProfilingEnabledForContext(cx)) {
    return CAPTURE_NO_INSTRUMENTATION;
  }
  JS::ProfilingFrameIterator::RegisterState regs;
  /* C++ (no pc), at this frame: the register-started walk (patch 0003)
   * starts from the ABI call that entered C++ from JIT code, and reads the
   * stack only above sp. */
  regs.sp = __builtin_frame_address(0);
  walk_jit(cx, regs, position, buf, true);
  return CAPTURE_OK;
}

/* The start-rule fuzzer (test-only; "Fuzzing the start rules"): N fuzzed
 * walks per sample of slots created from now on (0: off), the seed of
 * their generators, and whether a fuzzed walk goes on past a false frame.
 * Returns false where there is no fuzzer (no patch 0003, not x86-64). */
bool jsprof_walk_fuzz_configure(uint32_t walks, uint64_t seed, bool unguarded) {
#ifdef JSPROF_WALK_FUZZ
  fuzz_read_env();
  gFuzzWalks.store(walks);
  gFuzzSeed.store(seed);
  gFuzzUnguarded.store(unguarded);
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
  /* Test-only (JSPROF_WALK_FUZZ): the fuzzed walks' return addresses are
   * resolved while the range still keeps their code. */
  fuzz_drain(cx);
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
    tGcStartedNs = monotonic_ns();
  } else if (depth_before > 0 && depth_after == 0) {
    tGcTotalNs += monotonic_ns() - tGcStartedNs;
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

/* Markers: the realm a GC interrupts (see tGcRealmId), at the outermost
 * GC's start; JS thread, in the GC callbacks. */
void note_gc_realm(JSContext* cx, const std::atomic<uint32_t>* depth,
                   bool enter) {
  if (enter && depth->load() == 0) {
    JS::Realm* realm = js::GetContextRealm(cx);
    tGcRealmId.store(
        realm ? JS::RealmCreationOptionsRef(realm).profilerRealmID() : 0,
        std::memory_order_relaxed);
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
