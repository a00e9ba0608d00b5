//! Argument lists, constant values and default values.

use weedle::argument::Argument as WArgument;
use weedle::literal::{DefaultValue as WDefault, FloatLit, IntegerLit};

use super::types::{
    buffer_allow, check_no_nested_callbacks_in, contains_callback_or_promise, null_to_empty_string,
    TYPE_ATTRIBUTES,
};
use super::Resolver;
use crate::error::GenError;
use crate::ir::*;
use crate::parse::ext_attrs::ExtAttrs;
use crate::parse::{err, ident_name, loc, SourceFile};

impl<'a> Resolver<'a> {
    pub(super) fn arguments(
        &self,
        file: &'a SourceFile,
        list: &'a [WArgument<'a>],
        location: &Location,
        allow_variadic: bool,
    ) -> Result<Vec<Argument>, GenError> {
        let mut out: Vec<Argument> = Vec::new();
        for arg in list {
            match arg {
                WArgument::Variadic(v) => {
                    let a_loc = loc(file, v.identifier.0);
                    if !allow_variadic {
                        return Err(err(
                            &a_loc,
                            "variadic arguments are only supported in operations",
                        ));
                    }
                    ExtAttrs::new(&v.attributes).check(file, "an argument", &[])?;
                    // Any type converts per remaining value
                    // (https://webidl.spec.whatwg.org/#es-overloads, the
                    // variadic step of the overload resolution algorithm);
                    // callbacks would need each one rooted, promises are
                    // not arguments here.
                    let ty = self.plain_type(file, &v.type_, None, &a_loc)?;
                    if contains_callback_or_promise(&ty) {
                        return Err(err(
                            &a_loc,
                            "variadic arguments of callback or Promise types are not supported",
                        ));
                    }
                    if out.iter().any(|a| a.variadic) {
                        return Err(err(&a_loc, "only the last argument can be variadic"));
                    }
                    out.push(Argument {
                        name: ident_name(v.identifier.0),
                        ty,
                        optional: true,
                        default: None,
                        variadic: true,
                    });
                }
                WArgument::Single(a) => {
                    let a_loc = loc(file, a.identifier.0);
                    // `[EnforceRange] long x` attaches the attribute to the
                    // argument; it applies to the type.
                    let arg_attrs = ExtAttrs::new(&a.attributes);
                    arg_attrs.check(file, "an argument", TYPE_ATTRIBUTES)?;
                    let mut ty = self.attributed_type(file, &a.type_, &a_loc)?;
                    ty = buffer_allow(ty, &arg_attrs, &a_loc)?;
                    if arg_attrs.has("LegacyNullToEmptyString") {
                        ty = null_to_empty_string(ty, &a_loc)?;
                    }
                    let arg_conversion = if arg_attrs.has("EnforceRange") {
                        Some(IntegerConversion::EnforceRange)
                    } else if arg_attrs.has("Clamp") {
                        Some(IntegerConversion::Clamp)
                    } else {
                        None
                    };
                    if let Some(c) = arg_conversion {
                        ty = match ty {
                            Type::Integer(i, IntegerConversion::Default) => Type::Integer(i, c),
                            Type::Nullable(inner)
                                if matches!(
                                    *inner,
                                    Type::Integer(_, IntegerConversion::Default)
                                ) =>
                            {
                                let Type::Integer(i, _) = *inner else {
                                    unreachable!()
                                };
                                Type::Nullable(Box::new(Type::Integer(i, c)))
                            }
                            _ => {
                                return Err(err(
                                    &a_loc,
                                    "[EnforceRange] and [Clamp] only apply to integer types",
                                ))
                            }
                        };
                    }
                    let optional = a.optional.is_some();
                    if let Some(prev) = out.last() {
                        if prev.optional && !optional {
                            return Err(err(
                                &a_loc,
                                "a required argument cannot follow an optional one",
                            ));
                        }
                    }
                    let default = match &a.default {
                        None => None,
                        Some(d) => Some(default_value(&d.value, &ty, &a_loc, self)?),
                    };
                    if optional && default.is_none() && self.is_dictionary_like(&ty) {
                        return Err(err(
                            &a_loc,
                            "an optional dictionary argument needs a default value (`= {}`)",
                        ));
                    }
                    if matches!(ty, Type::Nullable(ref t) if matches!(**t, Type::Dictionary(_))) {
                        return Err(err(&a_loc, "arguments cannot be nullable dictionaries"));
                    }
                    if matches!(ty.inner(), Type::Promise(_)) {
                        return Err(err(&a_loc, "Promise arguments are not supported"));
                    }
                    check_no_nested_callbacks_in(&ty, &a_loc)?;
                    out.push(Argument {
                        name: ident_name(a.identifier.0),
                        ty,
                        optional,
                        default,
                        variadic: false,
                    });
                }
            }
        }
        let _ = location;
        Ok(out)
    }

    fn is_dictionary_like(&self, ty: &Type) -> bool {
        match ty {
            Type::Dictionary(_) => true,
            Type::Union(members) => members.iter().any(|m| matches!(m, Type::Dictionary(_))),
            _ => false,
        }
    }
}

