//! Interface objects, constructors, attributes, operations and their
//! overloads, promise-returning operations, `DOMException`, and the
//! bindings' hold on JS values across GC and microtask checkpoints.

use super::{run, run_promise_tests, runtime};

#[test]
fn interface_objects_and_prototype_chains() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        assert_equals(typeof EventTarget, "function");
        assert_equals(Object.getPrototypeOf(EventTarget), Function.prototype);
        assert_equals(Object.getPrototypeOf(EventTarget.prototype), Object.prototype);
        assert_equals(Object.getPrototypeOf(TestBinding), EventTarget);
        assert_equals(Object.getPrototypeOf(TestBinding.prototype), EventTarget.prototype);
        assert_equals(TestBinding.prototype.__proto__, EventTarget.prototype);
        // length and name of interface objects.
        assert_equals(EventTarget.length, 0);
        assert_equals(EventTarget.name, "EventTarget");
        assert_equals(Event.length, 1);
        assert_equals(Event.name, "Event");
        assert_equals(DOMException.length, 0);
        // "prototype": not writable, enumerable or configurable.
        var d = Object.getOwnPropertyDescriptor(Event, "prototype");
        assert_false(d.writable); assert_false(d.enumerable); assert_false(d.configurable);
        // The global property: writable, configurable, not enumerable.
        d = Object.getOwnPropertyDescriptor(globalThis, "EventTarget");
        assert_true(d.writable); assert_false(d.enumerable); assert_true(d.configurable);
        // "constructor".
        d = Object.getOwnPropertyDescriptor(Event.prototype, "constructor");
        assert_equals(d.value, Event);
        assert_true(d.writable); assert_false(d.enumerable); assert_true(d.configurable);
        // @@toStringTag.
        var t = new TestBinding();
        assert_equals(Object.prototype.toString.call(t), "[object TestBinding]");
        assert_equals(Object.prototype.toString.call(TestBinding.prototype), "[object TestBinding]");
        assert_equals(Object.prototype.toString.call(new EventTarget()), "[object EventTarget]");
        d = Object.getOwnPropertyDescriptor(Event.prototype, Symbol.toStringTag);
        assert_equals(d.value, "Event");
        assert_false(d.writable); assert_false(d.enumerable); assert_true(d.configurable);
        // Constants, on the interface object and the prototype.
        assert_equals(Event.AT_TARGET, 2);
        assert_equals(Event.prototype.BUBBLING_PHASE, 3);
        d = Object.getOwnPropertyDescriptor(Event, "NONE");
        assert_false(d.writable); assert_true(d.enumerable); assert_false(d.configurable);
        assert_equals(TestBinding.CONSTANT_LONG, 7);
        assert_equals(TestBinding.CONSTANT_BOOLEAN, true);
        assert_true(t instanceof TestBinding);
        assert_true(t instanceof EventTarget);
        "ok"
    "#,
    );
}

#[test]
fn constructors_need_new_and_honour_new_target() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        assert_throws_js(TypeError, function () { EventTarget(); });
        assert_throws_js(TypeError, function () { Event("x"); });
        assert_throws_js(TypeError, function () { TestBinding(); });
        // Missing required constructor arguments.
        assert_throws_js(TypeError, function () { new Event(); });
        // Subclassing: the prototype comes from NewTarget.
        class MyTarget extends EventTarget {
          constructor() { super(); this.extra = 1; }
          hello() { return "hi"; }
        }
        var m = new MyTarget();
        assert_equals(Object.getPrototypeOf(m), MyTarget.prototype);
        assert_equals(m.hello(), "hi");
        var seen = 0;
        m.addEventListener("x", function () { seen++; });
        m.dispatchEvent(new Event("x"));
        assert_equals(seen, 1);
        // Reflect.construct with a NewTarget whose prototype is not an object
        // falls back to the interface prototype object.
        function F() {}
        F.prototype = 3;
        var e = Reflect.construct(Event, ["y"], F);
        assert_equals(Object.getPrototypeOf(e), Event.prototype);
        "ok"
    "#,
    );
}

