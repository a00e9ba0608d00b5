//! `EventTarget` through the bindings: listeners, their removal and
//! addition during a dispatch, exceptions in listeners, the dispatch
//! algorithm and event handler IDL attributes.

use super::{run, runtime};

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
