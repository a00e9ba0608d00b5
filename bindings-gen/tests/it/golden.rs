//! Golden tests: the code generated for each `tests/golden/*.webidl` must
//! equal the `.rs` file next to it. `UPDATE_GOLDEN=1 cargo test` rewrites
//! the expectations (review the diff).

use std::path::{Path, PathBuf};

use jsprof_bindings_gen::{generate_for_file, SourceFile};

/// The manifest directory at run time (a test binary built from another
/// checkout of the repository is reused as is; see ARCHITECTURE.md).
fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

fn check(name: &str) {
    let dir = manifest_dir().join("tests/golden");
    let input = PathBuf::from(format!("golden/{name}.webidl"));
    let text = std::fs::read_to_string(dir.join(format!("{name}.webidl"))).unwrap();
    let files = [SourceFile {
        path: input.clone(),
        text,
    }];
    let generated = generate_for_file(&files, &input).unwrap_or_else(|e| panic!("{e}"));
    // The generated code must be valid Rust.
    syn::parse_file(&generated).expect("generated code parses");
    let expected_path = dir.join(format!("{name}.rs"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&expected_path, &generated).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
        panic!(
            "missing {}; run with UPDATE_GOLDEN=1",
            expected_path.display()
        )
    });
    if generated != expected {
        let first_diff = generated
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(generated.lines().count().min(expected.lines().count()));
        panic!(
            "{name}: generated code differs from {} at line {} (UPDATE_GOLDEN=1 to accept)\n  generated: {:?}\n  expected:  {:?}",
            expected_path.display(),
            first_diff + 1,
            generated.lines().nth(first_diff),
            expected.lines().nth(first_diff)
        );
    }
}

#[test]
fn dictionary() {
    check("dictionary");
}

#[test]
fn enumeration() {
    check("enum");
}

#[test]
fn interface() {
    check("interface");
}

#[test]
fn callback() {
    check("callback");
}

#[test]
fn union() {
    check("union");
}

/// Spot checks that do not depend on formatting.
#[test]
fn dictionary_members_are_read_in_lexicographic_order_parent_first() {
    let text =
        std::fs::read_to_string(manifest_dir().join("tests/golden/dictionary.webidl")).unwrap();
    let files = [SourceFile {
        path: "d.webidl".into(),
        text,
    }];
    let code = generate_for_file(&files, Path::new("d.webidl")).unwrap();
    let options = &code[code.find("impl FromJsValue for Options").unwrap()..];
    let order: Vec<usize> = [
        "<Base as FromJsValue>",
        "c\"count\"",
        "c\"names\"",
        "c\"ratio\"",
    ]
    .iter()
    .map(|needle| {
        options
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} missing"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    let base = &code[code.find("impl FromJsValue for Base").unwrap()..];
    assert!(base.find("c\"alpha\"").unwrap() < base.find("c\"zeta\"").unwrap());
}

#[test]
fn global_and_variadic() {
    check("variadic");
}

#[test]
fn throwing_getters() {
    check("throws");
}

#[test]
fn static_operations() {
    check("static");
}

#[test]
fn event_handler_attributes() {
    check("eventhandler");
}

/// Spot checks: an `EventHandler` attribute's getter and setter are
/// provided trait methods over the event type (the name without `on`); an
/// attribute of the same type written without the typedef is not one.
#[test]
fn event_handler_attributes_are_provided_methods() {
    let text =
        std::fs::read_to_string(manifest_dir().join("tests/golden/eventhandler.webidl")).unwrap();
    let files = [SourceFile {
        path: "e.webidl".into(),
        text,
    }];
    let code = generate_for_file(&files, Path::new("e.webidl")).unwrap();
    let port = &code[code.find("pub trait PortMethods: AsEventTarget").unwrap()..];
    let port = &port[..port.find("\n    }\n").unwrap()];
    assert!(
        port.contains(".get_event_handler(cx, \"message\")"),
        "{port}"
    );
    assert!(
        port.contains(".set_event_handler(\"message\", value)"),
        "{port}"
    );
    assert!(port.contains(".get_event_handler(cx, \"close\")"), "{port}");
    assert!(!port.contains("fn SetOnclose"), "{port}");
    // Written without the typedef: an ordinary (required) attribute method.
    assert!(
        port.contains(") -> Option<Rc<EventHandlerNonNull>>;"),
        "{port}"
    );
    // The grandchild reaches its EventTarget part through its parent.
    let special = &code[code
        .find("impl AsEventTarget for crate::dom::types::SpecialPort")
        .unwrap()..];
    assert!(
        special.contains("AsRef::<crate::dom::types::Port>::as_ref(self)"),
        "{special}"
    );
}

#[test]
fn legacy_platform_objects_iterators_stringifiers() {
    check("legacy");
}

#[test]
fn byte_strings_records_and_buffer_sources() {
    check("types");
}

#[test]
fn mixins() {
    check("mixin");
}

/// Spot checks: each including interface gets the mixin's members in its
/// own trait and specs, after its own members.
#[test]
fn mixin_members_are_flattened_after_the_interface_members() {
    let text = std::fs::read_to_string(manifest_dir().join("tests/golden/mixin.webidl")).unwrap();
    let files = [SourceFile {
        path: "m.webidl".into(),
        text,
    }];
    let code = generate_for_file(&files, Path::new("m.webidl")).unwrap();
    assert!(
        !code.contains("SharedBinding"),
        "a mixin has no bindings of its own"
    );
    // (Attributes come before operations in the trait.)
    for (iface, members) in [
        (
            "Page",
            &[
                "fn Title(",
                "fn Origin(",
                "fn SetFlag(",
                "fn Close(",
                "fn Schedule(",
            ][..],
        ),
        (
            "WorkerScope",
            &[
                "fn Origin(",
                "fn SetFlag(",
                "fn ImportScripts(",
                "fn Schedule(",
            ][..],
        ),
    ] {
        let module = &code[code.find(&format!("pub mod {iface}Binding")).unwrap()..];
        let methods = &module[..module.find("\n    }\n").unwrap()];
        let order: Vec<usize> = members
            .iter()
            .map(|m| {
                methods
                    .find(m)
                    .unwrap_or_else(|| panic!("{iface}: {m} missing"))
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{iface}: {order:?}");
        assert!(module.contains("c\"LEVEL\""), "{iface}: the constant");
    }
    let worker = &code[code.find("pub mod WorkerScopeBinding").unwrap()..];
    assert!(
        !worker.contains("WindowOnly"),
        "[Exposed=Window] member left out"
    );
    let page = &code[code.find("pub mod PageBinding").unwrap()
        ..code.find("pub mod WorkerScopeBinding").unwrap()];
    assert!(page.contains("fn WindowOnly("));
}
