//! The sampler's glue: every `unsafe` access to SpiderMonkey's C++ profiling
//! API lives here and in the C++ glue, `glue_capture.cpp` (the signal-safe
//! capture) and `glue_engine.cpp` (the engine hooks), with their shared
//! declarations in `glue.h`. The rest of the crate is safe Rust.
//!
//! # Invariants
//!
//! * The C++ glue is compiled against the objdir of the linked mozjs_sys with
//!   the same configure defines (`build.rs`); `profiling_stack_layout_matches`
//!   checks this at run time. The records and constants both sides exchange
//!   are defined once, in `glue_abi.h` (bindgen'd for this module), whose
//!   layouts are checked at build time on both sides (see the header);
//!   `record_layouts_match` checks them again at run time.
//! * **The capture runs in the sampling signal's handler** on the JS thread
//!   (`on_sample_signal` in `glue_capture.cpp`), interrupting it at an arbitrary
//!   instruction: only C++ runs there; it reads the `ProfilingStack`, runs
//!   `JS::ProfilingFrameIterator` from the interrupted registers and copies
//!   into the preallocated [`CaptureBuffers`] of the request. It performs no
//!   allocation, takes no lock, makes no syscall but `clock_gettime`, never
//!   blocks, cannot panic (no Rust runs there), and preserves `errno`.
//! * Requests go through a per-thread slot ([`CaptureSlot`], found by the
//!   handler through an initial-exec thread-local) with a lock-free state
//!   word: the sampling thread posts a request and signals, without
//!   waiting; the handler fills the buffers and marks the slot done; the
//!   sampling thread (at its next tick) or the JS thread (when it resolves)
//!   collects the capture under the agent's mutex. The buffers are touched
//!   by the handler only between the request and "done", and by a collector
//!   only after "done". A signal that is not handled within 200 ms
//!   (blocked) is abandoned; a late one then returns at once.
//! * While the JS thread toggles the instrumentation, the slot's gate is
//!   closed and a handler captures nothing.
//! * One internal SpiderMonkey function is called (not in its public
//!   headers): `js::jit::ResetPerfSpewer(false)` after enabling the
//!   profiler, which stops the per-instruction source maps the JIT records
//!   for the Gecko profiler and the sampler never reads (`glue_engine.cpp`,
//!   `jsprof_enable_instrumentation`). It is a global symbol of `js_static`:
//!   a SpiderMonkey without it fails to link.
//! * One engine call in the handler can take a lock: a wasm function's
//!   label (`wasm::Code::profilingLabel`, a mutex the JS thread itself takes
//!   when it creates an instance while profiling is on). It is only made
//!   when the walk proves the thread was interrupted in compiled code (the
//!   first frame is wasm code at the interrupted `sp`, or JIT code resuming
//!   at the interrupted `pc`): then no C++ frame, hence no holder of that
//!   lock, is on the thread's stack, and no other thread shares the module
//!   (modules do not cross agents here). Otherwise the wasm frames are
//!   recorded without label and never shown (`walk_jit` in
//!   `glue_capture.cpp`).
//! * The capture has test-only hooks (`glue.h`, `CaptureHooks`) for the
//!   start-rule fuzzer, which only the `jsprof-walk-fuzz` crate (tests)
//!   builds and installs; without it the handler tests one null pointer.
//! * The GC depth counter ([`GcWatch`]) is written by GC callbacks on the
//!   JS thread and read (one atomic load) by its handler: inside a GC
//!   SpiderMonkey hides JIT and wasm frames from the walk.
//! * Markers (`marker.rs`): a capture request may carry a pointer to the JS
//!   thread's activity word (an `Arc` the agent holds until its sampling
//!   thread is joined); the handler loads it (relaxed) and reads the
//!   context's current realm's `profilerRealmID` (an inline field read and
//!   an accessor returning a field), or inside a GC the realm the GC
//!   callbacks recorded in an initial-exec thread-local when it began.
//! * The wasm-compilation and destroyed-realm hooks call back into Rust
//!   ([`jsprof_note_wasm_compilation`], [`jsprof_note_realm_destroyed`]) on
//!   the JS thread only, never from the signal handler; they catch panics.
//! * Strings read by the handler (profile strings, built-in labels, wasm
//!   labels) are copied into the arena before it returns; nothing keeps a
//!   pointer to engine memory past it, except JIT return addresses, which
//!   are resolved on the JS thread while the sample position keeps their
//!   code alive.
//! * A [`Context`] is a `JSContext*` that is only dereferenced by the C++
//!   side on its own thread (resolution, instrumentation, the handler). The
//!   sampling thread never dereferences it (it only signals the thread, and
//!   requests interrupts, which is thread-safe). The owner
//!   ([`crate::AgentSampler`]) stops the sampler thread and deletes the slot
//!   before the context can be destroyed.
//! * A [`ProfilingStack`] outlives its installation: it is uninstalled before
//!   it is freed; when not empty it stays installed and is leaked (pending
//!   pops dereference the installed stack without a null check).

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::Arc;

