//! Interfaces: the `*Methods` trait, the JSNative glue, and the static
//! specs the runtime builds interface and prototype objects from.
//!
//! [`interface`] generates one interface's members in a fixed order
//! (attributes, static attributes, operations, the stringifier, the pair
//! iterator, the special operations, the constructor), each kind in its
//! module, into one [`Members`], and [`module`] puts the `{Name}Binding`
//! module together. The order is part of the output: the golden tests
//! (`bindings-gen/tests/golden`) pin it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ident;
use crate::ir::*;

mod arguments;
mod attributes;
mod constructors;
mod iterators;
mod legacy;
mod module;
mod operations;
mod overloads;

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

/// The path of the DOM struct implementing the interface `name`.
fn dom_struct_path(name: &str) -> TokenStream {
    let n = ident(name);
    quote!(crate::dom::types::#n)
}

/// The interface being generated, and the names its glue uses.
struct Iface<'a> {
    defs: &'a Definitions,
    iface: &'a Interface,
    /// The interface's name.
    name: &'a str,
    /// The DOM struct implementing it (`crate::dom::types::{Name}`, in scope
    /// in the generated module).
    self_ty: proc_macro2::Ident,
    /// `{Name}Methods`, the trait the DOM struct implements.
    methods_trait: proc_macro2::Ident,
}

/// What the members of one interface generate, in generation order.
#[derive(Default)]
struct Members {
    /// The `*Methods` trait's items.
    trait_items: Vec<TokenStream>,
    /// The `JSNative`s and their helpers.
    natives: Vec<TokenStream>,
    /// Accessor specs of the prototype object.
    attribute_specs: Vec<TokenStream>,
    /// Function specs of the prototype object.
    method_specs: Vec<TokenStream>,
    /// Accessor specs of the interface object.
    static_attribute_specs: Vec<TokenStream>,
    /// Function specs of the interface object.
    static_method_specs: Vec<TokenStream>,
    /// `[SecureContext]` accessor specs of the prototype object
    /// (<https://webidl.spec.whatwg.org/#SecureContext>: defined only on
    /// globals that are secure contexts).
    secure_attribute_specs: Vec<TokenStream>,
    /// `[SecureContext]` function specs of the prototype object.
    secure_method_specs: Vec<TokenStream>,
    /// `[SecureContext]` accessor specs of the interface object.
    secure_static_attribute_specs: Vec<TokenStream>,
    /// `[SecureContext]` function specs of the interface object.
    secure_static_method_specs: Vec<TokenStream>,
}

/// The `{Name}Binding` module of `iface` and the DOM struct's trait
/// implementations.
pub(crate) fn interface(defs: &Definitions, iface: &Interface) -> TokenStream {
    let name = iface.name.as_str();
    let target = Iface {
        defs,
        iface,
        name,
        self_ty: ident(name),
        methods_trait: format_ident!("{}Methods", name),
    };
    let mut members = Members::default();
    // Attributes: https://webidl.spec.whatwg.org/#es-attributes
    attributes::attributes(&target, &mut members);
    attributes::static_attributes(&target, &mut members);
    // Operations: https://webidl.spec.whatwg.org/#es-operations
    operations::operations(&target, &mut members);
    // Stringifiers: https://webidl.spec.whatwg.org/#es-stringifier
    operations::stringifier(&target, &mut members);
    // Pair iterators: https://webidl.spec.whatwg.org/#es-iterators
    iterators::pair_iterator(&target, &mut members);
    // Legacy platform objects: https://webidl.spec.whatwg.org/#es-legacy-platform-objects
    let legacy = legacy::legacy_platform_object(defs, iface, &mut members.trait_items);
    // The constructor: https://webidl.spec.whatwg.org/#js-constructor
    let (constructor, constructor_length) = constructors::constructor(&target, &mut members);
    module::binding_module(&target, members, legacy, constructor, constructor_length)
}
