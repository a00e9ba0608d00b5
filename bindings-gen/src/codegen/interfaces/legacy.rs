//! Legacy platform objects
//! (<https://webidl.spec.whatwg.org/#es-legacy-platform-objects>): the
//! special operations (indexed and named getters, setters, deleters) and
//! the `LegacyPlatformObject` implementation the proxy handler calls.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::dom_struct_path;
use crate::codegen::types::{from_js_expr, rust_type};
use crate::ir::*;

/// The special operations' trait methods, and the `LegacyPlatformObject`
/// implementation calling them, for an interface whose objects are legacy
/// platform objects (<https://webidl.spec.whatwg.org/#es-legacy-platform-objects>):
/// it has special operations or inherits them. Each kind of special
/// operation is the interface's own if declared, else the nearest
/// ancestor's (called on the struct's part of that ancestor's type); only
/// the interface's own ones are methods of its trait.
pub(super) fn legacy_platform_object(
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
