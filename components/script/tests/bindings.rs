//! Runs JavaScript against the generated bindings (WebIDL's observable
//! behaviour, as WPT's idlharness checks it) and asserts from JS.

use jsprof_script::{GlobalKind, JsRuntime, Prefs, RuntimeOptions, PROFILER_PREF};

/// testharness.js-like assertions (synchronous, and promise tests that
/// record their outcome in `__results`).
const PRELUDE: &str = r#"
var __results = [];
function fmt(v) {
  try { return typeof v === "string" ? JSON.stringify(v) : String(v); } catch (e) { return "<value>"; }
}
function assert_true(c, m) { if (c !== true) throw new Error("assert_true failed: " + (m || "")); }
function assert_false(c, m) { if (c !== false) throw new Error("assert_false failed: " + (m || "")); }
function assert_equals(a, b, m) {
  if (!Object.is(a, b)) throw new Error("assert_equals: got " + fmt(a) + ", expected " + fmt(b) + " " + (m || ""));
}
function assert_array_equals(a, b, m) {
  assert_equals(a.length, b.length, "length " + (m || ""));
  for (var i = 0; i < a.length; i++) assert_equals(a[i], b[i], "index " + i + " " + (m || ""));
}
function assert_throws_js(ctor, f, m) {
  try { f(); } catch (e) {
    if (!(e instanceof ctor) || e.constructor !== ctor)
      throw new Error("assert_throws_js: threw " + fmt(e) + ", expected " + ctor.name + " " + (m || ""));
    return e;
  }
  throw new Error("assert_throws_js: did not throw " + (m || ""));
}
function assert_throws_dom(name, f, m) {
  try { f(); } catch (e) {
    if (!(e instanceof DOMException) || e.name !== name)
      throw new Error("assert_throws_dom: threw " + fmt(e) + ", expected " + name + " " + (m || ""));
    return e;
  }
  throw new Error("assert_throws_dom: did not throw " + (m || ""));
}
function promise_test(name, f) {
  Promise.resolve().then(f).then(
    function () { __results.push("PASS " + name); },
    function (e) { __results.push("FAIL " + name + ": " + fmt(e)); });
}
function promise_rejects(check, p) {
  return p.then(function () { throw new Error("promise fulfilled, expected a rejection"); }, check);
}
"#;

fn runtime() -> JsRuntime {
    let mut rt = JsRuntime::new_for_tests().expect("runtime");
    rt.evaluate(PRELUDE, "prelude.js", 1).expect("prelude");
    rt
}

