//! WebIDL types to [`Type`]: typedefs, nullable and union types, named
//! types by the kind of their definition, and the checks on where callback
//! and promise types may appear.

use weedle::types::{
    AttributedType, FloatingPointType, IntegerType as WIntegerType, NonAnyType, ReturnType,
    SingleType, Type as WType, UnionMemberType,
};

use super::{Kind, Resolver};
use crate::error::GenError;
use crate::ir::*;
use crate::parse::ext_attrs::ExtAttrs;
use crate::parse::{err, SourceFile};

impl<'a> Resolver<'a> {
    pub(super) fn return_type(
        &self,
        file: &'a SourceFile,
        ty: &'a ReturnType<'a>,
        location: &Location,
    ) -> Result<Type, GenError> {
        match ty {
            ReturnType::Undefined(_) => Ok(Type::Undefined),
            ReturnType::Type(t) => {
                let ty = self.plain_type(file, t, None, location)?;
                check_no_nested_callbacks(&ty, location, "a return type")?;
                Ok(ty)
            }
        }
    }

    pub(super) fn attributed_type(
        &self,
        file: &'a SourceFile,
        ty: &'a AttributedType<'a>,
        location: &Location,
    ) -> Result<Type, GenError> {
        let attrs = ExtAttrs::new(&ty.attributes);
        attrs.check(file, "a type", TYPE_ATTRIBUTES)?;
        if attrs.has("AllowShared") || attrs.has("AllowResizable") {
            let plain = self.plain_type(file, &ty.type_, None, location)?;
            return buffer_allow(plain, &attrs, location);
        }
        if attrs.has("LegacyNullToEmptyString") {
            return null_to_empty_string(
                self.plain_type(file, &ty.type_, None, location)?,
                location,
            );
        }
        let conversion = match (attrs.has("EnforceRange"), attrs.has("Clamp")) {
            (true, true) => {
                return Err(err(
                    location,
                    "[EnforceRange] and [Clamp] cannot be combined",
                ))
            }
            (true, false) => Some(IntegerConversion::EnforceRange),
            (false, true) => Some(IntegerConversion::Clamp),
            (false, false) => None,
        };
        self.plain_type(file, &ty.type_, conversion, location)
    }

    pub(super) fn plain_type(
        &self,
        file: &'a SourceFile,
        ty: &'a WType<'a>,
        conversion: Option<IntegerConversion>,
        location: &Location,
    ) -> Result<Type, GenError> {
        match ty {
            WType::Single(SingleType::Any(_)) => {
                no_conversion_attr(conversion, location)?;
                Ok(Type::Any)
            }
            WType::Single(SingleType::NonAny(t)) => self.non_any(file, t, conversion, location),
            WType::Union(u) => {
                no_conversion_attr(conversion, location)?;
                let mut members = Vec::new();
                let mut nullable = u.q_mark.is_some();
                for m in &u.type_.body.list {
                    self.union_member(file, m, location, &mut members, &mut nullable)?;
                }
                check_union(&members, location)?;
                let union = Type::Union(members);
                Ok(if nullable {
                    Type::Nullable(Box::new(union))
                } else {
                    union
                })
            }
        }
    }

    fn union_member(
        &self,
        file: &'a SourceFile,
        m: &'a UnionMemberType<'a>,
        location: &Location,
        out: &mut Vec<Type>,
        nullable: &mut bool,
    ) -> Result<(), GenError> {
        match m {
            UnionMemberType::Single(t) => {
                ExtAttrs::new(&t.attributes).check(file, "a union member type", &[])?;
                let ty = self.non_any(file, &t.type_, None, location)?;
                match ty {
                    Type::Nullable(inner) => {
                        *nullable = true;
                        out.push(*inner);
                    }
                    Type::Union(inner) => out.extend(inner),
                    other => out.push(other),
                }
            }
            UnionMemberType::Union(u) => {
                if u.q_mark.is_some() {
                    *nullable = true;
                }
                for inner in &u.type_.body.list {
                    self.union_member(file, inner, location, out, nullable)?;
                }
            }
        }
        Ok(())
    }