#[test]
fn attributes_are_accessors_with_brand_checks() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var d = Object.getOwnPropertyDescriptor(Event.prototype, "type");
        assert_equals(typeof d.get, "function");
        assert_equals(d.set, undefined, "readonly: no setter");
        assert_equals(d.get.name, "get type");
        assert_equals(d.get.length, 0);
        assert_true(d.enumerable); assert_true(d.configurable);
        d = Object.getOwnPropertyDescriptor(TestBinding.prototype, "longAttribute");
        assert_equals(d.set.name, "set longAttribute");
        assert_equals(d.set.length, 1);
        // Brand checks.
        assert_throws_js(TypeError, function () { d.get.call({}); });
        assert_throws_js(TypeError, function () { d.get.call(new EventTarget()); });
        assert_throws_js(TypeError, function () { d.get.call(undefined); });
        assert_throws_js(TypeError, function () { Event.prototype.type; });
        // Setting a readonly attribute does nothing in sloppy mode and throws
        // in strict mode.
        var t = new TestBinding();
        t.readonlyLong = 5;
        assert_equals(t.readonlyLong, 42);
        assert_throws_js(TypeError, function () { "use strict"; t.readonlyLong = 5; });
        // A setter called with no argument throws.
        assert_throws_js(TypeError, function () { d.set.call(t); });
        // [LegacyUnforgeable]: an own, non-configurable accessor.
        var u = Object.getOwnPropertyDescriptor(t, "unforgeableAttribute");
        assert_equals(typeof u.get, "function");
        assert_false(u.configurable);
        assert_equals(t.unforgeableAttribute, "unforgeable");
        assert_equals(Object.getOwnPropertyDescriptor(TestBinding.prototype, "unforgeableAttribute"), undefined);
        var ev = new Event("x");
        assert_true(Object.getOwnPropertyDescriptor(ev, "isTrusted") !== undefined);
        assert_false(ev.isTrusted);
        "ok"
    "#,
    );
}

#[test]
fn operations_have_length_name_and_check_arguments() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var f = EventTarget.prototype.addEventListener;
        assert_equals(f.name, "addEventListener");
        assert_equals(f.length, 2);
        assert_equals(EventTarget.prototype.dispatchEvent.length, 1);
        assert_equals(Event.prototype.initEvent.length, 1);
        var d = Object.getOwnPropertyDescriptor(EventTarget.prototype, "dispatchEvent");
        assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        var t = new TestBinding();
        assert_throws_js(TypeError, function () { t.sum(1); });
        assert_equals(t.sum(1, 2), 3);
        assert_equals(t.sum(1, 2, 3), 6);
        assert_equals(t.sum(1, 2, undefined), 3);
        assert_throws_js(TypeError, function () { t.dispatchEvent(); });
        assert_throws_js(TypeError, function () { t.dispatchEvent({}); }, "not an Event");
        assert_throws_js(TypeError, function () { EventTarget.prototype.dispatchEvent.call({}, new Event("x")); });
        // Optional arguments and defaults.
        assert_equals(t.withDefaults(), "5 true x bar-baz");
        assert_equals(t.withDefaults(1, false, "y", ""), "1 false y ");
        assert_equals(t.withDefaults(undefined, undefined, undefined, "foo"), "5 true x foo");
        assert_equals(t.echoOptionalString(), null);
        assert_equals(t.echoOptionalString("s"), "s");
        "ok"
    "#,
    );
}

#[test]
fn variadic_arguments_of_any_type() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // https://webidl.spec.whatwg.org/#dfn-create-operation-function:
        // the length counts the required arguments before the variadic one.
        assert_equals(TestBinding.prototype.describeVariadic.length, 1);
        assert_equals(TestBinding.prototype.echoVariadicSequences.length, 0);
        assert_throws_js(TypeError, function () { t.describeVariadic(); });
        assert_equals(t.describeVariadic(1), "1");
        // Each remaining value is converted to the union: platform objects
        // stay objects, anything else becomes a string.
        assert_equals(t.describeVariadic(1, new TestBinding(5), "a", 3, null, new TestBinding(7)),
                      "1;TestBinding(5);a;3;null;TestBinding(7)");
        assert_equals(t.describeVariadic(2, {toString: function () { return "obj"; }}), "2;obj");
        // Sequences: each value converted on its own, errors propagate.
        var seqs = t.echoVariadicSequences([1, 2], [], new Set([3]));
        assert_equals(seqs.length, 3);
        assert_array_equals(seqs[0], [1, 2]);
        assert_array_equals(seqs[1], []);
        assert_array_equals(seqs[2], [3]);
        assert_equals(t.echoVariadicSequences().length, 0);
        assert_throws_js(TypeError, function () { t.echoVariadicSequences([1], 5); });
        "ok"
    "#,
    );
}