/// Runs `source`; fails the test with the JS error if it throws.
fn run(rt: &mut JsRuntime, source: &str) -> String {
    rt.evaluate(source, "test.js", 1)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs promise tests in `source` and checks that all `count` passed.
fn run_promise_tests(rt: &mut JsRuntime, source: &str, count: usize) {
    run(rt, source);
    let results = run(rt, "__results.join('\\n')");
    let lines: Vec<&str> = results.lines().collect();
    for line in &lines {
        assert!(line.starts_with("PASS"), "{line}");
    }
    assert_eq!(lines.len(), count, "{results}");
}

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
fn numeric_conversions() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // unsigned long: ToNumber then modulo 2^32.
        assert_equals(t.echoUnsignedLong(-1), 4294967295);
        assert_equals(t.echoUnsignedLong(2 ** 32 + 5), 5);
        assert_equals(t.echoUnsignedLong(3.9), 3);
        assert_equals(t.echoUnsignedLong(-3.9), 4294967293);
        assert_equals(t.echoUnsignedLong(NaN), 0);
        assert_equals(t.echoUnsignedLong(Infinity), 0);
        assert_equals(t.echoUnsignedLong("12"), 12);
        assert_equals(t.echoUnsignedLong({ valueOf: function () { return 7; } }), 7);
        assert_throws_js(TypeError, function () { t.echoUnsignedLong(Symbol()); });
        // unsigned long long: MAX_SAFE_INTEGER is accepted.
        assert_equals(t.echoUnsignedLongLong(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
        assert_equals(t.echoUnsignedLongLong(-1), 18446744073709552000);
        assert_equals(t.echoUnsignedLongLong(2 ** 64), 0);
        assert_equals(t.echoLongLong(-5), -5);
        assert_equals(t.echoLongLong(2 ** 63), -(2 ** 63));
        // Attributes of each integer type wrap.
        t.byteAttribute = 200; assert_equals(t.byteAttribute, -56);
        t.octetAttribute = 257; assert_equals(t.octetAttribute, 1);
        t.shortAttribute = 32768; assert_equals(t.shortAttribute, -32768);
        t.unsignedShortAttribute = -1; assert_equals(t.unsignedShortAttribute, 65535);
        t.longAttribute = 2 ** 31; assert_equals(t.longAttribute, -(2 ** 31));
        t.unsignedLongAttribute = 2 ** 32; assert_equals(t.unsignedLongAttribute, 0);
        t.longLongAttribute = -(2 ** 53); assert_equals(t.longLongAttribute, -(2 ** 53));
        t.unsignedLongLongAttribute = 1e20; assert_equals(t.unsignedLongLongAttribute, 1e20 % (2 ** 64));
        // [EnforceRange].
        t.enforcedUnsignedLongAttribute = 5.7; assert_equals(t.enforcedUnsignedLongAttribute, 5);
        assert_throws_js(TypeError, function () { t.enforcedUnsignedLongAttribute = -1; });
        assert_throws_js(TypeError, function () { t.enforcedUnsignedLongAttribute = 2 ** 32; });
        assert_throws_js(TypeError, function () { t.enforcedUnsignedLongAttribute = NaN; });
        // [Clamp], rounding half to even.
        t.clampedOctetAttribute = 300; assert_equals(t.clampedOctetAttribute, 255);
        t.clampedOctetAttribute = -3; assert_equals(t.clampedOctetAttribute, 0);
        t.clampedOctetAttribute = 2.5; assert_equals(t.clampedOctetAttribute, 2);
        t.clampedOctetAttribute = 3.5; assert_equals(t.clampedOctetAttribute, 4);
        t.clampedOctetAttribute = NaN; assert_equals(t.clampedOctetAttribute, 0);
        // Restricted double and DOMHighResTimeStamp.
        assert_equals(t.echoDouble(1.5), 1.5);
        assert_throws_js(TypeError, function () { t.echoDouble(NaN); });
        assert_throws_js(TypeError, function () { t.echoDouble(Infinity); });
        assert_throws_js(TypeError, function () { t.echoDouble(-Infinity); });
        assert_throws_js(TypeError, function () { t.echoTimeStamp(NaN); });
        assert_throws_js(TypeError, function () { t.timeStampAttribute = Infinity; });
        assert_equals(t.echoTimeStamp(12.25), 12.25);
        assert_true(Number.isNaN(t.echoUnrestrictedDouble(NaN)));
        assert_equals(t.echoUnrestrictedDouble(-Infinity), -Infinity);
        // float: restricted, and out of float range is a TypeError.
        t.floatAttribute = 1.1; assert_equals(t.floatAttribute, Math.fround(1.1));
        assert_throws_js(TypeError, function () { t.floatAttribute = 1e40; });
        t.unrestrictedFloatAttribute = 1e40; assert_equals(t.unrestrictedFloatAttribute, Infinity);
        assert_throws_js(TypeError, function () { t.doubleAttribute = NaN; });
        // boolean.
        assert_equals(t.echoBoolean(""), false);
        assert_equals(t.echoBoolean({}), true);
        assert_equals(t.echoBoolean(0), false);
        "ok"
    "#,
    );
}

#[test]
fn strings_sequences_nullable_any_object_enums_unions() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        assert_equals(t.echoString(5), "5");
        assert_equals(t.echoString(null), "null");
        assert_equals(t.echoString("héllo ☃"), "héllo ☃");
        assert_throws_js(TypeError, function () { t.echoString(Symbol("s")); });
        t.usvStringAttribute = "a\uD800b"; assert_equals(t.usvStringAttribute, "a\uFFFDb");
        // Nullable.
        t.nullableStringAttribute = null; assert_equals(t.nullableStringAttribute, null);
        t.nullableStringAttribute = undefined; assert_equals(t.nullableStringAttribute, null);
        t.nullableStringAttribute = "x"; assert_equals(t.nullableStringAttribute, "x");
        // Sequences: any iterable; a fresh array back.
        assert_array_equals(t.echoSequence([1, "2", 3.5]), [1, 2, 3]);
        assert_array_equals(t.echoSequence(new Set([4, 5])), [4, 5]);
        function* gen() { yield 6; yield 7; }
        assert_array_equals(t.echoSequence(gen()), [6, 7]);
        assert_true(Array.isArray(t.echoSequence([])));
        assert_throws_js(TypeError, function () { t.echoSequence(5); });
        assert_throws_js(TypeError, function () { t.echoSequence({}); });
        assert_throws_js(TypeError, function () { t.echoSequence("12"); }, "strings are not objects");
        assert_equals(t.echoNullableSequence(null), null);
        assert_array_equals(t.echoNullableSequence(["a"]), ["a"]);
        // any and object.
        var o = {};
        assert_equals(t.echoAny(o), o);
        assert_equals(t.echoAny(undefined), undefined);
        assert_equals(t.echoAny(null), null);
        assert_equals(t.echoAny(3), 3);
        t.anyAttribute = "kept"; assert_equals(t.anyAttribute, "kept");
        assert_equals(t.echoObject(o), o);
        assert_throws_js(TypeError, function () { t.echoObject(1); });
        assert_throws_js(TypeError, function () { t.echoObject(null); });
        t.objectAttribute = o; assert_equals(t.objectAttribute, o);
        t.nullableObjectAttribute = null; assert_equals(t.nullableObjectAttribute, null);
        t.nullableObjectAttribute = o; assert_equals(t.nullableObjectAttribute, o);
        // Interfaces.
        assert_equals(t.echoTestBinding(t), t);
        assert_equals(t.echoTestBinding(null), null);
        assert_throws_js(TypeError, function () { t.echoTestBinding(new EventTarget()); });
        var ev = new Event("e");
        t.eventAttribute = ev; assert_equals(t.eventAttribute, ev);
        assert_throws_js(TypeError, function () { t.eventAttribute = {}; });
        // Enums.
        assert_equals(t.echoEnum("bar-baz"), "bar-baz");
        assert_equals(t.echoEnum(""), "");
        assert_throws_js(TypeError, function () { t.echoEnum("nope"); });
        t.enumAttribute = "foo"; assert_equals(t.enumAttribute, "foo");
        // https://webidl.spec.whatwg.org/#dfn-attribute-setter: a string
        // that is not one of the enumeration's values is ignored, but
        // ToString's exceptions propagate.
        t.enumAttribute = "FOO"; assert_equals(t.enumAttribute, "foo", "invalid value ignored");
        t.enumAttribute = "bar-baz"; assert_equals(t.enumAttribute, "bar-baz");
        t.enumAttribute = { toString: function () { return "nope"; } };
        assert_equals(t.enumAttribute, "bar-baz");
        t.enumAttribute = { toString: function () { return ""; } };
        assert_equals(t.enumAttribute, "");
        assert_throws_js(RangeError, function () {
          t.enumAttribute = { toString: function () { throw new RangeError("from toString"); } };
        });
        assert_throws_js(TypeError, function () { t.enumAttribute = Symbol("s"); });
        assert_equals(t.enumAttribute, "");
        assert_equals(Reflect.set(t, "enumAttribute", "bogus"), true);
        // Unions.
        assert_equals(t.echoUnion(5), 5);
        assert_equals(t.echoUnion("5"), "5");
        assert_equals(t.echoUnion(true), "true", "boolean falls back to the string member");
        assert_equals(t.echoUnion({}), "[object Object]");
        t.unionAttribute = 3; assert_equals(t.unionAttribute, 3);
        assert_equals(t.describeDictionaryOrBoolean(), "dictionary flag=false");
        assert_equals(t.describeDictionaryOrBoolean(null), "dictionary flag=false");
        assert_equals(t.describeDictionaryOrBoolean({ flag: 1 }), "dictionary flag=true");
        assert_equals(t.describeDictionaryOrBoolean(false), "boolean false");
        assert_equals(t.describeDictionaryOrBoolean(0), "boolean false");
        "ok"
    "#,
    );
}

