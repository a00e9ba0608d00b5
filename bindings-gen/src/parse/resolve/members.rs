//! Interface and mixin members: attributes, operations (regular, static,
//! special), constants, stringifiers, iterable declarations.

use std::collections::BTreeSet;

use weedle::argument::Argument as WArgument;
use weedle::attribute::{ExtendedAttribute, ExtendedAttributeList, IdentifierOrString};
use weedle::interface::{
    ConstMember, InterfaceMember, StringifierOrInheritOrStatic, StringifierOrStatic,
};
use weedle::literal::ConstValue as WConstValue;
use weedle::types::{AttributedType, NonAnyType, ReturnType, SingleType, Type as WType};

use super::arguments::{check_const_value, float_literal, integer_literal};
use super::types::{contains_callback_or_promise, float_type, integer_type};
use super::Resolver;
use crate::error::GenError;
use crate::ir::*;
use crate::parse::ext_attrs::ExtAttrs;
use crate::parse::{err, ident_name, loc, SourceFile};

impl<'a> Resolver<'a> {
    /// One member of an interface (or of one of its partial definitions).
    pub(super) fn interface_member(
        &self,
        file: &'a SourceFile,
        name: &str,
        location: &Location,
        member: &'a InterfaceMember<'a>,
        iface: &mut Interface,
        member_names: &mut BTreeSet<String>,
    ) -> Result<(), GenError> {
        match member {
            InterfaceMember::Constructor(c) => {
                ExtAttrs::new(&c.attributes).check(file, "a constructor", &[])?;
                // Overloaded constructors
                // (https://webidl.spec.whatwg.org/#idl-overloading) are
                // checked in `validate`.
                let arguments = self.arguments(file, &c.args.body.list, location, false)?;
                iface.constructors.push(Operation {
                    name: None,
                    arguments,
                    return_type: Type::Interface(name.to_owned()),
                    secure_context: false,
                    location: location.clone(),
                });
            }
            InterfaceMember::Attribute(a) => {
                let a_loc = loc(file, a.identifier.0);
                let (is_static, stringifier) = match a.modifier {
                    None => (false, false),
                    Some(StringifierOrInheritOrStatic::Static(_)) => (true, false),
                    Some(StringifierOrInheritOrStatic::Stringifier(_)) => (false, true),
                    Some(StringifierOrInheritOrStatic::Inherit(_)) => {
                        return Err(err(&a_loc, "inherit attributes are not supported"))
                    }
                };
                let attribute = self.regular_attribute(
                    file,
                    name,
                    false,
                    &a.attributes,
                    a.readonly.is_some(),
                    &a.type_,
                    a.identifier.0,
                    member_names,
                )?;
                if is_static {
                    if attribute.event_handler
                        || attribute.unforgeable
                        || attribute.put_forwards.is_some()
                        || attribute.replaceable
                    {
                        return Err(err(
                            &a_loc,
                            "static attributes cannot be event handlers, [LegacyUnforgeable], [PutForwards] or [Replaceable]",
                        ));
                    }
                    iface.static_attributes.push(attribute);
                    return Ok(());
                }
                if stringifier {
                    check_stringifier_type(&attribute.ty, &a_loc)?;
                    set_stringifier(
                        &mut iface.stringifier,
                        Stringifier::Attribute(attribute.name.clone()),
                        &a_loc,
                    )?;
                }
                iface.attributes.push(attribute);
            }
            InterfaceMember::Operation(op) => {
                if let Some(special) = op.special {
                    return self.special_operation(
                        file,
                        name,
                        location,
                        op,
                        special,
                        iface,
                        member_names,
                    );
                }
                let Some(id) = &op.identifier else {
                    // `stringifier DOMString ();` (or `stringifier;`).
                    if matches!(op.modifier, Some(StringifierOrStatic::Stringifier(_))) {
                        ExtAttrs::new(&op.attributes).check(file, "a stringifier", &[])?;
                        if !op.args.body.list.is_empty() {
                            return Err(err(location, "a stringifier takes no arguments"));
                        }
                        let ty = self.return_type(file, &op.return_type, location)?;
                        check_stringifier_type(&ty, location)?;
                        return set_stringifier(
                            &mut iface.stringifier,
                            Stringifier::Plain,
                            location,
                        );
                    }
                    return Err(err(
                        location,
                        format!("an operation of {name} needs a name"),
                    ));
                };
                let op_loc = loc(file, id.0);
                let (is_static, stringifier) = match op.modifier {
                    None => (false, false),
                    Some(StringifierOrStatic::Static(_)) => (true, false),
                    Some(StringifierOrStatic::Stringifier(_)) => (false, true),
                };
                let operation = self.interface_operation(file, name, op, id.0, member_names)?;
                if stringifier {
                    if !operation.arguments.is_empty() {
                        return Err(err(&op_loc, "a stringifier takes no arguments"));
                    }
                    check_stringifier_type(&operation.return_type, &op_loc)?;
                    set_stringifier(
                        &mut iface.stringifier,
                        Stringifier::Operation(operation.name.clone().unwrap_or_default()),
                        &op_loc,
                    )?;
                }
                if is_static {
                    iface.static_operations.push(operation);
                } else {
                    iface.operations.push(operation);
                }
            }
            InterfaceMember::Const(c) => {
                let constant = self.constant(file, name, c, member_names)?;
                iface.constants.push(constant);
            }
            InterfaceMember::Iterable(it) => {
                if iface.iterable.is_some() {
                    return Err(err(
                        location,
                        format!("{name} has two iterable declarations"),
                    ));
                }
                let (attributes, iterable) = match it {
                    weedle::interface::IterableInterfaceMember::Single(i) => (
                        &i.attributes,
                        Iterable::Value(self.iterable_type(file, &i.generics.body, location)?),
                    ),
                    weedle::interface::IterableInterfaceMember::Double(i) => (
                        &i.attributes,
                        Iterable::Pair(
                            self.iterable_type(file, &i.generics.body.0, location)?,
                            self.iterable_type(file, &i.generics.body.2, location)?,
                        ),
                    ),
                };
                ExtAttrs::new(attributes).check(file, "an iterable declaration", &[])?;
                // https://webidl.spec.whatwg.org/#idl-iterable: the
                // members an iterable declaration adds.
                let added: &[&str] = match iterable {
                    Iterable::Value(_) => &["entries", "keys", "values", "forEach"],
                    Iterable::Pair(..) => &["entries", "keys", "values", "forEach"],
                };
                for m in added {
                    if !member_names.insert((*m).to_owned()) {
                        return Err(err(
                            location,
                            format!("`{m}` of {name} clashes with its iterable declaration"),
                        ));
                    }
                }
                iface.iterable = Some(iterable);
            }
            InterfaceMember::AsyncIterable(_) => {
                return Err(err(
                    location,
                    format!("async iterable declarations are not supported (in {name})"),
                ))
            }
            InterfaceMember::Maplike(_) => {
                return Err(err(
                    location,
                    format!("maplike declarations are not supported (in {name})"),
                ))
            }
            InterfaceMember::Setlike(_) => {
                return Err(err(
                    location,
                    format!("setlike declarations are not supported (in {name})"),
                ))
            }
            InterfaceMember::Stringifier(st) => {
                ExtAttrs::new(&st.attributes).check(file, "a stringifier", &[])?;
                set_stringifier(&mut iface.stringifier, Stringifier::Plain, location)?;
            }
        }
        Ok(())
    }

