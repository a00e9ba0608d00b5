//! Which members exist where: `[Exposed]` and prefs, the `Profiler`
//! bindings on Window, `[SecureContext]`, extended attributes and partial
//! interfaces.

use super::{run, runtime, PRELUDE};
use jsprof_script::{GlobalKind, JsRuntime, Prefs, RuntimeOptions, PROFILER_PREF};

#[test]
fn exposure_and_prefs() {
    // Normal runtimes: no test interfaces; Profiler on Window (and in
    // dedicated workers).
    let mut rt = JsRuntime::new().unwrap();
    // One runtime per thread.
    assert!(JsRuntime::new().is_err());
    assert_eq!(
        rt.evaluate(
            "[typeof EventTarget, typeof Event, typeof DOMException, typeof TestBinding, typeof Profiler, typeof TestWorkerOnly].join()",
            "t.js",
            1
        )
        .unwrap(),
        "function,function,function,undefined,function,undefined"
    );
    drop(rt);
    // Dedicated worker globals: [Exposed=DedicatedWorker] interfaces
    // (Profiler too: the shell exposes it in dedicated workers), the
    // global is a DedicatedWorkerGlobalScope, and Window-only interfaces
    // are absent.
    let mut worker = JsRuntime::with_options(RuntimeOptions {
        global: GlobalKind::DedicatedWorker,
        prefs: Prefs::for_tests(),
    })
    .unwrap();
    assert_eq!(
        worker
            .evaluate(
                "[typeof EventTarget, typeof TestBinding, typeof TestWorkerOnly, typeof Profiler, \
                 typeof Worker, typeof Window, typeof Document, typeof WorkerLocation, \
                 self instanceof DedicatedWorkerGlobalScope, self instanceof WorkerGlobalScope, \
                 self instanceof EventTarget, Object.getPrototypeOf(self) === DedicatedWorkerGlobalScope.prototype, \
                 Object.prototype.toString.call(self), typeof postMessage, \
                 Object.getOwnPropertyNames(self).includes('importScripts')].join()",
                "t.js",
                1
            )
            .unwrap(),
        "function,function,function,function,function,undefined,undefined,function,\
         true,true,true,true,[object DedicatedWorkerGlobalScope],function,true"
    );
    drop(worker);
    // Window globals for tests: TestBinding but not the worker-only one.
    let mut window = JsRuntime::new_for_tests().unwrap();
    assert_eq!(
        window
            .evaluate(
                "[typeof TestBinding, typeof TestWorkerOnly].join()",
                "t.js",
                1
            )
            .unwrap(),
        "function,undefined"
    );
}

#[test]
fn profiler_bindings_on_window() {
    // No pref needed any more (the old pref is harmless).
    let mut prefs = Prefs::new();
    prefs.enable(PROFILER_PREF);
    let mut rt = JsRuntime::with_options(RuntimeOptions {
        global: GlobalKind::Window,
        prefs,
    })
    .unwrap();
    rt.evaluate(PRELUDE, "prelude.js", 1).unwrap();
    run(
        &mut rt,
        r#"
        assert_equals(Object.getPrototypeOf(Profiler), EventTarget);
        assert_equals(Profiler.prototype.__proto__, EventTarget.prototype);
        assert_equals(Profiler.length, 1);
        assert_equals(Profiler.prototype.stop.length, 0);
        assert_equals(Object.getOwnPropertyDescriptor(Profiler.prototype, "sampleInterval").set, undefined);
        assert_equals(Object.getOwnPropertyDescriptor(Profiler.prototype, "stopped").get.name, "get stopped");
        assert_throws_js(TypeError, function () { Profiler({ sampleInterval: 10, maxBufferSize: 10 }); });
        assert_throws_js(TypeError, function () { new Profiler(); });
        assert_throws_js(TypeError, function () { new Profiler({ maxBufferSize: 10 }); }, "required member");
        assert_throws_js(TypeError, function () { new Profiler({ sampleInterval: NaN, maxBufferSize: 10 }); });
        assert_throws_js(TypeError, function () { new Profiler({ sampleInterval: Infinity, maxBufferSize: 10 }); });
        assert_throws_js(TypeError, function () { new Profiler({ sampleInterval: 10 }); }, "required maxBufferSize");
        // Step 1 before step 2: a negative interval is a RangeError even
        // without the policy.
        assert_throws_js(RangeError, function () { new Profiler({ sampleInterval: -1, maxBufferSize: 10 }); });
        // Step 2: no document (so no policy enabling js-profiling).
        assert_throws_dom("NotAllowedError", function () {
          new Profiler({ sampleInterval: 10, maxBufferSize: Number.MAX_SAFE_INTEGER });
        });
        "ok"
    "#,
    );
}