/// Everything shared with the C++ glue (constants and the capture records),
/// generated by bindgen from `glue_abi.h` (see `build.rs`): one definition
/// for both sides, with bindgen's compile-time layout checks. (Its `Default`
/// impls zero the records: all-zero is valid for them, integers and null
/// pointers.)
#[allow(
    dead_code,
    non_camel_case_types,
    non_upper_case_globals,
    clippy::undocumented_unsafe_blocks
)]
mod abi {
    /// The atomics the capture reads (plain integers in the header's
    /// bindgen view, `std::atomic` in the C++ glue's).
    pub type JsprofAtomicU32 = std::sync::atomic::AtomicU32;
    pub type JsprofAtomicU64 = std::sync::atomic::AtomicU64;

    include!(concat!(env!("OUT_DIR"), "/glue_abi.rs"));
}

use abi::{
    CaptureBuf, CaptureCode, CaptureState, RequestResult, ResolvedJitRec, CAPTURE_GATED,
    CAPTURE_NO_INSTRUMENTATION, CAPTURE_OK, JIT_WALK_START_COUNT, NO_STRING, REQUEST_BUSY,
    REQUEST_SENT, REQ_DONE, REQ_IDLE,
};
pub(crate) use abi::{
    JitFrameRec, PsFrameRec, JIT_BASELINE, JIT_BLINTERP, JIT_ION, JIT_WASM_BASELINE, JIT_WASM_ION,
    PS_BUILTIN, PS_JS, PS_JS_OSR, PS_LABEL, PS_SP_MARKER,
};

type SourceCb = unsafe extern "C" fn(*mut c_void, u32, *const c_char, usize, u32);

extern "C" {
    fn jsprof_glue_profiling_stack_size() -> usize;
    fn jsprof_glue_capture_buf_size() -> usize;
    fn jsprof_glue_ps_rec_size() -> usize;
    fn jsprof_glue_jit_rec_size() -> usize;
    fn jsprof_glue_implementation_version() -> *const c_char;
    fn jsprof_stack_new() -> *mut c_void;
    fn jsprof_stack_delete(ps: *mut c_void);
    fn jsprof_stack_depth(ps: *mut c_void) -> u32;
    fn jsprof_install_stack(cx: *mut c_void, ps: *mut c_void);
    fn jsprof_enable_instrumentation(cx: *mut c_void, on: bool);
    fn jsprof_instrumentation_enabled(cx: *mut c_void) -> bool;
    fn jsprof_set_jit_option(cx: *mut c_void, name: *const c_char, len: usize, value: u32) -> bool;
    fn jsprof_install_signal_handler() -> i32;
    fn jsprof_slot_new(cx: *mut c_void, ps: *mut c_void) -> *mut c_void;
    fn jsprof_slot_delete(slot: *mut c_void);
    fn jsprof_request_capture(
        slot: *mut c_void,
        position: u64,
        buf: *mut CaptureBuf,
    ) -> RequestResult;
    fn jsprof_capture_state(slot: *mut c_void) -> CaptureState;
    fn jsprof_finish_capture(
        slot: *mut c_void,
        status: *mut CaptureCode,
        captured_at_ns: *mut u64,
        capture_ns: *mut u64,
    );
    fn jsprof_abandon_capture(slot: *mut c_void) -> bool;
    fn jsprof_capture_on_thread(
        cx: *mut c_void,
        ps: *mut c_void,
        position: u64,
        buf: *mut CaptureBuf,
    ) -> CaptureCode;
    fn jsprof_resolve_jit(
        cx: *mut c_void,
        addr: *mut c_void,
        out: *mut ResolvedJitRec,
        cap: u32,
    ) -> u32;
    fn jsprof_set_range_start(cx: *mut c_void, start: u64);
    fn jsprof_script_sources(cx: *mut c_void, cb: SourceCb, data: *mut c_void);
    fn jsprof_install_wasm_compile_hook(cx: *mut c_void) -> bool;
    fn jsprof_watch_gc(cx: *mut c_void, depth: *const AtomicU32);
    fn jsprof_unwatch_gc(cx: *mut c_void, depth: *const AtomicU32);
    fn jsprof_gc_total_ns() -> u64;
}

/// Whether the C++ glue and mozjs's bindgen agree on `ProfilingStack`'s size.
pub fn profiling_stack_layout_matches() -> bool {
    // SAFETY: a pure function of the compile-time layout.
    let cxx = unsafe { jsprof_glue_profiling_stack_size() };
    cxx == std::mem::size_of::<mozjs::jsapi::ProfilingStack>()
}

