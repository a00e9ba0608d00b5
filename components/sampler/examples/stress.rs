//! The stress run (not part of the tests):
//! `cargo run --release -p jsprof-sampler --example stress -- [samples]`
//! (default 10,000,000). Samples at 100 µs across GC-heavy, eval-heavy,
//! exception-heavy and WebAssembly code (a new instance per call: the engine
//! takes the module's label lock then, which the signal handler must never
//! wait for), restarting the session every 1,000,000 samples, and fails if
//! any JIT address went unresolved or no wasm frame was ever labelled.

#[path = "../benches/support/mod.rs"]
mod support;

use std::time::Instant;

use jsprof_sampler::{Preparation, Session, SessionOptions};
use support::Js;

const CODE: &str = r#"
function gcHeavy() { let keep = []; for (let i = 0; i < 20000; i++) { keep.push({ i, s: 'x' + i, a: new Array(8) }); if (keep.length > 500) keep = []; } return keep.length; }
function evalHeavy(k) { let x = 0; for (let i = 0; i < 50; i++) { x += eval('(function e' + ((k * 50 + i) % 997) + '(v) { return v + ' + i + '; })')(i); x += new Function('a', 'return a * ' + i)(2); } return x; }
function exceptionHeavy() { let c = 0; for (let i = 0; i < 2000; i++) { try { if (i % 2) throw new Error('e' + i); JSON.parse('{bad'); } catch (e) { c += e.message.length; } } return c; }
function* gen(n) { for (let i = 0; i < n; i++) yield i; }
async function asyncPart() { let s = 0; for (const v of gen(1000)) s += await v; return s; }
var wasmMod = new WebAssembly.Module(wasmModule('stressLeaf', 'stressMiddle', 'stressRun'));
function wasmHook(i) { if (i % 4096 === 0) JSON.parse('[1,2,3]'); }
function wasmHeavy() { let s = 0; for (let i = 0; i < 20; i++) s += new WebAssembly.Instance(wasmMod, { env: { hook: wasmHook } }).exports.run(20000); return s; }
function mix(k) { return gcHeavy() + evalHeavy(k) + exceptionHeavy() + [...gen(100)].length + wasmHeavy(); }
"#;

/// The wasm module assembler of the tests.
const WASM_JS: &str = include_str!("../tests/wasm/module.js");

fn main() {
    let target: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let mut js = Js::init();
    js.eval(WASM_JS);
    js.eval(CODE);
    let agent = js.agent(Preparation::Lazy);
    let t0 = Instant::now();
    let mut total = 0u64;
    let mut k = 0u64;
    while total < target {
        let mut session = Session::start(
            &agent,
            SessionOptions {
                sample_interval_ms: 0.1,
                max_buffer_size: 1_000_000,
                realm_id: js.realm,
                time_origin: Instant::now(),
                cross_origin_isolated: true,
                markers: None,
                on_buffer_full: None,
            },
        );
        let chunk_target = (target - total).min(1_000_000) as usize;
        let mut last_report = Instant::now();
        loop {
            let taken = session.sample_count();
            if taken >= chunk_target {
                break;
            }
            if last_report.elapsed().as_secs() >= 10 {
                last_report = Instant::now();
                println!(
                    "  {} samples in this session, {:.0} s, mix() runs {k}",
                    taken,
                    t0.elapsed().as_secs_f64()
                );
            }
            js.eval(&format!("mix({k})"));
            k += 1;
            agent.poll();
        }
        let trace = session.stop().expect("stop");
        total += trace.samples.len() as u64;
        let stats = agent.stats();
        println!(
            "{total} samples in {:.0} s; handler captures {}, JIT addresses resolved {} unresolved {}, truncated {}",
            t0.elapsed().as_secs_f64(),
            stats.handler_captures,
            stats.resolved_addresses,
            stats.unresolved_addresses,
            stats.truncated_samples
        );
        println!(
            "  wasm frames resolved: baseline {} Ion {}; samples with wasm labels withheld {}",
            stats.wasm_frames_by_tier[0], stats.wasm_frames_by_tier[1], stats.wasm_withheld_samples
        );
        assert_eq!(stats.unresolved_addresses, 0, "every address resolved");
        assert!(
            stats.wasm_frames_by_tier.iter().sum::<u64>() > 0,
            "wasm frames were labelled"
        );
    }
    println!("stress OK");
}
