/* The values glue.cpp and glue.rs exchange, defined once: glue.cpp includes
 * this header, and build.rs runs bindgen over it to generate the Rust
 * constants glue.rs uses (OUT_DIR/glue_abi.rs). Renaming or removing a value
 * here therefore fails the build of whichever side still uses the old name;
 * renumbering one changes both sides at once.
 *
 * C++ (enums with a fixed underlying type); nothing but <stdint.h>, so that
 * bindgen needs no SpiderMonkey headers. */

#ifndef JSPROF_SAMPLER_GLUE_ABI_H
#define JSPROF_SAMPLER_GLUE_ABI_H

#include <stdint.h>

/* A copied ProfilingStack frame's kind (PsFrameRec::kind). */
enum PsKind : uint32_t {
  PS_LABEL = 0,
  PS_SP_MARKER = 1,
  PS_JS = 2,
  PS_JS_OSR = 3,
  /* A native built-in's label frame (category JS_Builtin): label + method. */
  PS_BUILTIN = 4
};

/* A physical frame's kind (JitFrameRec::kind). */
enum JitKind : uint32_t {
  JIT_BLINTERP = 0,
  JIT_BASELINE = 1,
  JIT_ION = 2,
  /* Wasm frames by tier; stubs and trampolines are JIT_WASM_OTHER (they may
   * also appear under a tier when their code lives in a tier's block: their
   * labels tell them apart). */
  JIT_WASM_BASELINE = 3,
  JIT_WASM_ION = 4,
  JIT_WASM_OTHER = 5
};

/* A string length meaning "no string" (the *_len fields of the records). */
enum StringLen : uint32_t { NO_STRING = UINT32_MAX };

/* A capture slot's state: IDLE -> SENT (requester) -> IN_HANDLER -> DONE
 * (handler) -> IDLE (collector); SENT -> ABANDONED (requester, after a
 * timeout) -> IDLE (the late handler). jsprof_capture_state returns it. */
enum CaptureState : int32_t {
  REQ_IDLE = 0,
  REQ_SENT = 1,
  REQ_IN_HANDLER = 2,
  REQ_DONE = 3,
  REQ_ABANDONED = 4
};

/* The result of jsprof_request_capture. */
enum RequestResult : int32_t {
  REQUEST_SENT = 0,
  /* The signal could not be sent (no signal installed, or tgkill failed). */
  REQUEST_FAILED = 1,
  /* A request is in flight, or an abandoned one's signal never came. */
  REQUEST_BUSY = 2
};

/* A capture's status (jsprof_finish_capture, jsprof_capture_on_thread). */
enum CaptureCode : int32_t {
  CAPTURE_OK = 0,
  /* Instrumentation was off: only the ProfilingStack was copied. */
  CAPTURE_NO_INSTRUMENTATION = 2,
  /* The slot's gate was closed (the JS thread was toggling the
   * instrumentation): nothing was captured. */
  CAPTURE_GATED = 3
};

#endif /* JSPROF_SAMPLER_GLUE_ABI_H */
