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
#include <unistd.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
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

/* Set once `profiler.jit-frame-bookkeeping` was chosen explicitly
 * (jsprof_set_jit_option); otherwise the first enable picks the
 * register-started walk when the engine has it. */
std::atomic<bool> gBookkeepingChosen{false};
/* The value chosen (meaningful once gBookkeepingChosen). */
std::atomic<bool> gBookkeepingChosenOn{true};

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
  if (slot) {
    slot->gate.fetch_add(1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  if (on && !gBookkeepingChosen.load() && jit_register_walk_available()) {
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
  tSlot = slot;
  return slot;
}

/* Deletes a slot (its JS thread; no request may be served afterwards: a
 * late signal finds no slot). */
void jsprof_slot_delete(CaptureSlot* slot) {
  if (tSlot == slot) {
    tSlot = nullptr;
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

/* Whether the register-started walk (patch 0003) is in this build. */
bool jsprof_jit_register_walk_available() {
  return jit_register_walk_available();
}

/* Whether sessions use it: in this build and not replaced by SpiderMonkey's
 * bookkeeping through profiler.jit-frame-bookkeeping=1. */
bool jsprof_jit_register_walk_selected() {
  return jit_register_walk_available() &&
         !(gBookkeepingChosen.load() && gBookkeepingChosenOn.load());
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
