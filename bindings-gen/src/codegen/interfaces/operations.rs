//! Operations (<https://webidl.spec.whatwg.org/#es-operations>), static
//! operations and the stringifier: the `*Methods` trait's methods (one per
//! overload), the operation functions and their function specs.

use quote::{format_ident, quote};

use super::arguments::{argument_conversions, argument_type};
use super::overloads::overload_functions;
use super::{Iface, Members};
use crate::codegen::types::rust_type;
use crate::codegen::{c_str, camel_case, ident};
use crate::ir::*;

/// Regular operations, and static operations
/// (<https://webidl.spec.whatwg.org/#es-static-operations>), which are
/// properties of the interface object and have no `this`.
pub(super) fn operations(target: &Iface, members: &mut Members) {
    let Iface {
        defs,
        iface,
        name,
        self_ty,
        methods_trait,
    } = target;
    let Members {
        trait_items,
        natives,
        method_specs,
        static_method_specs,
        secure_method_specs,
        secure_static_method_specs,
        ..
    } = members;
    let groups = crate::parse::overload_groups(&iface.operations)
        .into_iter()
        .map(|g| (g, false))
        .chain(
            crate::parse::overload_groups(&iface.static_operations)
                .into_iter()
                .map(|g| (g, true)),
        );
    for (group, is_static) in groups {
        let op_name = group[0]
            .name
            .as_deref()
            .expect("regular operations have names");
        let native = if is_static {
            format_ident!("static_op_{}", op_name)
        } else {
            format_ident!("op_{}", op_name)
        };
        let what = format!("{}.{}", name, op_name);
        let mut bodies = Vec::new();
        // A static operation named as a regular one is `StaticFoo` in the
        // trait (they are not overloads of each other).
        let base = if is_static
            && iface
                .operations
                .iter()
                .any(|o| o.name.as_deref() == Some(op_name))
        {
            format!("Static{}", camel_case(op_name))
        } else {
            camel_case(op_name)
        };
        for (index, op) in group.iter().enumerate() {
            // Overloads are `Foo`, `Foo_`, `Foo__`... in declaration order.
            let method = ident(&format!("{}{}", base, "_".repeat(index)));
            let (stmts, arg_names) = argument_conversions(defs, op, &what);
            let params = op.arguments.iter().zip(&arg_names).map(|(a, n)| {
                let t = argument_type(a);
                quote!(#n: #t)
            });
            let ret = rust_type(&op.return_type);
            let doc = if group.len() > 1 {
                format!(
                    " `{}{}()`, overload {} (<https://webidl.spec.whatwg.org/#idl-overloading>)",
                    if is_static { "static " } else { "" },
                    op_name,
                    index + 1
                )
            } else {
                format!(" `{}{}()`", if is_static { "static " } else { "" }, op_name)
            };
            if is_static {
                trait_items.push(quote! {
                    #[doc = #doc]
                    fn #method(cx: &mut JSContext, global: &GlobalScope, #(#params),*) -> Fallible<#ret>;
                });
            } else {
                trait_items.push(quote! {
                    #[doc = #doc]
                    fn #method(&self, cx: &mut JSContext, #(#params),*) -> Fallible<#ret>;
                });
            }
            let (prologue, call) = if is_static {
                (
                    quote!(let global = static_operation_global(cx)?;),
                    quote!(<#self_ty as #methods_trait>::#method(cx, global, #(#arg_names),*)),
                )
            } else {
                (
                    quote!(let this = unwrap_this::<#self_ty>(cx, &args, #what)?;),
                    quote!(<#self_ty as #methods_trait>::#method(this, cx, #(#arg_names),*)),
                )
            };
            bodies.push(quote! {
                #prologue
                #(#stmts)*
                let result: #ret = #call
                    .map_err(|error| throw_dom_error(cx, error))?;
                result.to_js(cx, args.rval());
                Ok(())
            });
        }
        let kind = if group[0].returns_promise() {
            quote!(ReturnKind::Promise)
        } else {
            quote!(ReturnKind::Value)
        };
        let native_doc = if is_static {
            quote!(
                /// The static operation's function
                /// (<https://webidl.spec.whatwg.org/#dfn-create-operation-function>).
            )
        } else {
            quote!(
                /// The operation's function
                /// (<https://webidl.spec.whatwg.org/#dfn-create-operation-function>).
            )
        };
        let length = if group.len() == 1 {
            let body = &bodies[0];
            natives.push(quote! {
                #native_doc
                pub(crate) unsafe extern "C" fn #native(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, #kind, |cx, args| unsafe {
                        #body
                    })
                }
            });
            group[0].required_argument_count() as u16
        } else {
            let (plan, dispatch) =
                overload_functions(&group, &bodies, &native.to_string(), &what, natives);
            natives.push(quote! {
                #native_doc
                /// Overloaded: the overload resolution algorithm
                /// (<https://webidl.spec.whatwg.org/#es-overloads>) picks
                /// the overload.
                #[allow(unreachable_code)]
                pub(crate) unsafe extern "C" fn #native(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, #kind, |cx, args| unsafe {
                        #dispatch
                    })
                }
            });
            plan.length as u16
        };
        let key = c_str(op_name);
        let spec = quote!(function_spec(#key, Some(#native), #length, JSPROP_ENUMERATE));
        match (is_static, group[0].secure_context) {
            (true, false) => static_method_specs.push(spec),
            (true, true) => secure_static_method_specs.push(spec),
            (false, false) => method_specs.push(spec),
            (false, true) => secure_method_specs.push(spec),
        }
    }
}