#[test]
fn dictionaries_from_js() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // Members are read least-derived dictionary first, each in
        // lexicographic order, once each.
        var log = [];
        var names = ["requiredBoolean", "longWithDefault", "nullableString", "restrictedDouble",
                     "unrestrictedDouble", "strings", "enumValue", "anyValue", "objectValue",
                     "bigNumber", "inner", "stringOrBoolean", "parentMember"];
        var source = {};
        names.forEach(function (n) {
          Object.defineProperty(source, n, { get: function () { log.push(n); return undefined; }, configurable: true });
        });
        Object.defineProperty(source, "requiredBoolean", { get: function () { log.push("requiredBoolean"); return true; } });
        t.echoDictionary(source);
        assert_array_equals(log, ["parentMember", "anyValue", "bigNumber", "enumValue", "inner",
          "longWithDefault", "nullableString", "objectValue", "requiredBoolean", "restrictedDouble",
          "stringOrBoolean", "strings", "unrestrictedDouble"]);
        // A missing required member is a TypeError.
        assert_throws_js(TypeError, function () { t.echoDictionary({}); });
        assert_throws_js(TypeError, function () { t.echoDictionary(undefined); });
        assert_throws_js(TypeError, function () { t.echoDictionary(null); });
        // Not an object, undefined or null: TypeError.
        assert_throws_js(TypeError, function () { t.echoInnerDictionary(5); });
        assert_throws_js(TypeError, function () { t.echoInnerDictionary("s"); });
        // undefined and null are the empty dictionary; defaults apply.
        assert_equals(t.echoInnerDictionary(undefined).flag, false);
        assert_equals(t.echoInnerDictionary(null).flag, false);
        assert_equals(t.echoInnerDictionary().flag, false);
        // Member conversions apply (and their errors propagate).
        assert_throws_js(TypeError, function () { t.echoDictionary({ requiredBoolean: true, restrictedDouble: NaN }); });
        assert_throws_js(TypeError, function () { t.echoDictionary({ requiredBoolean: true, enumValue: "x" }); });
        // Getters' exceptions propagate.
        assert_throws_js(RangeError, function () {
          t.echoDictionary({ get requiredBoolean() { throw new RangeError("r"); } });
        });
        // Inherited properties count.
        var proto = { requiredBoolean: true, longWithDefault: 9 };
        var r = t.echoDictionary(Object.create(proto));
        assert_equals(r.longWithDefault, 9);
        "ok"
    "#,
    );
}

#[test]
fn dictionaries_to_js() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        var r = t.echoDictionary({ requiredBoolean: true, strings: ["a"], bigNumber: 2 ** 53 - 1,
                                   nullableString: null, inner: {}, stringOrBoolean: false,
                                   anyValue: undefined });
        assert_equals(Object.getPrototypeOf(r), Object.prototype);
        // Lexicographic order, parent members first; absent optional members
        // are omitted (never null or undefined).
        assert_array_equals(Object.keys(r), ["parentMember", "bigNumber", "enumValue", "inner",
          "longWithDefault", "nullableString", "requiredBoolean", "stringOrBoolean", "strings"]);
        assert_equals(r.parentMember, "parent");
        assert_equals(r.enumValue, "foo");
        assert_equals(r.longWithDefault, 42);
        assert_equals(r.nullableString, null);
        assert_equals(r.bigNumber, Number.MAX_SAFE_INTEGER);
        assert_equals(r.stringOrBoolean, false);
        assert_array_equals(r.strings, ["a"]);
        assert_equals(JSON.stringify(r.inner), '{"flag":false}');
        assert_false("anyValue" in r, "an optional any that was undefined is absent");
        assert_false("restrictedDouble" in r);
        var d = Object.getOwnPropertyDescriptor(r, "enumValue");
        assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        "ok"
    "#,
    );
}

#[test]
fn callbacks() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        var thisValue;
        assert_equals(t.invokeCallback(function (v) { "use strict"; thisValue = this; return v + "!"; }, "hi"), "hi!");
        assert_equals(thisValue, null, "called with the given thisArg (null)");
        assert_throws_js(TypeError, function () { t.invokeCallback({}, "x"); }, "not callable");
        assert_throws_js(RangeError, function () { t.invokeCallback(function () { throw new RangeError("r"); }, "x"); });
        // Callback interfaces: a function, or an object with the operation.
        assert_equals(t.invokeCallbackInterface(function (v) { return v * 2; }, 21), 42);
        var listener = { factor: 3, compute: function (v) { return v * this.factor; } };
        assert_equals(t.invokeCallbackInterface(listener, 5), 15);
        assert_throws_js(TypeError, function () { t.invokeCallbackInterface({}, 1); }, "no compute");
        assert_throws_js(TypeError, function () { t.invokeCallbackInterface(5, 1); }, "not an object");
        // The operation is looked up at call time.
        var late = {};
        var p = t.invokeCallbackInterface.bind(t, late, 2);
        late.compute = function (v) { return v + 1; };
        assert_equals(p(), 3);
        "ok"
    "#,
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
fn event_target_listeners() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var target = new EventTarget();
        var log = [];
        function a(e) { log.push("a"); assert_equals(this, target); assert_equals(e.currentTarget, target);
                        assert_equals(e.target, target); assert_equals(e.eventPhase, Event.AT_TARGET); }
        target.addEventListener("x", a);
        target.addEventListener("x", a);              // duplicate: ignored
        target.addEventListener("x", a, false);       // same capture: ignored
        target.addEventListener("x", a, { capture: true }); // different capture: added
        target.addEventListener("x", null);           // null: ignored
        var obj = { handleEvent: function (e) { log.push("obj"); assert_equals(this, obj); } };
        target.addEventListener("x", obj);
        target.addEventListener("x", function () { log.push("once"); }, { once: true });
        var ev = new Event("x");
        assert_true(target.dispatchEvent(ev));
        // Capturing listeners run before non-capturing ones at the target.
        assert_array_equals(log, ["a", "a", "obj", "once"]);
        assert_equals(ev.eventPhase, Event.NONE);
        assert_equals(ev.currentTarget, null);
        assert_equals(ev.target, target);
        log = [];
        target.dispatchEvent(new Event("x"));
        assert_array_equals(log, ["a", "a", "obj"], "once listener removed");
        log = [];
        target.removeEventListener("x", a);           // removes the non-capture one
        target.removeEventListener("x", a, { capture: true });
        target.removeEventListener("x", obj, true);   // wrong capture: stays
        target.dispatchEvent(new Event("x"));
        assert_array_equals(log, ["obj"]);
        // Other types don't run.
        log = [];
        target.dispatchEvent(new Event("y"));
        assert_array_equals(log, []);
        // The listener's handleEvent is looked up at each call.
        var late = {};
        var t2 = new EventTarget();
        t2.addEventListener("z", late);
        late.handleEvent = function () { log.push("late"); };
        t2.dispatchEvent(new Event("z"));
        assert_array_equals(log, ["late"]);
        "ok"
    "#,
    );
}

