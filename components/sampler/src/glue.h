/* What the sampler's C++ files share: the capture (glue_capture.cpp, the
 * signal-safe part), the engine hooks (glue_engine.cpp) and the test-only
 * add-ons to the capture (the walk fuzzer, components/sampler/walk-fuzz).
 * Not part of the Rust ABI: the records Rust reads are in glue_abi.h.
 *
 * Invariants of these declarations:
 *   - everything here is called on the JS thread, except what says it runs
 *     in the sampling signal's handler (and then follows the handler's
 *     rules, see glue_capture.cpp: no allocation, no lock, no blocking);
 *   - the glue is compiled against the objdir of the linked mozjs_sys, with
 *     its configure defines (build.rs); a file that includes this header is
 *     compiled the same way (walk-fuzz's build.rs does). */

#ifndef JSPROF_SAMPLER_GLUE_H
#define JSPROF_SAMPLER_GLUE_H

#include <stdint.h>
#include <sys/types.h>

#include "jsapi.h"
#include "js/ProfilingFrameIterator.h"

#include "glue_abi.h"

namespace jsprof_glue {

/* glue_engine.cpp: whether SpiderMonkey carries patch 0003
 * (third_party/mozjs_sys-patches), the register-started walk; and whether
 * sessions use it (the engine has it and `profiler.jit-frame-bookkeeping`
 * was not set to 1). Both only read: safe in the handler. */
bool jit_register_walk_available();
bool register_walk_selected();

/* glue_capture.cpp: CLOCK_MONOTONIC in nanoseconds (vDSO: safe in the
 * handler). */
uint64_t monotonic_ns();

/* glue_capture.cpp: records the profilerRealmID of the realm a GC of this
 * thread interrupts, at the outermost GC's start (the GC callbacks of
 * glue_engine.cpp); the handler reads it for samples taken inside the GC,
 * where SpiderMonkey has left the realm. */
void note_gc_realm_id(uint64_t realm_id);

/* glue_capture.cpp: closes (and reopens) the gate of the calling thread's
 * capture slot, if it has one: while it is closed a handler captures
 * nothing. The JS thread closes it around toggling the instrumentation. */
void close_capture_gate();
void open_capture_gate();

/* glue_capture.cpp: the capture's copy of a NUL-terminated string into the
 * arena, and its walk of the JIT and wasm frames (handler or JS thread).
 * Declared for their addresses: the walk fuzzer draws C++ pcs from them. */
void copy_str(CaptureBuf* buf, const char* s, uint32_t* off, uint32_t* len);
void walk_jit(JSContext* cx,
              const JS::ProfilingFrameIterator::RegisterState& regs,
              uint64_t position, CaptureBuf* buf, bool on_thread);

/* Test-only add-ons to the capture (the walk fuzzer). Null by default: the
 * handler then pays one predictable branch per sample. */
struct CaptureHooks {
  /* JS thread, when a capture slot is created: the add-on's state for the
   * slot, or null for none (then the slot never calls the add-on). */
  void* (*slot_new)(pid_t tid);
  /* JS thread, when the slot is deleted (no handler runs any more). */
  void (*slot_delete)(void* state);
  /* In the signal handler, after the capture walked the interrupted
   * registers `regs` (instrumentation on): the handler's rules apply. */
  void (*after_walk)(void* state, JSContext* cx,
                     const JS::ProfilingFrameIterator::RegisterState& regs,
                     uint64_t position);
  /* JS thread, before JIT code may be discarded (instrumentation turned
   * off) and before the sample range start moves on. */
  void (*drain)(void* state, JSContext* cx);
};

/* Installs the add-ons (a static table; null removes them) for capture
 * slots created from now on. JS thread, before the slot is created. */
void set_capture_hooks(const CaptureHooks* hooks);

/* glue_capture.cpp: runs the add-on's drain for the calling thread's slot
 * if it is `cx`'s and has add-on state (JS thread). */
void drain_capture_hooks(JSContext* cx);

}  // namespace jsprof_glue

#endif /* JSPROF_SAMPLER_GLUE_H */
