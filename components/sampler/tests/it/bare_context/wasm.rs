//! WebAssembly cases of the bare-context tests: a hand-assembled module
//! (`wasmModule(names)` below) with a name section, compiled from bytes by
//! visible and muted scripts, in one or two realms.

use super::*;

// Each case compiles under its own file name: compilation sites are
// recorded per (file, line) for the whole run, and the realms of earlier
// cases stay alive (one site in two live realms is never attributed).
const TIERS_JS: &str = "https://example.com/wasm-tiers.js";
const MUTED_CASE_JS: &str = "https://example.com/wasm-muted-case.js";
const ASYNC_JS: &str = "https://example.com/wasm-async.js";

/// JS helpers (`module.js`, also used by the shell's wasm leak tests):
/// `wasmModule(leaf, middle, run)` assembles a module whose
/// functions are named by the name section (an empty name: none, so
/// SpiderMonkey's default `wasm-function[i]`):
///
/// * import 0 `env.hook(i)`;
/// * 1 leaf(i): calls `hook(i)` when `i % 1024 == 0`, returns `i + 1`;
/// * 2 middle(i): returns `leaf(i) * 2`;
/// * 3 run(n): returns the sum of `middle(i)` for `i` in `0..n`.
///
/// Exports `run` and `middle`.
const WASM_JS: &str = include_str!("../../wasm/module.js");

/// Runs the helpers, then `source` starting on the line after them.
fn run_with_wasm(env: &mut Env, global: NonNull<JSObject>, file: &str, muted: bool, source: &str) {
    env.run(global, file, muted, &format!("{WASM_JS}{source}"));
}

/// The line `needle` is on in `run_with_wasm`'s combined source.
fn line_of(source: &str, needle: &str) -> u64 {
    let combined = format!("{WASM_JS}{source}");
    let at = combined.find(needle).expect("needle in source");
    combined[..at].matches('\n').count() as u64 + 1
}

/// Checks one sample of `visible_wasm_at_both_tiers`'s loop: the JS frames
/// below, the wasm frames in call order, each with the module's URL and
/// compile line and no column, then `hook`. SpiderMonkey's frame iterator
/// omits some wasm frames: the function that called a JS import through
/// the fast (JIT) exit, and functions Ion inlined; so the wasm part is an
/// in-order, non-empty part of `run → middle → leaf`.
fn check_wasm_stack(stack: &[Frame], lines: &Lines, leaf_required: bool) {
    let app = Some(TIERS_JS.to_owned());
    assert!(stack.len() >= 5, "stack {stack:?}");
    assert_eq!(
        stack[..3],
        [
            ("".to_owned(), app.clone(), None, None),
            ("spinUntilIon".to_owned(), app.clone(), lines.spin, Some(22)),
            ("driveWasm".to_owned(), app.clone(), lines.drive, Some(19)),
        ],
        "stack {stack:?}"
    );
    assert_eq!(
        stack[stack.len() - 1],
        ("hook".to_owned(), app.clone(), lines.hook, Some(14)),
        "stack {stack:?}"
    );
    let wasm = &stack[3..stack.len() - 1];
    let order = ["wasm-function[3]", "wasmMiddle", "wasmLeaf"];
    for frame in wasm {
        assert_eq!(
            (&frame.1, frame.2, frame.3),
            (&app, lines.module, None),
            "stack {stack:?}"
        );
    }
    assert_in_order(wasm.iter().map(|f| f.0.as_str()), &order, &stack);
    assert!(!wasm.is_empty(), "no wasm frame in {stack:?}");
    if leaf_required {
        assert_eq!(names(wasm), order, "stack {stack:?}");
    }
}

struct Lines {
    module: Option<u64>,
    spin: Option<u64>,
    drive: Option<u64>,
    hook: Option<u64>,
}

