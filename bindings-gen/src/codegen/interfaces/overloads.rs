//! Overloaded operations and constructors: one function per overload and
//! the overload resolution algorithm
//! (<https://webidl.spec.whatwg.org/#es-overloads>) dispatching to them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::codegen::ident;
use crate::ir::*;

/// One function per overload of `group` (`{prefix}_overload_{i}`, running
/// `bodies[i]`), pushed to `natives`; returns the overload plan and the
/// dispatch code calling them.
pub(super) fn overload_functions(
    group: &[&Operation],
    bodies: &[TokenStream],
    prefix: &str,
    what: &str,
    natives: &mut Vec<TokenStream>,
) -> (OverloadPlan, TokenStream) {
    let plan = overload_plan(group).expect("checked by the parser");
    let overload_fns: Vec<_> = (0..group.len())
        .map(|i| format_ident!("{}_overload_{}", prefix, i))
        .collect();
    for (f, body) in overload_fns.iter().zip(bodies) {
        natives.push(quote! {
            #[allow(unused_variables)]
            unsafe fn #f(cx: &mut JSContext, args: NativeArgs) -> Result<(), ()> {
                unsafe { #body }
            }
        });
    }
    let dispatch = overload_dispatch(group, &plan, &overload_fns, what);
    (plan, dispatch)
}

/// The overload resolution algorithm (<https://webidl.spec.whatwg.org/#es-overloads>)
/// for one overloaded operation: pick the entry of the effective overload
/// set by the argument count, then by the value at the distinguishing
/// argument index, and call that overload's function. (The arguments
/// before the distinguishing index are converted by the chosen overload,
/// after the choice.)
fn overload_dispatch(
    group: &[&Operation],
    plan: &OverloadPlan,
    overload_fns: &[proc_macro2::Ident],
    what: &str,
) -> TokenStream {
    let maxarg = plan.maxarg as u32;
    let no_match = format!("{what}: no overload matches the arguments.");
    let mut arms = Vec::new();
    for (count, (entries, d)) in plan.arms.iter().enumerate() {
        let count = count as u32;
        let body = match (entries.as_slice(), d) {
            ([], _) => {
                let message = format!("{what}: no overload takes {count} arguments.");
                quote! {
                    throw_type_error(cx, #message);
                    Err(())
                }
            }
            ([only], _) => {
                let f = &overload_fns[*only];
                quote!(#f(cx, args))
            }
            (_, Some(d)) => {
                let d_index = *d as u32;
                let arg = |e: usize| overload_argument(group[e], *d).expect("in range");
                let has = |e: usize, pred: &dyn Fn(&Type) -> bool| {
                    let (t, _) = arg(e);
                    match t {
                        Type::Union(m) => m.iter().any(pred),
                        Type::Nullable(inner) => match &**inner {
                            Type::Union(m) => m.iter().any(pred),
                            other => pred(other),
                        },
                        other => pred(other),
                    }
                };
                let first =
                    |pred: &dyn Fn(usize) -> bool| entries.iter().copied().find(|&e| pred(e));
                let call = |e: usize| {
                    let f = &overload_fns[e];
                    quote!(return #f(cx, args);)
                };
                let mut steps = Vec::new();
                // Step 12.3: undefined and an optional argument at d.
                if let Some(e) = first(&|e| arg(e).1) {
                    let c = call(e);
                    steps.push(quote!(if value.is_undefined() { #c }));
                }
                // Step 12.4: null or undefined and a nullable type or a
                // dictionary type (or a union holding one) at d.
                if let Some(e) = first(&|e| {
                    arg(e).0.is_nullable() || has(e, &|t| matches!(t, Type::Dictionary(_)))
                }) {
                    let c = call(e);
                    steps.push(quote!(if value.is_null_or_undefined() { #c }));
                }
                let mut object_steps = Vec::new();
                // Step 12.5: a platform object implementing an interface
                // type at d.
                for &e in entries {
                    let (t, _) = arg(e);
                    let mut types = Vec::new();
                    match t.inner() {
                        Type::Union(m) => types.extend(m.iter()),
                        other => types.push(other),
                    }
                    for t in types {
                        if let Type::Interface(n) = t {
                            let i = ident(n);
                            let c = call(e);
                            object_steps.push(quote! {
                                if DomRoot::<crate::dom::types::#i>::try_from_object(value.to_object()).is_some() { #c }
                            });
                        }
                        if let Type::Buffer(b, _) = t {
                            // Steps 12.6-12.9: buffer source types.
                            let config = crate::codegen::types::config_expr(t);
                            let b = ident(b);
                            let c = call(e);
                            object_steps.push(quote! {
                                if #b::try_from_object(value.to_object(), #config).is_some() { #c }
                            });
                        }
                    }
                }
                // Step 12.10: a callable value and a callback function type.
                if let Some(e) = first(&|e| has(e, &|t| matches!(t, Type::CallbackFunction(_)))) {
                    let c = call(e);
                    object_steps.push(quote!(if is_callable(value) { #c }));
                }
                // Step 12.11: an object with @@iterator and a sequence type.
                if let Some(e) = first(&|e| has(e, &|t| matches!(t, Type::Sequence(_)))) {
                    let c = call(e);
                    object_steps.push(quote!(if has_iterator_method(cx, value)? { #c }));
                }
                // Step 12.12: any object and a callback interface,
                // dictionary, record or object type.
                if let Some(e) = first(&|e| {
                    has(e, &|t| {
                        matches!(
                            t,
                            Type::CallbackInterface(_)
                                | Type::Dictionary(_)
                                | Type::Record(..)
                                | Type::Object
                        )
                    })
                }) {
                    object_steps.push(call(e));
                }
                if !object_steps.is_empty() {
                    steps.push(quote!(if value.is_object() { #(#object_steps)* }));
                }
                // Step 12.13: a Boolean and a boolean type.
                let boolean = first(&|e| has(e, &|t| matches!(t, Type::Boolean)));
                let numeric =
                    first(&|e| has(e, &|t| matches!(t, Type::Integer(..) | Type::Float { .. })));
                let string = first(&|e| {
                    has(e, &|t| {
                        matches!(
                            t,
                            Type::DOMString
                                | Type::NullToEmptyString
                                | Type::USVString
                                | Type::ByteString
                                | Type::Enum(_)
                        )
                    })
                });
                let any = first(&|e| matches!(arg(e).0, Type::Any));
                if let Some(e) = boolean {
                    let c = call(e);
                    steps.push(quote!(if value.is_boolean() { #c }));
                }
                // Step 12.14: a Number and a numeric type.
                if let Some(e) = numeric {
                    let c = call(e);
                    steps.push(quote!(if value.is_number() { #c }));
                }
                // Steps 12.16-12.19: then a string, numeric, boolean or
                // `any` type takes any value.
                for e in [string, numeric, boolean, any].into_iter().flatten() {
                    steps.push(call(e));
                }
                quote! {
                    let value = args.get(#d_index);
                    #(#steps)*
                    // Step 12.20: Otherwise, throw a TypeError.
                    throw_type_error(cx, #no_match);
                    Err(())
                }
            }
            _ => unreachable!("a plan with several entries has an index"),
        };
        arms.push(quote!(#count => { #body }));
    }
    quote! {
        // Steps 1-4: argcount is min(maxarg, the number of arguments).
        let argcount = args.len().min(#maxarg);
        match argcount {
            #(#arms)*
            _ => unreachable!("argcount is at most maxarg"),
        }
    }
}
