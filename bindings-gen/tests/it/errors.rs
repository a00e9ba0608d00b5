//! Malformed or unsupported WebIDL is an error with file, line, column and
//! a clear message; never a panic.

use std::path::Path;

use jsprof_bindings_gen::{check, GenError, SourceFile};

fn error_of(text: &str) -> GenError {
    let files = [SourceFile {
        path: "bad.webidl".into(),
        text: text.to_owned(),
    }];
    match check(&files) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

fn assert_error(text: &str, line: usize, column: usize, message: &str) {
    let e = error_of(text);
    assert_eq!(e.file, Path::new("bad.webidl"));
    assert!(
        e.message.contains(message),
        "{e}\nexpected a message containing {message:?}"
    );
    assert_eq!((e.line, e.column), (line, column), "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("bad.webidl:{line}:{column}: ")),
        "{e}"
    );
}

#[test]
fn syntax_errors_point_at_the_failing_member() {
    assert_error(
        "[Exposed=Window]\ninterface A {\n  readonly attribute long x\n};\n",
        3,
        3,
        "syntax error",
    );
    assert_error(
        "dictionary D {\n  long x;\n",
        3,
        1,
        "unexpected end of file",
    );
    assert_error("interface ;", 1, 11, "syntax error: unexpected `;`");
    assert_error(
        "// comment\n\n   garbage here",
        3,
        4,
        "syntax error: unexpected `garbage here`",
    );
}

#[test]
fn unknown_types_are_rejected_with_hints() {
    assert_error(
        "[Exposed=Window]\ninterface A {\n  attribute bool flag;\n};",
        3,
        18,
        "unknown type `bool` (did you mean `boolean`?)",
    );
    assert_error(
        "dictionary D { Missing m; };",
        1,
        24,
        "unknown type `Missing`",
    );
}

#[test]
fn unsupported_constructs_are_rejected() {
    assert_error(
        "[Exposed=Window] interface A { setter undefined (DOMString n, long v); };",
        1,
        28,
        "a setter or deleter without the matching getter",
    );
    assert_error(
        "[Exposed=Window] interface A { legacycaller long (long x); };",
        1,
        28,
        "legacycaller operations are not supported",
    );
    assert_error(
        "[Exposed=Window] interface A { getter long (long i); };",
        1,
        28,
        "(unsigned long index) or (DOMString name)",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f(long x); undefined f(short y); };",
        1,
        63,
        "the overloads of `f` are not distinguishable at argument 1 with 1 arguments",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f(optional long x); undefined f(); };",
        1,
        72,
        "the overloads of `f` cannot be told apart with 0 arguments",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f(long x); Promise<undefined> f(); };",
        1,
        72,
        "must all return promises or none",
    );
    assert_error(
        "[Exposed=Window] interface A { attribute long f; undefined f(); };",
        1,
        60,
        "duplicate member `f` in A",
    );
    assert_error(
        "[Exposed=Window] interface A { stringifier long f(); };",
        1,
        49,
        "a stringifier must be of type DOMString or USVString",
    );
    assert_error(
        "[Exposed=Window] interface A { iterable<long>; };",
        1,
        28,
        "has a value iterator (iterable<V>) but no indexed property getter",
    );
    assert_error(
        "partial interface mixin M { };",
        1,
        25,
        "partial interface mixin M has no interface mixin M",
    );
    assert_error(
        "partial interface A { };",
        1,
        19,
        "partial interface A has no interface A",
    );
    assert_error("namespace N { };", 1, 11, "namespaces are not supported");
    assert_error(
        "dictionary D { record<long, long> r; };",
        1,
        35,
        "a record's key type must be DOMString, USVString or ByteString",
    );
    assert_error(
        "[Exposed=Window] interface A { attribute record<DOMString, long> r; };",
        1,
        66,
        "attributes cannot be records",
    );
    assert_error(
        "dictionary D { DataView b; };",
        1,
        25,
        "DataView is not supported",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f((BufferSource or Uint8Array) b); };",
        1,
        73,
        "a union may have only one buffer source member type",
    );
    assert_error(
        "callback C = undefined (long... rest);",
        1,
        33,
        "variadic arguments are only supported in operations",
    );
    assert_error(
        "callback C = undefined ();\n[Exposed=Window] interface A { undefined f(C... cs); };",
        2,
        49,
        "variadic arguments of callback or Promise types are not supported",
    );
}

