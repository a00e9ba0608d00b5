//! A bare SpiderMonkey context for the benchmark and the stress run.
// Shared by the benchmark and the stress example; each uses a subset.
#![allow(dead_code)]

use std::ffi::CString;
use std::ptr;
use std::time::Instant;

use jsprof_sampler::{
    allocate_profiler_realm_id, set_profiler_realm_id, AgentSampler, Preparation, ScriptInfo,
    ScriptRegistry,
};
use mozjs::gc::Traceable;
use mozjs::jsapi::{
    CallArgs, Heap, JSContext as RawJSContext, JSObject, OnNewGlobalHookOption, Value,
};
use mozjs::jsval::{DoubleValue, UndefinedValue};
use mozjs::realm::AutoRealm;
use mozjs::rooted;
use mozjs::rust::wrappers2::{JS_AddExtraGCRootsTracer, JS_DefineFunction, JS_NewGlobalObject};
use mozjs::rust::{
    evaluate_script, CompileOptionsWrapper, JSEngine, RealmOptions, Runtime, SIMPLE_GLOBAL_CLASS,
};

pub const URL: &str = "https://example.com/bench.js";

thread_local! {
    static START: Instant = Instant::now();
}

unsafe extern "C" fn js_now(_cx: *mut RawJSContext, argc: u32, vp: *mut Value) -> bool {
    // SAFETY: SpiderMonkey calls this native with a valid `vp`/`argc` pair.
    let args = unsafe { CallArgs::from_vp(vp, argc) };
    let ms = START.with(|s| s.elapsed().as_secs_f64() * 1000.0);
    args.rval().set(DoubleValue(ms));
    true
}

unsafe extern "C" fn trace_global(trc: *mut mozjs::jsapi::JSTracer, data: *mut std::ffi::c_void) {
    let heap = data as *const Heap<*mut JSObject>;
    // SAFETY: `data` is the boxed global `Heap` registered with this tracer,
    // removed before the box is dropped.
    unsafe { (*heap).trace(trc) };
}

pub struct Js {
    pub rt: Runtime,
    global: Box<Heap<*mut JSObject>>,
    pub realm: u64,
    pub registry: ScriptRegistry,
    _engine: JSEngine,
}

impl Js {
    pub fn init() -> Js {
        let engine = JSEngine::init().unwrap();
        let mut rt = Runtime::new(engine.handle());
        assert!(jsprof_sampler::install_wasm_compile_hook(rt.cx()));
        let realm = allocate_profiler_realm_id();
        let mut options = RealmOptions::default();
        set_profiler_realm_id(&mut options, realm);
        let cx = rt.cx();
        // SAFETY: the global is rooted before anything can GC, and `options`
        // outlives the call.
        let global = unsafe {
            rooted!(&in(cx) let global = JS_NewGlobalObject(
                cx,
                &SIMPLE_GLOBAL_CLASS,
                ptr::null_mut(),
                OnNewGlobalHookOption::FireOnNewGlobalHook,
                &*options,
            ));
            let mut realm = AutoRealm::new_from_handle(cx, global.handle());
            let cx = &mut realm;
            assert!(
                !JS_DefineFunction(cx, global.handle(), c"now".as_ptr(), Some(js_now), 0, 0)
                    .is_null()
            );
            Heap::boxed(global.get())
        };
        // SAFETY: the boxed `Heap` stays at its address while `Js` lives; the
        // tracer is removed in `Drop` before the box goes.
        unsafe {
            JS_AddExtraGCRootsTracer(
                rt.cx(),
                Some(trace_global),
                &*global as *const Heap<*mut JSObject> as *mut std::ffi::c_void,
            );
        }
        let registry = ScriptRegistry::new();
        registry.register(
            URL,
            ScriptInfo {
                url: URL.to_owned(),
                muted_errors: false,
            },
        );
        Js {
            rt,
            global,
            realm,
            registry,
            _engine: engine,
        }
    }

    pub fn agent(&mut self, preparation: Preparation) -> AgentSampler {
        let registry = self.registry.clone();
        AgentSampler::new(self.rt.cx(), registry, preparation)
    }

    /// Runs `source`; returns its completion value as a number (NaN if not).
    pub fn eval(&mut self, source: &str) -> f64 {
        let cx = self.rt.cx();
        rooted!(&in(cx) let global = self.global.get());
        rooted!(&in(cx) let mut rval = UndefinedValue());
        let options = CompileOptionsWrapper::new(cx, CString::new(URL).unwrap(), 1);
        evaluate_script(cx, global.handle(), source, rval.handle_mut(), options)
            .expect("script threw");
        if rval.get().is_number() {
            rval.get().to_number()
        } else {
            f64::NAN
        }
    }
}

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let idx = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[idx]
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    percentile(&v, 0.5)
}