    fn non_any(
        &self,
        file: &'a SourceFile,
        ty: &'a NonAnyType<'a>,
        conversion: Option<IntegerConversion>,
        location: &Location,
    ) -> Result<Type, GenError> {
        macro_rules! nullable {
            ($q:expr, $t:expr) => {{
                let t = $t;
                if $q.is_some() {
                    nullable(t, location)?
                } else {
                    t
                }
            }};
        }
        if conversion.is_some()
            && !matches!(
                ty,
                NonAnyType::Integer(_)
                    | NonAnyType::Byte(_)
                    | NonAnyType::Octet(_)
                    | NonAnyType::Identifier(_)
            )
        {
            return Err(err(
                location,
                "[EnforceRange] and [Clamp] only apply to integer types",
            ));
        }
        Ok(match ty {
            NonAnyType::Integer(t) => nullable!(
                t.q_mark,
                Type::Integer(integer_type(&t.type_), conversion.unwrap_or_default())
            ),
            NonAnyType::FloatingPoint(t) => nullable!(t.q_mark, float_type(&t.type_)),
            NonAnyType::Boolean(t) => nullable!(t.q_mark, Type::Boolean),
            NonAnyType::Byte(t) => nullable!(
                t.q_mark,
                Type::Integer(IntegerType::Byte, conversion.unwrap_or_default())
            ),
            NonAnyType::Octet(t) => nullable!(
                t.q_mark,
                Type::Integer(IntegerType::Octet, conversion.unwrap_or_default())
            ),
            NonAnyType::DOMString(t) => nullable!(t.q_mark, Type::DOMString),
            NonAnyType::USVString(t) => nullable!(t.q_mark, Type::USVString),
            NonAnyType::Object(t) => nullable!(t.q_mark, Type::Object),
            NonAnyType::Sequence(t) => {
                let inner = self.plain_type(file, &t.type_.generics.body, None, location)?;
                if matches!(inner.inner(), Type::Promise(_)) {
                    return Err(err(location, "sequences of promises are not supported"));
                }
                nullable!(t.q_mark, Type::Sequence(Box::new(inner)))
            }
            NonAnyType::Promise(p) => {
                let inner = self.return_type(file, &p.generics.body, location)?;
                Type::Promise(Box::new(inner))
            }
            NonAnyType::Identifier(t) => {
                let name = t.type_.0;
                let resolved = self.named_type(name, conversion, location)?;
                nullable!(t.q_mark, resolved)
            }
            NonAnyType::ByteString(t) => nullable!(t.q_mark, Type::ByteString),
            NonAnyType::Symbol(_) => return Err(err(location, "symbol is not supported")),
            NonAnyType::Error(_) => return Err(err(location, "Error is not supported")),
            NonAnyType::FrozenArrayType(_) => {
                return Err(err(location, "FrozenArray is not supported"))
            }
            NonAnyType::RecordType(t) => {
                // https://webidl.spec.whatwg.org/#idl-record: K is
                // DOMString, USVString or ByteString.
                let (key, _, value) = &t.type_.generics.body;
                let key = match &**key {
                    weedle::types::RecordKeyType::Byte(_) => Type::ByteString,
                    weedle::types::RecordKeyType::DOM(_) => Type::DOMString,
                    weedle::types::RecordKeyType::USV(_) => Type::USVString,
                    weedle::types::RecordKeyType::NonAny(_) => {
                        return Err(err(
                            location,
                            "a record's key type must be DOMString, USVString or ByteString",
                        ))
                    }
                };
                let value = self.plain_type(file, value, None, location)?;
                if contains_callback_or_promise(&value) {
                    return Err(err(
                        location,
                        "records of callback or Promise types are not supported",
                    ));
                }
                nullable!(t.q_mark, Type::Record(Box::new(key), Box::new(value)))
            }
            NonAnyType::ArrayBuffer(t) => nullable!(
                t.q_mark,
                Type::Buffer("ArrayBuffer", BufferAllow::default())
            ),
            NonAnyType::Int8Array(t) => {
                nullable!(t.q_mark, Type::Buffer("Int8Array", BufferAllow::default()))
            }
            NonAnyType::Int16Array(t) => {
                nullable!(t.q_mark, Type::Buffer("Int16Array", BufferAllow::default()))
            }
            NonAnyType::Int32Array(t) => {
                nullable!(t.q_mark, Type::Buffer("Int32Array", BufferAllow::default()))
            }
            NonAnyType::Uint8Array(t) => {
                nullable!(t.q_mark, Type::Buffer("Uint8Array", BufferAllow::default()))
            }
            NonAnyType::Uint16Array(t) => nullable!(
                t.q_mark,
                Type::Buffer("Uint16Array", BufferAllow::default())
            ),
            NonAnyType::Uint32Array(t) => nullable!(
                t.q_mark,
                Type::Buffer("Uint32Array", BufferAllow::default())
            ),
            NonAnyType::Uint8ClampedArray(t) => {
                nullable!(
                    t.q_mark,
                    Type::Buffer("Uint8ClampedArray", BufferAllow::default())
                )
            }
            NonAnyType::Float32Array(t) => nullable!(
                t.q_mark,
                Type::Buffer("Float32Array", BufferAllow::default())
            ),
            NonAnyType::Float64Array(t) => nullable!(
                t.q_mark,
                Type::Buffer("Float64Array", BufferAllow::default())
            ),
            NonAnyType::ArrayBufferView(t) => {
                nullable!(
                    t.q_mark,
                    Type::Buffer("ArrayBufferView", BufferAllow::default())
                )
            }
            NonAnyType::BufferSource(t) => nullable!(
                t.q_mark,
                Type::Buffer("BufferSource", BufferAllow::default())
            ),
            NonAnyType::DataView(_) => return Err(err(location, "DataView is not supported")),
        })
    }

