//! Tests of the bindings runtime that need the DOM (a DOM interface, a
//! runtime with globals).

mod reflector {
    use crate::dom::bindings::reflector::DomObject;
    use crate::dom::nodes::domrectreadonly::DOMRectReadOnly;

    /// Asking an object that has no reflector yet for its realm is a clear
    /// panic (it was a null pointer handed to `GetNonCCWObjectGlobal` in
    /// each hand-written copy of the sequence).
    #[test]
    fn the_realm_of_an_unreflected_object_is_a_clear_panic() {
        let rect = DOMRectReadOnly::new_inherited(0.0, 0.0, 1.0, 1.0);
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = rect.relevant_global();
        }))
        .expect_err("no global without a reflector");
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        assert!(message.contains("before it was reflected"), "{message}");
    }
}

mod root {
    use mozjs::gc::RootedTraceableBox;
    use mozjs::jsapi::{GCReason, Heap, JSObject};
    use mozjs::jsval::UndefinedValue;
    use mozjs::rooted;
    use mozjs::rust::wrappers2::JS_GC;
    use mozjs::rust::{evaluate_script, CompileOptionsWrapper};

    use jsprof_script_derive::JSTraceable;
    use mozjs::gc::Traceable;

    use crate::runtime::JsRuntime;

    /// A DOM-like struct that gained a field: the field is traced without
    /// anyone writing a trace line for it.
    #[derive(JSTraceable)]
    struct Extended {
        #[no_trace]
        _label: url::Url,
        _count: u32,
        added: Box<Heap<*mut JSObject>>,
    }

    /// The same field marked as holding no GC things: the control showing
    /// that the test below can fail.
    #[derive(JSTraceable)]
    struct Untraced {
        #[no_trace]
        added: Box<Heap<*mut JSObject>>,
    }

    /// Puts an object reachable only through `holder`'s `added` field (and
    /// a `WeakRef` in JS), collects, and says whether the object survived.
    fn survives<T: Traceable + 'static>(
        holder: T,
        added: impl Fn(&T) -> &Heap<*mut JSObject>,
    ) -> bool {
        let mut runtime = JsRuntime::new_for_tests().expect("runtime");
        let holder = RootedTraceableBox::new(holder);
        let made = runtime.evaluate(
            "globalThis.target = {}; globalThis.weak = new WeakRef(globalThis.target); typeof weak",
            "trace-test.js",
            1,
        );
        assert_eq!(made.as_deref(), Ok("object"));
        runtime.enter(|cx, global| {
            let options = CompileOptionsWrapper::new(cx, c"trace-test.js".to_owned(), 1);
            rooted!(&in(cx) let mut target = UndefinedValue());
            evaluate_script(
                cx,
                global,
                "globalThis.target",
                target.handle_mut(),
                options,
            )
            .expect("read target");
            added(&holder).set(target.to_object());
        });
        // The global's reference goes; the microtask checkpoint after the
        // script clears the WeakRef's kept objects.
        let deleted = runtime.evaluate("delete globalThis.target", "trace-test.js", 1);
        assert_eq!(deleted.as_deref(), Ok("true"));
        // SAFETY: a full GC on this thread's context, outside any borrow
        // of the holder.
        runtime.enter(|cx, _| unsafe { JS_GC(cx, GCReason::API) });
        let alive = runtime.evaluate("weak.deref() !== undefined", "trace-test.js", 1);
        drop(holder);
        alive.expect("deref") == "true"
    }

    #[test]
    fn a_new_field_of_a_derived_struct_is_traced() {
        let extended = Extended {
            _label: url::Url::parse("https://example.test/").unwrap(),
            _count: 1,
            added: Heap::boxed(std::ptr::null_mut()),
        };
        assert!(survives(extended, |e| &e.added));
    }

    #[test]
    fn a_no_trace_field_is_not_traced() {
        let untraced = Untraced {
            added: Heap::boxed(std::ptr::null_mut()),
        };
        assert!(!survives(untraced, |u| &u.added));
    }
}