#[test]
fn listener_removal_and_addition_during_dispatch() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var target = new EventTarget();
        var log = [];
        function second() { log.push("second"); }
        function added() { log.push("added"); }
        target.addEventListener("x", function () {
          log.push("first");
          target.removeEventListener("x", second);
          target.addEventListener("x", added);
        });
        target.addEventListener("x", second);
        target.dispatchEvent(new Event("x"));
        assert_array_equals(log, ["first"], "removed listener does not run; added one waits");
        log = [];
        target.dispatchEvent(new Event("x"));
        assert_array_equals(log, ["first", "added"]);
        // stopImmediatePropagation stops later listeners.
        var t = new EventTarget();
        log = [];
        t.addEventListener("s", function (e) { log.push(1); e.stopImmediatePropagation(); });
        t.addEventListener("s", function () { log.push(2); });
        t.dispatchEvent(new Event("s"));
        assert_array_equals(log, [1]);
        // stopPropagation in a capturing listener skips the bubbling invoke.
        log = [];
        var u = new EventTarget();
        u.addEventListener("s", function (e) { log.push("capture"); e.stopPropagation(); }, true);
        u.addEventListener("s", function () { log.push("bubble"); });
        u.dispatchEvent(new Event("s"));
        assert_array_equals(log, ["capture"]);
        "ok"
    "#,
    );
}

#[test]
fn exceptions_in_listeners_are_reported_and_dispatch_continues() {
    let mut rt = runtime();
    let result = run(
        &mut rt,
        r#"
        var target = new EventTarget();
        var log = [];
        target.addEventListener("x", function () { throw new TypeError("listener failed"); });
        target.addEventListener("x", { handleEvent: 5 });
        target.addEventListener("x", function () { log.push("later"); });
        var r = target.dispatchEvent(new Event("x"));
        assert_true(r);
        log.join()
    "#,
    );
    assert_eq!(result, "later");
    let errors = rt.take_reported_errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].message.contains("listener failed"), "{errors:?}");
    assert_eq!(errors[0].filename, "test.js");
    assert_eq!(errors[0].line, 4);
    assert!(errors[1].message.contains("handleEvent"), "{errors:?}");
    assert!(rt.reported_errors().is_empty());
}

#[test]
fn dispatch_event_algorithm_details() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var target = new EventTarget();
        // Re-dispatching during dispatch is an InvalidStateError.
        var inner;
        target.addEventListener("x", function (e) {
          inner = assert_throws_dom("InvalidStateError", function () { target.dispatchEvent(e); });
        });
        target.dispatchEvent(new Event("x"));
        assert_true(inner instanceof DOMException);
        // An uninitialized event (created by a derived constructor that never
        // ran Event's constructor) can't be produced from JS; an event can
        // be dispatched again after dispatch.
        var e = new Event("x");
        target.dispatchEvent(e);
        target.dispatchEvent(e);
        // Cancellation.
        var c = new EventTarget();
        c.addEventListener("c", function (e) { e.preventDefault(); });
        assert_false(c.dispatchEvent(new Event("c", { cancelable: true })));
        assert_true(c.dispatchEvent(new Event("c")), "not cancelable");
        // Passive listeners can't cancel.
        var p = new EventTarget();
        p.addEventListener("p", function (e) { e.preventDefault(); assert_false(e.defaultPrevented); }, { passive: true });
        assert_true(p.dispatchEvent(new Event("p", { cancelable: true })));
        // returnValue and cancelBubble.
        var ev = new Event("r", { cancelable: true });
        ev.returnValue = false;
        assert_true(ev.defaultPrevented);
        ev.cancelBubble = true;
        assert_true(ev.cancelBubble);
        // EventInit.
        var b = new Event("b", { bubbles: true, composed: true });
        assert_true(b.bubbles); assert_true(b.composed); assert_false(b.cancelable);
        assert_equals(b.type, "b");
        assert_equals(typeof b.timeStamp, "number");
        assert_true(b.timeStamp >= 0);
        // initEvent.
        b.initEvent("z", false, true);
        assert_equals(b.type, "z");
        assert_true(b.cancelable);
        // composedPath during and after dispatch.
        var cp;
        var q = new EventTarget();
        q.addEventListener("q", function (e) { cp = e.composedPath(); });
        var qe = new Event("q");
        q.dispatchEvent(qe);
        assert_array_equals(cp, [q]);
        assert_array_equals(qe.composedPath(), []);
        // isTrusted is false for dispatchEvent, true for UA-fired events.
        var t = new TestBinding();
        var trusted;
        t.addEventListener("fired", function (e) { trusted = e.isTrusted; });
        t.fireEvent("fired");
        assert_true(trusted);
        "ok"
    "#,
    );
}

#[test]
fn event_handler_attributes() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        assert_equals(t.onping, null);
        var log = [];
        function h(e) { log.push("handler:" + e.type); assert_equals(this, t); }
        t.onping = h;
        assert_equals(t.onping, h);
        t.addEventListener("ping", function () { log.push("listener"); });
        t.dispatchEvent(new Event("ping"));
        assert_array_equals(log, ["handler:ping", "listener"]);
        // Replacing the value keeps the handler's position.
        log = [];
        t.onping = function () { log.push("replaced"); };
        t.dispatchEvent(new Event("ping"));
        assert_array_equals(log, ["replaced", "listener"]);
        // Non-objects are null ([LegacyTreatNonObjectAsNull]).
        t.onping = 5;
        assert_equals(t.onping, null);
        log = [];
        t.dispatchEvent(new Event("ping"));
        assert_array_equals(log, ["listener"]);
        // Returning false cancels.
        t.onping = function () { return false; };
        assert_false(t.dispatchEvent(new Event("ping", { cancelable: true })));
        // A non-callable object is kept and ignored when invoked.
        var o = {};
        t.onping = o;
        assert_equals(t.onping, o);
        t.dispatchEvent(new Event("ping"));
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