#[test]
fn promise_operations_reject_instead_of_throwing() {
    let mut rt = runtime();
    run_promise_tests(
        &mut rt,
        r#"
        var t = new TestBinding();
        promise_test("resolves", function () {
          return t.promiseEcho("v").then(function (v) { assert_equals(v, "v"); });
        });
        promise_test("brand check", function () {
          var p = TestBinding.prototype.promiseEcho.call({}, "v");
          assert_true(p instanceof Promise);
          return promise_rejects(function (e) { assert_true(e instanceof TypeError); }, p);
        });
        promise_test("conversion failure", function () {
          return promise_rejects(function (e) { assert_true(e instanceof TypeError); },
                                 t.promiseEnforcedLong(2 ** 40));
        });
        promise_test("missing argument", function () {
          return promise_rejects(function (e) { assert_true(e instanceof TypeError); }, t.promiseEcho());
        });
        promise_test("thrown DOMException", function () {
          return promise_rejects(function (e) {
            assert_true(e instanceof DOMException);
            assert_equals(e.name, "NotAllowedError");
            assert_equals(e.code, 0);
          }, t.promiseRejectWith("NotAllowedError"));
        });
        promise_test("thrown from a getter during conversion", function () {
          var dict = { get requiredBoolean() { throw new RangeError("boom"); } };
          return promise_rejects(function (e) { assert_true(e instanceof RangeError); }, t.promiseDictionary(dict));
        });
        promise_test("dictionary result", function () {
          return t.promiseDictionary({ requiredBoolean: true }).then(function (d) {
            assert_equals(d.requiredBoolean, true);
            assert_equals(d.longWithDefault, 42);
          });
        });
        promise_test("enforced long ok", function () {
          return t.promiseEnforcedLong(-5).then(function (v) { assert_equals(v, -5); });
        });
        "ok"
    "#,
        8,
    );
}

#[test]
fn dom_exceptions() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var e = new DOMException("msg", "NotAllowedError");
        assert_equals(e.name, "NotAllowedError");
        assert_equals(e.message, "msg");
        assert_equals(e.code, 0);
        assert_true(e instanceof DOMException);
        assert_true(e instanceof Error);
        assert_equals(Object.getPrototypeOf(DOMException.prototype), Error.prototype);
        assert_equals(Object.prototype.toString.call(e), "[object DOMException]");
        var d = new DOMException();
        assert_equals(d.name, "Error");
        assert_equals(d.message, "");
        assert_equals(d.code, 0);
        assert_equals(new DOMException("m", "InvalidStateError").code, 11);
        assert_equals(new DOMException("m", "IndexSizeError").code, 1);
        assert_equals(DOMException.INVALID_STATE_ERR, 11);
        assert_equals(DOMException.prototype.DATA_CLONE_ERR, 25);
        assert_equals(DOMException.length, 0);
        // Thrown by DOM code, by name.
        var t = new TestBinding();
        var x = assert_throws_dom("InvalidStateError", function () { t.throwDOMException("InvalidStateError", "bad state"); });
        assert_equals(x.message, "bad state");
        assert_equals(x.code, 11);
        assert_throws_dom("NotAllowedError", function () { t.throwDOMException("NotAllowedError", ""); });
        assert_throws_js(TypeError, function () { t.throwTypeError("t"); });
        assert_throws_js(RangeError, function () { t.throwRangeError("r"); });
        // Brand checks on DOMException's getters.
        assert_throws_js(TypeError, function () {
          Object.getOwnPropertyDescriptor(DOMException.prototype, "name").get.call(new Error("x"));
        });
        "ok"
    "#,
    );
}

#[test]
fn rust_held_js_values_survive_gc_and_reflectors_are_finalized() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        var fired = 0;
        (function () {
          var captured = { n: 1 };
          t.addEventListener("g", function () { fired += captured.n; });
          t.onping = function () { fired += 10; };
          t.storeCallback(function (v) { return v + captured.n; });
          t.anyAttribute = { deep: [1, 2, 3] };
        })();
        for (var i = 0; i < 3; i++) { var junk = []; for (var j = 0; j < 10000; j++) junk.push({ j: j }); t.collectGarbage(); }
        t.dispatchEvent(new Event("g"));
        t.dispatchEvent(new Event("ping"));
        assert_equals(fired, 11);
        assert_equals(t.invokeStoredCallback("v"), "v1");
        assert_equals(t.anyAttribute.deep[2], 3);
        // Unreachable reflectors are finalized and their Rust objects
        // dropped, even when a listener closes over the target (a cycle
        // through Rust).
        var before = t.droppedInstances;
        (function () {
          for (var k = 0; k < 50; k++) {
            var x = new TestBinding();
            x.addEventListener("c", function () { return x; });
          }
        })();
        t.collectGarbage();
        t.collectGarbage();
        assert_true(t.droppedInstances >= before + 50, "dropped " + (t.droppedInstances - before));
        "ok"
    "#,
    );
}