#[test]
fn global_interfaces_cannot_inherit_special_operations() {
    assert_error(
        "[Exposed=Window] interface C { getter long (unsigned long i); };\n[Global=Window, Exposed=Window] interface D : C { };",
        2,
        43,
        "special operations on [Global] interfaces are not supported (D inherits them from C)",
    );
}

#[test]
fn attribute_extended_attributes_are_checked() {
    assert_error(
        "[Exposed=Window] interface A { [PutForwards=x] attribute A a; };",
        1,
        60,
        "[PutForwards] and [Replaceable] are only allowed on readonly attributes",
    );
    assert_error(
        "[Exposed=Window] interface A { attribute [LegacyNullToEmptyString] long n; };",
        1,
        73,
        "[LegacyNullToEmptyString] only applies to DOMString",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f([LegacyNullToEmptyString] DOMString? s); };",
        1,
        81,
        "[LegacyNullToEmptyString] only applies to DOMString",
    );
}

#[test]
fn extended_attributes_are_checked() {
    assert_error(
        "interface A { };",
        1,
        11,
        "needs an [Exposed] extended attribute",
    );
    assert_error(
        "[Exposed=Mars] interface A { };",
        1,
        10,
        "unknown global `Mars`",
    );
    assert_error(
        "[Exposed=Window, Serializable] interface A { };",
        1,
        18,
        "unsupported extended attribute [Serializable]",
    );
    assert_error(
        "[Exposed=Window] interface A { attribute [EnforceRange] DOMString s; };",
        1,
        67,
        "[EnforceRange] and [Clamp] only apply to integer types",
    );
}

#[test]
fn semantic_errors_are_rejected() {
    assert_error(
        "dictionary D { required long x = 1; };",
        1,
        30,
        "required dictionary member cannot have a default",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f(optional long a, long b); };",
        1,
        66,
        "a required argument cannot follow an optional one",
    );
    assert_error("enum E { \"a\", \"a\" };", 1, 16, "duplicate value");
    assert_error(
        "dictionary D { long x; };\ndictionary D { };",
        2,
        12,
        "already defined at bad.webidl:1:12",
    );
    assert_error(
        "[Exposed=Window] interface A : Nope { };",
        1,
        32,
        "inherits from `Nope`, which is not an interface",
    );
    assert_error(
        "[Exposed=Window] interface P { };\n[Exposed=*] interface C : P { };",
        2,
        23,
        "exposed on a global its parent P is not exposed on",
    );
    assert_error(
        "dictionary D { long x; };\n[Exposed=Window] interface A { undefined f(D d); };",
        2,
        42,
        "must be optional",
    );
    assert_error(
        "dictionary D { long x; };\n[Exposed=Window] interface A { undefined f(optional D d); };",
        2,
        55,
        "needs a default value",
    );
    assert_error(
        "dictionary D { long? x = \"s\"; };",
        1,
        22,
        "default value does not match",
    );
    assert_error(
        "[Exposed=Window] interface A { const octet C = 300; };",
        1,
        44,
        "out of range",
    );
    assert_error(
        "[Exposed=Window] interface A { attribute (long or short) u; };",
        1,
        58,
        "only one numeric member type",
    );
    assert_error(
        "callback C = undefined (long x);\ndictionary D { C c; };",
        2,
        18,
        "callbacks in a dictionary member are not supported",
    );
}

