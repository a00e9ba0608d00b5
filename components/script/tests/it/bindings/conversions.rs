//! WebIDL's conversions between JS values and IDL types: numbers,
//! strings, sequences, nullable, `any`, objects, enums, unions,
//! dictionaries, callbacks, byte strings, records and buffer sources.

use super::{run, runtime};

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