/// A test runtime showing a `file:` page (a secure context:
/// <https://w3c.github.io/webappsec-secure-contexts/#is-origin-trustworthy>).
fn secure_runtime(name: &str) -> JsRuntime {
    let dir = std::env::temp_dir().join(format!("jsprof-bindings-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("index.html");
    std::fs::write(&page, "<!DOCTYPE html><title>secure</title>").unwrap();
    let mut rt = runtime();
    let fetcher = jsprof_net::Fetcher::new(jsprof_net::NetConfig::default()).unwrap();
    rt.load_page(
        &url::Url::from_file_path(&page).unwrap(),
        std::rc::Rc::new(fetcher),
    )
    .expect("page loads");
    assert!(rt.run_until_idle(None));
    rt
}

#[test]
fn secure_context_members_exist_only_in_secure_contexts() {
    // Not a secure context (no document: the test global's environment is
    // not trustworthy).
    {
        let mut rt = runtime();
        run(
            &mut rt,
            r#"
        assert_false(isSecureContext);
        var t = new TestBinding();
        assert_false("secureAttribute" in t);
        assert_false("secureOperation" in TestBinding.prototype);
        assert_false("secureStatic" in TestBinding);
        assert_equals(typeof TestSecureOnly, "undefined");
        assert_false("TestSecureOnly" in globalThis);
        assert_false("randomUUID" in Crypto.prototype);
        // Other members are there.
        assert_equals(t.sameName(), "regular 0");
        "ok"
    "#,
        );
    }
    // A secure context (a file: page).
    let mut rt = secure_runtime("secure");
    run(
        &mut rt,
        r#"
        assert_true(isSecureContext);
        var t = new TestBinding();
        assert_equals(t.secureAttribute, "secure");
        var d = Object.getOwnPropertyDescriptor(TestBinding.prototype, "secureAttribute");
        assert_true(d.enumerable); assert_true(d.configurable); assert_equals(d.set, undefined);
        assert_equals(t.secureOperation(), "secure operation");
        assert_equals(TestBinding.prototype.secureOperation.length, 0);
        assert_equals(TestBinding.secureStatic(), "secure static true");
        assert_equals(typeof TestSecureOnly, "function");
        assert_false(Object.getOwnPropertyDescriptor(globalThis, "TestSecureOnly").enumerable);
        assert_true(new TestSecureOnly() instanceof TestSecureOnly);
        assert_equals(typeof crypto.randomUUID(), "string");
        // Interfaces whose objects are created after the page loaded get
        // them too, once.
        assert_equals(TestBinding.prototype.secureOperation, TestBinding.prototype.secureOperation);
        "ok"
    "#,
    );
}

#[test]
fn extended_attributes_and_partial_interfaces() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // [LegacyNullToEmptyString]: null is "", undefined is "undefined".
        t.nullToEmptyAttribute = null;
        assert_equals(t.nullToEmptyAttribute, "");
        t.nullToEmptyAttribute = undefined;
        assert_equals(t.nullToEmptyAttribute, "undefined");
        t.stringAttribute = null;
        assert_equals(t.stringAttribute, "null", "without the attribute");
        assert_equals(t.echoNullToEmpty(null), "");
        assert_equals(t.echoNullToEmpty(5), "5");
        // [PutForwards=longAttribute]: assigning sets forwarded.longAttribute.
        var d = Object.getOwnPropertyDescriptor(TestBinding.prototype, "forwarded");
        assert_equals(typeof d.set, "function");
        t.forwarded = "12";
        assert_equals(t.longAttribute, 12);
        assert_equals(t.forwarded, t);
        assert_throws_js(TypeError, function () { d.set.call({}, 1); });
        assert_throws_js(TypeError, function () { d.set.call(t); }, "no argument");
        // [Replaceable]: assigning defines an own data property.
        d = Object.getOwnPropertyDescriptor(TestBinding.prototype, "replaceableLong");
        assert_equals(typeof d.set, "function");
        assert_equals(t.replaceableLong, 11);
        t.replaceableLong = "mine";
        assert_equals(t.replaceableLong, "mine");
        var own = Object.getOwnPropertyDescriptor(t, "replaceableLong");
        assert_true(own.writable); assert_true(own.enumerable); assert_true(own.configurable);
        assert_equals(new TestBinding().replaceableLong, 11, "other objects keep the getter");
        assert_throws_js(TypeError, function () { d.set.call({}, 1); });
        // Static attributes: accessors of the interface object.
        d = Object.getOwnPropertyDescriptor(TestBinding, "staticLong");
        assert_equals(typeof d.get, "function");
        assert_true(d.enumerable); assert_true(d.configurable);
        assert_false("staticLong" in TestBinding.prototype);
        TestBinding.staticLong = 41.9;
        assert_equals(TestBinding.staticLong, 41);
        assert_equals(TestBinding.staticName, "static");
        assert_equals(Object.getOwnPropertyDescriptor(TestBinding, "staticName").set, undefined);
        // Partial interface members are members of the interface.
        assert_equals(t.fromPartial, "partial");
        assert_equals(t.partialOperation("x"), "partial x");
        assert_equals(TestBinding.prototype.partialOperation.length, 1);
        // A static and a regular operation with the same identifier: two
        // functions, neither an overload of the other.
        assert_equals(new TestBinding(4).sameName(), "regular 4");
        assert_equals(new TestBinding(4).sameName("ignored"), "regular 4");
        assert_equals(TestBinding.sameName("x"), "static x 1");
        assert_equals(TestBinding.sameName("x", 3), "static x 3");
        assert_equals(TestBinding.prototype.sameName.length, 0);
        assert_equals(TestBinding.sameName.length, 1);
        assert_true(TestBinding.sameName !== TestBinding.prototype.sameName);
        assert_throws_js(TypeError, function () { TestBinding.sameName(); });
        assert_throws_js(TypeError, function () { TestBinding.prototype.sameName.call({}); });
        "ok"
    "#,
    );
}