#[test]
fn the_cli_reports_errors_without_panicking() {
    let dir = std::env::temp_dir().join(format!("jsprof-bindings-gen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("Bad.webidl");
    std::fs::write(
        &bad,
        "[Exposed=Window]\ninterface Bad {\n  attribute bool b;\n};\n",
    )
    .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_jsprof-bindings-gen"))
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!("{}:3:18: unknown type `bool`", bad.display())),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let good = dir.join("Good.webidl");
    std::fs::write(
        &good,
        "[Exposed=Window]\ninterface Good {\n  readonly attribute boolean b;\n};\n",
    )
    .unwrap();
    std::fs::remove_file(&bad).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_jsprof-bindings-gen"))
        .arg(&good)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("pub trait GoodMethods"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_project_webidl_files_are_accepted() {
    // The manifest directory at run time (a test binary built from another
    // checkout of the repository is reused as is; see ARCHITECTURE.md).
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let dir = manifest.join("../webidl");
    let files = jsprof_bindings_gen::read_dir(&dir).unwrap();
    assert!(files.iter().any(|f| f.path.ends_with("Profiler.webidl")));
    let defs = check(&files).unwrap_or_else(|e| panic!("{e}"));
    let profiler = &defs.interfaces["Profiler"];
    assert_eq!(profiler.parent.as_deref(), Some("EventTarget"));
    // Exposed in dedicated workers too (a documented deviation).
    assert!(profiler.exposure.window && profiler.exposure.dedicated_worker);
    // The worker globals: [Global] interfaces exposed on dedicated workers
    // only, DedicatedWorkerGlobalScope inheriting WorkerGlobalScope.
    for (name, parent) in [
        ("WorkerGlobalScope", "EventTarget"),
        ("DedicatedWorkerGlobalScope", "WorkerGlobalScope"),
    ] {
        let global = &defs.interfaces[name];
        assert!(global.global, "{name}");
        assert_eq!(global.parent.as_deref(), Some(parent), "{name}");
        assert!(
            !global.exposure.window && global.exposure.dedicated_worker,
            "{name}"
        );
    }
    let worker = &defs.interfaces["Worker"];
    assert!(!worker.global && worker.exposure.window && worker.exposure.dedicated_worker);
    assert_eq!(profiler.constructors[0].required_argument_count(), 1);
    let names: Vec<_> = defs.dictionaries["ProfilerFrame"]
        .members
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ["column", "line", "name", "resourceId"]);
    jsprof_bindings_gen::generate(&files).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn event_handler_attributes_need_an_event_target_and_an_on_name() {
    let prelude = "[LegacyTreatNonObjectAsNull]\ncallback EventHandlerNonNull = any (any event);\ntypedef EventHandlerNonNull? EventHandler;\n";
    assert_error(
        &format!("{prelude}[Exposed=Window]\ninterface A {{\n  attribute EventHandler onping;\n}};\n"),
        6,
        26,
        "the event handler attribute `onping` needs an interface that inherits from EventTarget (A does not)",
    );
    assert_error(
        &format!("{prelude}[Exposed=Window]\ninterface EventTarget {{}};\n[Exposed=Window]\ninterface A : EventTarget {{\n  attribute EventHandler ping;\n}};\n"),
        8,
        26,
        "the event handler attribute `ping` must be named `on` followed by its event type",
    );
}

#[test]
fn mixins_and_includes_are_checked() {
    // What a mixin may not hold.
    assert_error(
        "interface mixin M { stringifier attribute long s; };",
        1,
        48,
        "a stringifier must be of type DOMString or USVString",
    );
    assert_error(
        "interface mixin M { attribute long a; const long a = 1; };",
        1,
        50,
        "duplicate member `a` in M",
    );
    assert_error(
        "[Pref=\"x\"] interface mixin M { };",
        1,
        2,
        "unsupported extended attribute [Pref] on an interface mixin",
    );
    // The two sides of `includes`.
    assert_error(
        "interface mixin M { };\nM includes M;",
        2,
        1,
        "`M` in an includes statement is not an interface",
    );
    assert_error(
        "[Exposed=Window] interface A { };\nA includes B;",
        2,
        12,
        "`B` in an includes statement is not an interface mixin",
    );
    assert_error(
        "[Exposed=Window] interface A { };\n[Exposed=Window] interface B { };\nA includes B;",
        3,
        12,
        "`B` in an includes statement is not an interface mixin",
    );
    // A member the interface already has.
    assert_error(
        "interface mixin M { readonly attribute long x; };\n[Exposed=Window] interface A { undefined x(); };\nA includes M;",
        3,
        12,
        "duplicate member `x` in A (also in the included mixin M)",
    );
    // A member exposed on only some of the interface's globals.
    assert_error(
        "interface mixin M { [Exposed=Window] undefined f(); };\n[Exposed=*] interface A { };\nA includes M;",
        3,
        12,
        "`f` of mixin M would be exposed on only some of the globals of A",
    );
    // A mixin is not a type.
    assert_error(
        "interface mixin M { };\n[Exposed=Window] interface A { attribute M m; };",
        2,
        44,
        "`M` is an interface mixin, not a type",
    );
}

#[test]
fn on_error_event_handler_attributes_and_callback_argument_types() {
    // `OnErrorEventHandler` makes an event handler attribute too, marked
    // as such; its callback takes a union and optional arguments.
    let text = "[LegacyTreatNonObjectAsNull]\ncallback EventHandlerNonNull = any (any event);\ntypedef EventHandlerNonNull? EventHandler;\n\
        [LegacyTreatNonObjectAsNull]\ncallback OnErrorEventHandlerNonNull = any ((Event or DOMString) event, optional DOMString source, optional unsigned long lineno, optional unsigned long colno, optional any error);\n\
        typedef OnErrorEventHandlerNonNull? OnErrorEventHandler;\n\
        [Exposed=Window]\ninterface EventTarget {};\n[Exposed=Window]\ninterface Event {};\n\
        [Exposed=Window]\ninterface A : EventTarget {\n  attribute OnErrorEventHandler onerror;\n  attribute EventHandler onload;\n};\n";
    let files = [SourceFile {
        path: "ok.webidl".into(),
        text: text.to_owned(),
    }];
    let defs = check(&files).unwrap_or_else(|e| panic!("{e}"));
    let a = &defs.interfaces["A"];
    let onerror = a.attributes.iter().find(|x| x.name == "onerror").unwrap();
    let onload = a.attributes.iter().find(|x| x.name == "onload").unwrap();
    assert!(onerror.event_handler && onerror.on_error_event_handler);
    assert!(onload.event_handler && !onload.on_error_event_handler);
    // What callback arguments may not be.
    assert_error(
        "callback C = any (optional long x = 1);",
        1,
        10,
        "optional callback arguments with a default value are not supported",
    );
    assert_error(
        "dictionary D {};\ncallback C = any (D d);",
        2,
        10,
        "callback arguments of dictionary or callback type are not supported",
    );
    assert_error(
        "callback C = any ((sequence<long> or DOMString) x);",
        1,
        10,
        "callback arguments of union type may only have interface, string, boolean or number members",
    );
}

#[test]
fn cross_origin_isolated_dictionary_members() {
    // Only on optional members without a default (absent otherwise).
    assert_error(
        "dictionary D { [CrossOriginIsolated] required DOMString s; };",
        1,
        57,
        "a [CrossOriginIsolated] dictionary member must be optional without a default value",
    );
    assert_error(
        "dictionary D { [CrossOriginIsolated] DOMString s = \"x\"; };",
        1,
        48,
        "a [CrossOriginIsolated] dictionary member must be optional without a default value",
    );
    assert_error(
        "dictionary D { [CrossOriginIsolated=x] DOMString s; };",
        1,
        50,
        "[CrossOriginIsolated] takes no arguments",
    );
    // Still rejected elsewhere.
    assert_error(
        "[Exposed=Window, CrossOriginIsolated] interface A { };",
        1,
        18,
        "unsupported extended attribute [CrossOriginIsolated]",
    );
}

#[test]
fn overloaded_constructors_must_be_distinguishable() {
    assert_error(
        "[Exposed=Window] interface A { constructor(long a); constructor(short b); };",
        1,
        28,
        "the overloads of `constructor` are not distinguishable at argument 1 with 1 arguments",
    );
}

#[test]
fn secure_context_and_buffer_attributes_are_checked() {
    assert_error(
        "[Exposed=Window] interface A { [SecureContext] undefined f(long a); undefined f(DOMString s); };",
        1,
        79,
        "[SecureContext] must be on every overload of `f` or none",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f([AllowShared] ArrayBuffer b); };",
        1,
        70,
        "[AllowShared] applies to buffer view types",
    );
    assert_error(
        "[Exposed=Window] interface A { undefined f([AllowResizable] long b); };",
        1,
        66,
        "[AllowShared] and [AllowResizable] only apply to",
    );
}