    /// A type argument of an iterable declaration.
    fn iterable_type(
        &self,
        file: &'a SourceFile,
        ty: &'a AttributedType<'a>,
        location: &Location,
    ) -> Result<Type, GenError> {
        let ty = self.attributed_type(file, ty, location)?;
        if contains_callback_or_promise(&ty) {
            return Err(err(
                location,
                "iterable declarations of callback or Promise types are not supported",
            ));
        }
        Ok(ty)
    }

    /// A special operation (<https://webidl.spec.whatwg.org/#idl-special-operations>):
    /// an indexed or named getter, setter or deleter.
    #[allow(clippy::too_many_arguments)]
    fn special_operation(
        &self,
        file: &'a SourceFile,
        name: &str,
        location: &Location,
        op: &'a weedle::interface::OperationInterfaceMember<'a>,
        special: weedle::interface::Special,
        iface: &mut Interface,
        member_names: &mut BTreeSet<String>,
    ) -> Result<(), GenError> {
        use weedle::interface::Special;
        let op_loc = op
            .identifier
            .as_ref()
            .map_or_else(|| location.clone(), |id| loc(file, id.0));
        if op.modifier.is_some() {
            return Err(err(
                &op_loc,
                "special operations cannot be static or stringifiers",
            ));
        }
        let operation = match &op.identifier {
            // Also a regular operation.
            Some(id) => {
                let operation = self.interface_operation(file, name, op, id.0, member_names)?;
                iface.operations.push(operation.clone());
                operation
            }
            None => {
                ExtAttrs::new(&op.attributes).check(file, "an operation", OPERATION_ATTRIBUTES)?;
                Operation {
                    name: None,
                    arguments: self.arguments(file, &op.args.body.list, &op_loc, false)?,
                    return_type: self.return_type(file, &op.return_type, &op_loc)?,
                    secure_context: false,
                    location: op_loc.clone(),
                }
            }
        };
        let args = &operation.arguments;
        if args.iter().any(|a| a.optional || a.variadic) {
            return Err(err(
                &op_loc,
                "the arguments of special operations cannot be optional or variadic",
            ));
        }
        let first = args.first().map(|a| &a.ty);
        let indexed = matches!(first, Some(Type::Integer(IntegerType::UnsignedLong, _)));
        let named = matches!(first, Some(Type::DOMString));
        let value_ok = |t: &Type| !contains_callback_or_promise(t) && !matches!(t, Type::Undefined);
        let (slot, what) = match special {
            Special::Getter(_) if args.len() == 1 && (indexed || named) => {
                if !value_ok(&operation.return_type) {
                    return Err(err(&op_loc, "a getter must return a value (not undefined, a callback or a promise)"));
                }
                if indexed {
                    (&mut iface.specials.indexed_getter, "indexed property getter")
                } else {
                    (&mut iface.specials.named_getter, "named property getter")
                }
            }
            Special::Setter(_) if args.len() == 2 && (indexed || named) => {
                if !value_ok(&args[1].ty) {
                    return Err(err(&op_loc, "a setter's value cannot be a callback or a promise"));
                }
                if indexed {
                    (&mut iface.specials.indexed_setter, "indexed property setter")
                } else {
                    (&mut iface.specials.named_setter, "named property setter")
                }
            }
            Special::Deleter(_) if args.len() == 1 && named => {
                if !matches!(operation.return_type, Type::Undefined | Type::Boolean) {
                    return Err(err(&op_loc, "a deleter returns undefined or boolean"));
                }
                (&mut iface.specials.named_deleter, "named property deleter")
            }
            Special::LegacyCaller(_) => {
                return Err(err(&op_loc, "legacycaller operations are not supported"))
            }
            _ => {
                return Err(err(
                    &op_loc,
                    "a special operation's arguments must be (unsigned long index) or (DOMString name), and a setter's the value after",
                ))
            }
        };
        if slot.is_some() {
            return Err(err(&op_loc, format!("{name} has two {what}s")));
        }
        *slot = Some(operation);
        Ok(())
    }