/// Whether the capture records have the same layout on both sides.
pub fn record_layouts_match() -> bool {
    // SAFETY: pure functions of the compile-time layout.
    unsafe {
        jsprof_glue_capture_buf_size() == std::mem::size_of::<CaptureBuf>()
            && jsprof_glue_ps_rec_size() == std::mem::size_of::<PsFrameRec>()
            && jsprof_glue_jit_rec_size() == std::mem::size_of::<JitFrameRec>()
    }
}

/// The linked SpiderMonkey's implementation version, as seen from the glue.
pub fn implementation_version() -> &'static str {
    // SAFETY: SpiderMonkey returns a pointer to a static NUL-terminated string.
    unsafe { CStr::from_ptr(jsprof_glue_implementation_version()) }
        .to_str()
        .unwrap_or("")
}

/// A `JSContext*` owned elsewhere: the sampler dereferences it only on the
/// context's own thread (the invariants at the top of `glue.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context(*mut c_void);

// SAFETY: the pointer is only dereferenced on the context's thread (module
// invariants); other threads only pass it to thread-safe calls.
unsafe impl Send for Context {}
// SAFETY: as for `Send`: shared references only reach thread-safe calls.
unsafe impl Sync for Context {}

impl Context {
    /// Wraps the raw context of a mozjs context.
    pub fn from_mozjs(cx: &mut mozjs::context::JSContext) -> Context {
        // SAFETY: only the pointer value is taken.
        Context(unsafe { cx.raw_cx() }.cast())
    }

    /// Turns SpiderMonkey's profiler instrumentation on or off (discards JIT
    /// code). JS thread only; requires an installed stack.
    pub(crate) fn set_instrumentation(self, on: bool) {
        // SAFETY: called on the context's thread with a stack installed.
        unsafe { jsprof_enable_instrumentation(self.0, on) }
    }

    pub(crate) fn instrumentation_enabled(self) -> bool {
        // SAFETY: reads a flag of a live context.
        unsafe { jsprof_instrumentation_enabled(self.0) }
    }

    /// Sets the oldest sample position whose JIT code must stay alive.
    pub(crate) fn set_range_start(self, start: u64) {
        // SAFETY: JS thread, live context.
        unsafe { jsprof_set_range_start(self.0, start) }
    }

    /// Resolves a JIT return address into `(label, realm, source)` frames,
    /// outermost first. JS thread only, while instrumentation is on.
    pub(crate) fn resolve_jit(self, addr: u64, out: &mut Vec<(String, u64, u32)>) {
        const CAP: usize = 16;
        let mut recs = [ResolvedJitRec::default(); CAP];
        // SAFETY: JS thread; the output array has CAP entries.
        let n = unsafe {
            jsprof_resolve_jit(self.0, addr as *mut c_void, recs.as_mut_ptr(), CAP as u32)
        };
        for rec in &recs[..(n as usize).min(CAP)] {
            let label = if rec.label.is_null() {
                String::new()
            } else {
                // SAFETY: labels are NUL-terminated strings owned by the live
                // JitcodeGlobalEntry; copied before returning.
                unsafe { CStr::from_ptr(rec.label) }
                    .to_string_lossy()
                    .into_owned()
            };
            out.push((label, rec.realm_id, rec.source_id));
        }
    }

    /// Calls `f(source_id, full_filename, start_line)` for every source the
    /// profiler saw.
    pub(crate) fn script_sources(self, f: &mut dyn FnMut(u32, &str, u32)) {
        unsafe extern "C" fn trampoline(
            data: *mut c_void,
            id: u32,
            path: *const c_char,
            len: usize,
            start_line: u32,
        ) {
            // SAFETY: `data` is the `&mut &mut dyn FnMut` below; `path` has
            // `len` bytes.
            let f = unsafe { &mut *(data as *mut &mut dyn FnMut(u32, &str, u32)) };
            // SAFETY: `path` points to `len` bytes for the callback's duration.
            let bytes = unsafe { std::slice::from_raw_parts(path as *const u8, len) };
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                f(id, &String::from_utf8_lossy(bytes), start_line)
            }));
        }
        let mut f = f;
        // SAFETY: JS thread; the callback only runs during this call.
        unsafe {
            jsprof_script_sources(
                self.0,
                trampoline,
                &mut f as *mut &mut dyn FnMut(u32, &str, u32) as *mut c_void,
            )
        }
    }
}

/// A SpiderMonkey `ProfilingStack`, installed on one context.
#[derive(Debug)]
pub(crate) struct ProfilingStack {
    ptr: *mut c_void,
    cx: Context,
}

