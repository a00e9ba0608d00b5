//! Profiling a bare SpiderMonkey runtime through the sampler's public API
//! only: what an embedder does (the crate docs, "What the embedder does"),
//! without any DOM. It creates a runtime and a global, registers the
//! script, starts a session, runs the script, stops the session and prints
//! a summary of the trace:
//!
//! ```sh
//! cargo run --release -p jsprof-sampler --example embed
//! ```
//!
//! `cargo test` runs it as a test (one engine per process: one `#[test]`).

use std::collections::BTreeMap;
use std::ffi::CString;
use std::ptr;
use std::time::Instant;

use jsprof_sampler::{
    allocate_profiler_realm_id, install_wasm_compile_hook, set_profiler_realm_id, AgentSampler,
    Preparation, ProfilerTrace, ScriptInfo, ScriptRegistry, Session, SessionOptions,
};
use mozjs::jsapi::OnNewGlobalHookOption;
use mozjs::jsval::UndefinedValue;
use mozjs::rooted;
use mozjs::rust::wrappers2::JS_NewGlobalObject;
use mozjs::rust::{
    evaluate_script, CompileOptionsWrapper, JSEngine, RealmOptions, Runtime, SIMPLE_GLOBAL_CLASS,
};

/// The script's file name as it is compiled, and its URL in the trace.
const SCRIPT_URL: &str = "https://example.com/embed.js";

/// A script busy for about 300 ms in `work`, which calls `fib`.
const SCRIPT: &str = r#"
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function work(ms) {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n += fib(20);
  return n;
}
work(300);
"#;

/// Runs [`SCRIPT`] in a new runtime under a 1 ms session; the session's
/// trace.
fn profile() -> ProfilerTrace {
    let engine = JSEngine::init().expect("one engine per process");
    let mut runtime = Runtime::new(engine.handle());
    // Once per context, before any script runs: WebAssembly frames are
    // attributed only to compilations this hook saw.
    assert!(install_wasm_compile_hook(runtime.cx()));
    // Every global gets a process-unique realm ID before it is created:
    // sessions take the samples of their own realm only.
    let realm_id = allocate_profiler_realm_id();
    let mut options = RealmOptions::default();
    set_profiler_realm_id(&mut options, realm_id);
    let cx = runtime.cx();
    // SAFETY: `options` outlives the call; the global is rooted at once,
    // for the rest of the function.
    rooted!(&in(cx) let global = unsafe {
        JS_NewGlobalObject(
            cx,
            &SIMPLE_GLOBAL_CLASS,
            ptr::null_mut(),
            OnNewGlobalHookOption::FireOnNewGlobalHook,
            &*options,
        )
    });
    assert!(!global.get().is_null(), "the global");
    // Every compiled script, under the file name it is compiled with: its
    // URL and whether its errors are muted (a muted script's frames never
    // appear). An unknown one is treated as muted.
    let registry = ScriptRegistry::new();
    registry.register(
        SCRIPT_URL,
        ScriptInfo {
            url: SCRIPT_URL.to_owned(),
            muted_errors: false,
        },
    );
    // One agent per context; one session per `Profiler`.
    let agent = AgentSampler::new(runtime.cx(), registry, Preparation::Lazy);
    let mut session = Session::start(
        &agent,
        SessionOptions {
            sample_interval_ms: 1.0,
            max_buffer_size: 10_000,
            realm_id,
            time_origin: Instant::now(),
            cross_origin_isolated: false,
            markers: None,
            on_buffer_full: None,
        },
    );
    let cx = runtime.cx();
    rooted!(&in(cx) let mut rval = UndefinedValue());
    let compile = CompileOptionsWrapper::new(cx, CString::new(SCRIPT_URL).unwrap(), 1);
    let ran = evaluate_script(cx, global.handle(), SCRIPT, rval.handle_mut(), compile);
    assert!(ran.is_ok(), "the script threw");
    session.stop().expect("a started session stops")
}

/// Samples per function: as the leaf (self) and anywhere on the stack
/// (total, once per sample).
#[derive(Debug, Default)]
struct Summary {
    samples: usize,
    with_stack: usize,
    /// Function name → (self, total).
    functions: BTreeMap<String, (usize, usize)>,
}

impl Summary {
    fn of(trace: &ProfilerTrace) -> Summary {
        let mut summary = Summary {
            samples: trace.samples.len(),
            ..Summary::default()
        };
        for sample in &trace.samples {
            let Some(mut stack_id) = sample.stack_id else {
                continue;
            };
            summary.with_stack += 1;
            let mut seen = Vec::new();
            let mut leaf = true;
            loop {
                let stack = &trace.stacks[stack_id as usize];
                let name = &trace.frames[stack.frame_id as usize].name;
                let counts = summary.functions.entry(name.clone()).or_default();
                if leaf {
                    counts.0 += 1;
                    leaf = false;
                }
                if !seen.contains(name) {
                    counts.1 += 1;
                    seen.push(name.clone());
                }
                match stack.parent_id {
                    Some(parent) => stack_id = parent,
                    None => break,
                }
            }
        }
        summary
    }

    /// Samples with `name` on the stack (the test's check).
    #[cfg_attr(not(test), allow(dead_code))]
    fn total(&self, name: &str) -> usize {
        self.functions.get(name).map_or(0, |counts| counts.1)
    }
}

fn main() {
    let trace = profile();
    let summary = Summary::of(&trace);
    println!(
        "{} samples, {} with a stack ({} with `work` on it); resources {:?}",
        summary.samples,
        summary.with_stack,
        summary.total("work"),
        trace.resources
    );
    println!("{:>6} {:>6}  function", "self", "total");
    let mut rows: Vec<_> = summary.functions.iter().collect();
    rows.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(a.0.cmp(b.0)));
    for (name, (self_samples, total)) in rows {
        // The top-level script and anonymous functions have no name.
        let name = if name.is_empty() { "(anonymous)" } else { name };
        println!("{self_samples:>6} {total:>6}  {name}");
    }
}

#[test]
fn profiles_a_bare_runtime() {
    let trace = profile();
    let summary = Summary::of(&trace);
    assert!(summary.with_stack > 0, "{summary:?}");
    assert!(summary.total("fib") > 0, "{summary:?}");
    // `fib` only runs under `work`.
    assert!(summary.total("work") >= summary.total("fib"), "{summary:?}");
    assert_eq!(trace.resources, [SCRIPT_URL]);
}
