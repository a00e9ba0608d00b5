//! The constructor (<https://webidl.spec.whatwg.org/#js-constructor>): the
//! interface object's \[\[Call]] and \[\[Construct]], and the `*Methods`
//! trait's `Constructor` methods.

use proc_macro2::TokenStream;
use quote::quote;

use super::arguments::{argument_conversions, argument_type};
use super::overloads::overload_functions;
use super::{Iface, Members};
use crate::codegen::ident;
use crate::ir::*;

/// The constructor native (`None` without a constructor) and the interface
/// object's `length`. Overloaded constructors are `Constructor`,
/// `Constructor_`, ... in declaration order, picked by the overload
/// resolution algorithm.
pub(super) fn constructor(target: &Iface, members: &mut Members) -> (TokenStream, u32) {
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
        ..
    } = members;
    if iface.constructors.is_empty() {
        (quote!(None), 0)
    } else {
        let what = format!("{} constructor", name);
        let id = ident(name);
        let group: Vec<&Operation> = iface.constructors.iter().collect();
        let mut bodies = Vec::new();
        for (index, op) in group.iter().enumerate() {
            let method = ident(&format!("Constructor{}", "_".repeat(index)));
            let (stmts, arg_names) = argument_conversions(defs, op, &what);
            let params = op.arguments.iter().zip(&arg_names).map(|(a, n)| {
                let t = argument_type(a);
                quote!(#n: #t)
            });
            let doc = if group.len() > 1 {
                format!(
                    " `constructor(...)`, overload {} (<https://webidl.spec.whatwg.org/#idl-overloading>): create the object with",
                    index + 1
                )
            } else {
                " `constructor(...)`: create the object with".to_owned()
            };
            trait_items.push(quote! {
                #[doc = #doc]
                /// `reflect_dom_object` and `proto`
                /// (<https://webidl.spec.whatwg.org/#internally-create-a-new-object-implementing-the-interface>).
                fn #method(cx: &mut JSContext, global: &GlobalScope, proto: Option<HandleObject>, #(#params),*) -> Fallible<DomRoot<#self_ty>>;
            });
            bodies.push(quote! {
                let (global, proto) = constructor_prologue(cx, &args, PrototypeList::#id, #name)?;
                #(#stmts)*
                let result = <#self_ty as #methods_trait>::#method(cx, global, Some(proto.handle()), #(#arg_names),*)
                    .map_err(|error| throw_dom_error(cx, error))?;
                result.to_js(cx, args.rval());
                Ok(())
            });
        }
        if group.len() == 1 {
            let body = &bodies[0];
            natives.push(quote! {
                /// The interface object's \[\[Call]] and \[\[Construct]]
                /// (<https://webidl.spec.whatwg.org/#js-constructor>).
                pub(crate) unsafe extern "C" fn construct(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                        #body
                    })
                }
            });
            (
                quote!(Some(construct)),
                group[0].required_argument_count() as u32,
            )
        } else {
            let (plan, dispatch) = overload_functions(&group, &bodies, "construct", &what, natives);
            natives.push(quote! {
                /// The interface object's \[\[Call]] and \[\[Construct]]
                /// (<https://webidl.spec.whatwg.org/#js-constructor>): step
                /// 1 (NewTarget), then the overload resolution algorithm
                /// (<https://webidl.spec.whatwg.org/#es-overloads>) picks the
                /// constructor.
                #[allow(unreachable_code)]
                pub(crate) unsafe extern "C" fn construct(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                        require_new_target(cx, &args, #name)?;
                        #dispatch
                    })
                }
            });
            (quote!(Some(construct)), plan.length as u32)
        }
    }
}