// SAFETY: the stack's frames are only read on its thread (resolution, the
// signal handler); other threads only read `depth`, an atomic load.
unsafe impl Send for ProfilingStack {}
// SAFETY: as for `Send`: other threads only read `depth` atomically.
unsafe impl Sync for ProfilingStack {}

impl ProfilingStack {
    /// Creates a stack and installs it on `cx` (JS thread).
    pub(crate) fn install(cx: Context) -> ProfilingStack {
        // SAFETY: plain C++ allocation; installation on the context's thread.
        let ptr = unsafe { jsprof_stack_new() };
        // SAFETY: `ptr` is the new stack; installed on the context's thread.
        unsafe { jsprof_install_stack(cx.0, ptr) };
        ProfilingStack { ptr, cx }
    }

    /// Number of frames on the stack; may be read from any thread.
    pub(crate) fn depth(&self) -> u32 {
        // SAFETY: an atomic load of `stackPointer`.
        unsafe { jsprof_stack_depth(self.ptr) }
    }

    /// Uninstalls and frees the stack (JS thread). Call once, after the
    /// sampling thread is joined; we do not use the stack afterwards.
    ///
    /// When frames are still pushed (dropped from inside JS, e.g. by a
    /// native called from a script), the stack stays installed and is
    /// leaked: the frames that pushed while profiling was on still pop
    /// through `GeckoProfiler::exit` and `GeckoProfilerEntryMarker`, which
    /// dereference the context's installed stack without a null check (and
    /// the marker pushes whenever a stack is installed). The context then
    /// keeps it until it is destroyed; instrumentation is off, so only
    /// such markers and the pending pops touch it.
    pub(crate) fn uninstall(&self) {
        if self.cx.instrumentation_enabled() {
            self.cx.set_instrumentation(false);
        }
        // SAFETY: JS thread; the stack is uninstalled and freed only when
        // empty, otherwise left installed (see above).
        unsafe {
            if jsprof_stack_depth(self.ptr) == 0 {
                jsprof_install_stack(self.cx.0, std::ptr::null_mut());
                jsprof_stack_delete(self.ptr);
            }
        }
    }
}

/// GC callbacks on a context keeping a depth counter above 0 during every GC
/// slice and minor GC, read by the sampler while the thread is stopped
/// (SpiderMonkey suppresses the JIT/wasm frame walk during GC).
#[derive(Debug)]
pub(crate) struct GcWatch {
    cx: Context,
    depth: Box<AtomicU32>,
}

impl GcWatch {
    /// Installs the callbacks (JS thread).
    pub(crate) fn install(cx: Context) -> GcWatch {
        let depth = Box::new(AtomicU32::new(0));
        // SAFETY: JS thread; `depth` lives until `uninstall`, which removes
        // the callbacks first.
        unsafe { jsprof_watch_gc(cx.0, &*depth) };
        GcWatch { cx, depth }
    }

    /// Removes the callbacks (JS thread). Call once, when no capture can
    /// read the counter any more (the sampling thread is joined).
    pub(crate) fn uninstall(&self) {
        // SAFETY: JS thread; the callbacks were installed with this pointer.
        unsafe { jsprof_unwatch_gc(self.cx.0, &*self.depth) };
    }
}

impl GcWatch {
    /// Whether a GC slice or minor GC is running (any thread: one load).
    pub(crate) fn active(&self) -> bool {
        self.depth.load(std::sync::atomic::Ordering::Relaxed) > 0
    }
}

/// Wall time the calling thread spent in GC slices and minor GCs while an
/// [`AgentSampler`](crate::AgentSampler) of its context lived (its GC
/// callbacks measure it; ns; JS thread).
pub fn gc_total_ns() -> u64 {
    // SAFETY: reads a thread-local counter of the calling thread.
    unsafe { jsprof_gc_total_ns() }
}

/// Whether this platform has the signal path (installs the handler).
pub(crate) fn signal_capture_available() -> bool {
    // SAFETY: idempotent sigaction of a dedicated real-time signal.
    unsafe { jsprof_install_signal_handler() != 0 }
}

/// Result of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CaptureStatus {
    Ok,
    /// The thread could not be signalled, or did not handle the signal.
    NotCaptured,
    /// Instrumentation was off: only the `ProfilingStack` was copied.
    NoInstrumentation,
}