#[test]
fn indexed_getters_make_legacy_platform_objects() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var l = new TestIndexedList(["a", "b", "c"]);
        assert_equals(Object.getPrototypeOf(l), TestIndexedList.prototype);
        assert_true(l instanceof TestIndexedList);
        assert_equals(Object.prototype.toString.call(l), "[object TestIndexedList]");
        assert_equals(l.length, 3);
        // [[GetOwnProperty]] for supported property indices.
        assert_equals(l[0], "a");
        assert_equals(l[2], "c");
        assert_equals(l[3], undefined);
        assert_equals(l.item(3), null);
        assert_true(0 in l);
        assert_false(3 in l);
        assert_true(l.hasOwnProperty("1"));
        var d = Object.getOwnPropertyDescriptor(l, "1");
        assert_equals(d.value, "b");
        assert_false(d.writable, "no indexed setter");
        assert_true(d.enumerable);
        assert_true(d.configurable);
        assert_equals(Object.getOwnPropertyDescriptor(l, "3"), undefined);
        // [[OwnPropertyKeys]]: indices, then own properties in creation order.
        assert_array_equals(Reflect.ownKeys(l), ["0", "1", "2"]);
        l.expando = 5;
        var sym = Symbol("s");
        l[sym] = 6;
        l.other = 7;
        var keys = Reflect.ownKeys(l);
        assert_array_equals(keys, ["0", "1", "2", "expando", "other", sym]);
        assert_array_equals(Object.keys(l), ["0", "1", "2", "expando", "other"]);
        assert_equals(l.expando, 5);
        assert_equals(l[sym], 6);
        assert_true(delete l.expando);
        assert_equals(l.expando, undefined);
        // [[DefineOwnProperty]] and [[Set]] reject array indices.
        l[0] = "x";
        assert_equals(l[0], "a");
        assert_throws_js(TypeError, function () { "use strict"; l[0] = "x"; });
        assert_throws_js(TypeError, function () { "use strict"; l[9] = "x"; });
        assert_throws_js(TypeError, function () { Object.defineProperty(l, "0", { value: "x" }); });
        assert_throws_js(TypeError, function () { Object.defineProperty(l, "7", { value: "x" }); });
        assert_equals(l[9], undefined);
        // Not array indices: ordinary properties.
        l["01"] = "lead";
        l["4294967295"] = "max";
        assert_equals(l["01"], "lead");
        assert_equals(l["4294967295"], "max");
        assert_throws_js(TypeError, function () { Object.defineProperty(l, "4294967294", { value: 1 }); });
        // [[Delete]]: false for supported indices, true otherwise.
        assert_false(delete l[0]);
        assert_throws_js(TypeError, function () { "use strict"; delete l[1]; });
        assert_true(delete l[10]);
        assert_equals(l[0], "a");
        // [[PreventExtensions]] fails.
        assert_throws_js(TypeError, function () { Object.preventExtensions(l); });
        assert_false(Reflect.preventExtensions(l));
        assert_true(Object.isExtensible(l));
        assert_throws_js(TypeError, function () { Object.freeze(l); });
        // Live: indices follow the object's state.
        l.push("d");
        assert_equals(l[3], "d");
        assert_equals(l.length, 4);
        // Operations and attributes brand-check the proxy.
        assert_equals(TestIndexedList.prototype.item.call(l, 1), "b");
        assert_throws_js(TypeError, function () { TestIndexedList.prototype.item.call({}, 0); });
        assert_throws_js(TypeError, function () { TestIndexedList.prototype.item.call(new TestNamedMap(), 0); });
        // Subclasses get the NewTarget's prototype.
        class Sub extends TestIndexedList {}
        var s = new Sub(["z"]);
        assert_equals(Object.getPrototypeOf(s), Sub.prototype);
        assert_equals(s[0], "z");
        // The proxy survives GC with its expando and state.
        l.kept = { deep: [1, 2] };
        (function () { for (var k = 0; k < 100; k++) { var x = new TestIndexedList(["q"]); x.e = {}; } })();
        new TestBinding().collectGarbage();
        assert_equals(l.kept.deep[1], 2);
        assert_equals(l[3], "d");
        "ok"
    "#,
    );
}

#[test]
fn value_iterators_use_the_array_methods() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var P = TestIndexedList.prototype;
        assert_equals(P[Symbol.iterator], Array.prototype.values);
        assert_equals(P.values, Array.prototype.values);
        assert_equals(P.keys, Array.prototype.keys);
        assert_equals(P.entries, Array.prototype.entries);
        assert_equals(P.forEach, Array.prototype.forEach);
        var d = Object.getOwnPropertyDescriptor(P, Symbol.iterator);
        assert_true(d.writable); assert_false(d.enumerable); assert_true(d.configurable);
        d = Object.getOwnPropertyDescriptor(P, "forEach");
        assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        var l = new TestIndexedList(["a", "b"]);
        assert_array_equals([...l], ["a", "b"]);
        assert_array_equals(Array.from(l.keys()), [0, 1]);
        var e = Array.from(l.entries());
        assert_equals(e[1][0], 1); assert_equals(e[1][1], "b");
        var seen = [];
        l.forEach(function (v, i, o) { assert_equals(o, l); seen.push(i + ":" + v); });
        assert_array_equals(seen, ["0:a", "1:b"]);
        // Live while iterating.
        var out = [];
        for (var v of l) { out.push(v); if (out.length == 1) l.push("c"); }
        assert_array_equals(out, ["a", "b", "c"]);
        "ok"
    "#,
    );
}

#[test]
fn stringifiers() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var l = new TestIndexedList(["a", "b"]);
        assert_equals(String(l), "a b");
        assert_equals(`${l}`, "a b");
        assert_equals(l + "!", "a b!");
        var f = TestIndexedList.prototype.toString;
        assert_equals(f.length, 0);
        assert_equals(f.name, "toString");
        var d = Object.getOwnPropertyDescriptor(TestIndexedList.prototype, "toString");
        assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        assert_throws_js(TypeError, function () { f.call({}); });
        assert_equals(f.call(new TestIndexedList(["x"])), "x");
        "ok"
    "#,
    );
}

