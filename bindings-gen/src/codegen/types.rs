//! Rust types for IDL types, and the enums, dictionaries and unions.

use proc_macro2::TokenStream;
use quote::quote;

use super::{c_str, camel_case, ident, snake_case};
use crate::ir::*;

/// The Rust type an IDL value converts to (in both directions).
pub(crate) fn rust_type(ty: &Type) -> TokenStream {
    match ty {
        Type::Undefined => quote!(()),
        Type::Any => quote!(RootedJsValue),
        Type::Boolean => quote!(bool),
        Type::Integer(i, _) => {
            let t = ident(i.rust_name());
            quote!(#t)
        }
        Type::Float { double, restricted } => {
            let base = if *double { quote!(f64) } else { quote!(f32) };
            if *restricted {
                quote!(Finite<#base>)
            } else {
                base
            }
        }
        Type::DOMString | Type::NullToEmptyString => quote!(DOMString),
        Type::USVString => quote!(USVString),
        Type::ByteString => quote!(ByteString),
        Type::Object => quote!(RootedJsObject),
        Type::Record(k, v) => {
            let k = rust_type(k);
            let v = rust_type(v);
            quote!(Record<#k, #v>)
        }
        Type::Buffer(name, _) => {
            let n = ident(name);
            quote!(#n)
        }
        Type::Sequence(t) => {
            let inner = rust_type(t);
            quote!(Vec<#inner>)
        }
        Type::Nullable(t) => {
            let inner = rust_type(t);
            quote!(Option<#inner>)
        }
        Type::Promise(_) => quote!(Rc<Promise>),
        Type::Enum(n) | Type::Dictionary(n) => {
            let n = ident(n);
            quote!(#n)
        }
        Type::Interface(n) => {
            let n = ident(n);
            quote!(DomRoot<crate::dom::types::#n>)
        }
        Type::CallbackFunction(n) | Type::CallbackInterface(n) => {
            let n = ident(n);
            quote!(Rc<#n>)
        }
        Type::Union(members) => {
            let n = ident(&union_name(members));
            quote!(#n)
        }
    }
}

/// The `FromJsValue::Config` for a type.
pub(crate) fn config_expr(ty: &Type) -> TokenStream {
    match ty {
        Type::Integer(_, c) => match c {
            IntegerConversion::Default => quote!(IntegerConversion::Default),
            IntegerConversion::EnforceRange => quote!(IntegerConversion::EnforceRange),
            IntegerConversion::Clamp => quote!(IntegerConversion::Clamp),
        },
        Type::Sequence(t) | Type::Nullable(t) | Type::Record(_, t) => config_expr(t),
        Type::Buffer(_, allow) => {
            let shared = allow.shared;
            let resizable = allow.resizable;
            quote!(BufferConversion { allow_shared: #shared, allow_resizable: #resizable })
        }
        _ => quote!(()),
    }
}

/// An expression converting the JS value `value` (a `HandleValue`) to the
/// Rust type of `ty`, evaluating to `Result<T, ()>` (an exception is pending
/// on `Err`).
pub(crate) fn from_js_expr(defs: &Definitions, ty: &Type, value: TokenStream) -> TokenStream {
    // [LegacyTreatNonObjectAsNull] callback functions: any non-object is null
    // (https://webidl.spec.whatwg.org/#LegacyTreatNonObjectAsNull).
    if let Type::Nullable(inner) = ty {
        if let Type::CallbackFunction(name) = &**inner {
            if defs
                .callbacks
                .get(name)
                .is_some_and(|c| c.treat_non_object_as_null)
            {
                let n = ident(name);
                return quote!(Ok::<_, ()>(if #value.is_object() {
                    Some(#n::new(cx, #value.to_object()))
                } else {
                    None
                }));
            }
        }
    }
    if let Type::NullToEmptyString = ty {
        return quote!(convert_null_to_empty_string(cx, #value));
    }
    let t = rust_type(ty);
    let config = config_expr(ty);
    quote!(<#t as FromJsValue>::from_js(cx, #value, #config))
}

/// A Rust expression for a default value of type `ty`, evaluating to
/// `Result<T, ()>`.
pub(crate) fn default_expr(defs: &Definitions, ty: &Type, value: &DefaultValue) -> TokenStream {
    let inner = ty.inner();
    let wrap_some = |e: TokenStream| {
        if ty.is_nullable() {
            quote!(Some(#e))
        } else {
            e
        }
    };
    match value {
        // `any x = null`: the null value itself.
        DefaultValue::Null if matches!(ty, Type::Any) => quote!(Ok({
            let value = RootedJsValue::new(Heap::default());
            value.set(NullValue());
            value
        })),
        DefaultValue::Null => quote!(Ok(None)),
        DefaultValue::Undefined => quote!(Ok(RootedJsValue::new(Heap::default()))),
        DefaultValue::Boolean(b) => {
            let e = match inner {
                Type::Union(members) => {
                    let u = ident(&union_name(members));
                    quote!(#u::Boolean(#b))
                }
                _ => quote!(#b),
            };
            let e = wrap_some(e);
            quote!(Ok(#e))
        }
        DefaultValue::Integer(v) => {
            let e = match inner {
                Type::Integer(i, _) => {
                    let lit = proc_macro2::Literal::i128_unsuffixed(*v);
                    let t = ident(i.rust_name());
                    quote!(#lit as #t)
                }
                Type::Float { .. } => float_value(inner, *v as f64),
                _ => unreachable!("checked by the parser"),
            };
            let e = wrap_some(e);
            quote!(Ok(#e))
        }
        DefaultValue::Float(f) => {
            let e = wrap_some(float_value(inner, *f));
            quote!(Ok(#e))
        }
        DefaultValue::String(s) => {
            let e = match inner {
                Type::Enum(name) => {
                    let e = &defs.enums[name];
                    let variant = ident(
                        &enum_variants(&e.values)
                            [e.values.iter().position(|v| v == s).unwrap_or(0)],
                    );
                    let n = ident(name);
                    quote!(#n::#variant)
                }
                Type::USVString => quote!(USVString(String::from(#s))),
                Type::ByteString => quote!(ByteString::from(#s)),
                Type::Union(members) => {
                    let u = ident(&union_name(members));
                    let member = members
                        .iter()
                        .find(|t| matches!(t, Type::DOMString | Type::USVString | Type::ByteString))
                        .expect("checked by the parser");
                    let v = ident(&member.union_member_name());
                    let value = match member {
                        Type::USVString => quote!(USVString(String::from(#s))),
                        Type::ByteString => quote!(ByteString::from(#s)),
                        _ => quote!(DOMString::from(#s)),
                    };
                    quote!(#u::#v(#value))
                }
                _ => quote!(DOMString::from(#s)),
            };
            let e = wrap_some(e);
            quote!(Ok(#e))
        }
        DefaultValue::EmptySequence => {
            let e = wrap_some(quote!(Vec::new()));
            quote!(Ok(#e))
        }
        DefaultValue::EmptyDictionary => match inner {
            Type::Dictionary(name) => {
                let n = ident(name);
                quote!(<#n as FromJsValue>::from_js(cx, HandleValue::undefined(), ()))
            }
            Type::Union(members) => {
                let u = ident(&union_name(members));
                let d = members
                    .iter()
                    .find_map(|m| match m {
                        Type::Dictionary(n) => Some(ident(n)),
                        _ => None,
                    })
                    .expect("checked by the parser");
                quote!(<#d as FromJsValue>::from_js(cx, HandleValue::undefined(), ()).map(#u::#d))
            }
            _ => unreachable!("checked by the parser"),
        },
    }
}

fn float_value(ty: &Type, v: f64) -> TokenStream {
    let (double, restricted) = match ty {
        Type::Float { double, restricted } => (*double, *restricted),
        _ => (true, false),
    };
    let lit = if v.is_nan() {
        quote!(f64::NAN)
    } else if v.is_infinite() {
        if v > 0.0 {
            quote!(f64::INFINITY)
        } else {
            quote!(f64::NEG_INFINITY)
        }
    } else {
        let l = proc_macro2::Literal::f64_suffixed(v);
        quote!(#l)
    };
    let value = if double { lit } else { quote!((#lit) as f32) };
    if restricted && double {
        quote!(Finite::<f64>::wrap(#value))
    } else if restricted {
        quote!(Finite::<f32>::wrap(#value))
    } else {
        value
    }
}

/// Rust variant names for enum values: `"foo-bar"` -> `FooBar`, `""` ->
/// `Empty`.
pub(crate) fn enum_variants(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        let cleaned: String = v
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let mut name = camel_case(&cleaned);
        if name.is_empty() {
            name = "Empty".into();
        }
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            name.insert(0, '_');
        }
        let base = name.clone();
        let mut n = 2;
        while out.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

pub(crate) fn enumeration(e: &Enumeration) -> TokenStream {
    let name = ident(&e.name);
    let variants: Vec<_> = enum_variants(&e.values).iter().map(|v| ident(v)).collect();
    let values = &e.values;
    let value_docs: Vec<String> = values.iter().map(|v| format!(" `\"{v}\"`")).collect();
    let doc = format!(" The WebIDL enum `{}`.", e.name);
    let indices: Vec<usize> = (0..variants.len()).collect();
    let idl_name = &e.name;
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum #name {
            #( #[doc = #value_docs] #variants, )*
        }

        impl #name {
            /// The IDL values, in declaration order.
            pub const VALUES: &'static [&'static str] = &[#(#values),*];

            /// The IDL value.
            pub fn as_str(self) -> &'static str {
                Self::VALUES[self as usize]
            }

            /// The value assigned to an attribute of this type
            /// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>):
            /// `None` for a string that is not one of the values, which
            /// the setter ignores.
            ///
            /// # Safety
            /// `cx` must be in a realm and `value` rooted.
            pub unsafe fn from_attribute_value(cx: &mut JSContext, value: HandleValue) -> Result<Option<Self>, ()> {
                Ok(match enum_attribute_index(cx, value, Self::VALUES)? {
                    #( Some(#indices) => Some(#name::#variants), )*
                    _ => None,
                })
            }
        }

        impl FromJsValue for #name {
            type Config = ();
            unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _config: ()) -> Result<Self, ()> {
                match convert_to_enum_index(cx, value, Self::VALUES, #idl_name)? {
                    #( #indices => Ok(#name::#variants), )*
                    _ => unreachable!("convert_to_enum_index returns an index of VALUES"),
                }
            }
        }

        impl ToJsValue for #name {
            unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
                self.as_str().to_js(cx, rval)
            }
        }
    }
}

pub(crate) fn dictionary(defs: &Definitions, d: &Dictionary) -> TokenStream {
    let name = ident(&d.name);
    let idl_name = &d.name;
    let doc = format!(
        " The WebIDL dictionary `{}` (<https://webidl.spec.whatwg.org/#idl-dictionaries>).",
        d.name
    );
    let mut fields = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut field_names = Vec::new();
    let (parent_field, parent_read, parent_write) = match &d.parent {
        Some(p) => {
            let p = ident(p);
            (
                quote!(pub parent: #p,),
                quote!(let parent = <#p as FromJsValue>::from_js(cx, value, ())?;),
                quote!(self.parent.define_members(cx, object);),
            )
        }
        None => (quote!(), quote!(), quote!()),
    };
    if d.parent.is_some() {
        field_names.push(ident("parent"));
    }
    for m in &d.members {
        let field = ident(&snake_case(&m.name));
        let t = rust_type(&m.ty);
        let present_always = m.required || m.default.is_some();
        let field_ty = if present_always {
            t.clone()
        } else {
            quote!(Option<#t>)
        };
        let member_doc = format!(
            " `{}`{}",
            m.name,
            if m.required { " (required)" } else { "" }
        );
        fields.push(quote!(#[doc = #member_doc] pub #field: #field_ty,));
        let key = c_str(&m.name);
        let convert = from_js_expr(defs, &m.ty, quote!(member.handle()));
        let missing = if m.required {
            let msg = format!("Missing required member '{}' in {}.", m.name, d.name);
            quote! {{
                throw_type_error(cx, #msg);
                return Err(());
            }}
        } else if let Some(def) = &m.default {
            let e = default_expr(defs, &m.ty, def);
            quote!(#e?)
        } else {
            quote!(None)
        };
        let present = if present_always {
            quote!(#convert?)
        } else {
            quote!(Some(#convert?))
        };
        let read = quote! {
            let #field = {
                rooted!(&in(cx) let mut member = UndefinedValue());
                get_dictionary_member(cx, object.handle(), #key, member.handle_mut())?;
                if !member.is_undefined() { #present } else { #missing }
            };
        };
        reads.push(cross_origin_isolated_read(m, &field, read));
        let write = if present_always {
            quote!(define_dictionary_member(cx, object, #key, &self.#field);)
        } else {
            quote! {
                if let Some(member) = &self.#field {
                    define_dictionary_member(cx, object, #key, member);
                }
            }
        };
        writes.push(cross_origin_isolated_write(m, write));
        field_names.push(field);
    }
    quote! {
        #[doc = #doc]
        pub struct #name {
            #parent_field
            #(#fields)*
        }

        impl FromJsValue for #name {
            type Config = ();
            /// <https://webidl.spec.whatwg.org/#js-dictionary>: members are
            /// read least-derived dictionary first, each in lexicographic
            /// order.
            unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _config: ()) -> Result<Self, ()> {
                rooted!(&in(cx) let object = dictionary_object(cx, value, #idl_name)?);
                #parent_read
                #(#reads)*
                Ok(#name { #(#field_names),* })
            }
        }

        impl #name {
            /// Defines the present members on `object`, least-derived
            /// dictionary first, each in lexicographic order.
            pub(crate) unsafe fn define_members(&self, cx: &mut JSContext, object: HandleObject) {
                #parent_write
                #(#writes)*
            }
        }

        impl ToJsValue for #name {
            /// <https://webidl.spec.whatwg.org/#dictionary-to-js>
            unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
                rooted!(&in(cx) let object = new_plain_object(cx));
                self.define_members(cx, object.handle());
                rval.set(ObjectValue(object.get()));
            }
        }
    }
}

/// A `[CrossOriginIsolated]` member's write: only when the current realm
/// is cross-origin isolated (absent otherwise, not `null`).
fn cross_origin_isolated_write(m: &DictionaryMember, write: TokenStream) -> TokenStream {
    if !m.cross_origin_isolated {
        return write;
    }
    quote! {
        if current_realm_is_cross_origin_isolated(cx) {
            #write
        }
    }
}

/// A `[CrossOriginIsolated]` member's read: the member does not exist in a
/// realm that is not cross-origin isolated, so it is not read there.
fn cross_origin_isolated_read(
    m: &DictionaryMember,
    field: &proc_macro2::Ident,
    read: TokenStream,
) -> TokenStream {
    if !m.cross_origin_isolated {
        return read;
    }
    quote! {
        let #field = if current_realm_is_cross_origin_isolated(cx) {
            #read
            #field
        } else {
            None
        };
    }
}

/// An enum for a union type and its conversions
/// (<https://webidl.spec.whatwg.org/#js-union>).
pub(crate) fn union(defs: &Definitions, members: &[Type]) -> TokenStream {
    let name_str = union_name(members);
    let name = ident(&name_str);
    let variant = |t: &Type| ident(&t.union_member_name());
    let variants: Vec<_> = members
        .iter()
        .map(|m| {
            let v = variant(m);
            let t = rust_type(m);
            quote!(#v(#t),)
        })
        .collect();
    let find = |pred: &dyn Fn(&Type) -> bool| members.iter().find(|m| pred(m));
    let convert = |t: &Type| {
        let v = variant(t);
        let e = from_js_expr(defs, t, quote!(value));
        quote!(return Ok(#name::#v(#e?));)
    };
    let mut steps = Vec::new();
    // Step 3: a dictionary member takes null and undefined.
    if let Some(d) = find(&|t| matches!(t, Type::Dictionary(_))) {
        let c = convert(d);
        steps.push(quote!(if value.is_null_or_undefined() { #c }));
    }
    // Steps 4-11: objects.
    let mut object_steps = Vec::new();
    for m in members {
        if let Type::Interface(n) = m {
            let iface = ident(n);
            let v = variant(m);
            object_steps.push(quote! {
                if let Some(object) = DomRoot::<crate::dom::types::#iface>::try_from_object(value.to_object()) {
                    return Ok(#name::#v(object));
                }
            });
        }
    }
    // Steps 5-8: buffer source types (by their internal slots).
    for m in members {
        if let Type::Buffer(b, _) = m {
            let t = ident(b);
            let v = variant(m);
            let config = config_expr(m);
            object_steps.push(quote! {
                if let Some(buffer) = #t::try_from_object(value.to_object(), #config) {
                    return Ok(#name::#v(buffer));
                }
            });
        }
    }
    if let Some(seq) = find(&|t| matches!(t, Type::Sequence(_))) {
        let c = convert(seq);
        object_steps.push(quote!(if has_iterator_method(cx, value)? { #c }));
    }
    if let Some(cb) = find(&|t| matches!(t, Type::CallbackFunction(_))) {
        let c = convert(cb);
        object_steps.push(quote!(if is_callable(value) { #c }));
    }
    if let Some(d) = find(&|t| matches!(t, Type::Dictionary(_) | Type::Record(..))) {
        object_steps.push(convert(d));
    } else if let Some(o) = find(&|t| matches!(t, Type::Object)) {
        object_steps.push(convert(o));
    }
    if !object_steps.is_empty() {
        steps.push(quote!(if value.is_object() { #(#object_steps)* }));
    }
    let boolean = find(&|t| matches!(t, Type::Boolean));
    let numeric = find(&|t| matches!(t, Type::Integer(..) | Type::Float { .. }));
    let string = find(&|t| {
        matches!(
            t,
            Type::DOMString | Type::USVString | Type::ByteString | Type::Enum(_)
        )
    });
    // Step 12: booleans.
    if let Some(b) = boolean {
        let c = convert(b);
        steps.push(quote!(if value.is_boolean() { #c }));
    }
    // Step 13: numbers.
    if let Some(n) = numeric {
        let c = convert(n);
        steps.push(quote!(if value.is_number() { #c }));
    }
    // Steps 15-17: fall back to a string, a number, then a boolean.
    let fallback = if let Some(s) = string {
        convert(s)
    } else if let Some(n) = numeric {
        convert(n)
    } else if let Some(b) = boolean {
        convert(b)
    } else {
        // Step 18.
        let msg = format!("Value is not of any type in the union ({name_str}).");
        quote! {
            throw_type_error(cx, #msg);
            Err(())
        }
    };
    let to_js_arms = members.iter().map(|m| {
        let v = variant(m);
        quote!(#name::#v(inner) => inner.to_js(cx, rval),)
    });
    let doc = format!(" A WebIDL union type ({}).", name_str);
    quote! {
        #[doc = #doc]
        pub enum #name {
            #(#variants)*
        }

        impl FromJsValue for #name {
            type Config = ();
            /// <https://webidl.spec.whatwg.org/#js-union>
            #[allow(unreachable_code)]
            unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _config: ()) -> Result<Self, ()> {
                #(#steps)*
                #fallback
            }
        }

        impl ToJsValue for #name {
            unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
                match self {
                    #(#to_js_arms)*
                }
            }
        }
    }
}