/// Preallocated, fixed capture buffers (grown only between captures).
#[derive(Debug)]
pub(crate) struct CaptureBuffers {
    pub ps: Vec<PsFrameRec>,
    pub ps_total: u32,
    pub jit: Vec<JitFrameRec>,
    pub jit_truncated: bool,
    /// JIT frames that did not fit in the last capture.
    jit_missing: usize,
    /// Arena bytes that did not fit in the last capture.
    arena_missing: usize,
    pub arena: Vec<u8>,
    pub arena_truncated: bool,
    /// Wasm frames of the last capture whose label could not be read safely
    /// (see `walk_jit` in `glue_capture.cpp`).
    pub wasm_withheld: u32,
    /// Whether the last capture interrupted the thread inside a GC, where
    /// SpiderMonkey hides the JIT and wasm frames from the walk.
    pub in_gc: bool,
    /// The activity word and the current realm's ID at the capture
    /// (markers, see `marker.rs`).
    pub marker_activity: u64,
    pub marker_realm: u64,
    /// The request record a handler fills (boxed: its address is published).
    raw: Box<CaptureBuf>,
    ps_cap: usize,
    jit_cap: usize,
    arena_cap: usize,
}

// SAFETY: the raw record's pointers point into the buffers' own vectors;
// whoever holds the buffers (under the agent's mutex) only touches them
// outside a request's flight (see `request` and `collect`).
unsafe impl Send for CaptureBuffers {}

impl CaptureBuffers {
    pub(crate) fn new(frames: usize, arena: usize) -> CaptureBuffers {
        CaptureBuffers {
            ps: Vec::with_capacity(frames),
            ps_total: 0,
            jit: Vec::with_capacity(frames),
            jit_truncated: false,
            jit_missing: 0,
            arena_missing: 0,
            arena: Vec::with_capacity(arena),
            arena_truncated: false,
            wasm_withheld: 0,
            in_gc: false,
            marker_activity: 0,
            marker_realm: 0,
            raw: Box::default(),
            ps_cap: frames,
            jit_cap: frames,
            arena_cap: arena,
        }
    }

    /// Whether the last capture lost frames or strings.
    pub(crate) fn truncated(&self) -> bool {
        self.jit_truncated || self.arena_truncated || self.ps_total as usize > self.ps.len()
    }

    /// Doubles whatever was too small in the last capture (never while a
    /// request is in flight).
    pub(crate) fn grow_after_truncation(&mut self) {
        if self.ps_total as usize > self.ps_cap {
            self.ps_cap = (self.ps_total as usize).next_power_of_two();
        }
        if self.jit_truncated {
            self.jit_cap = (self.jit_cap + self.jit_missing).next_power_of_two();
        }
        if self.arena_truncated {
            self.arena_cap = (self.arena_cap + self.arena_missing).next_power_of_two();
        }
        self.ps = Vec::with_capacity(self.ps_cap);
        self.jit = Vec::with_capacity(self.jit_cap);
        self.arena = Vec::with_capacity(self.arena_cap);
    }

    /// Bytes of a string recorded in the arena, if any.
    pub(crate) fn string(&self, off: u32, len: u32) -> Option<&[u8]> {
        if len == NO_STRING {
            return None;
        }
        self.arena.get(off as usize..off as usize + len as usize)
    }

    /// A request record over the (cleared) buffers.
    fn raw_for(&mut self, gc_depth: *const AtomicU32, activity: *const AtomicU64) -> CaptureBuf {
        self.ps.clear();
        self.jit.clear();
        self.arena.clear();
        CaptureBuf {
            ps: self.ps.as_mut_ptr(),
            ps_cap: self.ps_cap as u32,
            jit: self.jit.as_mut_ptr(),
            jit_cap: self.jit_cap as u32,
            arena: self.arena.as_mut_ptr().cast(),
            arena_cap: self.arena_cap as u32,
            gc_depth,
            activity,
            ..CaptureBuf::default()
        }
    }

    fn adopt(&mut self, raw: &CaptureBuf) {
        let ps_len = (raw.ps_len as usize).min(self.ps_cap);
        let jit_len = (raw.jit_len as usize).min(self.jit_cap);
        let arena_len = (raw.arena_len as usize).min(self.arena_cap);
        // SAFETY: the C++ side initialised that many elements within the
        // capacities it was given (which are the vectors' capacities).
        unsafe {
            self.ps.set_len(ps_len);
            self.jit.set_len(jit_len);
            self.arena.set_len(arena_len);
        }
        self.ps_total = raw.ps_total;
        self.jit_truncated = raw.jit_truncated != 0;
        self.jit_missing = raw.jit_truncated as usize;
        self.arena_truncated = raw.arena_truncated != 0;
        self.arena_missing = raw.arena_truncated as usize;
        self.wasm_withheld = raw.wasm_withheld;
        self.in_gc = raw.in_gc != 0;
        self.adopt_marker_state(raw);
    }

    /// The marker inputs the capture read (`note_marker_state`).
    fn adopt_marker_state(&mut self, raw: &CaptureBuf) {
        self.marker_activity = raw.activity_at_capture;
        self.marker_realm = raw.realm_at_capture;
    }
}

