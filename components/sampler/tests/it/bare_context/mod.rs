//! Sampler tests on a bare SpiderMonkey context (no DOM), all on one engine
//! and one runtime, in the order of [`CASES`]. No case asserts on timing.
//!
//! This module has the environment (globals with test natives, sessions,
//! frame helpers); the cases are in `capture` (the capture and the walks),
//! `sessions` (sessions and attribution) and `wasm` (WebAssembly frames).

use std::cell::RefCell;
use std::ffi::CString;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Runner;
use jsprof_sampler::{
    allocate_profiler_realm_id, set_profiler_realm_id, AgentSampler, CaptureMode, Preparation,
    ProfilerTrace, ScriptInfo, ScriptRegistry, Session, SessionError, SessionOptions,
};
use mozjs::gc::Traceable;
use mozjs::jsapi::Heap;
use mozjs::jsapi::{CallArgs, JSContext as RawJSContext, JSObject, OnNewGlobalHookOption, Value};
use mozjs::jsval::{Int32Value, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{JS_DefineFunction, JS_NewGlobalObject, JS_SetProperty, JS_WrapValue};
use mozjs::rust::{
    evaluate_script, CompileOptionsWrapper, JSEngine, RealmOptions, Runtime, SIMPLE_GLOBAL_CLASS,
};

thread_local! {
    /// Globals kept alive for the whole run (traced as extra roots). Boxed:
    /// a `Heap`'s address must not change.
    #[allow(clippy::vec_box)]
    static GLOBALS: RefCell<Vec<Box<Heap<*mut JSObject>>>> = const { RefCell::new(Vec::new()) };
    /// Sessions that the JS-visible `sample()` forces a sample on.
    static SESSIONS: RefCell<Vec<Session>> = const { RefCell::new(Vec::new()) };
    /// The agent, for `captures()`.
    static AGENT: RefCell<Option<AgentSampler>> = const { RefCell::new(None) };
}

unsafe extern "C" fn trace_globals(trc: *mut mozjs::jsapi::JSTracer, _data: *mut std::ffi::c_void) {
    GLOBALS.with(|g| {
        for global in g.borrow().iter() {
            // SAFETY: `trc` is the tracer the GC passed to this root tracer;
            // the globals' boxed heaps stay in `GLOBALS` while registered.
            unsafe { global.trace(trc) };
        }
    });
}

unsafe extern "C" fn js_sample(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    SESSIONS.with(|s| {
        for session in s.borrow().iter() {
            session.force_sample();
        }
    });
    args.rval().set(UndefinedValue());
    true
}

thread_local! {
    static STOPPED: RefCell<Vec<ProfilerTrace>> = const { RefCell::new(Vec::new()) };
}

/// `stopAll()`: stops every session from inside JS, as `Profiler.stop()`
/// does.
unsafe extern "C" fn js_stop_all(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    let mut sessions = take_sessions();
    for s in sessions.iter_mut().filter(|s| !s.stopped()) {
        if let Ok(trace) = s.stop() {
            STOPPED.with(|t| t.borrow_mut().push(trace));
        }
    }
    set_sessions(sessions);
    args.rval().set(UndefinedValue());
    true
}

/// `dropAgent()`: drops the sessions and the agent from inside JS, as a
/// document torn down by a script would.
unsafe extern "C" fn js_drop_agent(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    drop(take_sessions());
    drop(STOPPED.with(|t| std::mem::take(&mut *t.borrow_mut())));
    let agent = AGENT.with(|a| a.borrow_mut().take());
    drop(agent);
    args.rval().set(UndefinedValue());
    true
}

unsafe extern "C" fn js_captures(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    let n = AGENT.with(|a| {
        a.borrow().as_ref().map_or(0, |a| {
            let stats = a.stats();
            stats.handler_captures + stats.on_thread_captures
        })
    });
    args.rval().set(Int32Value(n.min(i32::MAX as u64) as i32));
    true
}

/// `wasmIonFrames()`: wasm frames resolved at the Ion tier so far.
unsafe extern "C" fn js_wasm_ion_frames(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    let n = AGENT.with(|a| {
        a.borrow()
            .as_ref()
            .map_or(0, |a| a.stats().wasm_frames_by_tier[1])
    });
    args.rval().set(Int32Value(n.min(i32::MAX as u64) as i32));
    true
}

thread_local! {
    /// The realm `startSession()` starts its session in.
    static START_REALM: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// `startSession()`: starts a forced-sample session on the agent in
/// `AGENT` (realm `START_REALM`) from inside JS, as `new Profiler()` does.
unsafe extern "C" fn js_start_session(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    let session = AGENT.with(|a| {
        a.borrow()
            .as_ref()
            .map(|a| forced_session(a, START_REALM.with(|r| r.get()), 100))
    });
    if let Some(session) = session {
        SESSIONS.with(|s| s.borrow_mut().push(session));
    }
    args.rval().set(UndefinedValue());
    true
}

mod capture;
mod sessions;
mod wasm;

struct Env {
    rt: Runtime,
    registry: ScriptRegistry,
}

impl Env {
    fn agent(&mut self, preparation: Preparation) -> AgentSampler {
        let registry = self.registry.clone();
        AgentSampler::new(self.rt.cx(), registry, preparation)
    }

    /// A new global with a unique realm ID and the test natives.
    fn global(&mut self) -> (NonNull<JSObject>, u64) {
        let realm_id = allocate_profiler_realm_id();
        let mut options = RealmOptions::default();
        set_profiler_realm_id(&mut options, realm_id);
        let cx = self.rt.cx();
        // SAFETY: the global is rooted before anything can GC, and `options`
        // outlives the call.
        unsafe {
            rooted!(&in(cx) let global = JS_NewGlobalObject(
                cx,
                &SIMPLE_GLOBAL_CLASS,
                ptr::null_mut(),
                OnNewGlobalHookOption::FireOnNewGlobalHook,
                &*options,
            ));
            let mut realm = AutoRealm::new_from_handle(cx, global.handle());
            let cx = &mut realm;
            assert!(!JS_DefineFunction(
                cx,
                global.handle(),
                c"sample".as_ptr(),
                Some(js_sample),
                0,
                0
            )
            .is_null());
            assert!(!JS_DefineFunction(
                cx,
                global.handle(),
                c"stopAll".as_ptr(),
                Some(js_stop_all),
                0,
                0
            )
            .is_null());
            assert!(!JS_DefineFunction(
                cx,
                global.handle(),
                c"dropAgent".as_ptr(),
                Some(js_drop_agent),
                0,
                0
            )
            .is_null());
            assert!(!JS_DefineFunction(
                cx,
                global.handle(),
                c"captures".as_ptr(),
                Some(js_captures),
                0,
                0
            )
            .is_null());
            assert!(!JS_DefineFunction(
                cx,
                global.handle(),
                c"startSession".as_ptr(),
                Some(js_start_session),
                0,
                0
            )
            .is_null());
            assert!(!JS_DefineFunction(
                cx,
                global.handle(),
                c"wasmIonFrames".as_ptr(),
                Some(js_wasm_ion_frames),
                0,
                0
            )
            .is_null());
            // Keep the global alive for the rest of the run.
            GLOBALS.with(|g| g.borrow_mut().push(Heap::boxed(global.get())));
            (NonNull::new(global.get()).unwrap(), realm_id)
        }
    }

    /// Compiles and runs `source` as `filename`, starting at `line`.
    fn run_at(&mut self, global: NonNull<JSObject>, filename: &str, line: u32, source: &str) {
        let cx = self.rt.cx();
        rooted!(&in(cx) let global = global.as_ptr());
        rooted!(&in(cx) let mut rval = UndefinedValue());
        let options = CompileOptionsWrapper::new(cx, CString::new(filename).unwrap(), line);
        let result = evaluate_script(cx, global.handle(), source, rval.handle_mut(), options);
        assert!(result.is_ok(), "script {filename} threw");
    }

    /// Compiles and runs `source` as `filename` in `global`.
    fn run(&mut self, global: NonNull<JSObject>, filename: &str, muted: bool, source: &str) {
        let cx = self.rt.cx();
        rooted!(&in(cx) let global = global.as_ptr());
        rooted!(&in(cx) let mut rval = UndefinedValue());
        let mut options = CompileOptionsWrapper::new(cx, CString::new(filename).unwrap(), 1);
        options.set_muted_errors(muted);
        let result = evaluate_script(cx, global.handle(), source, rval.handle_mut(), options);
        assert!(result.is_ok(), "script {filename} threw");
    }

    fn register(&self, filename: &str, muted: bool) {
        self.registry.register(
            filename,
            ScriptInfo {
                url: filename.to_owned(),
                muted_errors: muted,
            },
        );
    }

    /// Makes `from`'s property `name` refer to `to`'s property `name`.
    fn share(&mut self, from: NonNull<JSObject>, to: NonNull<JSObject>, name: &str) {
        let cx = self.rt.cx();
        let cname = CString::new(name).unwrap();
        // SAFETY: both objects are live globals of this context (kept by
        // `GLOBALS`), rooted below before any call; `cname` is NUL-terminated.
        unsafe {
            rooted!(&in(cx) let src = from.as_ptr());
            rooted!(&in(cx) let dst = to.as_ptr());
            rooted!(&in(cx) let mut v = UndefinedValue());
            {
                let mut realm = AutoRealm::new_from_handle(cx, src.handle());
                let cx = &mut realm;
                assert!(mozjs::rust::wrappers2::JS_GetProperty(
                    cx,
                    src.handle(),
                    cname.as_ptr(),
                    v.handle_mut()
                ));
            }
            let mut realm = AutoRealm::new_from_handle(cx, dst.handle());
            let cx = &mut realm;
            assert!(JS_WrapValue(cx, v.handle_mut()));
            assert!(JS_SetProperty(cx, dst.handle(), cname.as_ptr(), v.handle()));
        }
    }
}

fn session(agent: &AgentSampler, realm: u64, interval_ms: f64, limit: usize) -> Session {
    Session::start(
        agent,
        SessionOptions {
            sample_interval_ms: interval_ms,
            max_buffer_size: limit,
            realm_id: realm,
            time_origin: Instant::now(),
            cross_origin_isolated: false,
            markers: None,
            on_buffer_full: None,
        },
    )
}

/// A 1 ms session of a new agent on a new global (with `APP` registered);
/// the agent waits in `AGENT` (for `captures()`) until the case takes it.
fn signal_session(env: &mut Env, limit: usize) -> (NonNull<JSObject>, Session) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    let s = session(&agent, realm, 1.0, limit);
    AGENT.with(|a| *a.borrow_mut() = Some(agent));
    (global, s)
}

/// A session that only samples when forced (a very long interval).
fn forced_session(agent: &AgentSampler, realm: u64, limit: usize) -> Session {
    session(agent, realm, 1.0e7, limit)
}

/// Each sample's frames, root first, as (name, resource, line, column).
type Frame = (String, Option<String>, Option<u64>, Option<u64>);

fn stacks(trace: &ProfilerTrace) -> Vec<Vec<Frame>> {
    trace
        .samples
        .iter()
        .map(|s| {
            let mut frames = Vec::new();
            let mut id = s.stack_id;
            while let Some(i) = id {
                let st = &trace.stacks[i as usize];
                let f = &trace.frames[st.frame_id as usize];
                frames.push((
                    f.name.clone(),
                    f.resource_id.map(|r| trace.resources[r as usize].clone()),
                    f.line,
                    f.column,
                ));
                id = st.parent_id;
            }
            frames.reverse();
            frames
        })
        .collect()
}

fn names(stack: &[Frame]) -> Vec<&str> {
    stack.iter().map(|f| f.0.as_str()).collect()
}

fn take_sessions() -> Vec<Session> {
    SESSIONS.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

fn set_sessions(sessions: Vec<Session>) {
    SESSIONS.with(|s| *s.borrow_mut() = sessions);
}

const APP: &str = "https://example.com/app.js";

/// A bare-context case.
type Case = fn(&mut Env);

/// The cases, in the order they run (they share the runtime: wasm
/// compilation sites and realms stay for the whole run).
const CASES: &[(&str, Case)] = &[
    (
        "nested_call_at_every_tier",
        capture::nested_call_at_every_tier,
    ),
    ("realms_are_separate", sessions::realms_are_separate),
    (
        "muted_scripts_never_appear",
        sessions::muted_scripts_never_appear,
    ),
    ("buffer_limit_is_exact", sessions::buffer_limit_is_exact),
    (
        "deep_stacks_keep_their_leaf",
        capture::deep_stacks_keep_their_leaf,
    ),
    ("stop_from_inside_js", sessions::stop_from_inside_js),
    ("drop_from_inside_js", sessions::drop_from_inside_js),
    (
        "resource_is_the_response_url",
        sessions::resource_is_the_response_url,
    ),
    (
        "event_handler_attributes_add_no_frame",
        sessions::event_handler_attributes_add_no_frame,
    ),
    (
        "stop_excludes_later_samples",
        sessions::stop_excludes_later_samples,
    ),
    (
        "eager_mode_instruments_from_creation",
        capture::eager_mode_instruments_from_creation,
    ),
    (
        "async_sampler_captures_js",
        capture::async_sampler_captures_js,
    ),
    ("jit_transitions_stress", capture::jit_transitions_stress),
    (
        "on_thread_fallback_captures_js",
        capture::on_thread_fallback_captures_js,
    ),
    (
        "two_agents_on_two_threads",
        sessions::two_agents_on_two_threads,
    ),
    (
        "concurrent_sessions_get_their_own_rate",
        sessions::concurrent_sessions_get_their_own_rate,
    ),
    (
        "builtins_in_gc_samples_are_not_attributed",
        capture::builtins_in_gc_samples_are_not_attributed,
    ),
    (
        "visible_wasm_at_both_tiers",
        wasm::visible_wasm_at_both_tiers,
    ),
    ("muted_wasm_never_appears", wasm::muted_wasm_never_appears),
    ("wasm_realms_are_separate", wasm::wasm_realms_are_separate),
    ("async_sampler_wasm", wasm::async_sampler_wasm),
    (
        "register_walk_from_signals",
        capture::register_walk_from_signals,
    ),
];

/// Runs the cases the filter selects, as `bare_context::<case>`, on one
/// engine (created only if a case is selected).
pub(crate) fn run(runner: &mut Runner) {
    let names: Vec<String> = CASES
        .iter()
        .map(|(name, _)| format!("bare_context::{name}"))
        .collect();
    if !names.iter().any(|name| runner.selects(name)) {
        runner.skip(names.len());
        return;
    }
    let engine = JSEngine::init().unwrap();
    let mut env = Env {
        rt: Runtime::new(engine.handle()),
        registry: ScriptRegistry::new(),
    };
    // SAFETY: `trace_globals` only reads this thread's `GLOBALS`.
    unsafe {
        mozjs::rust::wrappers2::JS_AddExtraGCRootsTracer(
            env.rt.cx(),
            Some(trace_globals),
            ptr::null_mut(),
        );
    }
    assert!(jsprof_sampler::install_wasm_compile_hook(env.rt.cx()));
    // SpiderMonkey options as the shell takes them (`JSPROF_BENCH_JIT`).
    // Without them, a build with patch 0003 runs these cases on the
    // register-started walk, what sessions use by default (glue_engine.cpp,
    // kRegisterWalkByDefault); `./mach test` runs them a second time with
    // `profiler.jit-frame-bookkeeping=1`, SpiderMonkey's bookkeeping, so
    // that both walks are tested.
    if let Ok(spec) = std::env::var("JSPROF_BENCH_JIT") {
        jsprof_sampler::set_jit_options(env.rt.cx(), &spec).expect("JSPROF_BENCH_JIT");
    }
    for ((_, case), name) in CASES.iter().zip(&names) {
        if !runner.selects(name) {
            runner.skip(1);
            continue;
        }
        runner.run(name, || case(&mut env));
        take_sessions();
        AGENT.with(|a| a.borrow_mut().take());
    }
    GLOBALS.with(|g| g.borrow_mut().clear());
    drop(env);
    drop(engine);
}
