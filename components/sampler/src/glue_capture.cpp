/* The signal-safe capture: what runs in the sampling signal's handler on the
 * JS thread, and the capture slot the sampling thread posts requests to.
 * The engine hooks (profiling stack, instrumentation, resolution, GC and
 * wasm callbacks) are in glue_engine.cpp; see src/glue.rs for the
 * invariants of the Rust side.
 *
 * Invariants:
 *   - The capture (on_sample_signal and the helpers it calls) runs inside
 *     the sampling signal's handler, on the JS thread, at whatever
 *     instruction the signal interrupted. It must not allocate, lock, or
 *     call anything that could (the interrupted code may hold the
 *     allocator's or any other lock), nor block; its only syscall is
 *     clock_gettime (vDSO), and it preserves errno. It only reads the
 *     ProfilingStack, runs JS::ProfilingFrameIterator from the interrupted
 *     registers (which Gecko runs on a suspended thread, the same
 *     situation) and copies into preallocated buffers. One engine call can
 *     take a lock, a wasm function's label: see walk_jit for when it is
 *     made.
 *   - The sampling thread only touches a slot through its atomic state
 *     (jsprof_request_capture, jsprof_capture_state, jsprof_finish_capture,
 *     jsprof_abandon_capture) and signals the thread with tgkill; it never
 *     dereferences the context.
 *   - A slot's request fields are written only by whoever moved its state
 *     out of IDLE, or by the handler while IN_HANDLER (glue_abi.h, the
 *     transitions); the buffers belong to the handler between SENT and
 *     DONE.
 *   - The handler finds its slot through an initial-exec thread-local (a
 *     plain load); slots are created and deleted on their JS thread, so a
 *     late signal after the deletion finds no slot.
 *   - Test-only add-ons (glue.h, CaptureHooks: the walk fuzzer) run only
 *     for slots created after they were installed, under the same rules in
 *     the handler. */

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>

#include "jsapi.h"
#include "jsfriendapi.h"
#include "js/ProfilingFrameIterator.h"
#include "js/ProfilingStack.h"
#include "js/Realm.h"
#include "js/RealmOptions.h"

#include "glue.h"

namespace jsprof_glue {

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

}  // namespace jsprof_glue

namespace {

using jsprof_glue::CaptureHooks;
using jsprof_glue::copy_str;
using jsprof_glue::monotonic_ns;
using jsprof_glue::walk_jit;

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
  /* Test-only add-ons (glue.h, CaptureHooks), installed when the slot was
   * created, and their state for it: null for none (the default). */
  const CaptureHooks* hooks = nullptr;
  void* hook_state = nullptr;
};
thread_local CaptureSlot* tSlot __attribute__((tls_model("initial-exec"))) =
    nullptr;
std::atomic<int> gSignal{0};

/* The test-only add-ons for slots created from now on (set_capture_hooks). */
std::atomic<const CaptureHooks*> gHooks{nullptr};

/* The profilerRealmID of the realm that was current when the outermost GC
 * of this thread began (set by the GC callbacks, read by the handler on the
 * same thread): SpiderMonkey leaves the realm while it collects. */
thread_local std::atomic<uint64_t> tGcRealmId
    __attribute__((tls_model("initial-exec"))){0};

/* The marker inputs at a capture (marker.rs): the embedder's activity word
 * and the profilerRealmID of the context's current realm (0 without one).
 * One atomic load, an inline field read and an out-of-line accessor that
 * returns a field: async-signal-safe. */
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
      if (__builtin_expect(slot->hook_state != nullptr, 0)) {
        /* Test-only (the walk fuzzer, glue.h CaptureHooks). */
        slot->hooks->after_walk(slot->hook_state, slot->cx, regs,
                                slot->position);
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

namespace jsprof_glue {

uint64_t monotonic_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void note_gc_realm_id(uint64_t realm_id) {
  tGcRealmId.store(realm_id, std::memory_order_relaxed);
}

void close_capture_gate() {
  if (CaptureSlot* slot = tSlot) {
    slot->gate.fetch_add(1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
}

void open_capture_gate() {
  if (CaptureSlot* slot = tSlot) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    slot->gate.fetch_sub(1);
  }
}

void set_capture_hooks(const CaptureHooks* hooks) { gHooks.store(hooks); }

void drain_capture_hooks(JSContext* cx) {
  CaptureSlot* slot = tSlot;
  if (slot && slot->hook_state && slot->cx == cx) {
    slot->hooks->drain(slot->hook_state, cx);
  }
}

}  // namespace jsprof_glue

extern "C" {

size_t jsprof_glue_profiling_stack_size() { return sizeof(ProfilingStack); }
size_t jsprof_glue_capture_buf_size() { return sizeof(CaptureBuf); }
size_t jsprof_glue_ps_rec_size() { return sizeof(PsFrameRec); }
size_t jsprof_glue_jit_rec_size() { return sizeof(JitFrameRec); }

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
  if (const CaptureHooks* hooks = gHooks.load()) {
    slot->hooks = hooks;
    slot->hook_state = hooks->slot_new(slot->tid);
  }
  tSlot = slot;
  return slot;
}

/* Deletes a slot (its JS thread; no request may be served afterwards: a
 * late signal finds no slot). */
void jsprof_slot_delete(CaptureSlot* slot) {
  if (tSlot == slot) {
    tSlot = nullptr;
  }
  if (slot->hook_state) {
    slot->hooks->slot_delete(slot->hook_state);
  }
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

}  // extern "C"