    fn named_type(
        &self,
        name: &str,
        conversion: Option<IntegerConversion>,
        location: &Location,
    ) -> Result<Type, GenError> {
        if name == "AllowSharedBufferSource" && !self.kinds.contains_key(name) {
            // https://webidl.spec.whatwg.org/#AllowSharedBufferSource (a
            // typedef of the Web IDL standard itself).
            if conversion.is_some() {
                return Err(err(
                    location,
                    "[EnforceRange] and [Clamp] only apply to integer types",
                ));
            }
            return Ok(Type::Buffer(
                "AllowSharedBufferSource",
                BufferAllow::default(),
            ));
        }
        let Some((kind, _)) = self.kinds.get(name) else {
            let hint = match name {
                "bool" => " (did you mean `boolean`?)",
                "string" | "String" => " (did you mean `DOMString`?)",
                "int" | "integer" => " (did you mean `long`?)",
                "void" => " (`void` is now spelled `undefined`)",
                "bigint" => " (bigint is not supported)",
                _ => "",
            };
            return Err(err(location, format!("unknown type `{name}`{hint}")));
        };
        if conversion.is_some() && *kind != Kind::Typedef {
            return Err(err(
                location,
                "[EnforceRange] and [Clamp] only apply to integer types",
            ));
        }
        Ok(match kind {
            Kind::Interface => Type::Interface(name.to_owned()),
            Kind::Dictionary => Type::Dictionary(name.to_owned()),
            Kind::Enum => Type::Enum(name.to_owned()),
            Kind::Callback => Type::CallbackFunction(name.to_owned()),
            Kind::CallbackInterface => Type::CallbackInterface(name.to_owned()),
            Kind::Mixin => {
                return Err(err(
                    location,
                    format!("`{name}` is an interface mixin, not a type"),
                ))
            }
            Kind::Typedef => {
                let (file, ty) = self.typedefs[name];
                let resolved = self.attributed_type(file, ty, location)?;
                match (conversion, resolved) {
                    (None, t) => t,
                    (Some(c), Type::Integer(i, IntegerConversion::Default)) => Type::Integer(i, c),
                    (Some(_), _) => {
                        return Err(err(
                            location,
                            "[EnforceRange] and [Clamp] only apply to integer types",
                        ))
                    }
                }
            }
        })
    }
}

/// The extended attributes that apply to a type, written on the type or on
/// the argument it is the type of (`[EnforceRange] long x`).
pub(super) const TYPE_ATTRIBUTES: &[&str] = &[
    "EnforceRange",
    "Clamp",
    "LegacyNullToEmptyString",
    "AllowShared",
    "AllowResizable",
];

pub(super) fn nullable(t: Type, location: &Location) -> Result<Type, GenError> {
    match t {
        Type::Nullable(_) => Err(err(location, "a nullable type cannot be nullable again")),
        Type::Any => Err(err(location, "`any` cannot be nullable")),
        Type::Promise(_) => Err(err(location, "Promise types cannot be nullable")),
        Type::Union(ref m) if m.iter().any(|t| matches!(t, Type::Dictionary(_))) => Err(err(
            location,
            "a nullable union cannot contain a dictionary",
        )),
        t => Ok(Type::Nullable(Box::new(t))),
    }
}

