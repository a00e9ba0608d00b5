//! Callback functions and callback interfaces: Rust wrappers around the JS
//! object with a typed `call`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::types::{config_expr, rust_type};
use super::{camel_case, ident, snake_case};
use crate::ir::*;

/// Parameters and the statements pushing each converted argument to `argv`.
fn arguments(args: &[Argument]) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut params = Vec::new();
    let mut pushes = Vec::new();
    for a in args {
        let n = format_ident!("{}", snake_case(&a.name));
        match &a.ty {
            Type::Interface(i) => {
                let t = ident(i);
                params.push(quote!(#n: &crate::dom::types::#t));
                pushes.push(quote! {{
                    rooted!(&in(cx) let mut js_arg = UndefinedValue());
                    dom_object_to_js(#n, js_arg.handle_mut());
                    argv.push(js_arg.get());
                }});
            }
            Type::Nullable(inner) if matches!(**inner, Type::Interface(_)) => {
                let Type::Interface(i) = &**inner else {
                    unreachable!()
                };
                let t = ident(i);
                params.push(quote!(#n: Option<&crate::dom::types::#t>));
                pushes.push(quote! {{
                    rooted!(&in(cx) let mut js_arg = NullValue());
                    if let Some(object) = #n {
                        dom_object_to_js(object, js_arg.handle_mut());
                    }
                    argv.push(js_arg.get());
                }});
            }
            ty => {
                let t = rust_type(ty);
                params.push(quote!(#n: #t));
                pushes.push(quote! {{
                    rooted!(&in(cx) let mut js_arg = UndefinedValue());
                    #n.to_js(cx, js_arg.handle_mut());
                    argv.push(js_arg.get());
                }});
            }
        }
    }
    (params, pushes)
}

/// Converts the callback's completion value (`rval`) to the return type.
fn return_conversion(ty: &Type) -> (TokenStream, TokenStream) {
    match ty {
        Type::Undefined => (quote!(()), quote!(Ok(()))),
        ty => {
            let t = rust_type(ty);
            let config = config_expr(ty);
            (
                t.clone(),
                quote! {
                    <#t as FromJsValue>::from_js(cx, rval.handle(), #config)
                        .map_err(|()| callback_conversion_failed(cx, handling))
                },
            )
        }
    }
}

pub(crate) fn callback_function(_defs: &Definitions, c: &CallbackFunction) -> TokenStream {
    let (params, pushes) = arguments(&c.arguments);
    let (ret, convert) = return_conversion(&c.return_type);
    callback_binding(Callback {
        idl_name: &c.name,
        kind: "function",
        holder: quote!(CallbackFunction),
        new_doc: quote! {
            /// Wraps a JS object (callable unless the type is
            /// `[LegacyTreatNonObjectAsNull]`).
        },
        invoke: quote! {
            /// <https://webidl.spec.whatwg.org/#invoke-a-callback-function>
            #[allow(clippy::too_many_arguments)]
            pub fn Call_(&self, cx: &mut JSContext, this_arg: HandleValue, #(#params,)* handling: ExceptionHandling) -> Fallible<#ret> {
                unsafe {
                    rooted_vec!(let mut argv);
                    #(#pushes)*
                    rooted!(&in(cx) let mut rval = UndefinedValue());
                    self.callback.call(cx, this_arg, &argv, rval.handle_mut(), handling)?;
                    #convert
                }
            }
        },
        from_js_doc: quote! {
            /// <https://webidl.spec.whatwg.org/#js-callback-function>
        },
        rejects: quote!(!is_callable(value)),
        rejection: "Value is not callable (expected a {}).",
    })
}

pub(crate) fn callback_interface(_defs: &Definitions, c: &CallbackInterface) -> TokenStream {
    let op = &c.operation;
    let op_name = op
        .name
        .as_deref()
        .expect("callback interface operations have names");
    let method = ident(&camel_case(op_name));
    let key = super::c_str(op_name);
    let (params, pushes) = arguments(&op.arguments);
    let (ret, convert) = return_conversion(&op.return_type);
    callback_binding(Callback {
        idl_name: &c.name,
        kind: "interface",
        holder: quote!(CallbackInterface),
        new_doc: quote! {
            /// Wraps a JS object (a function, or an object with the operation).
        },
        invoke: quote! {
            /// <https://webidl.spec.whatwg.org/#call-a-user-objects-operation>
            #[allow(clippy::too_many_arguments)]
            pub fn #method(&self, cx: &mut JSContext, this_arg: HandleValue, #(#params,)* handling: ExceptionHandling) -> Fallible<#ret> {
                unsafe {
                    rooted_vec!(let mut argv);
                    #(#pushes)*
                    rooted!(&in(cx) let mut rval = UndefinedValue());
                    self.callback.call_operation(cx, #key, this_arg, &argv, rval.handle_mut(), handling)?;
                    #convert
                }
            }
        },
        from_js_doc: quote! {
            /// <https://webidl.spec.whatwg.org/#js-callback-interface>
        },
        rejects: quote!(!value.is_object()),
        rejection: "Value is not an object (expected a {}).",
    })
}

/// What tells a callback function's binding from a callback interface's;
/// [`callback_binding`] writes the rest, the same for both.
struct Callback<'a> {
    /// The WebIDL name.
    idl_name: &'a str,
    /// "function" or "interface".
    kind: &'a str,
    /// The runtime type holding the JS object.
    holder: TokenStream,
    /// The doc comment of `new`.
    new_doc: TokenStream,
    /// The method that invokes the callback.
    invoke: TokenStream,
    /// The doc comment (spec link) of the JS-to-IDL conversion.
    from_js_doc: TokenStream,
    /// The conversion's test of `value` for a TypeError, and its message
    /// (`{}`: the WebIDL name).
    rejects: TokenStream,
    rejection: &'a str,
}

/// The Rust wrapper of a callback type: the JS object in its holder, the
/// invoking method, tracing, identity and the JS conversions.
fn callback_binding(c: Callback) -> TokenStream {
    let Callback {
        idl_name,
        kind,
        holder,
        new_doc,
        invoke,
        from_js_doc,
        rejects,
        rejection,
    } = c;
    let name = ident(idl_name);
    let doc = format!(" The WebIDL callback {kind} `{idl_name}`.");
    quote! {
        #[doc = #doc]
        pub struct #name {
            callback: #holder,
        }

        impl #name {
            #new_doc
            pub unsafe fn new(cx: &mut JSContext, object: *mut JSObject) -> Rc<#name> {
                Rc::new(#name { callback: #holder::new(cx, object) })
            }

            /// The JS object.
            pub fn callback(&self) -> *mut JSObject {
                self.callback.object()
            }

            #invoke
        }

        unsafe impl Traceable for #name {
            unsafe fn trace(&self, trc: *mut JSTracer) {
                unsafe { self.callback.trace(trc) }
            }
        }

        impl PartialEq for #name {
            fn eq(&self, other: &Self) -> bool {
                self.callback() == other.callback()
            }
        }

        impl CallbackType for #name {
            #from_js_doc
            unsafe fn from_js_callback(cx: &mut JSContext, value: HandleValue) -> Result<Rc<Self>, ()> {
                if #rejects {
                    throw_type_error(cx, &format!(#rejection, #idl_name));
                    return Err(());
                }
                Ok(#name::new(cx, value.to_object()))
            }
        }

        impl ToJsValue for #name {
            unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
                self.callback.to_js(cx, rval)
            }
        }
    }
}