fn status(code: CaptureCode) -> CaptureStatus {
    match code {
        CAPTURE_OK => CaptureStatus::Ok,
        // Gated: the instrumentation was being toggled.
        CAPTURE_NO_INSTRUMENTATION | CAPTURE_GATED => CaptureStatus::NoInstrumentation,
        _ => CaptureStatus::NotCaptured,
    }
}

/// A JS thread's capture slot: where the sampling thread posts requests and
/// the thread's signal handler serves them (see the module invariants).
#[derive(Debug)]
pub(crate) struct CaptureSlot {
    ptr: *mut c_void,
}

// SAFETY: the slot is a C++ object whose shared fields are atomics; the
// request fields are only written by whoever moved the state out of idle.
unsafe impl Send for CaptureSlot {}
// SAFETY: as for `Send`: shared fields are atomics.
unsafe impl Sync for CaptureSlot {}

impl CaptureSlot {
    /// Creates the slot of the calling thread, which runs `cx` with `stack`
    /// installed (JS thread).
    pub(crate) fn install(cx: Context, stack: &ProfilingStack) -> CaptureSlot {
        // SAFETY: plain C++ allocation; registers the thread-local pointer.
        let ptr = unsafe { jsprof_slot_new(cx.0, stack.ptr) };
        CaptureSlot { ptr }
    }

    /// Deletes the slot (JS thread; call once, after the sampling thread is
    /// joined: a late signal then finds no slot).
    pub(crate) fn uninstall(&self) {
        // SAFETY: JS thread; no request is served after this (the handler
        // runs on this thread and finds no slot).
        unsafe { jsprof_slot_delete(self.ptr) }
    }
}

/// A posted capture request's state, as a collector sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Collected {
    /// The handler has not finished yet.
    Pending,
    /// The capture is in the buffers: its status, the time the handler
    /// started (CLOCK_MONOTONIC ns) and how long it took (ns).
    Done(CaptureStatus, u64, u64),
}

/// The outcome of posting a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Requested {
    Sent,
    /// The signal could not be sent.
    Failed,
    /// A request is in flight, or an abandoned one's signal never came.
    Busy,
}

impl CaptureBuffers {
    /// Posts a capture request into these buffers and signals the slot's
    /// thread, without waiting (sampling thread). Until
    /// [`CaptureBuffers::collect`] returns `Done` (or the request is
    /// abandoned), the buffers belong to the handler.
    pub(crate) fn request(
        &mut self,
        slot: &CaptureSlot,
        gc: &GcWatch,
        activity: Option<&Arc<AtomicU64>>,
        position: u64,
    ) -> Requested {
        // SAFETY: a read of the atomic state.
        if unsafe { jsprof_capture_state(slot.ptr) } != REQ_IDLE {
            return Requested::Busy;
        }
        *self.raw = self.raw_for(&*gc.depth, activity_ptr(activity));
        // SAFETY: the request points at `self.raw`, which is boxed (stable)
        // and, with the vectors it points into, left alone until collected.
        match unsafe { jsprof_request_capture(slot.ptr, position, &mut *self.raw) } {
            REQUEST_SENT => Requested::Sent,
            REQUEST_BUSY => Requested::Busy,
            _ => Requested::Failed,
        }
    }

    /// Collects the posted request if the handler is done (sampling thread
    /// or JS thread, under the agent's mutex).
    pub(crate) fn collect(&mut self, slot: &CaptureSlot) -> Collected {
        // SAFETY: a read of the atomic state (acquire: the handler's writes
        // to the buffers happened before it published "done").
        if unsafe { jsprof_capture_state(slot.ptr) } != REQ_DONE {
            return Collected::Pending;
        }
        let (mut code, mut at, mut took) = (CAPTURE_OK, 0u64, 0u64);
        // SAFETY: the state is "done": the handler no longer writes; this
        // frees the slot after reading the result.
        unsafe { jsprof_finish_capture(slot.ptr, &mut code, &mut at, &mut took) };
        let raw = std::mem::take(&mut *self.raw);
        self.adopt(&raw);
        Collected::Done(status(code), at, took)
    }

    /// Gives up a request whose signal was never handled. Returns false if
    /// the handler got in meanwhile (collect it instead).
    pub(crate) fn abandon(&mut self, slot: &CaptureSlot) -> bool {
        // SAFETY: a compare-and-swap of the atomic state.
        unsafe { jsprof_abandon_capture(slot.ptr) }
    }
}

/// The activity word a capture reads (markers), or null when no session
/// wants markers (the handler then reads neither it nor the realm). The
/// word is an `Arc` the agent holds until its sampling thread is joined.
fn activity_ptr(activity: Option<&Arc<AtomicU64>>) -> *const AtomicU64 {
    activity.map_or(std::ptr::null(), Arc::as_ptr)
}