fn no_conversion_attr(c: Option<IntegerConversion>, location: &Location) -> Result<(), GenError> {
    match c {
        Some(_) => Err(err(
            location,
            "[EnforceRange] and [Clamp] only apply to integer types",
        )),
        None => Ok(()),
    }
}

pub(super) fn integer_type(t: &WIntegerType) -> IntegerType {
    match t {
        WIntegerType::LongLong(t) if t.unsigned.is_some() => IntegerType::UnsignedLongLong,
        WIntegerType::LongLong(_) => IntegerType::LongLong,
        WIntegerType::Long(t) if t.unsigned.is_some() => IntegerType::UnsignedLong,
        WIntegerType::Long(_) => IntegerType::Long,
        WIntegerType::Short(t) if t.unsigned.is_some() => IntegerType::UnsignedShort,
        WIntegerType::Short(_) => IntegerType::Short,
    }
}

pub(super) fn float_type(t: &FloatingPointType) -> Type {
    match t {
        FloatingPointType::Float(f) => Type::Float {
            double: false,
            restricted: f.unrestricted.is_none(),
        },
        FloatingPointType::Double(d) => Type::Float {
            double: true,
            restricted: d.unrestricted.is_none(),
        },
    }
}

/// Union members the conversion supports
/// (<https://webidl.spec.whatwg.org/#js-union>), with at most one member of
/// each distinguishable category.
fn check_union(members: &[Type], location: &Location) -> Result<(), GenError> {
    let mut categories: Vec<&str> = Vec::new();
    for m in members {
        let category = match m {
            Type::Boolean => "boolean",
            Type::Integer(..) | Type::Float { .. } => "numeric",
            Type::DOMString | Type::USVString | Type::ByteString | Type::Enum(_) => "string",
            Type::NullToEmptyString => {
                return Err(err(
                    location,
                    "[LegacyNullToEmptyString] DOMString cannot be a union member",
                ))
            }
            // Dictionaries and records are both "dictionary-like".
            Type::Dictionary(_) | Type::Record(..) => "dictionary",
            // Buffer source types: one member (BufferSource counts as one).
            Type::Buffer(..) => "buffer source",
            Type::Interface(_) => {
                continue;
            }
            Type::Sequence(_) => "sequence",
            Type::Object => "object",
            Type::CallbackFunction(_) => "callback function",
            other => {
                return Err(err(
                    location,
                    format!(
                        "union member type `{}` is not supported",
                        other.union_member_name()
                    ),
                ))
            }
        };
        if categories.contains(&category) {
            return Err(err(
                location,
                format!("a union may have only one {category} member type"),
            ));
        }
        categories.push(category);
    }
    if categories.contains(&"object")
        && (categories.contains(&"dictionary")
            || categories.contains(&"sequence")
            || categories.contains(&"callback function")
            || categories.contains(&"buffer source")
            || members.iter().any(|m| matches!(m, Type::Interface(_))))
    {
        return Err(err(
            location,
            "`object` in a union is not distinguishable from the other object types",
        ));
    }
    if members.len() < 2 {
        return Err(err(location, "a union needs at least two member types"));
    }
    Ok(())
}

/// Callback values must be held where the GC can trace them; the generated
/// glue roots them only as direct arguments and attribute values.
/// Whether `ty` is or holds a callback or a promise type.
pub(super) fn contains_callback_or_promise(ty: &Type) -> bool {
    match ty {
        Type::CallbackFunction(_) | Type::CallbackInterface(_) | Type::Promise(_) => true,
        Type::Nullable(t) | Type::Sequence(t) => contains_callback_or_promise(t),
        Type::Union(m) => m.iter().any(contains_callback_or_promise),
        _ => false,
    }
}