#[test]
fn named_properties() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        // Named getter, setter and deleter (Storage-like).
        var m = new TestNamedMap();
        m.foo = "1";
        m["bar"] = 2;
        assert_equals(m.getItem("foo"), "1");
        assert_equals(m.bar, "2");
        assert_equals(m.length, 2);
        assert_array_equals(Object.keys(m), ["foo", "bar"]);
        var d = Object.getOwnPropertyDescriptor(m, "foo");
        assert_equals(d.value, "1");
        assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        assert_true("foo" in m);
        assert_false("baz" in m);
        assert_equals(m.baz, undefined);
        assert_true(delete m.foo);
        assert_equals(m.getItem("foo"), null);
        assert_equals(m.length, 1);
        // Names on the prototype chain are not visible, but [[Set]] on the
        // object itself still runs the setter.
        m.setItem("getItem", "x");
        assert_equals(typeof m.getItem, "function");
        assert_equals(m.getItem("getItem"), "x");
        assert_array_equals(Object.keys(m), ["bar"]);
        m.length = "9";
        assert_equals(m.getItem("length"), "9");
        assert_equals(m.length, 3);
        // [[DefineOwnProperty]]: data descriptors go to the setter.
        Object.defineProperty(m, "q", { value: "v" });
        assert_equals(m.getItem("q"), "v");
        assert_throws_js(TypeError, function () { Object.defineProperty(m, "r", { get: function () {} }); });
        // Without an indexed getter, indices are names.
        m[5] = "five";
        assert_equals(m.getItem("5"), "five");
        assert_equals(m[5], "five");
        // Symbols are ordinary properties.
        var sym = Symbol("k");
        m[sym] = 1;
        assert_equals(m[sym], 1);
        var keys = Reflect.ownKeys(m);
        assert_equals(keys[keys.length - 1], sym);
        // A setter that throws on conversion.
        assert_throws_js(TypeError, function () { m.z = Symbol("no"); });
        assert_equals(m.getItem("z"), null);

        // [LegacyOverrideBuiltIns] (DOMStringMap-like).
        var o = new TestOverrideMap();
        assert_equals(o.builtin, "builtin");
        o.builtin = "mine";
        assert_equals(o.builtin, "mine");
        assert_array_equals(Object.keys(o), ["builtin"]);
        assert_true(delete o.builtin);
        assert_equals(o.builtin, "builtin");
        o.a = "1";
        assert_array_equals(Object.keys(o), ["a"]);
        // An own property hides nothing once defined through the setter.
        assert_equals(Object.getOwnPropertyDescriptor(o, "a").value, "1");

        // Indexed and [LegacyUnenumerableNamedProperties] named getters
        // without setters (HTMLCollection-like).
        var c = new TestCollection(["a=1", "b=2", "a=3", "=4", "item=5"]);
        assert_equals(c.length, 5);
        assert_equals(c[0], "1");
        assert_equals(c[3], "4");
        assert_equals(c.a, "1");
        assert_equals(c.b, "2");
        assert_equals(typeof c.item, "function", "the prototype's member wins");
        assert_array_equals(Object.keys(c), ["0", "1", "2", "3", "4"]);
        assert_array_equals(Reflect.ownKeys(c), ["0", "1", "2", "3", "4", "a", "b"]);
        d = Object.getOwnPropertyDescriptor(c, "a");
        assert_false(d.enumerable); assert_false(d.writable); assert_true(d.configurable);
        c.a = "x";
        assert_equals(c.a, "1");
        assert_throws_js(TypeError, function () { "use strict"; c.a = "x"; });
        assert_false(delete c.a);
        assert_throws_js(TypeError, function () { "use strict"; delete c.b; });
        c.fresh = 5;
        assert_equals(c.fresh, 5);
        assert_throws_js(TypeError, function () { "use strict"; c[9] = 1; });
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
fn inherited_special_operations() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        // HTMLFormControlsCollection-like: the indexed getter inherited,
        // the named getter overridden (numbers come back as numbers), the
        // parent's [LegacyUnenumerableNamedProperties] still applying.
        var c = new TestDerivedCollection(["a=1", "b=two", "=4"]);
        assert_equals(Object.getPrototypeOf(TestDerivedCollection.prototype), TestCollection.prototype);
        assert_true(c instanceof TestCollection);
        assert_equals(c.length, 3);
        assert_equals(c[0], "1", "inherited indexed getter");
        assert_equals(c[2], "4");
        assert_equals(c[3], undefined);
        assert_equals(c.a, 1, "the derived named getter");
        assert_equals(c.b, "two");
        assert_equals(c.namedItem("a"), 1, "the derived namedItem()");
        assert_equals(TestCollection.prototype.namedItem.call(c, "a"), "1", "the parent's namedItem()");
        assert_equals(c.item(1), "two");
        assert_array_equals(Reflect.ownKeys(c), ["0", "1", "2", "a", "b"]);
        var d = Object.getOwnPropertyDescriptor(c, "a");
        assert_false(d.enumerable); assert_equals(d.value, 1);
        assert_array_equals(Object.keys(c), ["0", "1", "2"]);
        assert_throws_js(TypeError, function () { "use strict"; c[0] = "x"; });
        assert_true("1" in c); assert_false("5" in c); assert_true("a" in c);
        assert_throws_js(TypeError, function () { TestDerivedCollection.prototype.namedItem.call(new TestCollection([]), "a"); });

        // RadioNodeList-like: the indexed getter and the value iterator
        // inherited, an attribute of its own.
        var l = new TestDerivedList(["x", "y"]);
        assert_true(l instanceof TestIndexedList);
        assert_equals(l.length, 2);
        assert_equals(l[0], "x"); assert_equals(l[1], "y"); assert_equals(l[2], undefined);
        assert_array_equals(Object.keys(l), ["0", "1"]);
        assert_array_equals([...l], ["x", "y"]);
        l.push("z");
        assert_equals(l[2], "z");
        assert_equals(String(l), "x y z");
        l.value = "v"; assert_equals(l.value, "v");
        l[7] = "ignored";
        assert_equals(l[7], undefined);
        assert_throws_js(TypeError, function () { "use strict"; l[0] = "no setter"; });
        assert_equals(Object.getOwnPropertyDescriptor(l, "0").value, "x");
        "ok"
    "#,
    );
}