    /// A regular attribute of interface or interface mixin `owner`
    /// (`[Exposed]` is allowed on it in a mixin, see [`Resolver::mixin`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn regular_attribute(
        &self,
        file: &'a SourceFile,
        owner: &str,
        in_mixin: bool,
        ext: &'a Option<ExtendedAttributeList<'a>>,
        readonly: bool,
        type_: &'a AttributedType<'a>,
        identifier: &'a str,
        member_names: &mut BTreeSet<String>,
    ) -> Result<Attribute, GenError> {
        let a_loc = loc(file, identifier);
        let a_attrs = ExtAttrs::new(ext);
        // [CEReactions] (no custom elements: nothing to queue) and
        // [SameObject] (the DOM struct returns the same object each time)
        // need no binding code.
        // [Exposed] only on a mixin's members (an interface's are exposed
        // with it).
        let allowed: Vec<&str> = ATTRIBUTE_ATTRIBUTES
            .iter()
            .copied()
            .filter(|&name| in_mixin || name != "Exposed")
            .collect();
        a_attrs.check(file, "an attribute", &allowed)?;
        let put_forwards = match a_attrs.find("PutForwards") {
            None => None,
            Some(ExtendedAttribute::Ident(a)) => match a.rhs {
                IdentifierOrString::Identifier(i) => Some(i.0.to_owned()),
                IdentifierOrString::String(_) => {
                    return Err(err(
                        &a_loc,
                        "[PutForwards] takes an identifier: [PutForwards=name]",
                    ))
                }
            },
            Some(_) => {
                return Err(err(
                    &a_loc,
                    "[PutForwards] takes an identifier: [PutForwards=name]",
                ))
            }
        };
        let replaceable = a_attrs.has("Replaceable");
        if (put_forwards.is_some() || replaceable) && !readonly {
            return Err(err(
                &a_loc,
                "[PutForwards] and [Replaceable] are only allowed on readonly attributes",
            ));
        }
        if put_forwards.is_some() && replaceable {
            return Err(err(
                &a_loc,
                "[PutForwards] and [Replaceable] cannot be combined",
            ));
        }
        let member_name = ident_name(identifier);
        if !member_names.insert(member_name.clone()) {
            return Err(err(
                &a_loc,
                format!("duplicate member `{member_name}` in {owner}"),
            ));
        }
        let ty = self.attributed_type(file, type_, &a_loc)?;
        check_attribute_type(&ty, &a_loc)?;
        let unforgeable = a_attrs.has("LegacyUnforgeable");
        let secure_context = a_attrs.has("SecureContext");
        if unforgeable && secure_context {
            return Err(err(
                &a_loc,
                "[SecureContext] [LegacyUnforgeable] attributes are not supported",
            ));
        }
        if unforgeable && !readonly {
            return Err(err(
                &a_loc,
                "[LegacyUnforgeable] is only supported on readonly attributes",
            ));
        }
        let on_error_event_handler = is_event_handler_type(type_, "OnErrorEventHandler");
        let event_handler = is_event_handler_type(type_, "EventHandler") || on_error_event_handler;
        if event_handler && member_name.strip_prefix("on").is_none_or(str::is_empty) {
            return Err(err(
                    &a_loc,
                    format!("the event handler attribute `{member_name}` must be named `on` followed by its event type"),
                ));
        }
        Ok(Attribute {
            name: member_name,
            ty,
            readonly,
            unforgeable,
            getter_throws: a_attrs.has("Throws"),
            event_handler,
            on_error_event_handler,
            put_forwards,
            replaceable,
            secure_context,
            location: a_loc,
        })
    }

    /// [`Self::regular_operation`] for an interface's operation `op`,
    /// named `identifier`.
    fn interface_operation(
        &self,
        file: &'a SourceFile,
        owner: &str,
        op: &'a weedle::interface::OperationInterfaceMember<'a>,
        identifier: &'a str,
        member_names: &mut BTreeSet<String>,
    ) -> Result<Operation, GenError> {
        self.regular_operation(
            file,
            owner,
            false,
            &op.attributes,
            &op.return_type,
            identifier,
            &op.args.body.list,
            member_names,
        )
    }

    /// A regular operation of interface or interface mixin `owner`
    /// (`[Exposed]` is allowed on it in a mixin).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn regular_operation(
        &self,
        file: &'a SourceFile,
        owner: &str,
        in_mixin: bool,
        ext: &'a Option<ExtendedAttributeList<'a>>,
        return_type: &'a ReturnType<'a>,
        identifier: &'a str,
        args: &'a [WArgument<'a>],
        member_names: &mut BTreeSet<String>,
    ) -> Result<Operation, GenError> {
        let op_loc = loc(file, identifier);
        let allowed: &[&str] = if in_mixin {
            OPERATION_ATTRIBUTES_IN_MIXIN
        } else {
            OPERATION_ATTRIBUTES
        };
        let op_attrs = ExtAttrs::new(ext);
        op_attrs.check(file, "an operation", allowed)?;
        let secure_context = op_attrs.has("SecureContext");
        let op_name = ident_name(identifier);
        // Operations may be overloaded (checked in `validate`); any other
        // member with the name is a duplicate.
        let op_key = format!("{op_name}()");
        if !member_names.insert(op_name.clone()) && !member_names.contains(&op_key) {
            return Err(err(
                &op_loc,
                format!("duplicate member `{op_name}` in {owner}"),
            ));
        }
        member_names.insert(op_key);
        let arguments = self.arguments(file, args, &op_loc, true)?;
        let return_type = self.return_type(file, return_type, &op_loc)?;
        Ok(Operation {
            name: Some(op_name),
            arguments,
            return_type,
            secure_context,
            location: op_loc,
        })
    }

    /// A constant of interface or interface mixin `owner`.
    pub(super) fn constant(
        &self,
        file: &'a SourceFile,
        owner: &str,
        c: &'a ConstMember<'a>,
        member_names: &mut BTreeSet<String>,
    ) -> Result<Constant, GenError> {
        let c_loc = loc(file, c.identifier.0);
        ExtAttrs::new(&c.attributes).check(file, "a constant", &[])?;
        let c_name = ident_name(c.identifier.0);
        if !member_names.insert(c_name.clone()) {
            return Err(err(
                &c_loc,
                format!("duplicate member `{c_name}` in {owner}"),
            ));
        }
        let ty = match &c.const_type {
            weedle::types::ConstType::Integer(t) if t.q_mark.is_none() => {
                Type::Integer(integer_type(&t.type_), IntegerConversion::Default)
            }
            weedle::types::ConstType::Byte(t) if t.q_mark.is_none() => {
                Type::Integer(IntegerType::Byte, IntegerConversion::Default)
            }
            weedle::types::ConstType::Octet(t) if t.q_mark.is_none() => {
                Type::Integer(IntegerType::Octet, IntegerConversion::Default)
            }
            weedle::types::ConstType::Boolean(t) if t.q_mark.is_none() => Type::Boolean,
            weedle::types::ConstType::FloatingPoint(t) if t.q_mark.is_none() => {
                float_type(&t.type_)
            }
            _ => {
                return Err(err(
                    &c_loc,
                    "only integer, boolean and floating point constants are supported",
                ))
            }
        };
        let value = match &c.const_value {
            WConstValue::Boolean(b) => ConstValue::Boolean(b.0),
            WConstValue::Integer(i) => ConstValue::Integer(integer_literal(i, &c_loc)?),
            WConstValue::Float(f) => ConstValue::Float(float_literal(f, &c_loc)?),
            WConstValue::Null(_) => return Err(err(&c_loc, "constants cannot be null")),
        };
        check_const_value(&ty, &value, &c_loc)?;
        Ok(Constant {
            name: c_name,
            ty,
            value,
        })
    }
}

