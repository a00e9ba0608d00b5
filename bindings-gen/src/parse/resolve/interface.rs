//! Interfaces and interface mixins, with their partial definitions merged.

use std::collections::BTreeSet;

use weedle::attribute::{ExtendedAttribute, ExtendedAttributeList, IdentifierOrString};
use weedle::interface::InterfaceMember;
use weedle::mixin::MixinMember;

use super::members::{check_stringifier_type, set_stringifier};
use super::{Kind, Resolver};
use crate::error::GenError;
use crate::ir::*;
use crate::parse::ext_attrs::{exposure, ExtAttrs};
use crate::parse::{err, loc, SourceFile};

impl<'a> Resolver<'a> {
    pub(super) fn interface(
        &self,
        file: &'a SourceFile,
        d: &'a weedle::InterfaceDefinition<'a>,
    ) -> Result<Interface, GenError> {
        let name = d.identifier.0;
        let location = loc(file, name);
        let attrs = ExtAttrs::new(&d.attributes);
        attrs.check(
            file,
            "an interface",
            &[
                "Exposed",
                "Pref",
                "Global",
                "SecureContext",
                "LegacyOverrideBuiltIns",
                "LegacyUnenumerableNamedProperties",
            ],
        )?;
        let global = attrs.has("Global");
        let exposure = match attrs.find("Exposed") {
            None => {
                return Err(err(
                    &location,
                    format!("interface {name} needs an [Exposed] extended attribute"),
                ))
            }
            Some(a) => exposure(file, a)?,
        };
        let pref = match attrs.find("Pref") {
            None => None,
            Some(ExtendedAttribute::Ident(a)) => Some(match a.rhs {
                IdentifierOrString::String(s) => s.0.to_owned(),
                IdentifierOrString::Identifier(i) => i.0.to_owned(),
            }),
            Some(_) => return Err(err(&location, "[Pref] takes a string: [Pref=\"name\"]")),
        };
        let parent = match &d.inheritance {
            None => None,
            Some(inh) => {
                let p = inh.identifier.0;
                match self.kinds.get(p) {
                    Some((Kind::Interface, _)) => Some(p.to_owned()),
                    _ => {
                        return Err(err(
                            &loc(file, p),
                            format!(
                                "interface {name} inherits from `{p}`, which is not an interface"
                            ),
                        ))
                    }
                }
            }
        };
        let mut iface = Interface {
            name: name.to_owned(),
            parent,
            exposure,
            pref,
            global,
            secure_context: attrs.has("SecureContext"),
            constructors: Vec::new(),
            attributes: Vec::new(),
            operations: Vec::new(),
            static_operations: Vec::new(),
            static_attributes: Vec::new(),
            constants: Vec::new(),
            specials: Specials::default(),
            iterable: None,
            stringifier: None,
            location: location.clone(),
        };
        let exposure_here = iface.exposure;
        let mut member_names = BTreeSet::new();
        // The interface's own members, then those of its partial
        // definitions (https://webidl.spec.whatwg.org/#dfn-partial-interface),
        // in the order they were read.
        let mut members: Vec<(&'a SourceFile, &'a InterfaceMember<'a>)> =
            d.members.body.iter().map(|m| (file, m)).collect();
        for (pfile, partial) in self.partial_interfaces.get(name).into_iter().flatten() {
            let pattrs = ExtAttrs::new(&partial.attributes);
            pattrs.check(pfile, "a partial interface", &["Exposed"])?;
            // [Exposed] on a partial interface limits its members
            // (https://webidl.spec.whatwg.org/#Exposed): added where the
            // interface is exposed only on globals they are exposed on,
            // left out where they share none.
            if let Some(a) = pattrs.find("Exposed") {
                let own = self::exposure(pfile, a)?;
                if !exposure_here.intersects(own) {
                    continue;
                }
                if !exposure_here.is_subset_of(own) {
                    return Err(err(
                        &loc(pfile, name),
                        format!("partial interface {name} would be exposed on only some of the globals of {name} (not supported)"),
                    ));
                }
            }
            members.extend(partial.members.body.iter().map(|m| (*pfile, m)));
        }
        for (file, member) in members {
            self.interface_member(file, name, &location, member, &mut iface, &mut member_names)?;
        }
        // https://webidl.spec.whatwg.org/#idl-special-operations: a setter
        // or deleter needs the getter of its kind.
        let specials = &iface.specials;
        if (specials.indexed_setter.is_some() && specials.indexed_getter.is_none())
            || ((specials.named_setter.is_some() || specials.named_deleter.is_some())
                && specials.named_getter.is_none())
        {
            return Err(err(
                &location,
                format!("{name} has a setter or deleter without the matching getter"),
            ));
        }
        iface.specials.override_builtins = attrs.has("LegacyOverrideBuiltIns");
        iface.specials.unenumerable_named_properties =
            attrs.has("LegacyUnenumerableNamedProperties");
        if (iface.specials.override_builtins || iface.specials.unenumerable_named_properties)
            && iface.specials.named_getter.is_none()
        {
            return Err(err(
                &location,
                "[LegacyOverrideBuiltIns] and [LegacyUnenumerableNamedProperties] need a named property getter",
            ));
        }
        if iface.specials.legacy_platform_object() && global {
            return Err(err(
                &location,
                "special operations on [Global] interfaces are not supported",
            ));
        }
        // https://webidl.spec.whatwg.org/#idl-iterable: a value iterator
        // needs an indexed property getter; a pair iterator must not have
        // one.
        match &iface.iterable {
            Some(Iterable::Value(_)) if iface.specials.indexed_getter.is_none() => {
                return Err(err(
                    &location,
                    format!("{name} has a value iterator (iterable<V>) but no indexed property getter"),
                ))
            }
            Some(Iterable::Pair(..)) if iface.specials.indexed_getter.is_some() => {
                return Err(err(
                    &location,
                    format!("{name} has a pair iterator (iterable<K, V>) and an indexed property getter"),
                ))
            }
            _ => {}
        }
        Ok(iface)
    }

    /// An interface mixin (<https://webidl.spec.whatwg.org/#idl-interface-mixins>):
    /// its regular attributes, regular operations and constants, which
    /// `includes` statements add to interfaces.
    pub(super) fn mixin(
        &self,
        file: &'a SourceFile,
        d: &'a weedle::InterfaceMixinDefinition<'a>,
    ) -> Result<Mixin, GenError> {
        let name = d.identifier.0;
        let location = loc(file, name);
        // [Exposed] on a mixin or on its members narrows where a member is
        // exposed: in an including interface, only where the interface is
        // exposed too (https://webidl.spec.whatwg.org/#Exposed).
        let attrs = ExtAttrs::new(&d.attributes);
        attrs.check(file, "an interface mixin", &["Exposed"])?;
        let mixin_exposure = match attrs.find("Exposed") {
            Some(a) => exposure(file, a)?,
            None => Exposure::all(),
        };
        let mut mixin = Mixin {
            name: name.to_owned(),
            attributes: Vec::new(),
            operations: Vec::new(),
            constants: Vec::new(),
            stringifier: None,
            location: location.clone(),
        };
        let mut member_names = BTreeSet::new();
        // The mixin's own members, then those of its partial definitions.
        let mut members: Vec<(&'a SourceFile, &'a MixinMember<'a>, Exposure)> = d
            .members
            .body
            .iter()
            .map(|m| (file, m, mixin_exposure))
            .collect();
        for (pfile, partial) in self.partial_mixins.get(name).into_iter().flatten() {
            ExtAttrs::new(&partial.attributes).check(
                pfile,
                "a partial interface mixin",
                &["Exposed"],
            )?;
            // Its [Exposed] narrows the mixin's, as a member's does.
            let exposure = member_exposure(pfile, &partial.attributes, mixin_exposure)?;
            members.extend(partial.members.body.iter().map(|m| (*pfile, m, exposure)));
        }
        for (file, member, mixin_exposure) in members {
            match member {
                MixinMember::Attribute(a) => {
                    let attribute = self.regular_attribute(
                        file,
                        name,
                        true,
                        &a.attributes,
                        a.readonly.is_some(),
                        &a.type_,
                        a.identifier.0,
                        &mut member_names,
                    )?;
                    if a.stringifier.is_some() {
                        let a_loc = loc(file, a.identifier.0);
                        check_stringifier_type(&attribute.ty, &a_loc)?;
                        set_stringifier(
                            &mut mixin.stringifier,
                            Stringifier::Attribute(attribute.name.clone()),
                            &a_loc,
                        )?;
                    }
                    let exposure = member_exposure(file, &a.attributes, mixin_exposure)?;
                    mixin.attributes.push((attribute, exposure));
                }
                MixinMember::Operation(op) => {
                    let Some(id) = &op.identifier else {
                        if op.stringifier.is_some() {
                            ExtAttrs::new(&op.attributes).check(file, "a stringifier", &[])?;
                            let ty = self.return_type(file, &op.return_type, &location)?;
                            check_stringifier_type(&ty, &location)?;
                            if !op.args.body.list.is_empty() {
                                return Err(err(&location, "a stringifier takes no arguments"));
                            }
                            set_stringifier(&mut mixin.stringifier, Stringifier::Plain, &location)?;
                            continue;
                        }
                        return Err(err(
                            &location,
                            format!("an operation of {name} needs a name"),
                        ));
                    };
                    let operation = self.regular_operation(
                        file,
                        name,
                        true,
                        &op.attributes,
                        &op.return_type,
                        id.0,
                        &op.args.body.list,
                        &mut member_names,
                    )?;
                    if op.stringifier.is_some() {
                        let op_loc = loc(file, id.0);
                        if !operation.arguments.is_empty() {
                            return Err(err(&op_loc, "a stringifier takes no arguments"));
                        }
                        check_stringifier_type(&operation.return_type, &op_loc)?;
                        set_stringifier(
                            &mut mixin.stringifier,
                            Stringifier::Operation(operation.name.clone().unwrap_or_default()),
                            &op_loc,
                        )?;
                    }
                    let exposure = member_exposure(file, &op.attributes, mixin_exposure)?;
                    mixin.operations.push((operation, exposure));
                }
                MixinMember::Const(c) => {
                    let constant = self.constant(file, name, c, &mut member_names)?;
                    mixin.constants.push((constant, mixin_exposure));
                }
                MixinMember::Stringifier(st) => {
                    ExtAttrs::new(&st.attributes).check(file, "a stringifier", &[])?;
                    set_stringifier(&mut mixin.stringifier, Stringifier::Plain, &location)?;
                }
            }
        }
        Ok(mixin)
    }
}

/// The exposure of a mixin member: its own `[Exposed]`, within the
/// mixin's.
fn member_exposure(
    file: &SourceFile,
    attributes: &Option<ExtendedAttributeList<'_>>,
    mixin_exposure: Exposure,
) -> Result<Exposure, GenError> {
    Ok(match ExtAttrs::new(attributes).find("Exposed") {
        None => mixin_exposure,
        Some(a) => {
            let own = exposure(file, a)?;
            Exposure {
                window: own.window && mixin_exposure.window,
                dedicated_worker: own.dedicated_worker && mixin_exposure.dedicated_worker,
            }
        }
    })
}