#[test]
fn pair_iterators() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var P = TestPairIterable.prototype;
        for (var name of ["entries", "keys", "values", "forEach"]) {
          var d = Object.getOwnPropertyDescriptor(P, name);
          assert_equals(typeof d.value, "function", name);
          assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        }
        assert_equals(P.entries.length, 0);
        assert_equals(P.forEach.length, 1);
        // @@iterator is the same function object as entries.
        assert_equals(P[Symbol.iterator], P.entries);
        var d = Object.getOwnPropertyDescriptor(P, Symbol.iterator);
        assert_true(d.writable); assert_false(d.enumerable); assert_true(d.configurable);
        var t = new TestPairIterable();
        t.append("a", 1);
        t.append("b", 2);
        var it = t.entries();
        // The iterator prototype object.
        var IP = Object.getPrototypeOf(it);
        assert_equals(Object.getPrototypeOf(IP), Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
        assert_equals(Object.prototype.toString.call(it), "[object TestPairIterable Iterator]");
        assert_equals(IP[Symbol.toStringTag], "TestPairIterable Iterator");
        d = Object.getOwnPropertyDescriptor(IP, "next");
        assert_true(d.writable); assert_true(d.enumerable); assert_true(d.configurable);
        assert_equals(IP.next.length, 0);
        assert_equals(Object.getPrototypeOf(t.keys()), IP, "one prototype per interface");
        var r = it.next();
        assert_array_equals(Object.keys(r), ["value", "done"]);
        assert_array_equals(r.value, ["a", 1]);
        assert_false(r.done);
        assert_array_equals(it.next().value, ["b", 2]);
        // Live: a pair appended after creation is seen.
        t.append("c", 3);
        assert_array_equals(it.next().value, ["c", 3]);
        r = it.next();
        assert_equals(r.value, undefined);
        assert_true(r.done);
        assert_array_equals(Array.from(t.keys()), ["a", "b", "c"]);
        assert_array_equals(Array.from(t.values()), [1, 2, 3]);
        var out = [];
        for (var [k, v] of t) out.push(k + v);
        assert_array_equals(out, ["a1", "b2", "c3"]);
        // next() brand-checks its this value.
        assert_throws_js(TypeError, function () { IP.next.call({}); });
        assert_throws_js(TypeError, function () { IP.next.call(t); });
        assert_throws_js(TypeError, function () { IP.next.call([][Symbol.iterator]()); });
        assert_throws_js(TypeError, function () { P.entries.call({}); });
        // forEach: (value, key, object), thisArg, the list re-read each step.
        var seen = [];
        var self = {};
        t.forEach(function (value, key, object) {
          assert_equals(this, self);
          assert_equals(object, t);
          seen.push(key + "=" + value);
          if (seen.length == 1) t.append("d", 4);
        }, self);
        assert_array_equals(seen, ["a=1", "b=2", "c=3", "d=4"]);
        assert_throws_js(TypeError, function () { t.forEach(5); });
        assert_throws_js(TypeError, function () { t.forEach(); });
        var thrown = new Error("from callback");
        try { t.forEach(function () { throw thrown; }); assert_true(false, "did not throw"); }
        catch (e) { assert_equals(e, thrown); }
        // Iterators keep their target alive across GC.
        var it2 = (function () { var u = new TestPairIterable(); u.append("x", 9); return u.values(); })();
        new TestBinding().collectGarbage();
        assert_equals(it2.next().value, 9);
        t.clear();
        assert_true(t.entries().next().done);
        "ok"
    "#,
    );
}

#[test]
fn byte_strings_and_records() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // https://webidl.spec.whatwg.org/#js-ByteString
        assert_equals(t.echoByteString("abc"), "abc");
        assert_equals(t.echoByteString("\u00ff\u0000x"), "\u00ff\u0000x");
        assert_equals(t.echoByteString(12), "12");
        assert_throws_js(TypeError, function () { t.echoByteString("\u0100"); });
        assert_throws_js(TypeError, function () { t.echoByteString("\u20ac"); });
        assert_throws_js(TypeError, function () { t.echoByteString("\ud800"); });
        // https://webidl.spec.whatwg.org/#js-record
        var r = t.echoRecord({ b: 1, a: "2", c: 3.7 });
        assert_array_equals(Object.keys(r), ["b", "a", "c"]);
        assert_equals(r.a, 2);
        assert_equals(r.c, 3);
        assert_equals(Object.getPrototypeOf(r), Object.prototype);
        // Only own enumerable properties, in [[OwnPropertyKeys]] order
        // (integer keys first), read with Get (getters run once each).
        var calls = 0;
        var o = Object.create({ inherited: 1 });
        Object.defineProperty(o, "hidden", { value: 5, enumerable: false });
        Object.defineProperty(o, "g", { get: function () { calls++; return 9; }, enumerable: true });
        o[2] = 4;
        r = t.echoRecord(o);
        assert_array_equals(Object.keys(r), ["2", "g"]);
        assert_equals(r.g, 9);
        assert_equals(calls, 1);
        assert_throws_js(TypeError, function () { t.echoRecord(5); });
        assert_throws_js(TypeError, function () { t.echoRecord(null); });
        // A symbol key converted to DOMString throws.
        var withSymbol = {};
        withSymbol[Symbol("s")] = 1;
        assert_throws_js(TypeError, function () { t.echoRecord(withSymbol); });
        // Value conversion errors propagate.
        assert_throws_js(TypeError, function () { t.echoRecord({ a: Symbol("v") }); });
        // Proxies: the traps run in spec order.
        var log = [];
        var p = new Proxy({ x: 1, y: 2 }, {
          ownKeys: function (target) { log.push("ownKeys"); return Reflect.ownKeys(target); },
          getOwnPropertyDescriptor: function (target, k) { log.push("gopd " + k); return Reflect.getOwnPropertyDescriptor(target, k); },
          get: function (target, k) { log.push("get " + k); return Reflect.get(target, k); },
        });
        t.echoRecord(p);
        assert_array_equals(log, ["ownKeys", "gopd x", "get x", "gopd y", "get y"]);
        // ByteString keys and values.
        r = t.echoByteStringRecord({ "Content-Type": "text/plain" });
        assert_equals(r["Content-Type"], "text/plain");
        assert_throws_js(TypeError, function () { t.echoByteStringRecord({ "\u0100": "x" }); });
        // Unions with records (HeadersInit, URLSearchParams' init).
        assert_equals(t.describeHeadersInit([["a", "b"], ["c", "d"]]), "sequence a:b,c:d");
        assert_equals(t.describeHeadersInit({ a: "b" }), "record a:b");
        assert_throws_js(TypeError, function () { t.describeHeadersInit("x"); });
        assert_equals(t.describeSearchInit(), "string ");
        assert_equals(t.describeSearchInit("a=b"), "string a=b");
        assert_equals(t.describeSearchInit([["a", "b"]]), "sequence 1");
        assert_equals(t.describeSearchInit({ a: "1", b: "2" }), "record 2");
        assert_equals(t.describeSearchInit(5), "string 5");
        "ok"
    "#,
    );
}