/// A visible script's module: its functions appear with their name-section
/// names (or SpiderMonkey's default `wasm-function[i]`), the script's URL
/// and the line of the compiling call, at the baseline and the Ion tier,
/// between the JS frames around them. The trampolines between JS and wasm
/// never appear.
pub(super) fn visible_wasm_at_both_tiers(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(TIERS_JS, false);
    let agent = env.agent(Preparation::Lazy);
    let source = "var mod = new WebAssembly.Module(wasmModule('wasmLeaf', 'wasmMiddle', ''));\n\
        var sampleEvery = 0;\n\
        function hook(i) { if (sampleEvery && i % sampleEvery === 0) sample(); }\n\
        var inst = new WebAssembly.Instance(mod, { env: { hook } });\n\
        function driveWasm(n) { return inst.exports.run(n); }\n\
        function spinUntilIon() {\n\
          sampleEvery = 65536;\n\
          const end = Date.now() + 60000;\n\
          while (wasmIonFrames() === 0 && Date.now() < end) driveWasm(200000);\n\
        }\n\
        spinUntilIon();\n";
    set_sessions(vec![forced_session(&agent, realm, 1_000_000)]);
    AGENT.with(|a| *a.borrow_mut() = Some(agent));
    run_with_wasm(env, global, TIERS_JS, false, source);
    let mut sessions = take_sessions();
    let trace = sessions[0].stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    let tiers = agent.stats().wasm_frames_by_tier;
    assert!(
        tiers[0] > 0 && tiers[1] > 0,
        "wasm frames by tier {tiers:?}"
    );
    let all = stacks(&trace);
    assert!(all.len() >= 2, "{} samples", all.len());
    let lines = Lines {
        module: Some(line_of(source, "new WebAssembly.Module")),
        spin: Some(line_of(source, "function spinUntilIon")),
        drive: Some(line_of(source, "function driveWasm")),
        hook: Some(line_of(source, "function hook")),
    };
    // The first call of `hook` goes through the slow exit (no JIT code
    // yet): every wasm frame is there.
    check_wasm_stack(&all[0], &lines, true);
    for stack in &all[1..] {
        check_wasm_stack(stack, &lines, false);
    }
    drop(agent);
}

/// The wasm frames of `stack` between `before` (exclusive) and the frame
/// named `after` (exclusive), checked to be an in-order, non-empty part of
/// `order` with `url`, `line` and no column.
fn wasm_between(stack: &[Frame], before: usize, after: &str, order: &[&str], url: &str, line: u64) {
    let end = stack
        .iter()
        .position(|f| f.0 == after)
        .unwrap_or_else(|| panic!("no {after} in {stack:?}"));
    let wasm = &stack[before..end];
    assert!(!wasm.is_empty(), "no wasm frame in {stack:?}");
    for frame in wasm {
        assert_eq!(
            (frame.1.as_deref(), frame.2, frame.3),
            (Some(url), Some(line), None),
            "stack {stack:?}"
        );
    }
    assert_in_order(wasm.iter().map(|f| f.0.as_str()), order, &stack);
}

/// Checks that `names` is a subsequence of `order`: each name is one of
/// `order`'s, none twice, and none before a name that comes earlier.
fn assert_in_order<'a>(
    names: impl IntoIterator<Item = &'a str>,
    order: &[&str],
    stack: &dyn std::fmt::Debug,
) {
    let mut next = 0;
    for name in names {
        let at = order[next..]
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("unexpected or misordered {name:?} in {stack:?}"));
        next += at + 1;
    }
}