/// Captures the current thread's stacks (the JS thread itself).
pub(crate) fn capture_on_thread(
    cx: Context,
    stack: &ProfilingStack,
    position: u64,
    buf: &mut CaptureBuffers,
    activity: Option<&Arc<AtomicU64>>,
) -> CaptureStatus {
    let mut raw = buf.raw_for(std::ptr::null(), activity_ptr(activity));
    // SAFETY: called on the context's thread; buffers valid for their caps.
    let code = unsafe { jsprof_capture_on_thread(cx.0, stack.ptr, position, &mut raw) };
    buf.adopt(&raw);
    status(code)
}

/// Reads CLOCK_MONOTONIC in nanoseconds (the clock `Instant` uses on Linux).
pub(crate) fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

/// The calling thread's CPU time in nanoseconds.
pub(crate) fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out-pointer.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Sets a realm's profiler ID in realm options before `JS_NewGlobalObject`.
pub fn set_profiler_realm_id(options: &mut mozjs::jsapi::RealmOptions, id: u64) {
    options.creationOptions_.profilerRealmID_ = id;
}

/// The hook run by the interrupt callback on the JS thread.
static INTERRUPT_HOOK: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

unsafe extern "C" fn on_interrupt(_cx: *mut mozjs::jsapi::JSContext) -> bool {
    if let Some(hook) = INTERRUPT_HOOK.get() {
        // Never unwind into SpiderMonkey.
        let _ = std::panic::catch_unwind(*hook);
    }
    true
}

