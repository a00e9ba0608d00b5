//! Attributes (<https://webidl.spec.whatwg.org/#es-attributes>): the
//! `*Methods` trait's getters and setters (provided ones for event handler
//! IDL attributes), the getter and setter natives (`[PutForwards]`,
//! `[Replaceable]`), and the accessor specs.

use quote::{format_ident, quote};

use super::arguments::{attribute_setter_conversion, contains_callback};
use super::{Iface, Members};
use crate::codegen::types::rust_type;
use crate::codegen::{c_str, camel_case, ident};

/// The regular attributes: accessor properties of the prototype object
/// (`[LegacyUnforgeable]` ones: of each instance) whose natives take `this`.
pub(super) fn attributes(target: &Iface, members: &mut Members) {
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
        attribute_specs,
        secure_attribute_specs,
        ..
    } = members;
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
                &mut *secure_attribute_specs
            } else {
                &mut *attribute_specs
            };
            specs.push(quote!(accessor_spec(#key, Some(#getter), #setter, JSPROP_ENUMERATE)));
        }
    }
}

/// Static attributes: accessor properties of the interface object
/// (<https://webidl.spec.whatwg.org/#es-attributes>), without `this`.
pub(super) fn static_attributes(target: &Iface, members: &mut Members) {
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
        static_attribute_specs,
        secure_static_attribute_specs,
        ..
    } = members;
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
            &mut *secure_static_attribute_specs
        } else {
            &mut *static_attribute_specs
        };
        specs.push(quote!(accessor_spec(#key, Some(#getter), #setter, JSPROP_ENUMERATE)));
    }
}