/// A muted script's modules never appear, whatever they are named and
/// however they were compiled (directly, from its eval code, with names
/// spelling a visible module's label), and neither do the trampolines
/// around them, nor the built-ins they call; visible JS frames above and
/// below them do. A visible module in the same realm is hidden too: once a
/// muted script compiled there, a label naming a visible site may be a
/// muted module's name cut at a NUL (`wasm.rs`).
pub(super) fn muted_wasm_never_appears(env: &mut Env) {
    let evil = "https://evil.example/wasm.js";
    env.register(MUTED_CASE_JS, false);
    env.register(evil, true);
    let (global, realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    run_with_wasm(
        env,
        global,
        MUTED_CASE_JS,
        false,
        "function visibleHook(i) { if (i === 0) sample(); }\n",
    );
    let source = "var visibleModule = new WebAssembly.Module(wasmModule('visLeaf', 'visMiddle', 'visRun'));\n\
        var visibleExports = new WebAssembly.Instance(visibleModule, { env: { hook: visibleHook } }).exports;\n\
        function visibleDriver() {\n\
          secretCallsVisible.run(1);\n\
          secretEvalCallsVisible.run(1);\n\
          secretForgedCallsVisible.run(1);\n\
          secretCallsSecret.run(1);\n\
          secretCallsBuiltin.run(1);\n\
          secretCallsVisible.middle(0);\n\
          visibleExports.run(1);\n\
        }\n\
        visibleDriver();\n";
    // A name spelling the visible module's compilation site, cut by a NUL:
    // the label the sampler reads ends there.
    let line = line_of(source, "var visibleModule");
    let forged = format!("x ({MUTED_CASE_JS} line {line} > WebAssembly.Module:1)\\u0000");
    run_with_wasm(
        env,
        global,
        evil,
        true,
        &format!(
            "function secretHook(i) {{ if (i === 0) sample(); }}\n\
             function secretInstance(m, hook) {{ return new WebAssembly.Instance(m, {{ env: {{ hook }} }}).exports; }}\n\
             var secretModule = new WebAssembly.Module(wasmModule('visLeaf', 'visMiddle', 'visRun'));\n\
             var secretEvalModule = eval(\"new WebAssembly.Module(wasmModule('visLeaf', 'visMiddle', 'secretRun'))\");\n\
             var secretForged = new WebAssembly.Module(wasmModule('{forged}', '{forged}', '{forged}'));\n\
             var secretCallsVisible = secretInstance(secretModule, visibleHook);\n\
             var secretEvalCallsVisible = secretInstance(secretEvalModule, visibleHook);\n\
             var secretForgedCallsVisible = secretInstance(secretForged, visibleHook);\n\
             var secretCallsSecret = secretInstance(secretModule, secretHook);\n\
             var secretCallsBuiltin = secretInstance(secretModule, Array.prototype.forEach.bind([0], visibleHook));\n"
        ),
    );
    set_sessions(vec![forced_session(&agent, realm, 100)]);
    run_with_wasm(env, global, MUTED_CASE_JS, false, source);
    let mut sessions = take_sessions();
    let trace = sessions[0].stop().unwrap();
    let all = stacks(&trace);
    assert_eq!(all.len(), 7, "{all:?}");
    assert_eq!(trace.resources, vec![MUTED_CASE_JS.to_owned()]);
    for frame in &trace.frames {
        assert!(
            [
                "",
                "visibleDriver",
                "visibleHook",
                "visRun",
                "visMiddle",
                "visLeaf"
            ]
            .contains(&frame.name.as_str()),
            "leaked {frame:?}"
        );
    }
    // Muted modules (named like the visible one, compiled by eval, with a
    // forged label) calling visible JS: the JS frames stay, the wasm and
    // trampoline frames go.
    for st in &all[..3] {
        assert_eq!(
            names(st),
            vec!["", "visibleDriver", "visibleHook"],
            "{st:?}"
        );
    }
    // Muted module calling muted JS.
    assert_eq!(names(&all[3]), vec!["", "visibleDriver"]);
    // A built-in (forEach) called by a muted module is not attributed to
    // the visible caller below it.
    assert_eq!(names(&all[4]), vec!["", "visibleDriver", "visibleHook"]);
    // Another export of a muted module.
    assert_eq!(names(&all[5]), vec!["", "visibleDriver", "visibleHook"]);
    // The visible module: a muted script compiled wasm in this realm, so no
    // wasm label of the realm is attributable (the forged one reads as the
    // visible module's site): its frames are hidden too (fail closed).
    assert_eq!(
        names(&all[6]),
        vec!["", "visibleDriver", "visibleHook"],
        "{:?}",
        all[6]
    );
    drop(agent);
}

/// Wasm frames are attributed to the realm that compiled their module, and
/// only shown when the JS that called into them ran in that realm too:
/// each realm calling the other's exports, a module object instantiated in
/// the other realm, and one script compiling in both realms at the same
/// line (ambiguous: never shown).
pub(super) fn wasm_realms_are_separate(env: &mut Env) {
    let parent_url = "https://example.com/parent.js";
    let child_url = "https://example.com/child.js";
    let shared_url = "https://example.com/shared.js";
    for url in [parent_url, child_url, shared_url] {
        env.register(url, false);
    }
    let (parent, parent_realm) = env.global();
    let (child, child_realm) = env.global();
    let agent = env.agent(Preparation::Lazy);
    let parent_src = "function pHook(i) { if (i === 0) sample(); }\n\
        var pModule = new WebAssembly.Module(wasmModule('pLeaf', 'pMiddle', 'pRun'));\n\
        var pRun = new WebAssembly.Instance(pModule, { env: { hook: pHook } }).exports.run;\n";
    let child_src = "function cHook(i) { if (i === 0) sample(); }\n\
        var cModule = new WebAssembly.Module(wasmModule('cLeaf', 'cMiddle', 'cRun'));\n\
        var cRun = new WebAssembly.Instance(cModule, { env: { hook: cHook } }).exports.run;\n";
    run_with_wasm(env, parent, parent_url, false, parent_src);
    run_with_wasm(env, child, child_url, false, child_src);
    // One script compiling at one line in both realms.
    let shared_src = "var sharedRun = new WebAssembly.Instance(new WebAssembly.Module(wasmModule('sLeaf', 'sMiddle', 'sRun')), { env: { hook: localHook } }).exports.run;\n";
    env.run(parent, parent_url, false, "var localHook = pHook;");
    env.run(child, child_url, false, "var localHook = cHook;");
    run_with_wasm(env, parent, shared_url, false, shared_src);
    run_with_wasm(env, child, shared_url, false, shared_src);
    env.share(child, parent, "cRun");
    env.share(parent, child, "pRun");
    env.share(parent, child, "pModule");
    env.run(
        parent,
        parent_url,
        false,
        "function pCallsOwn() { pRun(1); }\n\
         function pCallsChild() { cRun(1); }\n\
         function pCallsShared() { sharedRun(1); }\n",
    );
    env.run(
        child,
        child_url,
        false,
        "function cInstantiatesParent() { new WebAssembly.Instance(pModule, { env: { hook: cHook } }).exports.run(1); }\n\
         function cCallsParent() { pRun(1); }\n",
    );
    set_sessions(vec![
        forced_session(&agent, parent_realm, 100),
        forced_session(&agent, child_realm, 100),
    ]);
    env.run(
        parent,
        parent_url,
        false,
        "pCallsOwn(); pCallsChild(); pCallsShared();",
    );
    env.run(
        child,
        child_url,
        false,
        "cInstantiatesParent(); cCallsParent();",
    );
    let mut sessions = take_sessions();
    let p = stacks(&sessions[0].stop().unwrap());
    let c = stacks(&sessions[1].stop().unwrap());
    assert_eq!((p.len(), c.len()), (5, 5));
    let module_line = line_of(parent_src, "var pModule");
    // 1. The parent's own module: shown in the parent, nothing in the child.
    assert_eq!(names(&p[0])[..2], ["", "pCallsOwn"]);
    wasm_between(
        &p[0],
        2,
        "pHook",
        &["pRun", "pMiddle", "pLeaf"],
        parent_url,
        module_line,
    );
    assert!(c[0].is_empty(), "{:?}", c[0]);
    // 2. The parent calling the child's export: the child's module is not
    // the parent's; in the child it was called by the parent's JS (not
    // shown either: the instance's realm cannot be told apart).
    assert_eq!(names(&p[1]), vec!["", "pCallsChild"]);
    assert_eq!(names(&c[1]), vec!["cHook"]);
    // 3. The same script compiling in both realms at one line: ambiguous.
    assert_eq!(names(&p[2]), vec!["", "pCallsShared", "pHook"]);
    assert!(c[2].is_empty(), "{:?}", c[2]);
    // 4. The parent's module instantiated and called in the child.
    assert_eq!(names(&c[3]), vec!["", "cInstantiatesParent", "cHook"]);
    assert!(p[3].is_empty(), "{:?}", p[3]);
    // 5. The child calling the parent's export: the child's JS only; the
    // parent sees its hook, not its module called from another realm.
    assert_eq!(names(&c[4]), vec!["", "cCallsParent"]);
    assert_eq!(names(&p[4]), vec!["pHook"]);
    drop(agent);
}

/// The asynchronous sampler (the thread stopped by a signal) labels wasm
/// frames when the thread was stopped in compiled code; when it was
/// stopped in C++ called from wasm (here `JSON.parse`, an import), the
/// wasm frames are withheld and never shown, nor the built-in they call.
pub(super) fn async_sampler_wasm(env: &mut Env) {
    let (global, realm) = env.global();
    env.register(ASYNC_JS, false);
    let agent = env.agent(Preparation::Lazy);
    let mut s = session(&agent, realm, 1.0, 100_000);
    AGENT.with(|a| *a.borrow_mut() = Some(agent));
    let source = "var mod = new WebAssembly.Module(wasmModule('aLeaf', 'aMiddle', 'aRun'));\n\
        var spinRun = new WebAssembly.Instance(mod, { env: { hook: function spinHook(i) {} } }).exports.run;\n\
        var big = JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ i })));\n\
        var parseRun = new WebAssembly.Instance(mod, { env: { hook: JSON.parse.bind(null, big) } }).exports.run;\n\
        function spinWasm() { const end = Date.now() + 20000; while (captures() < 30 && Date.now() < end) spinRun(100000); }\n\
        function spinParse() { const end = Date.now() + 20000; const s0 = captures(); while (captures() < s0 + 30 && Date.now() < end) parseRun(4096); }\n\
        spinWasm();\n\
        spinParse();\n";
    run_with_wasm(env, global, ASYNC_JS, false, source);
    let trace = s.stop().unwrap();
    let agent = AGENT.with(|a| a.borrow_mut().take()).unwrap();
    let stats = agent.stats();
    assert!(stats.handler_captures >= 60, "{stats:?}");
    let all = stacks(&trace);
    let line = line_of(source, "var mod");
    let mut labelled = 0;
    // The samples of the two spin loops (others are the setup's).
    for st in all
        .iter()
        .filter(|st| st.len() > 1 && ["spinWasm", "spinParse"].contains(&st[1].0.as_str()))
    {
        let n = names(st);
        assert!(
            n.iter().all(|f| [
                "",
                "spinWasm",
                "spinParse",
                "aRun",
                "aMiddle",
                "aLeaf",
                "spinHook"
            ]
            .contains(f)),
            "{st:?}"
        );
        if n.len() > 2 && n[1] == "spinWasm" && n[2] != "spinHook" {
            labelled += 1;
            let end = n.iter().position(|f| *f == "spinHook").unwrap_or(n.len());
            let wasm: Vec<Frame> = st[2..end].to_vec();
            let mut with_end = wasm.clone();
            with_end.push(("end".to_owned(), None, None, None));
            wasm_between(
                &with_end,
                0,
                "end",
                &["aRun", "aMiddle", "aLeaf"],
                ASYNC_JS,
                line,
            );
        }
    }
    // Most of spinWasm's time is in wasm code.
    assert!(
        labelled >= 10,
        "{labelled} samples with wasm frames: {all:?}"
    );
    // Samples taken inside JSON.parse called from wasm withheld the labels.
    assert!(stats.wasm_withheld_samples >= 1, "{stats:?}");
    drop(agent);
}
