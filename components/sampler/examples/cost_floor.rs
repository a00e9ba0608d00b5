//! The profiler's steady instruction cost on one workload, for callgrind
//! (not part of the tests; see README, "Cost of profiling"):
//! `cost_floor <off|inst|sample> <workload.js> [iterations]` (`sample`: a
//! 1 ms session that prints how the register-started walk's starts went).
//!
//! Runs a `benches/real/workloads/*.js` file's `BENCH.run()` `iterations`
//! times (default 2) in a bare context, with no profiler (`off`) or with a
//! session that never samples (`inst`: the instrumentation alone). The
//! context takes SpiderMonkey options from `JSPROF_BENCH_JIT`
//! (`ion.enable=0,...`, and with the patched SpiderMonkey
//! `profiler.jit-frame-bookkeeping=0`), as the shell does. A smaller binary
//! than the shell, so a patched SpiderMonkey can be measured without
//! rebuilding the whole browser.

#[path = "../benches/support/mod.rs"]
mod support;

use std::time::Instant;

use jsprof_sampler::{Preparation, Session, SessionOptions};
use support::Js;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(config), Some(path)) = (args.next(), args.next()) else {
        eprintln!("usage: cost_floor <off|inst|sample> <workload.js> [iterations]");
        std::process::exit(2);
    };
    let iterations: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("cost_floor: {path}: {e}");
        std::process::exit(2);
    });
    let mut js = Js::init();
    if let Ok(spec) = std::env::var("JSPROF_BENCH_JIT") {
        if let Err(message) = jsprof_sampler::set_jit_options(js.rt.cx(), &spec) {
            eprintln!("cost_floor: JSPROF_BENCH_JIT: {message}");
            std::process::exit(2);
        }
    }
    let agent = js.agent(Preparation::Lazy);
    let mut session = match config.as_str() {
        "off" => None,
        "inst" | "sample" => Some(Session::start(
            &agent,
            SessionOptions {
                // `sample`: a 1 ms session, for the register-started walk's
                // counts (printed at the end), not for instruction counts.
                sample_interval_ms: if config == "sample" { 1.0 } else { 1.0e9 },
                max_buffer_size: if config == "sample" { 1_000_000 } else { 1000 },
                realm_id: js.realm,
                time_origin: Instant::now(),
                cross_origin_isolated: false,
                on_buffer_full: None,
                markers: None,
            },
        )),
        other => {
            eprintln!("cost_floor: unknown configuration {other}");
            std::process::exit(2);
        }
    };
    js.eval(&source);
    let t0 = Instant::now();
    let result = js.eval(&format!(
        "var s = 0; for (var i = 0; i < {iterations}; i++) s += +BENCH.run(); s"
    ));
    let elapsed = t0.elapsed();
    if let Some(session) = session.as_mut() {
        session.stop().expect("the session stops");
    }
    println!(
        "cost_floor {config} {path}: {iterations} iterations, result {result}, {:.1} ms",
        elapsed.as_secs_f64() * 1e3
    );
    if let Some(counts) = jsprof_sampler::jit_walk_counts() {
        let walked: u64 = counts[1..].iter().sum();
        let parts: Vec<String> = jsprof_sampler::JIT_WALK_STARTS
            .iter()
            .zip(counts.iter())
            .skip(1)
            .filter(|(_, c)| **c > 0)
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        println!(
            "register-started walk: {walked} walks: {}",
            parts.join(", ")
        );
    }
}
