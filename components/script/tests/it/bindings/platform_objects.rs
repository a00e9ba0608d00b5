//! Legacy platform objects (indexed and named properties, special
//! operations inherited from an ancestor interface), stringifiers, and
//! value and pair iterators.

use super::{run, runtime};

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