#[test]
fn allow_shared_and_allow_resizable_buffer_types() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // [AllowResizable] ArrayBuffer: resizable buffers convert (the
        // plain ArrayBuffer/BufferSource types still reject them).
        var rab = new ArrayBuffer(2, { maxByteLength: 8 });
        new Uint8Array(rab)[1] = 9;
        assert_equals(t.describeResizable(rab), "buffer 2 [0, 9]");
        rab.resize(3);
        assert_equals(t.describeResizable(rab), "buffer 3 [0, 9, 0]");
        assert_equals(t.describeResizable(new ArrayBuffer(1)), "buffer 1 [0]");
        assert_throws_js(TypeError, function () { t.describeBuffer(rab); });
        assert_throws_js(TypeError, function () { t.describeResizable(new Uint8Array(1)); }, "not a view");
        // [AllowShared, AllowResizable] ArrayBufferView: views of resizable
        // buffers (length-tracking too).
        assert_equals(t.describeAnyView(new Uint8Array(rab)), "view 3 [0, 9, 0]");
        assert_equals(t.describeAnyView(new Uint8Array(rab, 1, 1)), "view 1 [9]");
        assert_equals(t.describeAnyView(), "null");
        assert_throws_js(TypeError, function () { t.echoView(new Uint8Array(rab)); }, "no [AllowResizable]");
        assert_throws_js(TypeError, function () { t.describeAnyView(rab); }, "a buffer is not a view");
        "ok"
    "#,
    );
    // [AllowShared] Uint8Array: non-shared views convert as without it.
    // (The shell enables no shared memory: no SharedArrayBuffer and no
    // shared WebAssembly memory, so a shared view cannot be made here.)
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        assert_equals(typeof SharedArrayBuffer, "undefined");
        assert_array_equals(t.bytesOfSharedView(new Uint8Array([1, 2])), [1, 2]);
        assert_array_equals(t.bytesOfSharedView(new Uint8Array([1, 2, 3]).subarray(2)), [3]);
        assert_throws_js(TypeError, function () { t.bytesOfSharedView(new Int8Array(1)); }, "another element type");
        assert_throws_js(TypeError, function () { t.bytesOfSharedView(new ArrayBuffer(1)); }, "a buffer is not a view");
        assert_throws_js(TypeError, function () { t.bytesOfSharedView(new Uint8Array(new ArrayBuffer(1, { maxByteLength: 2 }))); }, "no [AllowResizable]");
        "ok"
    "#,
    );
}

#[test]
fn buffer_source_types() {
    let mut rt = runtime();
    run(
        &mut rt,
        r#"
        var t = new TestBinding();
        // Arguments: the bytes, whatever the view's type and range.
        assert_equals(t.describeBuffer(new Uint8Array([1, 2, 3]).buffer), "buffer 3 [1, 2, 3]");
        assert_equals(t.describeBuffer(new Uint8Array([1, 2, 3])), "view 3 [1, 2, 3]");
        var u16 = new Uint16Array([0x0102, 0x0304]);
        assert_equals(t.describeBuffer(u16), "view 4 [2, 1, 4, 3]");
        assert_equals(t.describeBuffer(new Uint8Array([9, 8, 7, 6]).subarray(1, 3)), "view 2 [8, 7]");
        assert_equals(t.describeBuffer(new DataView(new Uint8Array([5, 6]).buffer)), "view 2 [5, 6]");
        assert_throws_js(TypeError, function () { t.describeBuffer([1, 2]); });
        assert_throws_js(TypeError, function () { t.describeBuffer("abc"); });
        assert_throws_js(TypeError, function () { t.describeBuffer(undefined); });
        // Resizable buffers are rejected without [AllowResizable].
        assert_throws_js(TypeError, function () { t.describeBuffer(new ArrayBuffer(2, { maxByteLength: 4 })); });
        // A detached buffer holds no bytes.
        var detached = new ArrayBuffer(4);
        detached.transfer();
        assert_equals(t.describeBuffer(detached), "buffer 0 []");
        // SharedArrayBuffer only where allowed.
        if (typeof SharedArrayBuffer === "function") {
          var shared = new SharedArrayBuffer(2);
          new Uint8Array(shared)[1] = 7;
          assert_array_equals(t.bytesOf(shared), [0, 7]);
          assert_array_equals(t.bytesOf(new Uint8Array(shared)), [0, 7]);
          assert_throws_js(TypeError, function () { t.describeBuffer(shared); });
          assert_throws_js(TypeError, function () { t.describeBuffer(new Uint8Array(shared)); });
        }
        assert_array_equals(t.bytesOf(new Int8Array([-1])), [255]);
        // Return values: new objects.
        var ab = t.makeArrayBuffer([1, 2, 250]);
        assert_true(ab instanceof ArrayBuffer);
        assert_array_equals(Array.from(new Uint8Array(ab)), [1, 2, 250]);
        var u8 = t.makeUint8Array([4, 5]);
        assert_equals(Object.getPrototypeOf(u8), Uint8Array.prototype);
        assert_array_equals(Array.from(u8), [4, 5]);
        assert_equals(t.makeUint8Array([]).length, 0);
        // The same object comes back, written in place.
        var target = new Uint8Array(3);
        assert_equals(t.fillUint8Array(target, 7), target);
        assert_array_equals(Array.from(target), [7, 7, 7]);
        assert_throws_js(TypeError, function () { t.fillUint8Array(new Int8Array(2), 1); }, "another typed array type");
        assert_throws_js(TypeError, function () { t.fillUint8Array(new Uint8Array(2).buffer, 1); });
        // Nullable, unions.
        assert_equals(t.echoView(null), null);
        var v = new Float64Array(1);
        assert_equals(t.echoView(v), v);
        assert_throws_js(TypeError, function () { t.echoView(new ArrayBuffer(1)); });
        assert_equals(t.describeBufferOrString(new Uint8Array([1])), "buffer [1]");
        assert_equals(t.describeBufferOrString(new Uint8Array([1]).buffer), "buffer [1]");
        assert_equals(t.describeBufferOrString([1]), "string 1");
        assert_equals(t.describeBufferOrString("s"), "string s");
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