#[test]
fn promise_reactions_run_after_each_evaluation() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var order = [];
        Promise.resolve().then(function () { order.push("microtask"); });
        order.push("sync");
        "ok"
    "#,
    );
    assert_eq!(run(&mut rt, "order.join()"), "sync,microtask");
    // An exception in a reaction is reported, and the next evaluation works.
    run(
        &mut rt,
        "Promise.resolve().then(function () { throw new Error('in reaction'); }); 1",
    );
    // Rejections are not reported (no unhandledrejection yet); a thrown
    // exception inside a job queued by queueMicrotask-like code would be.
    assert_eq!(run(&mut rt, "1 + 1"), "2");
}

#[test]
fn overloaded_constructors() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        // The interface object's length is the shortest argument list.
        assert_equals(TestDerivedList.length, 1);
        // By type at the distinguishing index: a platform object, then
        // an iterable.
        var src = new TestIndexedList(["p", "q"]);
        assert_array_equals([...new TestDerivedList(src)], ["p", "q"]);
        assert_array_equals([...new TestDerivedList(["a", "b", "c"])], ["a", "b", "c"]);
        assert_array_equals([...new TestDerivedList(new Set(["s"]))], ["s"]);
        assert_array_equals([...new TestDerivedList(new TestDerivedList(["d"]))], ["d"], "a derived object is a TestIndexedList");
        assert_throws_js(TypeError, function () { new TestDerivedList("abc"); }, "a string is not a sequence at 1 argument");
        assert_throws_js(TypeError, function () { new TestDerivedList(5); });
        // By argument count.
        assert_array_equals([...new TestDerivedList("x", 3)], ["x", "x", "x"]);
        assert_array_equals([...new TestDerivedList("x", 0, "extra")], []);
        assert_throws_js(TypeError, function () { new TestDerivedList("x", -1); }, "[EnforceRange]");
        assert_throws_js(RangeError, function () { new TestDerivedList("x", 1001); });
        assert_throws_js(TypeError, function () { new TestDerivedList(); }, "no overload takes 0");
        // [[Call]] throws whatever the arguments.
        assert_throws_js(TypeError, function () { TestDerivedList(["a"]); });
        assert_throws_js(TypeError, function () { TestDerivedList(); });
        // NewTarget's prototype.
        class Sub extends TestDerivedList {}
        var sub = new Sub("y", 1);
        assert_equals(Object.getPrototypeOf(sub), Sub.prototype);
        assert_equals(sub[0], "y");
        "ok"
    "#,
    );
}

#[test]
fn overload_resolution() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // The function's length is the shortest argument list.
        assert_equals(TestBinding.prototype.overloadedByCount.length, 1);
        assert_equals(TestBinding.prototype.overloadedPost.length, 1);
        // By argument count (extra arguments are ignored).
        assert_equals(t.overloadedByCount("a"), "1: a");
        assert_equals(t.overloadedByCount("a", "b", 1), "2: a b true None");
        assert_equals(t.overloadedByCount("a", "b", 0, "d", "extra"), "2: a b false Some(\"d\")");
        assert_throws_js(TypeError, function () { t.overloadedByCount(); });
        assert_throws_js(TypeError, function () { t.overloadedByCount("a", "b"); }, "no overload takes 2");
        // By type at the distinguishing index.
        assert_equals(t.overloadedByType(new TestBinding(3)), "interface 3");
        assert_equals(t.overloadedByType("s"), "string s");
        assert_equals(t.overloadedByType([1, 2]), "sequence [1, 2]");
        assert_equals(t.overloadedByType(new Set([4])), "sequence [4]");
        assert_equals(t.overloadedByType(new Uint8Array([5])), "buffer [5]");
        assert_equals(t.overloadedByType(new Uint8Array([6]).buffer), "buffer [6]");
        // Anything else goes to the string overload.
        assert_equals(t.overloadedByType(5), "string 5");
        assert_equals(t.overloadedByType({}), "string [object Object]");
        assert_equals(t.overloadedByType(null), "string null");
        assert_equals(t.overloadedByType(new Event("x")), "string [object Event]");
        // Dictionary vs string (as postMessage): undefined picks the
        // optional dictionary argument, objects and null the dictionary.
        assert_equals(t.overloadedPost(1), "options false");
        assert_equals(t.overloadedPost(1, undefined), "options false");
        assert_equals(t.overloadedPost(1, null), "options false");
        assert_equals(t.overloadedPost(1, { flag: true }), "options true");
        assert_equals(t.overloadedPost(1, "*"), "origin *");
        assert_equals(t.overloadedPost(1, 7), "origin 7");
        assert_throws_js(TypeError, function () { t.overloadedPost(); });
        "ok"
    "#,
    );
}
