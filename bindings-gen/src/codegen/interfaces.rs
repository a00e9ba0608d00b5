//! Interfaces: the `*Methods` trait, the JSNative glue, and the static
//! specs the runtime builds interface and prototype objects from.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::types::{default_expr, from_js_expr, rust_type};
use super::{c_str, camel_case, ident, snake_case};
use crate::ir::*;

/// The prototype IDs and the table of all interfaces, indexed by ID.
pub(crate) fn prototype_list(defs: &Definitions) -> TokenStream {
    let ordered = defs.interfaces_in_dependency_order();
    let names: Vec<_> = ordered.iter().map(|i| ident(&i.name)).collect();
    let ids = 0..ordered.len() as u16;
    let count = ordered.len();
    let specs = ordered.iter().map(|i| {
        let m = format_ident!("{}Binding", i.name);
        quote!(&#m::INTERFACE)
    });
    quote! {
        /// One ID per interface, parents before children.
        #[allow(non_upper_case_globals)]
        pub mod PrototypeList {
            use crate::dom::bindings::codegen_prelude::PrototypeId;
            #( pub const #names: PrototypeId = PrototypeId(#ids); )*
            /// The number of interfaces.
            pub const COUNT: usize = #count;
        }

        /// Every interface's spec, indexed by its prototype ID.
        pub static INTERFACES: [&InterfaceSpec; PrototypeList::COUNT] = [#(#specs),*];
    }
}

fn dom_struct_path(name: &str) -> TokenStream {
    let n = ident(name);
    quote!(crate::dom::types::#n)
}

/// The glue converting the arguments of `op`: `let name = ...;` per
/// argument, rooting callbacks for the duration of the call.
fn argument_conversions(
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

fn contains_callback(ty: &Type) -> bool {
    matches!(
        ty.inner(),
        Type::CallbackFunction(_) | Type::CallbackInterface(_)
    )
}

/// The Rust type of an argument as the DOM trait receives it.
fn argument_type(arg: &Argument) -> TokenStream {
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
fn attribute_setter_conversion(defs: &Definitions, ty: &Type) -> TokenStream {
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

pub(crate) fn interface(defs: &Definitions, iface: &Interface) -> TokenStream {
    let name = &iface.name;
    let module = format_ident!("{}Binding", name);
    let methods_trait = format_ident!("{}Methods", name);
    let self_ty = ident(name);
    let self_path = dom_struct_path(name);
    let ancestors = defs.ancestors(name);
    let depth = ancestors.len();

    let mut trait_items = Vec::new();
    let mut natives = Vec::new();
    let mut attribute_specs = Vec::new();
    let mut method_specs = Vec::new();
    // [SecureContext] members (https://webidl.spec.whatwg.org/#SecureContext):
    // defined only on globals that are secure contexts.
    let mut secure_attribute_specs = Vec::new();
    let mut secure_method_specs = Vec::new();
    let mut secure_static_attribute_specs = Vec::new();
    let mut secure_static_method_specs = Vec::new();

    // Attributes: https://webidl.spec.whatwg.org/#es-attributes
    for attr in &iface.attributes {
        let getter_name = ident(&camel_case(&attr.name));
        let t = rust_type(&attr.ty);
        let doc = format!(
            " `{}attribute {}`",
            if attr.readonly { "readonly " } else { "" },
            attr.name
        );
        let (getter_ret, getter_call) = if attr.getter_throws {
            (
                quote!(Fallible<#t>),
                quote!(<#self_ty as #methods_trait>::#getter_name(this, cx).map_err(|error| throw_dom_error(cx, error))?),
            )
        } else {
            (
                quote!(#t),
                quote!(<#self_ty as #methods_trait>::#getter_name(this, cx)),
            )
        };
        // https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-idl-attributes:
        // the getter and setter of an event handler IDL attribute are the
        // same for every interface, so they are provided methods (a DOM
        // struct overrides one where its interface adds steps).
        let event_type = attr
            .event_handler
            .then(|| attr.name.strip_prefix("on").expect("checked by the parser"));
        if let Some(event_type) = event_type {
            let doc = format!(
                "{doc}: the event handler IDL attribute for `{event_type}` \
                 (<https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-idl-attributes>): \
                 get the current value of the event handler."
            );
            // An `OnErrorEventHandler` is stored as the same callback
            // object as an `EventHandler` (HTML's event handler map holds
            // one value per event type), and read back as its own type.
            let get = if attr.on_error_event_handler {
                quote! {
                    self.as_event_target()
                        .get_event_handler(cx, #event_type)
                        // SAFETY: the stored handler's object is a live,
                        // traced callback object.
                        .map(|h| unsafe { OnErrorEventHandlerNonNull::new(cx, h.callback()) })
                }
            } else {
                quote!(self.as_event_target().get_event_handler(cx, #event_type))
            };
            trait_items.push(quote! {
                #[doc = #doc]
                fn #getter_name(&self, cx: &mut JSContext) -> #getter_ret {
                    #get
                }
            });
        } else {
            trait_items.push(quote! {
                #[doc = #doc]
                fn #getter_name(&self, cx: &mut JSContext) -> #getter_ret;
            });
        }
        let getter = format_ident!("get_{}", attr.name);
        let what = format!("get {}.{}", name, attr.name);
        natives.push(quote! {
            /// The attribute getter
            /// (<https://webidl.spec.whatwg.org/#dfn-attribute-getter>).
            pub(crate) unsafe extern "C" fn #getter(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                    let this = unwrap_this::<#self_ty>(cx, &args, #what)?;
                    let result: #t = #getter_call;
                    result.to_js(cx, args.rval());
                    Ok(())
                })
            }
        });
        let setter = if let Some(forward) = &attr.put_forwards {
            // https://webidl.spec.whatwg.org/#PutForwards
            let setter = format_ident!("set_{}", attr.name);
            let what = format!("set {}.{}", name, attr.name);
            let key = c_str(&attr.name);
            let forward = c_str(forward);
            natives.push(quote! {
                /// The attribute setter of a `[PutForwards]` attribute
                /// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>).
                pub(crate) unsafe extern "C" fn #setter(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| {
                        unwrap_this::<#self_ty>(cx, &args, #what)?;
                        check_argument_count(cx, &args, 1, #what)?;
                        put_forwards(cx, &args, #key, #forward)
                    })
                }
            });
            quote!(Some(#setter))
        } else if attr.replaceable {
            // https://webidl.spec.whatwg.org/#Replaceable
            let setter = format_ident!("set_{}", attr.name);
            let what = format!("set {}.{}", name, attr.name);
            let key = c_str(&attr.name);
            natives.push(quote! {
                /// The attribute setter of a `[Replaceable]` attribute
                /// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>).
                pub(crate) unsafe extern "C" fn #setter(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| {
                        unwrap_this::<#self_ty>(cx, &args, #what)?;
                        check_argument_count(cx, &args, 1, #what)?;
                        replace_attribute(cx, &args, #key)
                    })
                }
            });
            quote!(Some(#setter))
        } else if attr.readonly {
            quote!(None)
        } else {
            let setter_name = format_ident!("Set{}", camel_case(&attr.name));
            let setter = format_ident!("set_{}", attr.name);
            let what = format!("set {}.{}", name, attr.name);
            if let Some(event_type) = event_type {
                let doc = format!(
                    "{doc}: the event handler IDL attribute's setter for `{event_type}`: \
                     set the event handler to the value."
                );
                let value = if attr.on_error_event_handler {
                    // SAFETY: the value's object is a live callback object
                    // (rooted by the caller).
                    quote!(value.map(|v| unsafe { EventHandlerNonNull::new(_cx, v.callback()) }))
                } else {
                    quote!(value)
                };
                trait_items.push(quote! {
                    #[doc = #doc]
                    fn #setter_name(&self, _cx: &mut JSContext, value: #t) -> Fallible<()> {
                        self.as_event_target().set_event_handler(#event_type, #value);
                        Ok(())
                    }
                });
            } else {
                trait_items.push(quote! {
                    #[doc = #doc]
                    fn #setter_name(&self, cx: &mut JSContext, value: #t) -> Fallible<()>;
                });
            }
            let convert = attribute_setter_conversion(defs, &attr.ty);
            let root = if contains_callback(&attr.ty) {
                quote!(let _root_value = RootedTraceableBox::new(value.clone());)
            } else {
                quote!()
            };
            natives.push(quote! {
                /// The attribute setter
                /// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>).
                pub(crate) unsafe extern "C" fn #setter(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                        let this = unwrap_this::<#self_ty>(cx, &args, #what)?;
                        check_argument_count(cx, &args, 1, #what)?;
                        let value: #t = #convert?;
                        #root
                        <#self_ty as #methods_trait>::#setter_name(this, cx, value)
                            .map_err(|error| throw_dom_error(cx, error))?;
                        args.rval().set(UndefinedValue());
                        Ok(())
                    })
                }
            });
            quote!(Some(#setter))
        };
        if !attr.unforgeable {
            let key = c_str(&attr.name);
            let specs = if attr.secure_context {
                &mut secure_attribute_specs
            } else {
                &mut attribute_specs
            };
            specs.push(quote!(accessor_spec(#key, Some(#getter), #setter, JSPROP_ENUMERATE)));
        }
    }

    // Static attributes: accessor properties of the interface object
    // (https://webidl.spec.whatwg.org/#es-attributes), without `this`.
    let mut static_attribute_specs = Vec::new();
    for attr in &iface.static_attributes {
        let getter_name = ident(&camel_case(&attr.name));
        let t = rust_type(&attr.ty);
        let (ret, call) = if attr.getter_throws {
            (
                quote!(Fallible<#t>),
                quote!(<#self_ty as #methods_trait>::#getter_name(cx, global).map_err(|error| throw_dom_error(cx, error))?),
            )
        } else {
            (
                quote!(#t),
                quote!(<#self_ty as #methods_trait>::#getter_name(cx, global)),
            )
        };
        let doc = format!(
            " `static {}attribute {}`",
            if attr.readonly { "readonly " } else { "" },
            attr.name
        );
        trait_items.push(quote! {
            #[doc = #doc]
            fn #getter_name(cx: &mut JSContext, global: &GlobalScope) -> #ret;
        });
        let getter = format_ident!("static_get_{}", attr.name);
        let what = format!("get {}.{}", name, attr.name);
        natives.push(quote! {
            /// The static attribute's getter
            /// (<https://webidl.spec.whatwg.org/#dfn-attribute-getter>).
            pub(crate) unsafe extern "C" fn #getter(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                    let global = static_operation_global(cx)?;
                    let result: #t = #call;
                    result.to_js(cx, args.rval());
                    Ok(())
                })
            }
        });
        let setter = if attr.readonly {
            quote!(None)
        } else {
            let setter_name = format_ident!("Set{}", camel_case(&attr.name));
            let setter = format_ident!("static_set_{}", attr.name);
            let what = format!("set {}.{}", name, attr.name);
            trait_items.push(quote! {
                #[doc = #doc]
                fn #setter_name(cx: &mut JSContext, global: &GlobalScope, value: #t) -> Fallible<()>;
            });
            let convert = attribute_setter_conversion(defs, &attr.ty);
            natives.push(quote! {
                /// The static attribute's setter
                /// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>).
                pub(crate) unsafe extern "C" fn #setter(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| unsafe {
                        let global = static_operation_global(cx)?;
                        check_argument_count(cx, &args, 1, #what)?;
                        let value: #t = #convert?;
                        <#self_ty as #methods_trait>::#setter_name(cx, global, value)
                            .map_err(|error| throw_dom_error(cx, error))?;
                        args.rval().set(UndefinedValue());
                        Ok(())
                    })
                }
            });
            quote!(Some(#setter))
        };
        let key = c_str(&attr.name);
        let specs = if attr.secure_context {
            &mut secure_static_attribute_specs
        } else {
            &mut static_attribute_specs
        };
        specs.push(quote!(accessor_spec(#key, Some(#getter), #setter, JSPROP_ENUMERATE)));
    }

    // Operations: https://webidl.spec.whatwg.org/#es-operations, and
    // static operations (https://webidl.spec.whatwg.org/#es-static-operations),
    // which are properties of the interface object and have no `this`.
    let mut static_method_specs = Vec::new();
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
                overload_functions(&group, &bodies, &native.to_string(), &what, &mut natives);
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

    // Stringifiers: https://webidl.spec.whatwg.org/#es-stringifier
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

    // Pair iterators: https://webidl.spec.whatwg.org/#es-iterators
    if let Some(Iterable::Pair(k, v)) = &iface.iterable {
        let kt = rust_type(k);
        let vt = rust_type(v);
        trait_items.push(quote! {
            /// `iterable<K, V>`: the value pair at `index` in the current
            /// list of value pairs to iterate over
            /// (<https://webidl.spec.whatwg.org/#dfn-value-pairs-to-iterate-over>),
            /// `None` when `index` is not below its length.
            fn PairIterableEntry(&self, cx: &mut JSContext, index: u32) -> Option<(#kt, #vt)>;
        });
        let id = ident(name);
        for (native, method, kind) in [
            (
                "iterable_entries",
                "entries",
                quote!(IterationKind::KeyValue),
            ),
            ("iterable_keys", "keys", quote!(IterationKind::Key)),
            ("iterable_values", "values", quote!(IterationKind::Value)),
        ] {
            let native = ident(native);
            let what = format!("{name}.{method}");
            let doc =
                format!(" `{method}()` (<https://webidl.spec.whatwg.org/#es-iterable-{method}>).");
            natives.push(quote! {
                #[doc = #doc]
                pub(crate) unsafe extern "C" fn #native(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                    call_native(cx, argc, vp, #what, ReturnKind::Value, |cx, args| {
                        pair_iterable_method::<#self_ty>(cx, &args, #what, #kind, PrototypeList::#id)
                    })
                }
            });
            let key = c_str(method);
            method_specs.push(quote!(function_spec(#key, Some(#native), 0, JSPROP_ENUMERATE)));
        }
        let for_each_what = format!("{name}.forEach");
        let next_what = format!("{name} Iterator.next");
        let iterator_name = c_str(&format!("{name} Iterator"));
        natives.push(quote! {
            /// `forEach(callback, thisArg)` (<https://webidl.spec.whatwg.org/#es-forEach>).
            pub(crate) unsafe extern "C" fn iterable_for_each(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #for_each_what, ReturnKind::Value, |cx, args| {
                    pair_iterable_for_each::<#self_ty, #kt, #vt>(cx, &args, #for_each_what, |this, cx, index| {
                        <#self_ty as #methods_trait>::PairIterableEntry(this, cx, index)
                    })
                })
            }

            /// The iterator prototype object's `next()`
            /// (<https://webidl.spec.whatwg.org/#es-iterator-prototype-object>).
            pub(crate) unsafe extern "C" fn iterator_next(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
                call_native(cx, argc, vp, #next_what, ReturnKind::Value, |cx, args| {
                    pair_iterator_next::<#self_ty, #kt, #vt>(cx, &args, #next_what, |this, cx, index| {
                        <#self_ty as #methods_trait>::PairIterableEntry(this, cx, index)
                    })
                })
            }

            static PAIR_ITERATOR: PairIteratorSpec = PairIteratorSpec {
                name: #iterator_name,
                next: iterator_next,
            };
        });
        method_specs.push(quote!(function_spec(
            c"forEach",
            Some(iterable_for_each),
            1,
            JSPROP_ENUMERATE
        )));
    }

    // Legacy platform objects: https://webidl.spec.whatwg.org/#es-legacy-platform-objects
    let legacy = legacy_platform_object(defs, iface, &mut trait_items);

    // The constructor: https://webidl.spec.whatwg.org/#js-constructor
    // Overloaded constructors are `Constructor`, `Constructor_`, ... in
    // declaration order, picked by the overload resolution algorithm.
    let (constructor, constructor_length) = if iface.constructors.is_empty() {
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
                /// The interface object's [[Call]] and [[Construct]]
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
            let (plan, dispatch) =
                overload_functions(&group, &bodies, "construct", &what, &mut natives);
            natives.push(quote! {
                /// The interface object's [[Call]] and [[Construct]]
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
    };

    // [LegacyUnforgeable] attributes of this interface and its ancestors
    // are own properties of every instance.
    let mut unforgeable = Vec::new();
    for i in std::iter::once(iface).chain(ancestors.iter().copied()) {
        let m = format_ident!("{}Binding", i.name);
        for a in i.attributes.iter().filter(|a| a.unforgeable) {
            let key = c_str(&a.name);
            let getter = format_ident!("get_{}", a.name);
            unforgeable.push(quote!(accessor_spec(#key, Some(super::#m::#getter), None, JSPROP_ENUMERATE | JSPROP_PERMANENT)));
        }
    }

    let constants = iface.constants.iter().map(|c| {
        let key = c_str(&c.name);
        let value = match &c.value {
            ConstValue::Boolean(b) => quote!(ConstantValue::Bool(#b)),
            ConstValue::Integer(v) => {
                let lit = proc_macro2::Literal::f64_suffixed(*v as f64);
                quote!(ConstantValue::Number(#lit))
            }
            ConstValue::Float(f) => {
                let lit = proc_macro2::Literal::f64_suffixed(*f);
                quote!(ConstantValue::Number(#lit))
            }
        };
        quote!(ConstantSpec { name: #key, value: #value })
    });

    let n_attrs = attribute_specs.len() + 1;
    let n_methods = method_specs.len() + 1;
    let n_secure_attrs = secure_attribute_specs.len() + 1;
    let n_secure_methods = secure_method_specs.len() + 1;
    let n_secure_static_attrs = secure_static_attribute_specs.len() + 1;
    let n_secure_static_methods = secure_static_method_specs.len() + 1;
    let n_static_methods = static_method_specs.len() + 1;
    let n_static_attrs = static_attribute_specs.len() + 1;
    let n_unforgeable = unforgeable.len() + 1;
    let key = c_str(name);
    let parent = match &iface.parent {
        Some(p) => {
            let p = ident(p);
            quote!(Some(PrototypeList::#p))
        }
        None => quote!(None),
    };
    // https://webidl.spec.whatwg.org/#interface-prototype-object: the
    // prototype of DOMException's prototype object is %Error.prototype%.
    let proto_parent = match (&iface.parent, name.as_str()) {
        (Some(_), _) => quote!(ProtoParent::Parent),
        (None, "DOMException") => quote!(ProtoParent::ErrorPrototype),
        (None, _) => quote!(ProtoParent::ObjectPrototype),
    };
    let window = iface.exposure.window;
    let worker = iface.exposure.dedicated_worker;
    let pref = match &iface.pref {
        Some(p) => quote!(Some(#p)),
        None => quote!(None),
    };

    // The interface chain, root first, with a cast from this struct to each.
    let mut chain: Vec<&Interface> = ancestors.iter().rev().copied().collect();
    chain.push(iface);
    let chain_ids = chain.iter().map(|i| {
        let id = ident(&i.name);
        quote!(PrototypeList::#id)
    });
    let mut upcast_fns = Vec::new();
    let mut upcast_names = Vec::new();
    for (level, target) in chain.iter().enumerate() {
        let f = format_ident!("upcast_to_{}", target.name);
        let target_path = dom_struct_path(&target.name);
        // Walk down from this struct: AsRef::<Parent> one level at a time.
        let mut expr = quote!(this);
        for step in chain[level..chain.len() - 1].iter().rev() {
            let step_path = dom_struct_path(&step.name);
            expr = quote!(AsRef::<#step_path>::as_ref(#expr));
        }
        upcast_fns.push(quote! {
            unsafe fn #f(object: *const c_void) -> *const c_void {
                let this: &#self_path = unsafe { &*(object as *const #self_path) };
                let target: &#target_path = #expr;
                target as *const #target_path as *const c_void
            }
        });
        upcast_names.push(f);
    }
    let chain_len = chain.len();

    let reflector_impl = match &iface.parent {
        None => quote!(&self.reflector),
        Some(p) => {
            let p = dom_struct_path(p);
            quote!(AsRef::<#p>::as_ref(self).reflector())
        }
    };
    let derived_from = chain.iter().map(|i| {
        let p = dom_struct_path(&i.name);
        quote!(impl DerivedFrom<#p> for #self_path {})
    });
    // A struct whose interface inherits from EventTarget reaches its
    // EventTarget part through the `AsRef` chain.
    let as_event_target = if name != "EventTarget" && defs.inherits_event_target(name) {
        let event_target_path = dom_struct_path("EventTarget");
        let below = chain
            .iter()
            .position(|i| i.name == "EventTarget")
            .expect("an ancestor")
            + 1;
        // self -> ... -> the child of EventTarget, one level at a time.
        let mut expr = quote!(self);
        for step in chain[below..chain.len() - 1].iter().rev() {
            let step_path = dom_struct_path(&step.name);
            expr = quote!(AsRef::<#step_path>::as_ref(#expr));
        }
        quote! {
            impl AsEventTarget for #self_path {
                fn as_event_target(&self) -> &#event_target_path {
                    AsRef::<#event_target_path>::as_ref(#expr)
                }
            }
        }
    } else {
        quote!()
    };
    // The provided event handler methods need the EventTarget part.
    let supertrait = if iface.has_event_handlers() {
        quote!(: AsEventTarget)
    } else {
        quote!()
    };
    let doc = format!(" The bindings of the WebIDL interface `{name}`.");
    let trait_doc = format!(
        " What the DOM struct `{name}` implements for the interface's members (as Servo's `*Methods` traits)."
    );
    let id = ident(name);
    // [Global]: the class is a global class
    // (https://webidl.spec.whatwg.org/#Global), with the global trace hook
    // and the standard-class resolve hooks.
    let is_global = iface.global;
    let secure_context = iface.secure_context;
    let (class_ops, base_class) = if is_global {
        (
            quote!(static CLASS_OPS: JSClassOps = global_class_ops::<#self_path>();),
            quote!(dom_global_jsclass(#key, &CLASS_OPS)),
        )
    } else {
        (
            quote!(static CLASS_OPS: JSClassOps = dom_class_ops::<#self_path>();),
            quote!(dom_jsclass(#key, &CLASS_OPS)),
        )
    };

    let (proxy_handler, proxy_statics, legacy_impl) = match legacy {
        Some(legacy_impl) => (
            quote!(Some(proxy_handler)),
            quote! {
                static PROXY_TRAPS: ProxyTraps = proxy_traps::<#self_path>();
                static PROXY_HANDLER: ProxyHandlerCell = ProxyHandlerCell::new();

                /// The proxy handler of the interface's legacy platform
                /// objects.
                fn proxy_handler() -> *const c_void {
                    PROXY_HANDLER.get(&PROXY_TRAPS, &CLASS.dom_class)
                }
            },
            legacy_impl,
        ),
        None => (quote!(None), quote!(), quote!()),
    };
    let iterator = match &iface.iterable {
        Some(Iterable::Value(_)) => quote!(IteratorKind::Value),
        Some(Iterable::Pair(..)) => quote!(IteratorKind::Pair(&PAIR_ITERATOR)),
        // <https://webidl.spec.whatwg.org/#es-iterator>: an interface that
        // defines an indexed property getter has @@iterator even without an
        // iterable declaration (HTMLCollection).
        None if iface.specials.indexed_getter.is_some() => quote!(IteratorKind::Indexed),
        None => quote!(IteratorKind::None),
    };

    quote! {
        #[doc = #doc]
        #[allow(non_snake_case)]
        pub mod #module {
            use super::*;
            #[allow(unused_imports)]
            use #self_path;

            #[doc = #trait_doc]
            pub trait #methods_trait #supertrait {
                #(#trait_items)*
            }

            #(#natives)*

            static ATTRIBUTES: StaticSpecs<[JSPropertySpec; #n_attrs]> =
                StaticSpecs([#(#attribute_specs,)* JSPropertySpec::ZERO]);
            static METHODS: StaticSpecs<[JSFunctionSpec; #n_methods]> =
                StaticSpecs([#(#method_specs,)* JSFunctionSpec::ZERO]);
            static STATIC_METHODS: StaticSpecs<[JSFunctionSpec; #n_static_methods]> =
                StaticSpecs([#(#static_method_specs,)* JSFunctionSpec::ZERO]);
            static STATIC_ATTRIBUTES: StaticSpecs<[JSPropertySpec; #n_static_attrs]> =
                StaticSpecs([#(#static_attribute_specs,)* JSPropertySpec::ZERO]);
            static UNFORGEABLE_ATTRIBUTES: StaticSpecs<[JSPropertySpec; #n_unforgeable]> =
                StaticSpecs([#(#unforgeable,)* JSPropertySpec::ZERO]);
            static CONSTANTS: &[ConstantSpec] = &[#(#constants),*];
            static SECURE_ATTRIBUTES: StaticSpecs<[JSPropertySpec; #n_secure_attrs]> =
                StaticSpecs([#(#secure_attribute_specs,)* JSPropertySpec::ZERO]);
            static SECURE_METHODS: StaticSpecs<[JSFunctionSpec; #n_secure_methods]> =
                StaticSpecs([#(#secure_method_specs,)* JSFunctionSpec::ZERO]);
            static SECURE_STATIC_ATTRIBUTES: StaticSpecs<[JSPropertySpec; #n_secure_static_attrs]> =
                StaticSpecs([#(#secure_static_attribute_specs,)* JSPropertySpec::ZERO]);
            static SECURE_STATIC_METHODS: StaticSpecs<[JSFunctionSpec; #n_secure_static_methods]> =
                StaticSpecs([#(#secure_static_method_specs,)* JSFunctionSpec::ZERO]);

            /// What the runtime creates the interface and prototype objects
            /// from.
            pub static INTERFACE: InterfaceSpec = InterfaceSpec {
                id: PrototypeList::#id,
                name: #key,
                parent: #parent,
                proto_parent: #proto_parent,
                constructor: #constructor,
                constructor_length: #constructor_length,
                attributes: &ATTRIBUTES.0,
                methods: &METHODS.0,
                static_methods: &STATIC_METHODS.0,
                static_attributes: &STATIC_ATTRIBUTES.0,
                constants: CONSTANTS,
                exposure: Exposure { window: #window, dedicated_worker: #worker },
                pref: #pref,
                global: #is_global,
                iterator: #iterator,
                secure_context: #secure_context,
                secure: SecureContextMembers {
                    attributes: &SECURE_ATTRIBUTES.0,
                    methods: &SECURE_METHODS.0,
                    static_attributes: &SECURE_STATIC_ATTRIBUTES.0,
                    static_methods: &SECURE_STATIC_METHODS.0,
                },
            };

            #(#upcast_fns)*

            #class_ops

            /// The class of the interface's platform objects.
            pub static CLASS: DOMJSClass = DOMJSClass {
                base: #base_class,
                dom_class: DOMClass {
                    interface_chain: &[#(#chain_ids),*],
                    upcasts: &[#(#upcast_names),*],
                    unforgeable_attributes: &UNFORGEABLE_ATTRIBUTES.0,
                    proxy_handler: #proxy_handler,
                },
            };

            #proxy_statics

            const _: () = assert!(#chain_len <= MAX_PROTO_CHAIN_LENGTH);
        }

        impl DomObject for #self_path {
            fn reflector(&self) -> &Reflector {
                #reflector_impl
            }
        }

        impl DomObjectIface for #self_path {
            const PROTO_ID: PrototypeId = PrototypeList::#id;
            const DEPTH: usize = #depth;
            const NAME: &'static str = #name;
            fn dom_class() -> &'static DOMJSClass {
                &#module::CLASS
            }
        }

        #(#derived_from)*

        #as_event_target

        #legacy_impl
    }
}

/// The special operations' trait methods, and the `LegacyPlatformObject`
/// implementation calling them, for an interface whose objects are legacy
/// platform objects (<https://webidl.spec.whatwg.org/#es-legacy-platform-objects>):
/// it has special operations or inherits them. Each kind of special
/// operation is the interface's own if declared, else the nearest
/// ancestor's (called on the struct's part of that ancestor's type); only
/// the interface's own ones are methods of its trait.
fn legacy_platform_object(
    defs: &Definitions,
    iface: &Interface,
    trait_items: &mut Vec<TokenStream>,
) -> Option<TokenStream> {
    // The interface, then its ancestors, nearest first.
    let mut lineage: Vec<&Interface> = vec![iface];
    lineage.extend(defs.ancestors(&iface.name));
    if !lineage.iter().any(|i| i.specials.legacy_platform_object()) {
        return None;
    }
    let self_path = dom_struct_path(&iface.name);
    // The declaring interface of one kind of special operation, the
    // operation, and how to reach that interface's part of `self` and call
    // its trait.
    let provider = |pick: &dyn Fn(&Specials) -> Option<&Operation>| {
        lineage.iter().enumerate().find_map(|(level, i)| {
            pick(&i.specials).map(|op| {
                let module = format_ident!("{}Binding", i.name);
                let trait_name = format_ident!("{}Methods", i.name);
                let path = dom_struct_path(&i.name);
                // self -> parent -> ... -> the declaring interface's part.
                let mut this = quote!(self);
                for step in &lineage[1..=level] {
                    let step_path = dom_struct_path(&step.name);
                    this = quote!(AsRef::<#step_path>::as_ref(#this));
                }
                (
                    level == 0,
                    op.clone(),
                    this,
                    quote!(<#path as #module::#trait_name>),
                )
            })
        })
    };
    let mut items = Vec::new();
    let indexed_getter = provider(&|s| s.indexed_getter.as_ref());
    if let Some((own, getter, this, methods)) = &indexed_getter {
        let t = rust_type(getter.return_type.inner());
        if *own {
            trait_items.push(quote! {
                /// The indexed property getter
                /// (<https://webidl.spec.whatwg.org/#dfn-indexed-property-getter>):
                /// the value at a supported property index, `None` for any
                /// other index.
                fn IndexedGetter(&self, cx: &mut JSContext, index: u32) -> Option<#t>;
                /// The supported property indices
                /// (<https://webidl.spec.whatwg.org/#dfn-supported-property-indices>)
                /// are `0..SupportedIndexCount()`.
                fn SupportedIndexCount(&self, cx: &mut JSContext) -> u32;
            });
        }
        items.push(quote! {
            unsafe fn indexed_get(&self, cx: &mut JSContext, index: u32, rval: MutableHandleValue) -> Result<bool, ()> {
                match #methods::IndexedGetter(#this, cx, index) {
                    Some(value) => {
                        unsafe { value.to_js(cx, rval) };
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
            fn supported_index_count(&self, cx: &mut JSContext) -> u32 {
                #methods::SupportedIndexCount(#this, cx)
            }
        });
    }
    let indexed_setter = provider(&|s| s.indexed_setter.as_ref());
    if let Some((own, setter, this, methods)) = &indexed_setter {
        let ty = &setter.arguments[1].ty;
        let t = rust_type(ty);
        let convert = from_js_expr(defs, ty, quote!(value));
        if *own {
            trait_items.push(quote! {
                /// The indexed property setter
                /// (<https://webidl.spec.whatwg.org/#dfn-indexed-property-setter>).
                fn IndexedSetter(&self, cx: &mut JSContext, index: u32, value: #t) -> Fallible<()>;
            });
        }
        items.push(quote! {
            unsafe fn indexed_set(&self, cx: &mut JSContext, index: u32, value: HandleValue) -> Result<(), ()> {
                let value: #t = unsafe { #convert }?;
                #methods::IndexedSetter(#this, cx, index, value)
                    .map_err(|error| throw_dom_error(cx, error))
            }
        });
    }
    let named_getter = provider(&|s| s.named_getter.as_ref());
    if let Some((own, getter, this, methods)) = &named_getter {
        let t = rust_type(getter.return_type.inner());
        if *own {
            trait_items.push(quote! {
                /// The named property getter
                /// (<https://webidl.spec.whatwg.org/#dfn-named-property-getter>):
                /// the value of a supported property name, `None` for any
                /// other name.
                fn NamedGetter(&self, cx: &mut JSContext, name: DOMString) -> Option<#t>;
                /// The supported property names
                /// (<https://webidl.spec.whatwg.org/#dfn-supported-property-names>),
                /// in the interface's order.
                fn SupportedPropertyNames(&self, cx: &mut JSContext) -> Vec<DOMString>;
            });
        }
        items.push(quote! {
            unsafe fn named_get(&self, cx: &mut JSContext, name: &str, rval: MutableHandleValue) -> Result<bool, ()> {
                match #methods::NamedGetter(#this, cx, DOMString::from(name)) {
                    Some(value) => {
                        unsafe { value.to_js(cx, rval) };
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
            fn supported_property_names(&self, cx: &mut JSContext) -> Vec<String> {
                #methods::SupportedPropertyNames(#this, cx)
            }
        });
    }
    let named_setter = provider(&|s| s.named_setter.as_ref());
    if let Some((own, setter, this, methods)) = &named_setter {
        let ty = &setter.arguments[1].ty;
        let t = rust_type(ty);
        let convert = from_js_expr(defs, ty, quote!(value));
        if *own {
            trait_items.push(quote! {
                /// The named property setter
                /// (<https://webidl.spec.whatwg.org/#dfn-named-property-setter>).
                fn NamedSetter(&self, cx: &mut JSContext, name: DOMString, value: #t) -> Fallible<()>;
            });
        }
        items.push(quote! {
            unsafe fn named_set(&self, cx: &mut JSContext, name: &str, value: HandleValue) -> Result<(), ()> {
                let value: #t = unsafe { #convert }?;
                #methods::NamedSetter(#this, cx, DOMString::from(name), value)
                    .map_err(|error| throw_dom_error(cx, error))
            }
        });
    }
    let named_deleter = provider(&|s| s.named_deleter.as_ref());
    if let Some((own, deleter, this, methods)) = &named_deleter {
        let returns_bool = matches!(deleter.return_type, Type::Boolean);
        let (ret, result) = if returns_bool {
            (quote!(bool), quote!(deleted))
        } else {
            (quote!(()), quote!(true))
        };
        if *own {
            trait_items.push(quote! {
                /// The named property deleter
                /// (<https://webidl.spec.whatwg.org/#dfn-named-property-deleter>).
                fn NamedDeleter(&self, cx: &mut JSContext, name: DOMString) -> Fallible<#ret>;
            });
        }
        items.push(quote! {
            #[allow(clippy::let_unit_value, unused_variables)]
            unsafe fn named_delete(&self, cx: &mut JSContext, name: &str) -> Result<bool, ()> {
                let deleted = #methods::NamedDeleter(#this, cx, DOMString::from(name))
                    .map_err(|error| throw_dom_error(cx, error))?;
                Ok(#result)
            }
        });
    }
    let flag = |b: bool| if b { quote!(true) } else { quote!(false) };
    let indexed_getter = flag(indexed_getter.is_some());
    let indexed_setter = flag(indexed_setter.is_some());
    let named_getter = flag(named_getter.is_some());
    let named_setter = flag(named_setter.is_some());
    let named_deleter = flag(named_deleter.is_some());
    // The interface "implements an interface with" the extended attribute
    // when it or an ancestor has it
    // (<https://webidl.spec.whatwg.org/#LegacyOverrideBuiltIns>).
    let override_builtins = flag(lineage.iter().any(|i| i.specials.override_builtins));
    let unenumerable = flag(
        lineage
            .iter()
            .any(|i| i.specials.unenumerable_named_properties),
    );
    Some(quote! {
        impl LegacyPlatformObject for #self_path {
            const SPECIALS: Specials = Specials {
                indexed_getter: #indexed_getter,
                indexed_setter: #indexed_setter,
                named_getter: #named_getter,
                named_setter: #named_setter,
                named_deleter: #named_deleter,
                override_builtins: #override_builtins,
                unenumerable_named_properties: #unenumerable,
            };
            #(#items)*
        }
    })
}

/// One function per overload of `group` (`{prefix}_overload_{i}`, running
/// `bodies[i]`), pushed to `natives`; returns the overload plan and the
/// dispatch code calling them.
fn overload_functions(
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
                            let config = super::types::config_expr(t);
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