/// Whether an attribute's type is written `name`: `EventHandler` (HTML's
/// typedef `EventHandlerNonNull?`) or `OnErrorEventHandler` (the typedef
/// `OnErrorEventHandlerNonNull?`) make it an event handler IDL attribute.
fn is_event_handler_type(ty: &AttributedType<'_>, name: &str) -> bool {
    matches!(
        &ty.type_,
        WType::Single(SingleType::NonAny(NonAnyType::Identifier(t)))
            if t.type_.0 == name && t.q_mark.is_none()
    )
}

fn check_attribute_type(ty: &Type, location: &Location) -> Result<(), GenError> {
    match ty.inner() {
        Type::Dictionary(_) => Err(err(location, "attributes cannot be dictionaries")),
        Type::Sequence(_) => Err(err(location, "attributes cannot be sequences")),
        Type::Record(..) => Err(err(location, "attributes cannot be records")),
        Type::Union(m)
            if m.iter()
                .any(|t| matches!(t, Type::Dictionary(_) | Type::Sequence(_))) =>
        {
            Err(err(
                location,
                "attributes cannot be unions containing dictionaries or sequences",
            ))
        }
        Type::Promise(_) => Err(err(location, "Promise attributes are not supported")),
        _ => Ok(()),
    }
}

/// The extended attributes accepted on operations
/// (<https://webidl.spec.whatwg.org/#idl-extended-attributes>) that need no
/// binding code here: `[CEReactions]` (no custom elements: nothing to
/// queue), `[NewObject]` (the DOM method returns a new object anyway).
/// The extended attributes an attribute may carry (see `regular_attribute`).
const ATTRIBUTE_ATTRIBUTES: &[&str] = &[
    "LegacyUnforgeable",
    "Throws",
    "CEReactions",
    "SameObject",
    "PutForwards",
    "Replaceable",
    "Exposed",
    "SecureContext",
];

const OPERATION_ATTRIBUTES: &[&str] = &["CEReactions", "NewObject", "SecureContext"];

const OPERATION_ATTRIBUTES_IN_MIXIN: &[&str] =
    &["CEReactions", "NewObject", "Exposed", "SecureContext"];

/// A stringifier's type is DOMString or USVString
/// (<https://webidl.spec.whatwg.org/#idl-stringifiers>).
pub(super) fn check_stringifier_type(ty: &Type, location: &Location) -> Result<(), GenError> {
    if matches!(
        ty,
        Type::DOMString | Type::USVString | Type::NullToEmptyString
    ) {
        Ok(())
    } else {
        Err(err(
            location,
            "a stringifier must be of type DOMString or USVString",
        ))
    }
}

/// An interface has at most one stringifier.
pub(super) fn set_stringifier(
    slot: &mut Option<Stringifier>,
    stringifier: Stringifier,
    location: &Location,
) -> Result<(), GenError> {
    if slot.is_some() {
        return Err(err(location, "an interface can have only one stringifier"));
    }
    *slot = Some(stringifier);
    Ok(())
}