thread_local! {
    /// The contexts of this thread that have `on_interrupt` added, while
    /// their agent lives (callbacks cannot be removed from a context).
    static HOOKED: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Records that the context at `key` gets the callback; `false` if it has it.
fn mark_hooked(key: usize) -> bool {
    HOOKED.with(|h| {
        let mut h = h.borrow_mut();
        let first = !h.contains(&key);
        if first {
            h.push(key);
        }
        first
    })
}

fn forget_hooked(key: usize) {
    HOOKED.with(|h| h.borrow_mut().retain(|&k| k != key));
}

impl Context {
    /// Adds an interrupt callback that runs `hook` (JS thread). The hook is
    /// process-wide; it finds its agent through a thread-local.
    pub(crate) fn add_interrupt_hook(self, hook: fn()) {
        // Once per context and agent.
        if !mark_hooked(self.0 as usize) {
            return;
        }
        let _ = INTERRUPT_HOOK.set(hook);
        // SAFETY: JS thread, live context.
        unsafe { mozjs::jsapi::JS_AddInterruptCallback(self.0.cast(), Some(on_interrupt)) };
    }

    /// Forgets that this context has the interrupt callback (JS thread, when
    /// its agent is dropped). The context may be destroyed next and another
    /// created at the same address, which needs its own callback. A new
    /// agent on this same context adds the callback a second time: the hook
    /// then runs twice per interrupt, which is harmless.
    pub(crate) fn forget_interrupt_hook(self) {
        forget_hooked(self.0 as usize);
    }

    /// Asks the JS thread to run its interrupt callbacks; any thread.
    pub(crate) fn request_interrupt(self) {
        // SAFETY: JS_RequestInterruptCallback is thread-safe.
        unsafe { mozjs::jsapi::JS_RequestInterruptCallback(self.0.cast()) }
    }
}

static NEXT_REALM_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A process-unique `profilerRealmID` (never 0, SpiderMonkey's default).
pub fn allocate_profiler_realm_id() -> u64 {
    NEXT_REALM_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Records, for this thread's context, every wasm compilation from bytes with
/// the realm it happens in and the script SpiderMonkey names as its caller,
/// and every destroyed realm (see `wasm.rs`). Call once per context,
/// on its thread, before any script runs (wasm frames of modules compiled
/// earlier never appear). Takes the context's `JSSecurityCallbacks` (a CSP
/// check that permits everything) and its destroy-realm callback. Returns
/// false when the context already has security callbacks of the embedder's
/// (then wasm frames never appear).
pub fn install_wasm_compile_hook(cx: &mut mozjs::context::JSContext) -> bool {
    // SAFETY: JS thread, live context; the callbacks are a static.
    unsafe { jsprof_install_wasm_compile_hook(cx.raw_cx().cast()) }
}

/// Sets SpiderMonkey's global JIT options from `spec`, a comma-separated
/// list of `name=value` with the engine's pref names (`ion.enable=0`,
/// `baseline.enable=0`, `blinterp.warmup.trigger=0`, ...; the list is
/// `JIT_COMPILER_OPTIONS` in `jsapi.h`). For measurements: the cost
/// breakdown isolates tiers with it (`JSPROF_BENCH_JIT`, see the README).
/// With SpiderMonkey patched (what `./mach` builds, see
/// `third_party/mozjs_sys-patches`), `profiler.jit-frame-bookkeeping=0` also
/// turns off the JIT frame bookkeeping and, with patch 0003, selects the
/// register-started walk (the default: see [`jit_register_walk_selected`]);
/// `=1` keeps SpiderMonkey's bookkeeping and its walk.
/// JS thread, before scripts run.
pub fn set_jit_options(cx: &mut mozjs::context::JSContext, spec: &str) -> Result<(), String> {
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("JIT option `{item}` is not name=value"))?;
        let value: u32 = value
            .trim()
            .parse()
            .map_err(|_| format!("JIT option `{item}`: not a whole number"))?;
        let name = name.trim();
        // SAFETY: JS thread, live context; `name` is valid for the call.
        let known = unsafe {
            jsprof_set_jit_option(cx.raw_cx().cast(), name.as_ptr().cast(), name.len(), value)
        };
        if !known {
            return Err(format!("unknown JIT option `{name}`"));
        }
    }
    Ok(())
}

extern "C" {
    fn jsprof_jit_register_walk_available() -> bool;
    fn jsprof_jit_register_walk_selected() -> bool;
    fn jsprof_jit_walk_counts(out: *mut u64, len: usize) -> usize;
}

/// How walks of the innermost JIT activation started with the
/// register-started walk (patch 0003 of `third_party/mozjs_sys-patches`;
/// `js::ProfilerJitWalkStart`, in its order). The `lost-*` ones walked no
/// frame of that activation.
pub const JIT_WALK_STARTS: [&str; JIT_WALK_START_COUNT as usize] = [
    "none",
    "jit-body",
    "jit-ion-ic",
    "jit-window",
    "jit-stub-frame",
    "cpp-from-jit",
    "cpp-from-stub",
    "cpp-no-record",
    "lost-stub",
    "lost-record",
    "lost-window",
    "lost-dummy",
    "lost-invalid",
];

/// Whether SpiderMonkey has the register-started walk (patch 0003, x86-64;
/// what `./mach` builds). Sessions use it unless
/// `profiler.jit-frame-bookkeeping=1` was set ([`set_jit_options`]).
pub fn jit_register_walk_available() -> bool {
    // SAFETY: reads a build property.
    unsafe { jsprof_jit_register_walk_available() }
}

/// Whether sessions use the register-started walk: available, and not
/// turned down for SpiderMonkey's bookkeeping
/// (`profiler.jit-frame-bookkeeping=1`).
pub fn jit_register_walk_selected() -> bool {
    // SAFETY: reads the glue's choice.
    unsafe { jsprof_jit_register_walk_selected() }
}

/// The process-wide counts per [`JIT_WALK_STARTS`] entry, or `None` without
/// the register-started walk.
pub fn jit_walk_counts() -> Option<[u64; JIT_WALK_START_COUNT as usize]> {
    let mut out = [0u64; JIT_WALK_START_COUNT as usize];
    // SAFETY: `out` has room for `out.len()` counts, the length passed.
    let n = unsafe { jsprof_jit_walk_counts(out.as_mut_ptr(), out.len()) };
    (n == out.len()).then_some(out)
}

/// Called by the hook in `glue_engine.cpp` on the JS thread (never from the
/// signal handler). Must not unwind into C++.
#[no_mangle]
extern "C" fn jsprof_note_wasm_compilation(
    filename: *const c_char,
    len: usize,
    line: u32,
    realm_id: u64,
) {
    // SAFETY: `filename` has `len` bytes, valid for the call.
    let bytes = unsafe { std::slice::from_raw_parts(filename as *const u8, len) };
    let _ = std::panic::catch_unwind(|| {
        crate::wasm::note_compilation(&String::from_utf8_lossy(bytes), line, realm_id)
    });
}

/// Called by the destroy-realm callback in `glue_engine.cpp` (GC, JS
/// thread). Must not unwind into C++.
#[no_mangle]
extern "C" fn jsprof_note_realm_destroyed(realm_id: u64) {
    let _ = std::panic::catch_unwind(|| crate::wasm::note_realm_destroyed(realm_id));
    crate::marker::forget_realm(realm_id);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context at an address a dropped agent's context had gets its own
    /// interrupt callback: the agent forgets its context when dropped.
    #[test]
    fn a_reused_context_address_is_hooked_again() {
        let key = 0x1000;
        assert!(mark_hooked(key));
        assert!(!mark_hooked(key), "once per live agent");
        assert!(mark_hooked(0x2000), "other contexts are separate");
        forget_hooked(key);
        assert!(mark_hooked(key), "hooked again after its agent is dropped");
        assert!(!mark_hooked(0x2000));
    }
}
