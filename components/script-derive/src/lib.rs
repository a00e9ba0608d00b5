//! `#[derive(JSTraceable)]`: implements `mozjs::gc::Traceable` for a struct
//! or enum by tracing every field, so a field added to a DOM struct is traced
//! without anyone remembering to.
//!
//! - A field whose type holds no GC things and does not implement
//!   `Traceable` (a `url::Url`, a plain enum) is marked `#[no_trace]`;
//!   without the mark the derive does not compile (the type lacks
//!   `Traceable`), so the choice is always written down.
//! - A field whose type is written `RefCell<…>` is traced through
//!   `try_borrow`: while the cell is mutably borrowed the GC skips it
//!   rather than panicking inside the GC's trace callback (where a panic
//!   aborts). The script crate's rule is that no such borrow spans
//!   anything that can GC; the hand-written impls this replaces followed
//!   the same rule.
//! - Type parameters get a `Traceable` bound.
//!
//! The generated impl is `unsafe impl ::mozjs::gc::Traceable`: the crate
//! using it must depend on `mozjs`.

#![forbid(unsafe_code)]

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use syn::{parse_macro_input, parse_quote, Data, DeriveInput, Field, Fields, Type};

/// See the crate documentation.
#[proc_macro_derive(JSTraceable, attributes(no_trace))]
pub fn derive_js_traceable(input: TokenStream) -> TokenStream {
    let mut input = parse_macro_input!(input as DeriveInput);
    match expand(&mut input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

fn expand(input: &mut DeriveInput) -> syn::Result<TokenStream2> {
    let body = match &input.data {
        Data::Struct(data) => {
            let traces = fields_traces(&data.fields, |index, field| match &field.ident {
                Some(ident) => quote!(&self.#ident),
                None => {
                    let index = syn::Index::from(index);
                    quote!(&self.#index)
                }
            })?;
            quote!(#(#traces)*)
        }
        Data::Enum(data) => {
            let mut arms = Vec::new();
            for variant in &data.variants {
                let name = &variant.ident;
                let bindings: Vec<_> = variant
                    .fields
                    .iter()
                    .enumerate()
                    .map(|(index, field)| match &field.ident {
                        Some(ident) => ident.clone(),
                        None => format_ident!("field{}", index),
                    })
                    .collect();
                let traces = fields_traces(&variant.fields, |index, _| {
                    let binding = &bindings[index];
                    quote!(#binding)
                })?;
                let pattern = match &variant.fields {
                    Fields::Named(_) => quote!(Self::#name { #(#bindings,)* }),
                    Fields::Unnamed(_) => quote!(Self::#name ( #(#bindings,)* )),
                    Fields::Unit => quote!(Self::#name),
                };
                arms.push(quote! {
                    #[allow(unused_variables)]
                    #pattern => { #(#traces)* }
                });
            }
            quote! {
                match self {
                    #(#arms)*
                }
            }
        }
        Data::Union(data) => {
            return Err(syn::Error::new_spanned(
                data.union_token,
                "JSTraceable cannot be derived for a union",
            ))
        }
    };

    let params: Vec<_> = input
        .generics
        .type_params()
        .map(|param| param.ident.clone())
        .collect();
    let where_clause = input.generics.make_where_clause();
    for param in params {
        where_clause
            .predicates
            .push(parse_quote!(#param: ::mozjs::gc::Traceable));
    }
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        // SAFETY: `trace` forwards the GC's tracer to every field that can
        // hold a GC thing (each field's own `Traceable` impl), which is
        // what the trait requires.
        unsafe impl #impl_generics ::mozjs::gc::Traceable for #name #type_generics #where_clause {
            #[inline]
            #[allow(unused_variables)]
            unsafe fn trace(&self, trc: *mut ::mozjs::jsapi::JSTracer) {
                #body
            }
        }
    })
}

/// The trace statements for `fields`; `access(index, field)` is an
/// expression of type `&FieldType`.
fn fields_traces(
    fields: &Fields,
    access: impl Fn(usize, &Field) -> TokenStream2,
) -> syn::Result<Vec<TokenStream2>> {
    let mut traces = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let mut no_trace = false;
        for attr in &field.attrs {
            if attr.path().is_ident("no_trace") {
                attr.meta.require_path_only()?;
                no_trace = true;
            }
        }
        if no_trace {
            continue;
        }
        let place = access(index, field);
        let ty = &field.ty;
        traces.push(if is_ref_cell(ty) {
            quote! {
                if let ::std::result::Result::Ok(value) = ::std::cell::RefCell::try_borrow(#place) {
                    // SAFETY: `trc` is the tracer the GC passed to this impl.
                    unsafe { ::mozjs::gc::Traceable::trace(&*value, trc) }
                }
            }
        } else {
            quote! {
                // SAFETY: `trc` is the tracer the GC passed to this impl.
                unsafe { <#ty as ::mozjs::gc::Traceable>::trace(#place, trc) }
            }
        });
    }
    Ok(traces)
}

/// Whether `ty` is written `RefCell<…>` (any path ending in `RefCell`).
fn is_ref_cell(ty: &Type) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "RefCell"),
        _ => false,
    }
}