/// `[AllowShared]` (<https://webidl.spec.whatwg.org/#AllowShared>: on
/// buffer view types) and `[AllowResizable]`
/// (<https://webidl.spec.whatwg.org/#AllowResizable>: on buffer and buffer
/// view types) in `attrs`, applied to `ty`.
pub(super) fn buffer_allow(
    ty: Type,
    attrs: &ExtAttrs<'_>,
    location: &Location,
) -> Result<Type, GenError> {
    let shared = attrs.has("AllowShared");
    let resizable = attrs.has("AllowResizable");
    if !shared && !resizable {
        return Ok(ty);
    }
    let apply = |t: Type| -> Result<Type, GenError> {
        match t {
            // BufferSource and AllowSharedBufferSource are typedefs of
            // unions; the attributes go on their members.
            Type::Buffer(name, allow) if name != "BufferSource" && name != "AllowSharedBufferSource" => {
                if shared && name == "ArrayBuffer" {
                    return Err(err(
                        location,
                        "[AllowShared] applies to buffer view types (ArrayBufferView and typed arrays), not ArrayBuffer",
                    ));
                }
                Ok(Type::Buffer(
                    name,
                    BufferAllow {
                        shared: allow.shared || shared,
                        resizable: allow.resizable || resizable,
                    },
                ))
            }
            _ => Err(err(
                location,
                "[AllowShared] and [AllowResizable] only apply to ArrayBuffer, ArrayBufferView and typed array types",
            )),
        }
    };
    match ty {
        Type::Nullable(inner) => Ok(Type::Nullable(Box::new(apply(*inner)?))),
        t => apply(t),
    }
}

/// `[LegacyNullToEmptyString]` applies to `DOMString` only
/// (<https://webidl.spec.whatwg.org/#LegacyNullToEmptyString>).
pub(super) fn null_to_empty_string(ty: Type, location: &Location) -> Result<Type, GenError> {
    match ty {
        Type::DOMString | Type::NullToEmptyString => Ok(Type::NullToEmptyString),
        _ => Err(err(
            location,
            "[LegacyNullToEmptyString] only applies to DOMString (not nullable)",
        )),
    }
}

pub(super) fn check_no_nested_callbacks_in(ty: &Type, location: &Location) -> Result<(), GenError> {
    match ty.inner() {
        Type::Sequence(t) => check_no_nested_callbacks(t, location, "a sequence"),
        Type::Union(m) => {
            for t in m {
                if matches!(t, Type::CallbackFunction(_) | Type::CallbackInterface(_)) {
                    return Err(err(location, "callbacks in unions are not supported"));
                }
                check_no_nested_callbacks_in(t, location)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

pub(super) fn check_no_nested_callbacks(
    ty: &Type,
    location: &Location,
    place: &str,
) -> Result<(), GenError> {
    match ty.inner() {
        Type::CallbackFunction(_) | Type::CallbackInterface(_) => Err(err(
            location,
            format!("callbacks in {place} are not supported (only as arguments and attributes)"),
        )),
        Type::Sequence(t) => check_no_nested_callbacks(t, location, place),
        Type::Promise(t) => check_no_nested_callbacks(t, location, place),
        Type::Union(m) => {
            for t in m {
                check_no_nested_callbacks(t, location, place)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

pub(super) fn check_callback_types(
    args: &[Argument],
    ret: &Type,
    location: &Location,
) -> Result<(), GenError> {
    // Optional arguments without a default are passed like required ones
    // (the Rust caller always gives a value: the host never omits one);
    // unions of types without nested callbacks convert to JS as a whole.
    for a in args {
        if a.optional && a.default.is_some() {
            return Err(err(
                location,
                "optional callback arguments with a default value are not supported",
            ));
        }
        if matches!(
            a.ty.inner(),
            Type::Dictionary(_) | Type::CallbackFunction(_) | Type::CallbackInterface(_)
        ) {
            return Err(err(
                location,
                "callback arguments of dictionary or callback type are not supported",
            ));
        }
        if let Type::Union(members) = a.ty.inner() {
            if members.iter().any(|m| {
                !matches!(
                    m,
                    Type::Interface(_)
                        | Type::DOMString
                        | Type::USVString
                        | Type::Boolean
                        | Type::Integer(..)
                        | Type::Float { .. }
                )
            }) {
                return Err(err(
                    location,
                    "callback arguments of union type may only have interface, string, boolean or number members",
                ));
            }
        }
    }
    if matches!(
        ret.inner(),
        Type::Dictionary(_)
            | Type::Union(_)
            | Type::Promise(_)
            | Type::CallbackFunction(_)
            | Type::CallbackInterface(_)
    ) {
        return Err(err(
            location,
            "callback return values of dictionary, union, promise or callback type are not supported",
        ));
    }
    Ok(())
}
