//! Sampler tests on a bare SpiderMonkey context (no DOM). One engine per
//! process, so this binary has its own runner; each case is reported
//! separately and any failure fails the run. No case asserts on timing.

use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

#[path = "wasm/mod.rs"]
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

fn nested_call_at_every_tier(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    set_sessions(vec![forced_session(&agent, realm, 1000)]);
    // Ion compiles on the JS thread here, so that the last samples are in
    // Ion code however fast the lower tiers run (off-thread, the loop can
    // end before Ion code is ready: seen with the register-started walk).
    jsprof_sampler::set_jit_options(env.rt.cx(), "offthread-compilation.enable=0").unwrap();
    env.run(
        global,
        APP,
        false,
        "function leaf(n, s) { if (s) sample(); return n + 1; }\n\
         function middle(n, s) { return leaf(n, s) * 2; }\n\
         function outer(n, s) { return middle(n, s) + 1; }\n\
         function drive() {\n\
           let total = 0;\n\
           for (let i = 0; i < 40000; i++) {\n\
             total += outer(i, i === 0 || i === 5 || i === 50 || i === 300 || i === 3000 || i === 39999);\n\
           }\n\
           return total;\n\
         }\n\
         drive();\n",
    );
    jsprof_sampler::set_jit_options(env.rt.cx(), "offthread-compilation.enable=1").unwrap();
    let mut sessions = take_sessions();
    let trace = sessions[0].stop().unwrap();
    let all = stacks(&trace);
    assert_eq!(all.len(), 6, "one sample per forced call");
    // The samples really saw every tier.
    let tiers = agent.stats().frames_by_tier;
    assert!(tiers.iter().all(|n| *n > 0), "frames by tier {tiers:?}");
    for stack in &all {
        let tail: Vec<_> = stack[stack.len() - 3..].to_vec();
        let app = Some(APP.to_owned());
        assert_eq!(
            tail,
            vec![
                ("outer".to_owned(), app.clone(), Some(3), Some(15)),
                ("middle".to_owned(), app.clone(), Some(2), Some(16)),
                ("leaf".to_owned(), app.clone(), Some(1), Some(14)),
            ],
            "stack {stack:?}"
        );
        assert_eq!(names(stack)[stack.len() - 4], "drive", "stack {stack:?}");
    }
    // The same frames before and after tier-up: one stack ID for all samples.
    let first = trace.samples[0].stack_id;
    assert!(
        trace.samples.iter().all(|s| s.stack_id == first),
        "{:?}",
        trace.samples
    );
    drop(agent);
}

fn async_sampler_captures_js(env: &mut Env) {
    let (global, mut s) = signal_session(env, 100_000);
    // Runs until the handler has captured the thread's stack 30 times (bounded by a
    // wall-clock guard so a broken sampler fails instead of hanging).
    env.run(
        global,
        APP,
        false,
        "function busy() { let x = 0; for (let i = 0; i < 10000; i++) x += Math.sqrt(i); return x; }\n\
         function spin() { const end = Date.now() + 20000; while (captures() < 30 && Date.now() < end) busy(); }\n\
         spin();\n",
    );
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    assert!(
        agent.stats().handler_captures >= 30,
        "the handler never captured"
    );
    let all = stacks(&trace);
    let with_spin = all.iter().filter(|st| names(st).contains(&"spin")).count();
    assert!(
        with_spin >= 25,
        "samples with JS: {with_spin} of {}",
        all.len()
    );
    for st in all.iter().filter(|st| !st.is_empty()) {
        assert_eq!(st[0].1.as_deref(), Some(APP), "{st:?}");
    }
    // Timestamps are coarsened to 100 µs and non-decreasing.
    for w in trace.samples.windows(2) {
        assert!(w[0].timestamp <= w[1].timestamp);
    }
    assert!(trace.samples.iter().all(|s| {
        let tenths_of_ms = s.timestamp * 10.0;
        (tenths_of_ms - tenths_of_ms.round()).abs() < 1e-6
    }));
    drop(agent);
}

fn on_thread_fallback_captures_js(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let registry = env.registry.clone();
    let agent = AgentSampler::with_capture_mode(
        env.rt.cx(),
        registry,
        Preparation::Lazy,
        CaptureMode::OnThreadInterrupt,
    );
    assert_eq!(agent.capture_mode(), CaptureMode::OnThreadInterrupt);
    let mut s = session(&agent, realm, 1.0, 100_000);
    AGENT.with(|a| *a.borrow_mut() = Some(agent));
    env.run(
        global,
        APP,
        false,
        "function busy2() { let x = 0; for (let i = 0; i < 10000; i++) x += Math.sqrt(i); return x; }\n\
         function spin2() { const end = Date.now() + 20000; while (captures() < 20 && Date.now() < end) busy2(); }\n\
         spin2();\n",
    );
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    assert_eq!(
        agent.stats().handler_captures,
        0,
        "the fallback never signals"
    );
    let all = stacks(&trace);
    let with_spin = all.iter().filter(|st| names(st).contains(&"spin2")).count();
    assert!(
        with_spin >= 20,
        "samples with JS: {with_spin} of {}",
        all.len()
    );
    drop(agent);
}