pub(super) fn integer_literal(lit: &IntegerLit, location: &Location) -> Result<i128, GenError> {
    let (text, radix) = match lit {
        IntegerLit::Dec(d) => (d.0, 10),
        IntegerLit::Hex(h) => (h.0, 16),
        IntegerLit::Oct(o) => (o.0, 8),
    };
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = match radix {
        16 => &digits[2..],
        8 if digits.len() > 1 => &digits[1..],
        _ => digits,
    };
    let value = i128::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix)
        .map_err(|_| err(location, format!("invalid integer literal `{text}`")))?;
    Ok(if negative { -value } else { value })
}

pub(super) fn float_literal(lit: &FloatLit, location: &Location) -> Result<f64, GenError> {
    match lit {
        FloatLit::Value(v) => {
            v.0.parse::<f64>()
                .map_err(|_| err(location, format!("invalid number `{}`", v.0)))
        }
        FloatLit::Infinity(_) => Ok(f64::INFINITY),
        FloatLit::NegInfinity(_) => Ok(f64::NEG_INFINITY),
        FloatLit::NaN(_) => Ok(f64::NAN),
    }
}

fn integer_range(t: IntegerType) -> (i128, i128) {
    match t {
        IntegerType::Byte => (i8::MIN.into(), i8::MAX.into()),
        IntegerType::Octet => (0, u8::MAX.into()),
        IntegerType::Short => (i16::MIN.into(), i16::MAX.into()),
        IntegerType::UnsignedShort => (0, u16::MAX.into()),
        IntegerType::Long => (i32::MIN.into(), i32::MAX.into()),
        IntegerType::UnsignedLong => (0, u32::MAX.into()),
        IntegerType::LongLong => (i64::MIN.into(), i64::MAX.into()),
        IntegerType::UnsignedLongLong => (0, u64::MAX.into()),
    }
}

pub(super) fn check_const_value(
    ty: &Type,
    value: &ConstValue,
    location: &Location,
) -> Result<(), GenError> {
    match (ty, value) {
        (Type::Integer(t, _), ConstValue::Integer(v)) => {
            let (lo, hi) = integer_range(*t);
            if *v < lo || *v > hi {
                return Err(err(
                    location,
                    format!("{v} is out of range for {}", t.idl_name()),
                ));
            }
            Ok(())
        }
        (Type::Boolean, ConstValue::Boolean(_)) => Ok(()),
        (Type::Float { restricted, .. }, ConstValue::Float(f)) => {
            if *restricted && !f.is_finite() {
                return Err(err(
                    location,
                    "restricted floating point values must be finite",
                ));
            }
            Ok(())
        }
        (Type::Float { .. }, ConstValue::Integer(_)) => Ok(()),
        _ => Err(err(location, "the value does not match the type")),
    }
}

pub(super) fn default_value(
    value: &WDefault,
    ty: &Type,
    location: &Location,
    resolver: &Resolver,
) -> Result<DefaultValue, GenError> {
    let mismatch = || err(location, "the default value does not match the type");
    let target = ty.inner();
    let result = match value {
        WDefault::Boolean(b) => match target {
            Type::Boolean => DefaultValue::Boolean(b.0),
            Type::Union(m) if m.contains(&Type::Boolean) => DefaultValue::Boolean(b.0),
            _ => return Err(mismatch()),
        },
        WDefault::Integer(i) => {
            let v = integer_literal(i, location)?;
            match target {
                Type::Integer(t, _) => {
                    let (lo, hi) = integer_range(*t);
                    if v < lo || v > hi {
                        return Err(err(
                            location,
                            format!("{v} is out of range for {}", t.idl_name()),
                        ));
                    }
                    DefaultValue::Integer(v)
                }
                Type::Float { .. } => DefaultValue::Float(v as f64),
                _ => return Err(mismatch()),
            }
        }
        WDefault::Float(f) => {
            let v = float_literal(f, location)?;
            match target {
                Type::Float { restricted, .. } => {
                    if *restricted && !v.is_finite() {
                        return Err(err(
                            location,
                            "restricted floating point values must be finite",
                        ));
                    }
                    DefaultValue::Float(v)
                }
                _ => return Err(mismatch()),
            }
        }
        WDefault::String(s) => match target {
            Type::DOMString | Type::NullToEmptyString | Type::USVString | Type::ByteString => {
                DefaultValue::String(s.0.to_owned())
            }
            // A union with a string member: that member.
            Type::Union(m)
                if m.iter()
                    .any(|t| matches!(t, Type::DOMString | Type::USVString | Type::ByteString)) =>
            {
                DefaultValue::String(s.0.to_owned())
            }
            Type::Enum(name) => {
                let valid = resolver.kinds.contains_key(name.as_str());
                if !valid {
                    return Err(mismatch());
                }
                DefaultValue::String(s.0.to_owned())
            }
            _ => return Err(mismatch()),
        },
        WDefault::Null(_) => {
            if ty.is_nullable() || matches!(ty, Type::Any) {
                DefaultValue::Null
            } else {
                return Err(err(
                    location,
                    "`null` is only a valid default for nullable types",
                ));
            }
        }
        WDefault::EmptyDictionary(_) => match target {
            Type::Dictionary(_) => DefaultValue::EmptyDictionary,
            Type::Union(m) if m.iter().any(|t| matches!(t, Type::Dictionary(_))) => {
                DefaultValue::EmptyDictionary
            }
            _ => return Err(mismatch()),
        },
        WDefault::EmptyArray(_) => match target {
            Type::Sequence(_) => DefaultValue::EmptySequence,
            _ => return Err(mismatch()),
        },
    };
    Ok(result)
}
