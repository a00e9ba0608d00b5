//! The `{Name}Binding` module of one interface, put together: the
//! `*Methods` trait, the natives, the static specs the runtime builds the
//! interface and prototype objects from (`INTERFACE`), the class of the
//! platform objects (`CLASS`, with the interface chain and its upcasts),
//! and the struct's `DomObject`, `DomObjectIface`, `DerivedFrom` and
//! `AsEventTarget` implementations.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{dom_struct_path, Iface, Members};
use crate::codegen::{c_str, ident};
use crate::ir::*;

/// The bindings of `target` from its generated members, its
/// `LegacyPlatformObject` implementation (for legacy platform objects) and
/// its constructor native and `length`.
pub(super) fn binding_module(
    target: &Iface,
    members: Members,
    legacy: Option<TokenStream>,
    constructor: TokenStream,
    constructor_length: u32,
) -> TokenStream {
    let Iface {
        defs,
        iface,
        name,
        ref methods_trait,
        ..
    } = *target;
    let Members {
        trait_items,
        natives,
        attribute_specs,
        method_specs,
        static_attribute_specs,
        static_method_specs,
        secure_attribute_specs,
        secure_method_specs,
        secure_static_attribute_specs,
        secure_static_method_specs,
    } = members;
    let module = format_ident!("{}Binding", name);
    let self_path = dom_struct_path(name);
    let ancestors = defs.ancestors(name);
    let depth = ancestors.len();

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
    let proto_parent = match (&iface.parent, name) {
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