fn realms_are_separate(env: &mut Env) {
    let parent_url = "https://example.com/parent.js";
    let child_url = "https://example.com/child.js";
    env.register(parent_url, false);
    env.register(child_url, false);
    let (parent, parent_realm) = env.global();
    let (child, child_realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    env.run(
        parent,
        parent_url,
        false,
        "function parentLeaf() { sample(); }\nfunction parentCalls() { childLeaf(); }\n",
    );
    env.run(
        child,
        child_url,
        false,
        "function childLeaf() { sample(); }\nfunction childCalls() { parentLeaf(); }\n",
    );
    env.share(parent, child, "parentLeaf");
    env.share(child, parent, "childLeaf");
    set_sessions(vec![
        forced_session(&agent, parent_realm, 100),
        forced_session(&agent, child_realm, 100),
    ]);
    // The parent calls into the child, then the child calls into the parent.
    env.run(parent, parent_url, false, "parentCalls();");
    env.run(child, child_url, false, "childCalls();");
    let mut sessions = take_sessions();
    let parent_trace = stacks(&sessions[0].stop().unwrap());
    let child_trace = stacks(&sessions[1].stop().unwrap());
    assert_eq!(parent_trace.len(), 2);
    assert_eq!(child_trace.len(), 2);
    // Parent → child: each session keeps only its own realm's frames.
    assert_eq!(names(&parent_trace[0]), vec!["", "parentCalls"]);
    assert_eq!(names(&child_trace[0]), vec!["childLeaf"]);
    // Child → parent.
    assert_eq!(names(&parent_trace[1]), vec!["parentLeaf"]);
    assert_eq!(names(&child_trace[1]), vec!["", "childCalls"]);
    for st in parent_trace.iter().flatten() {
        assert_eq!(st.1.as_deref(), Some(parent_url));
    }
    for st in child_trace.iter().flatten() {
        assert_eq!(st.1.as_deref(), Some(child_url));
    }
    drop(agent);
}

fn muted_scripts_never_appear(env: &mut Env) {
    let evil = "https://evil.example/lib.js";
    let unknown = "https://unknown.example/x.js";
    env.register(APP, false);
    env.register(evil, true);
    let (global, realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    env.run(
        global,
        evil,
        true,
        "function secret() {\n\
           [1].map(function secretCallback() { sample(); });\n\
           JSON.parse('[1]', function secretReviver(k, v) { sample(); return v; });\n\
           eval('(function secretEval() { sample(); })()');\n\
           (new Function('sample()'))();\n\
         }\n\
         function secretHook() { sample(); return 'x'; }\n\
         var secretObj = { get secretGetter() { sample(); return 1; }, toString: secretHook };\n\
         var secretProxy = new Proxy({}, { get: function secretTrap() { sample(); return 1; } });\n\
         function secretCompare(a, b) { sample(); return a - b; }\n\
         function secretCallsBack(cb) { [1].map(cb); }\n",
    );
    env.run(
        global,
        unknown,
        false,
        "function unregistered() { sample(); }\n",
    );
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    env.run(
        global,
        APP,
        false,
        "function visible() {\n\
           secret();\n\
           [2].map(secretHook);\n\
           secretObj.secretGetter;\n\
           String(secretObj);\n\
           unregistered();\n\
           [3].map(function visibleCallback() { sample(); });\n\
           JSON.parse('[1]', function visibleReviver(k, v) { sample(); return v; });\n\
           secretProxy.anything;\n\
           [2, 1].sort(secretCompare);\n\
           secretCallsBack(function calledBack() { sample(); });\n\
         }\n\
         visible();\n",
    );
    let mut sessions = take_sessions();
    let trace = sessions[0].stop().unwrap();
    let all = stacks(&trace);
    assert_eq!(all.len(), 15, "{all:?}");
    for frame in &trace.frames {
        assert!(
            !frame.name.to_lowercase().contains("secret"),
            "leaked {frame:?}"
        );
        assert!(
            frame.name != "unregistered" && frame.name != "anonymous",
            "leaked {frame:?}"
        );
    }
    assert!(
        trace.resources.iter().all(|r| r == APP),
        "{:?}",
        trace.resources
    );
    // Built-ins called by the muted script are dropped with it.
    for st in &all[..5] {
        assert_eq!(names(st), vec!["", "visible"], "{st:?}");
    }
    // A visible call into a built-in that calls muted code: the built-in
    // stays (its caller is visible), the muted callback goes.
    assert_eq!(names(&all[5]), vec!["", "visible", "map"]);
    // Getters and toString hooks of muted code, and an unregistered script.
    for st in &all[6..9] {
        assert_eq!(names(st), vec!["", "visible"], "{st:?}");
    }
    // The visible callback through a built-in: the built-in shows, name only
    // (self-hosted `map`, native `JSON.parse`).
    assert_eq!(
        names(&all[9]),
        vec!["", "visible", "map", "visibleCallback"]
    );
    assert_eq!(all[9][2], ("map".to_owned(), None, None, None));
    for st in &all[10..12] {
        assert_eq!(names(st), vec!["", "visible", "parse", "visibleReviver"]);
        assert_eq!(st[2], ("parse".to_owned(), None, None, None));
    }
    // A muted Proxy trap triggered by visible code.
    assert_eq!(names(&all[12]), vec!["", "visible"]);
    // A visible call to a native built-in with a muted comparator.
    assert_eq!(names(&all[13]), vec!["", "visible", "sort"]);
    // Muted code calling back into visible code through a built-in: the
    // muted frame and the built-in it called go, the visible callback stays.
    assert_eq!(names(&all[14]), vec!["", "visible", "calledBack"]);

    drop(agent);
}

fn buffer_limit_is_exact(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    let fired = Arc::new(AtomicUsize::new(0));
    let f = fired.clone();
    let s = Session::start(
        &agent,
        SessionOptions {
            sample_interval_ms: 1.0e7,
            max_buffer_size: 5,
            realm_id: realm,
            time_origin: Instant::now(),
            cross_origin_isolated: false,
            markers: None,
            on_buffer_full: Some(Box::new(move || {
                f.fetch_add(1, Ordering::SeqCst);
            })),
        },
    );
    set_sessions(vec![s]);
    env.run(
        global,
        APP,
        false,
        "function f() { for (let i = 0; i < 12; i++) sample(); }\nf();",
    );
    let mut sessions = take_sessions();
    assert_eq!(
        fired.load(Ordering::SeqCst),
        1,
        "samplebufferfull fires once"
    );
    assert!(
        !agent.instrumentation_enabled(),
        "a full session no longer samples"
    );
    let trace = sessions[0].stop().unwrap();
    assert_eq!(trace.samples.len(), 5);
    // Odd options neither panic nor sample: a zero limit fills at the first
    // attempt; NaN and huge intervals are clamped/saturated.
    let mut zero = forced_session(&agent, realm, 0);
    zero.force_sample();
    assert_eq!(zero.stop().unwrap().samples.len(), 0);
    let nan = session(&agent, realm, f64::NAN, 10);
    assert_eq!(
        nan.sample_interval_ms(),
        jsprof_sampler::MIN_SAMPLE_INTERVAL_MS
    );
    let huge = session(&agent, realm, 1.0e300, 10);
    huge.force_sample();
    assert_eq!(huge.sample_count(), 1);
    drop((nan, huge));
    drop(agent);
}

fn stop_excludes_later_samples(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    assert!(
        !agent.instrumentation_enabled(),
        "lazy mode does not instrument before a session"
    );
    set_sessions(vec![
        forced_session(&agent, realm, 100),
        forced_session(&agent, realm, 100),
    ]);
    assert!(agent.instrumentation_enabled());
    env.run(
        global,
        APP,
        false,
        "function f() { sample(); sample(); sample(); }\nf();",
    );
    let mut sessions = take_sessions();
    let trace = sessions[0].stop().unwrap();
    assert_eq!(trace.samples.len(), 3);
    assert_eq!(sessions[0].stop(), Err(SessionError::AlreadyStopped));
    assert!(agent.instrumentation_enabled(), "one session still started");
    set_sessions(sessions);
    env.run(global, APP, false, "f();");
    let mut sessions = take_sessions();
    let second = sessions[1].stop().unwrap();
    assert_eq!(second.samples.len(), 6);
    assert!(
        !agent.instrumentation_enabled(),
        "off after the last session"
    );
    // A session dropped while started, and one outliving its agent.
    let dropped = forced_session(&agent, realm, 10);
    drop(dropped);
    assert!(!agent.instrumentation_enabled());
    let mut orphan = forced_session(&agent, realm, 10);
    drop(agent);
    orphan.force_sample();
    assert_eq!(orphan.stop(), Err(SessionError::AgentGone));
}

/// Eager mode: the instrumentation is on from the agent's creation and
/// stays on after the last session; so a session started by a function that
/// was already running (interpreted: its profiling-stack entry is pushed at
/// call time, which only happens with the instrumentation on) sees it. A
/// lazy agent upgraded with `prepare(Eager)` behaves the same.
fn eager_mode_instruments_from_creation(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    START_REALM.with(|r| r.set(realm));
    for upgraded in [false, true] {
        let agent = if upgraded {
            let agent = env.agent(Preparation::Lazy);
            assert!(!agent.instrumentation_enabled());
            agent.prepare(Preparation::Eager);
            agent
        } else {
            env.agent(Preparation::Eager)
        };
        assert!(agent.instrumentation_enabled(), "on before any session");
        AGENT.with(|a| *a.borrow_mut() = Some(agent));
        env.run(
            global,
            APP,
            false,
            "function alreadyRunning() { startSession(); sample(); }\nalreadyRunning();",
        );
        let mut sessions = take_sessions();
        assert_eq!(sessions.len(), 1);
        let trace = sessions[0].stop().unwrap();
        let all = stacks(&trace);
        assert_eq!(all.len(), 1);
        assert_eq!(
            names(&all[0]),
            vec!["", "alreadyRunning"],
            "upgraded: {upgraded}"
        );
        let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
        assert!(
            agent.instrumentation_enabled(),
            "still on after the last session"
        );
        // A lazy request does not turn an eager agent lazy.
        agent.prepare(Preparation::Lazy);
        assert!(agent.instrumentation_enabled());
        drop(agent);
    }
}

/// A muted script's JIT code calls a native built-in (`JSON.parse`, which
/// allocates: minor GCs) many times, under a visible function that runs
/// once (interpreted). In a sample taken during a GC SpiderMonkey hides the
/// JIT frames, so the visible interpreted frame is the nearest one below
/// `parse`: the built-in must not be attributed to it. Signal path, 1 ms.
fn builtins_in_gc_samples_are_not_attributed(env: &mut Env) {
    let evil = "https://evil.example/gc.js";
    let visible = "https://example.com/gc-caller.js";
    env.register(evil, true);
    env.register(visible, false);
    let (global, realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    env.run(
        global,
        evil,
        true,
        "var secretJson = JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ i, s: 'v' + i })));\n\
         function secretParseLoop() { let n = 0; const s0 = captures(); const end = Date.now() + 20000;\n\
           while (captures() < s0 + 60 && Date.now() < end) n += JSON.parse(secretJson).length; return n; }\n",
    );
    let mut s = session(&agent, realm, 1.0, 100_000);
    AGENT.with(|a| *a.borrow_mut() = Some(agent));
    env.run(
        global,
        visible,
        false,
        "function visibleOnce() { return secretParseLoop(); }\nvisibleOnce();\n",
    );
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    assert!(agent.stats().handler_captures >= 60);
    let all = stacks(&trace);
    assert!(
        all.iter().any(|st| names(st).contains(&"visibleOnce")),
        "{all:?}"
    );
    for st in &all {
        let n = names(st);
        assert!(
            !n.contains(&"parse"),
            "parse attributed to visible code: {st:?}"
        );
        assert!(n.iter().all(|f| ["", "visibleOnce"].contains(f)), "{st:?}");
    }
    drop(agent);
}

/// Runs a spin loop named `spin_name` under a 1 ms session until the agent
/// has captured its thread's stack 30 times in the signal handler; returns
/// each sample's frame names.
fn spin_and_profile(env: &mut Env, spin_name: &str) -> Vec<Vec<String>> {
    let (global, mut s) = signal_session(env, 100_000);
    env.run(
        global,
        APP,
        false,
        &format!(
            "function {spin_name}() {{ const end = Date.now() + 20000; \
             while (captures() < 30 && Date.now() < end) {{ let x = 0; for (let i = 0; i < 10000; i++) x += Math.sqrt(i); }} }}\n\
             {spin_name}();\n"
        ),
    );
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    assert!(agent.stats().handler_captures >= 30);
    drop(agent);
    stacks(&trace)
        .iter()
        .map(|st| names(st).iter().map(|n| n.to_string()).collect())
        .collect()
}

fn two_agents_on_two_threads(env: &mut Env) {
    let parent = env.rt.prepare_for_new_child();
    let registry = env.registry.clone();
    let child = std::thread::spawn(move || {
        // SAFETY: the parent runtime outlives this child (it joins the
        // thread below before it is dropped).
        let rt = unsafe { Runtime::create_with_parent(parent) };
        let mut child_env = Env { rt, registry };
        // SAFETY: `trace_globals` only reads this thread's `GLOBALS`.
        unsafe {
            mozjs::rust::wrappers2::JS_AddExtraGCRootsTracer(
                child_env.rt.cx(),
                Some(trace_globals),
                ptr::null_mut(),
            );
        }
        let stacks = spin_and_profile(&mut child_env, "childSpin");
        GLOBALS.with(|g| g.borrow_mut().clear());
        drop(child_env);
        stacks
    });
    let main_stacks = spin_and_profile(env, "mainSpin");
    let child_stacks = child.join().expect("child thread");
    // Each agent's signal went to its own thread: each trace holds only its
    // own thread's JS.
    let count = |stacks: &Vec<Vec<String>>, name: &str| {
        stacks
            .iter()
            .filter(|s| s.iter().any(|n| n == name))
            .count()
    };
    assert!(count(&main_stacks, "mainSpin") >= 25, "{main_stacks:?}");
    assert_eq!(count(&main_stacks, "childSpin"), 0);
    assert!(count(&child_stacks, "childSpin") >= 25, "{child_stacks:?}");
    assert_eq!(count(&child_stacks, "mainSpin"), 0);
}

fn concurrent_sessions_get_their_own_rate(env: &mut Env) {
    let (_global, realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    let mut fast = session(&agent, realm, 1.0, 100_000);
    let mut slow = session(&agent, realm, 20.0, 100_000);
    // Wait (idle, no JS) until the slow session has three samples.
    let end = Instant::now() + Duration::from_secs(20);
    while slow.sample_count() < 3 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(5));
    }
    let slow_trace = slow.stop().unwrap();
    let fast_trace = fast.stop().unwrap();
    assert!(slow_trace.samples.len() >= 3);
    // Idle samples have no stack.
    assert!(fast_trace.samples.iter().all(|s| s.stack_id.is_none()));
    // Subsampling: the 1 ms session is served at every tick the 20 ms one is,
    // and at more.
    assert!(
        fast_trace.samples.len() > slow_trace.samples.len(),
        "{} vs {}",
        fast_trace.samples.len(),
        slow_trace.samples.len()
    );
    assert_eq!(fast.stop(), Err(SessionError::AlreadyStopped));
    drop(agent);
}

type Case = fn(&mut Env);

fn event_handler_attributes_add_no_frame(env: &mut Env) {
    let doc = "https://example.com/page.html";
    env.register(doc, false);
    // Line 40 of the document holds `onclick="clicked()"`, compiled alone.
    env.registry.register_event_handler(doc, 40);
    let (global, realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    env.run_at(global, doc, 10, "function clicked() { sample(); }\n");
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    env.run_at(
        global,
        doc,
        40,
        "(function onclick(event) { clicked(); })()",
    );
    env.run_at(
        global,
        doc,
        12,
        "(function inlineCaller() { clicked(); })()",
    );
    let mut sessions = take_sessions();
    let all = stacks(&sessions[0].stop().unwrap());
    assert_eq!(all.len(), 2);
    assert_eq!(names(&all[0]), vec!["clicked"], "{:?}", all[0]);
    assert_eq!(names(&all[1]), vec!["", "inlineCaller", "clicked"]);
    assert_eq!(
        all[1][2],
        (
            "clicked".to_owned(),
            Some(doc.to_owned()),
            Some(10),
            Some(17)
        )
    );
    drop(agent);
}

fn resource_is_the_response_url(env: &mut Env) {
    // The loader compiles with the request URL and registers the response
    // URL after redirects; `//# sourceURL` changes nothing.
    let request = "https://example.com/old.js";
    env.registry.register(
        request,
        ScriptInfo {
            url: "https://cdn.example.com/new.js".to_owned(),
            muted_errors: false,
        },
    );
    let (global, realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    set_sessions(vec![forced_session(&agent, realm, 10)]);
    env.run(
        global,
        request,
        false,
        "function redirected() { sample(); }\nredirected();\n//# sourceURL=https://evil.example/fake.js\n",
    );
    let mut sessions = take_sessions();
    let trace = sessions[0].stop().unwrap();
    assert_eq!(
        trace.resources,
        vec!["https://cdn.example.com/new.js".to_owned()]
    );
    assert_eq!(names(&stacks(&trace)[0]), vec!["", "redirected"]);
    drop(agent);
}

fn stop_from_inside_js(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    // Stopping turns the instrumentation off (and discards JIT code) while
    // JS frames, some JIT-compiled, are on the stack; the code keeps running.
    env.run(
        global,
        APP,
        false,
        "function hot(n) { let x = 0; for (let i = 0; i < n; i++) x += i % 7; return x; }\n\
         function inner() { sample(); hot(100000); stopAll(); return hot(100000); }\n\
         function outerStop() { let t = 0; for (let i = 0; i < 3; i++) t += inner(); sample(); return t; }\n\
         outerStop();\n",
    );
    assert!(!agent.instrumentation_enabled());
    let traces = STOPPED.with(|t| std::mem::take(&mut *t.borrow_mut()));
    assert_eq!(traces.len(), 1);
    let all = stacks(&traces[0]);
    assert_eq!(all.len(), 1, "samples after stop() are excluded");
    assert_eq!(names(&all[0]), vec!["", "outerStop", "inner"]);
    let mut sessions = take_sessions();
    assert_eq!(sessions[0].stop(), Err(SessionError::AlreadyStopped));
    drop(agent);
}

fn drop_from_inside_js(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    AGENT.with(|a| *a.borrow_mut() = Some(agent));
    // The last handle goes while frames that pushed onto the profiling
    // stack are still running: they pop when they return, so the stack
    // must stay installed (it is leaked), and later calls keep working.
    env.run(
        global,
        APP,
        false,
        "function hot(n) { let x = 0; for (let i = 0; i < n; i++) x += i % 7; return x; }\n\
         function innerDrop() { sample(); hot(1000); dropAgent(); return hot(1000); }\n\
         function outerDrop() { let t = 0; for (let i = 0; i < 3; i++) t += innerDrop(); return t; }\n\
         outerDrop(); outerDrop();\n",
    );
    assert!(AGENT.with(|a| a.borrow().is_none()));
    // A new agent on the same context still samples.
    let agent = env.agent(Preparation::Lazy);
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    env.run(
        global,
        APP,
        false,
        "function afterDrop() { sample(); }\nafterDrop();\n",
    );
    let mut sessions = take_sessions();
    let all = stacks(&sessions[0].stop().unwrap());
    assert_eq!(all.len(), 1);
    assert_eq!(names(&all[0]), vec!["", "afterDrop"]);
    drop(agent);
}

fn deep_stacks_keep_their_leaf(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(APP, false);
    let agent = env.agent(Preparation::Lazy);
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    // 600 frames: more than the preallocated capture buffers hold.
    env.run(
        global,
        APP,
        false,
        "function rec(n) { if (n === 0) { deepLeaf(); return 0; } return rec(n - 1) + 1; }\n\
         function deepLeaf() { sample(); sample(); }\n\
         rec(600);\n",
    );
    let mut sessions = take_sessions();
    let all = stacks(&sessions[0].stop().unwrap());
    assert_eq!(all.len(), 2);
    assert_eq!(
        agent.stats().truncated_samples,
        1,
        "only the first capture was short"
    );
    // The truncated sample lost root frames, never the leaf.
    assert_eq!(names(&all[0]).last(), Some(&"deepLeaf"));
    assert_eq!(names(&all[1]).last(), Some(&"deepLeaf"));
    assert!(
        all[0].len() < all[1].len(),
        "{} vs {}",
        all[0].len(),
        all[1].len()
    );
    // After growing, the whole stack: the top-level script, 601 rec, deepLeaf.
    assert_eq!(all[1].len(), 603);
    assert_eq!(names(&all[1])[0], "");
    assert!(names(&all[0])[..all[0].len() - 1]
        .iter()
        .all(|n| *n == "rec"));
    drop(agent);
}

/// Samples (signal path, 1 ms) taken where the JIT-aware walk is most fragile:
/// in call-dense recursion (most samples land near prologues and epilogues,
/// at every tier as the code warms up to Ion), in natives and VM functions
/// called from JIT code (exit frames), and while exceptions unwind through
/// JIT frames. Asserts that nothing crashes and that every stack is
/// well-formed: root first, the page's scripted frames in an order the
/// program can produce, built-ins only at the leaf end, called by the phase
/// that calls them.
fn jit_transitions_stress(env: &mut Env) {
    let (global, mut s) = signal_session(env, 1_000_000);
    env.run(
        global,
        APP,
        false,
        "function rec(n) { return n < 2 ? n : rec(n - 1) + rec(n - 2); }\n\
         function recDriver(quota) { const s0 = captures(); const end = Date.now() + 20000; let x = 0;\n\
           while (captures() < s0 + quota && Date.now() < end) x += rec(18); return x; }\n\
         function callNatives(i) { const o = { a: i, b: 'x' + i, c: [i, i + 1] };\n\
           const t = JSON.stringify(o); const k = Object.keys(o).join('-');\n\
           return t.split(',').length + k.length + Math.hypot(i, 3) + parseInt('' + i, 10); }\n\
         function nativeDriver(quota) { const s0 = captures(); const end = Date.now() + 20000; let x = 0;\n\
           for (let i = 0; captures() < s0 + quota && Date.now() < end; i++) x += callNatives(i); return x; }\n\
         function thrower(n) { if (n === 0) throw new Error('deep'); return thrower(n - 1) + 1; }\n\
         function catcher(n) { try { return thrower(n); } catch (e) { return e.message.length; } }\n\
         function throwDriver(quota) { const s0 = captures(); const end = Date.now() + 20000; let x = 0;\n\
           for (let i = 0; captures() < s0 + quota && Date.now() < end; i++) x += catcher(20 + (i % 20)); return x; }\n\
         recDriver(150); nativeDriver(150); throwDriver(150);\n",
    );
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    assert!(agent.stats().handler_captures >= 450, "{:?}", agent.stats());
    let all = stacks(&trace);
    let mut seen = [0usize; 3];
    for st in all.iter().filter(|st| !st.is_empty()) {
        // Scripted frames (with a resource) first, then built-ins only.
        let scripted = st.iter().take_while(|f| f.1.is_some()).count();
        assert!(
            st[scripted..].iter().all(|f| f.1.is_none()),
            "a built-in below a scripted frame: {st:?}"
        );
        assert!(st[..scripted].iter().all(|f| f.1.as_deref() == Some(APP)));
        let n: Vec<&str> = st[..scripted].iter().map(|f| f.0.as_str()).collect();
        // The top-level script, a driver, then the phase's frames.
        let Some((&"", rest)) = n.split_first() else {
            panic!("not rooted at the top-level script: {st:?}");
        };
        let (phase, body) = match rest.split_first() {
            Some((&"recDriver", body)) => (0, body),
            Some((&"nativeDriver", body)) => (1, body),
            Some((&"throwDriver", body)) => (2, body),
            None => continue,
            _ => panic!("unexpected root: {st:?}"),
        };
        let well_formed = match phase {
            0 => body.iter().all(|f| *f == "rec"),
            1 => body.is_empty() || body == ["callNatives"],
            _ => {
                body.is_empty()
                    || (body[0] == "catcher" && body[1..].iter().all(|f| *f == "thrower"))
            }
        };
        assert!(well_formed, "malformed stack: {st:?}");
        if phase == 0 {
            assert!(body.len() <= 18, "deeper than the recursion: {st:?}");
        }
        if phase == 2 {
            assert!(body.len() <= 41, "deeper than the recursion: {st:?}");
        }
        // Built-ins: called by callNatives and thrower (`Error`) or, for
        // `captures`, by the drivers; nothing else calls one.
        if scripted < st.len() {
            let caller = *n.last().unwrap();
            assert!(
                [
                    "callNatives",
                    "thrower",
                    "catcher",
                    "recDriver",
                    "nativeDriver",
                    "throwDriver"
                ]
                .contains(&caller),
                "built-in under {caller}: {st:?}"
            );
        }
        if !body.is_empty() {
            seen[phase] += 1;
        }
    }
    // Each phase was sampled inside its own frames, not only in its driver.
    assert!(seen.iter().all(|&c| c >= 20), "samples per phase: {seen:?}");
    drop(agent);
}

/// The register-started walk (SpiderMonkey patch 0003, what sessions use
/// by default; other builds have nothing to check here): signal samples
/// (1 ms) of Ion code calling a C++ native (`JSON.parse`), of a deep
/// recursion, and of a function warming up through every tier. The walk
/// starts from the interrupted registers: in JIT code at the frame in fp, in
/// C++ from the record of the ABI call that entered it. Asserts that those
/// starts happened, that a native's samples keep its JS caller under it,
/// that the recursion is walked to its full depth, that every tier was
/// attributed, and that the samples the walk could not start are few and
/// counted (`jit_walk_counts`).
fn register_walk_from_signals(env: &mut Env) {
    use jsprof_sampler::glue::{
        jit_register_walk_available, jit_register_walk_selected, jit_walk_counts, JIT_WALK_STARTS,
    };
    if !jit_register_walk_available() {
        println!("  (SpiderMonkey without patch 0003: no register-started walk to check)");
        assert!(jit_walk_counts().is_none());
        return;
    }
    if !jit_register_walk_selected() {
        println!("  (profiler.jit-frame-bookkeeping=1: SpiderMonkey's bookkeeping, not the walk)");
        return;
    }
    let before = jit_walk_counts().unwrap();
    let (global, mut s) = signal_session(env, 1_000_000);
    env.run(
        global,
        APP,
        false,
        "function parseMany(text) { let n = 0; for (let i = 0; i < 20; i++) n += JSON.parse(text).a.length; return n; }\n\
         function parseDriver(quota) { const s0 = captures(); const end = Date.now() + 20000;\n\
           const text = JSON.stringify({ a: new Array(3000).fill(7) }); let x = 0;\n\
           while (captures() < s0 + quota && Date.now() < end) x += parseMany(text); return x; }\n\
         function spinAt(n) { let x = 0; for (let i = 0; i < 3000; i++) x += (i * n) % 7; return x; }\n\
         function deep(n) { return n === 0 ? spinAt(n) : deep(n - 1) + 1; }\n\
         function deepDriver(quota) { const s0 = captures(); const end = Date.now() + 20000; let x = 0;\n\
           while (captures() < s0 + quota && Date.now() < end) x += deep(200); return x; }\n\
         function warm(i) { let x = 0; for (let j = 0; j < 50; j++) x += (i ^ j) & 3; return x; }\n\
         function warmDriver(quota) { const s0 = captures(); const end = Date.now() + 20000; let x = 0;\n\
           for (let i = 0; captures() < s0 + quota && Date.now() < end; i++) x += warm(i); return x; }\n\
         warmDriver(200); parseDriver(300); deepDriver(300);\n",
    );
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    let after = jit_walk_counts().unwrap();
    let delta: Vec<u64> = after
        .iter()
        .zip(before.iter())
        .map(|(a, b)| a - b)
        .collect();
    let report: Vec<String> = JIT_WALK_STARTS
        .iter()
        .zip(delta.iter())
        .map(|(n, d)| format!("{n} {d}"))
        .collect();
    println!("  walk starts: {}", report.join(", "));
    let started = |name: &str| delta[JIT_WALK_STARTS.iter().position(|n| *n == name).unwrap()];
    assert!(started("jit-body") > 0, "{report:?}");
    assert!(started("cpp-from-jit") > 0, "{report:?}");
    let count = |keep: fn(&str) -> bool| -> u64 {
        JIT_WALK_STARTS
            .iter()
            .zip(&delta)
            .filter(|(n, _)| keep(n))
            .map(|(_, d)| d)
            .sum()
    };
    let walked = count(|n| n != "none");
    let lost = count(|n| n.starts_with("lost-"));
    // A bound, not a measurement: the prologue/epilogue windows are attributed
    // (to the caller), so only stubs without a certain frame type are lost.
    assert!(lost * 20 <= walked, "lost {lost} of {walked}: {report:?}");
    // Every tier was attributed from signal samples.
    let tiers = agent.stats().frames_by_tier;
    assert!(tiers.iter().all(|n| *n > 0), "frames by tier {tiers:?}");
    let all = stacks(&trace);
    let (mut in_parse, mut parse_builtin, mut full_depth) = (0, 0, 0);
    for st in all.iter().filter(|st| !st.is_empty()) {
        let scripted = st.iter().take_while(|f| f.1.is_some()).count();
        assert!(st[scripted..].iter().all(|f| f.1.is_none()), "{st:?}");
        let n: Vec<&str> = st[..scripted].iter().map(|f| f.0.as_str()).collect();
        match n.as_slice() {
            ["", "parseDriver", "parseMany"] => {
                in_parse += 1;
                // JSON.parse's C++ (its built-in frame) under its JS caller.
                if scripted < st.len() {
                    parse_builtin += 1;
                }
            }
            ["", "parseDriver"] | ["", "deepDriver"] | ["", "warmDriver"] | [""] | [] => {}
            ["", "warmDriver", "warm"] => {}
            ["", "deepDriver", rest @ ..] => {
                let depth = rest.iter().take_while(|f| **f == "deep").count();
                assert!(depth <= 201, "deeper than the recursion: {st:?}");
                assert!(
                    rest[depth..].is_empty() || rest[depth..] == ["spinAt"],
                    "malformed: {st:?}"
                );
                if depth == 201 && rest[depth..] == ["spinAt"] {
                    full_depth += 1;
                }
            }
            _ => panic!("malformed stack: {st:?}"),
        }
    }
    assert!(in_parse >= 20, "samples in parseMany: {in_parse}");
    assert!(
        parse_builtin >= 10,
        "samples in JSON.parse under parseMany: {parse_builtin}"
    );
    assert!(full_depth >= 20, "samples at the full depth: {full_depth}");
    drop(agent);
}

fn main() {
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
    // register-started walk, what sessions use by default (glue.cpp,
    // kRegisterWalkByDefault); `./mach test` runs them a second time with
    // `profiler.jit-frame-bookkeeping=1`, SpiderMonkey's bookkeeping, so
    // that both walks are tested.
    if let Ok(spec) = std::env::var("JSPROF_BENCH_JIT") {
        jsprof_sampler::set_jit_options(env.rt.cx(), &spec).expect("JSPROF_BENCH_JIT");
    }
    let cases: &[(&str, Case)] = &[
        ("nested_call_at_every_tier", nested_call_at_every_tier),
        ("realms_are_separate", realms_are_separate),
        ("muted_scripts_never_appear", muted_scripts_never_appear),
        ("buffer_limit_is_exact", buffer_limit_is_exact),
        ("deep_stacks_keep_their_leaf", deep_stacks_keep_their_leaf),
        ("stop_from_inside_js", stop_from_inside_js),
        ("drop_from_inside_js", drop_from_inside_js),
        ("resource_is_the_response_url", resource_is_the_response_url),
        (
            "event_handler_attributes_add_no_frame",
            event_handler_attributes_add_no_frame,
        ),
        ("stop_excludes_later_samples", stop_excludes_later_samples),
        (
            "eager_mode_instruments_from_creation",
            eager_mode_instruments_from_creation,
        ),
        ("async_sampler_captures_js", async_sampler_captures_js),
        ("jit_transitions_stress", jit_transitions_stress),
        (
            "on_thread_fallback_captures_js",
            on_thread_fallback_captures_js,
        ),
        ("two_agents_on_two_threads", two_agents_on_two_threads),
        (
            "concurrent_sessions_get_their_own_rate",
            concurrent_sessions_get_their_own_rate,
        ),
        (
            "builtins_in_gc_samples_are_not_attributed",
            builtins_in_gc_samples_are_not_attributed,
        ),
        (
            "visible_wasm_at_both_tiers",
            wasm::visible_wasm_at_both_tiers,
        ),
        ("muted_wasm_never_appears", wasm::muted_wasm_never_appears),
        ("wasm_realms_are_separate", wasm::wasm_realms_are_separate),
        ("async_sampler_wasm", wasm::async_sampler_wasm),
        ("register_walk_from_signals", register_walk_from_signals),
    ];
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let mut failed = 0;
    for (name, case) in cases {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let result = catch_unwind(AssertUnwindSafe(|| case(&mut env)));
        take_sessions();
        AGENT.with(|a| a.borrow_mut().take());
        match result {
            Ok(()) => println!("test {name} ... ok"),
            Err(_) => {
                println!("test {name} ... FAILED");
                failed += 1;
            }
        }
    }
    GLOBALS.with(|g| g.borrow_mut().clear());
    drop(env);
    drop(engine);
    if failed > 0 {
        eprintln!("{failed} case(s) failed");
        std::process::exit(1);
    }
}
