//! Bare-context cases of sessions and attribution: realms, muted scripts,
//! the buffer limit, stopping, agents on two threads, concurrent sessions,
//! event handlers, resources, and stopping or dropping from inside JS.

use super::*;

pub(super) fn realms_are_separate(env: &mut Env) {
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

pub(super) fn muted_scripts_never_appear(env: &mut Env) {
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

pub(super) fn buffer_limit_is_exact(env: &mut Env) {
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

pub(super) fn stop_excludes_later_samples(env: &mut Env) {
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

pub(super) fn two_agents_on_two_threads(env: &mut Env) {
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

pub(super) fn concurrent_sessions_get_their_own_rate(env: &mut Env) {
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

pub(super) fn event_handler_attributes_add_no_frame(env: &mut Env) {
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

pub(super) fn resource_is_the_response_url(env: &mut Env) {
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

pub(super) fn stop_from_inside_js(env: &mut Env) {
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

pub(super) fn drop_from_inside_js(env: &mut Env) {
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
