//! The resolved model to Rust source.
//!
//! The generated code is a thin layer over the hand-written runtime in
//! `components/script/src/dom/bindings/` (reached through
//! `crate::dom::bindings::codegen_prelude`): it declares, per definition,
//! the data the WebIDL algorithms need (class, property and function specs,
//! Rust types for dictionaries, enums and unions) and the `JSNative` glue
//! that converts arguments, calls the DOM object's `*Methods` trait and
//! converts the result. The algorithms themselves live in the runtime,
//! under their WebIDL names.
//!
//! # The `unsafe` in the generated code
//!
//! The generated module is compiled with `clippy::undocumented_unsafe_blocks`
//! and `unsafe_op_in_unsafe_fn` allowed (`dom/bindings/mod.rs` in the script
//! crate): its `unsafe` comes from the templates in this module, which keep
//! these invariants (any template change must keep them too):
//! - Each `unsafe extern "C"` native (`interfaces/`: attribute getters and
//!   setters, operations, constructors, `toString`, iterator methods) is a
//!   `JSNative` named only in the property and function specs of its own
//!   interface, so SpiderMonkey calls it with its own `cx`, `argc` and `vp`
//!   (the contract of `call_native`). Its body runs inside `call_native`,
//!   which makes the `NativeArgs` (arguments and return value, rooted in
//!   `vp`) and turns a panic into an exception.
//! - `this` is brand-checked with `unwrap_this::<Self>` before any use; the
//!   `&T` it gives is the box its reflector owns, alive while `this` stays
//!   rooted in the call's arguments (the whole call).
//! - Arguments are converted with `FromJsValue::from_js` from handles into
//!   the call's arguments, and results written with `ToJsValue::to_js` into
//!   `args.rval()` or `rooted!` values: the "rooted" contracts of those traits.
//! - Each `unsafe fn` upcast (`interfaces/module.rs`) is stored in the
//!   `DOMClass` of the struct it casts from, and called only by
//!   `unwrap_dom_object` after the interface-chain check, on the box pointer
//!   of a reflector of that class.
//! - Callback wrappers (`callbacks.rs`, `new`) are made from the object of a
//!   rooted handle (checked callable by `from_js` unless
//!   `[LegacyTreatNonObjectAsNull]`) and trace it (`Traceable`), so it lives
//!   as long as the wrapper.

mod callbacks;
mod interfaces;
mod types;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::{Definitions, Type};

/// Generated Rust for `defs`. With `only`, the output is limited to the
/// definitions declared in that file (for the CLI); the shared tables
/// (prototype IDs, the interface list) are then left out.
pub fn generate_tokens(defs: &Definitions, only: Option<&std::path::Path>) -> TokenStream {
    let keep = |file: &std::path::Path| only.is_none_or(|o| o == file);
    let mut items = Vec::new();
    if only.is_none() {
        items.push(interfaces::prototype_list(defs));
    }
    for e in defs.enums.values().filter(|e| keep(&e.location.file)) {
        items.push(types::enumeration(e));
    }
    for d in defs
        .dictionaries
        .values()
        .filter(|d| keep(&d.location.file))
    {
        items.push(types::dictionary(defs, d));
    }
    let mut unions = std::collections::BTreeMap::new();
    collect_unions(defs, only, &mut unions);
    for members in unions.values() {
        items.push(types::union(defs, members));
    }
    for c in defs.callbacks.values().filter(|c| keep(&c.location.file)) {
        items.push(callbacks::callback_function(defs, c));
    }
    for c in defs
        .callback_interfaces
        .values()
        .filter(|c| keep(&c.location.file))
    {
        items.push(callbacks::callback_interface(defs, c));
    }
    for iface in defs
        .interfaces_in_dependency_order()
        .into_iter()
        .filter(|i| keep(&i.location.file))
    {
        items.push(interfaces::interface(defs, iface));
    }
    quote! {
        #[allow(unused_imports)]
        use crate::dom::bindings::codegen_prelude::*;
        #(#items)*
    }
}

/// Every union type used by the definitions kept, by generated name.
fn collect_unions(
    defs: &Definitions,
    only: Option<&std::path::Path>,
    out: &mut std::collections::BTreeMap<String, Vec<Type>>,
) {
    fn visit(ty: &Type, out: &mut std::collections::BTreeMap<String, Vec<Type>>) {
        match ty {
            Type::Union(members) => {
                out.insert(crate::ir::union_name(members), members.clone());
                for m in members {
                    visit(m, out);
                }
            }
            Type::Nullable(t) | Type::Sequence(t) | Type::Promise(t) | Type::Record(_, t) => {
                visit(t, out)
            }
            _ => {}
        }
    }
    let keep = |file: &std::path::Path| only.is_none_or(|o| o == file);
    for iface in defs.interfaces.values().filter(|i| keep(&i.location.file)) {
        for a in &iface.attributes {
            visit(&a.ty, out);
        }
        for op in iface.operations.iter().chain(iface.constructors.iter()) {
            visit(&op.return_type, out);
            for arg in &op.arguments {
                visit(&arg.ty, out);
            }
        }
    }
    for d in defs
        .dictionaries
        .values()
        .filter(|d| keep(&d.location.file))
    {
        for m in &d.members {
            visit(&m.ty, out);
        }
    }
    for c in defs.callbacks.values().filter(|c| keep(&c.location.file)) {
        for arg in &c.arguments {
            visit(&arg.ty, out);
        }
    }
}

/// `sampleInterval` -> `SampleInterval` (the DOM trait method names, as in
/// Servo).
pub(crate) fn camel_case(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '_' || c == '-' {
            upper = true;
            continue;
        }
        if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    // `Self` is a keyword.
    if out == "Self" {
        out.push('_');
    }
    out
}

/// `maxBufferSize` -> `max_buffer_size`, escaped if it is a Rust keyword.
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c == '-' {
            out.push('_');
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true",
        "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final",
        "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
    ];
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

pub(crate) fn ident(name: &str) -> proc_macro2::Ident {
    format_ident!("{}", name)
}

/// A `c"..."` literal.
pub(crate) fn c_str(s: &str) -> TokenStream {
    let lit =
        proc_macro2::Literal::c_string(&std::ffi::CString::new(s).expect("IDL names have no NUL"));
    quote!(#lit)
}
