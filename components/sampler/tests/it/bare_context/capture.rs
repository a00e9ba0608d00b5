//! Bare-context cases of the capture itself: every tier and the JIT
//! transitions, the signal handler and the on-thread fallback, eager
//! preparation, GC samples, deep stacks, and the register-started walk.

use super::*;

pub(super) fn nested_call_at_every_tier(env: &mut Env) {
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

pub(super) fn async_sampler_captures_js(env: &mut Env) {
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

pub(super) fn on_thread_fallback_captures_js(env: &mut Env) {
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

/// Eager mode: the instrumentation is on from the agent's creation and
/// stays on after the last session; so a session started by a function that
/// was already running (interpreted: its profiling-stack entry is pushed at
/// call time, which only happens with the instrumentation on) sees it. A
/// lazy agent upgraded with `prepare(Eager)` behaves the same.
pub(super) fn eager_mode_instruments_from_creation(env: &mut Env) {
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
pub(super) fn builtins_in_gc_samples_are_not_attributed(env: &mut Env) {
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

pub(super) fn deep_stacks_keep_their_leaf(env: &mut Env) {
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
pub(super) fn jit_transitions_stress(env: &mut Env) {
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
pub(super) fn register_walk_from_signals(env: &mut Env) {
    use jsprof_sampler::{
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
