//! The conversion of a native's arguments (operations, constructors) and
//! of the value assigned to an attribute, and the Rust types the `*Methods`
//! traits receive them as.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::codegen::types::{default_expr, from_js_expr, rust_type};
use crate::codegen::{ident, snake_case};
use crate::ir::*;

/// The glue converting the arguments of `op`: `let name = ...;` per
/// argument, rooting callbacks for the duration of the call.
pub(super) fn argument_conversions(
    defs: &Definitions,
    op: &Operation,
    what: &str,
) -> (Vec<TokenStream>, Vec<proc_macro2::Ident>) {
    let mut stmts = Vec::new();
    let mut names = Vec::new();
    let required = op.required_argument_count();
    if required > 0 {
        stmts.push(quote!(check_argument_count(cx, &args, #required, #what)?;));
    }
    for (i, arg) in op.arguments.iter().enumerate() {
        let name = format_ident!("arg_{}", snake_case(&arg.name).trim_end_matches('_'));
        let index = i as u32;
        let value = quote!(args.get(#index));
        let convert = from_js_expr(defs, &arg.ty, value.clone());
        let t = rust_type(&arg.ty);
        let stmt = if arg.variadic {
            // https://webidl.spec.whatwg.org/#es-overloads: each remaining
            // value converted to the variadic argument's type.
            let item = from_js_expr(defs, &arg.ty, quote!(args.get(variadic_index)));
            quote! {
                let mut #name: Vec<#t> = Vec::new();
                for variadic_index in #index..args.len() {
                    #name.push(#item?);
                }
            }
        } else if !arg.optional {
            quote!(let #name: #t = #convert?;)
        } else if let Some(default) = &arg.default {
            let d = default_expr(defs, &arg.ty, default);
            quote!(let #name: #t = if #value.is_undefined() { #d? } else { #convert? };)
        } else if matches!(arg.ty, Type::Any) {
            quote!(let #name: #t = #convert?;)
        } else {
            quote!(let #name: Option<#t> = if #value.is_undefined() { None } else { Some(#convert?) };)
        };
        stmts.push(stmt);
        if contains_callback(&arg.ty) {
            let root = format_ident!("_root_{}", name);
            stmts.push(quote!(let #root = RootedTraceableBox::new(#name.clone());));
        }
        names.push(name);
    }
    (stmts, names)
}

pub(super) fn contains_callback(ty: &Type) -> bool {
    matches!(
        ty.inner(),
        Type::CallbackFunction(_) | Type::CallbackInterface(_)
    )
}

/// The Rust type of an argument as the DOM trait receives it.
pub(super) fn argument_type(arg: &Argument) -> TokenStream {
    let t = rust_type(&arg.ty);
    if arg.variadic {
        quote!(Vec<#t>)
    } else if arg.optional && arg.default.is_none() && !matches!(arg.ty, Type::Any) {
        quote!(Option<#t>)
    } else {
        t
    }
}

/// The conversion of the value assigned to an attribute, an expression of
/// type `Result<T, ()>` inside a native's body
/// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>): "If the
/// attribute's type is an enumeration": S = ? ToString(V); if S is not one
/// of the enumeration's values, return undefined (no TypeError).
pub(super) fn attribute_setter_conversion(defs: &Definitions, ty: &Type) -> TokenStream {
    match ty {
        Type::Enum(e) => {
            let e = ident(e);
            quote!(match #e::from_attribute_value(cx, args.get(0))? {
                Some(value) => Ok::<_, ()>(value),
                None => {
                    args.rval().set(UndefinedValue());
                    return Ok(());
                }
            })
        }
        _ => from_js_expr(defs, ty, quote!(args.get(0))),
    }
}