/// The stringifier (<https://webidl.spec.whatwg.org/#es-stringifier>): a
/// `toString` operation.
pub(super) fn stringifier(target: &Iface, members: &mut Members) {
    let Iface {
        iface,
        name,
        self_ty,
        methods_trait,
        ..
    } = target;
    let Members {
        trait_items,
        natives,
        method_specs,
        ..
    } = members;
    if let Some(stringifier) = &iface.stringifier {
        let what = format!("{}.toString", name);
        let call = match stringifier {
            Stringifier::Plain => {
                trait_items.push(quote! {
                    /// `stringifier;`: the stringification behavior
                    /// (<https://webidl.spec.whatwg.org/#dfn-stringifier>).
                    fn Stringifier(&self, cx: &mut JSContext) -> Fallible<DOMString>;
                });
                quote!(<#self_ty as #methods_trait>::Stringifier(this, cx).map_err(|error| throw_dom_error(cx, error))?)
            }
            Stringifier::Attribute(attr) => {
                let a = iface
                    .attributes
                    .iter()
                    .find(|a| &a.name == attr)
                    .expect("the stringifier attribute");
                let getter_name = ident(&camel_case(attr));
                if a.getter_throws {
                    quote!(<#self_ty as #methods_trait>::#getter_name(this, cx).map_err(|error| throw_dom_error(cx, error))?)
                } else {
                    quote!(<#self_ty as #methods_trait>::#getter_name(this, cx))
                }
            }
            Stringifier::Operation(op) => {
                let method = ident(&camel_case(op));
                quote!(<#self_ty as #methods_trait>::#method(this, cx).map_err(|error| throw_dom_error(cx, error))?)
            }
        };
        let ty = match stringifier {
            Stringifier::Attribute(attr) => {
                let a = iface
                    .attributes
                    .iter()
                    .find(|a| &a.name == attr)
                    .expect("checked");
                rust_type(&a.ty)
            }
            Stringifier::Operation(op) => {
                let o = iface
                    .operations
                    .iter()
                    .find(|o| o.name.as_deref() == Some(op.as_str()))
                    .expect("checked");
                rust_type(&o.return_type)
            }
            Stringifier::Plain => quote!(DOMString),
        };
        natives.push(quote! {
            /// The `toString` operation of the stringifier
            /// (<https://webidl.spec.whatwg.org/#es-stringifier>): check
            /// that `this` implements the interface, then run the
            /// stringification behavior.
            pub(crate) unsafe extern "C" fn op_toString(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                    let this = unwrap_this::<#self_ty>(cx, &args, #what)?;
                    let result: #ty = #call;
                    result.to_js(cx, args.rval());
                    Ok(())
                })
            }
        });
        method_specs.push(quote!(function_spec(
            c"toString",
            Some(op_toString),
            0,
            JSPROP_ENUMERATE
        )));
    }
}
