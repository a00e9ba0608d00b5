//! Stage 2: WebIDL definitions resolved into the model. [`Resolver`] first
//! declares every top-level name of every file ([`Resolver::declare`]:
//! duplicates, partial definitions, typedefs), then resolves each
//! definition ([`Resolver::resolve`]) with the methods of its submodules:
//! interfaces and mixins ([`interface`]), their members ([`members`]),
//! dictionaries ([`dictionary`]), arguments, constants and default values
//! ([`arguments`]), and types ([`types`]).

mod arguments;
mod dictionary;
mod interface;
mod members;
mod types;

use std::collections::BTreeMap;

use weedle::interface::InterfaceMember;
use weedle::types::AttributedType;
use weedle::Definition;

use super::{err, ident_name, loc, SourceFile};
use crate::error::GenError;
use crate::ir::*;
use crate::parse::ext_attrs::ExtAttrs;
use types::check_callback_types;

/// What a name declared at top level stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Interface,
    Dictionary,
    Enum,
    Callback,
    CallbackInterface,
    Typedef,
    Mixin,
}

#[derive(Default)]
pub(super) struct Resolver<'a> {
    kinds: BTreeMap<&'a str, (Kind, Location)>,
    /// The partial interface definitions of each interface, in file order.
    partial_interfaces:
        BTreeMap<&'a str, Vec<(&'a SourceFile, &'a weedle::PartialInterfaceDefinition<'a>)>>,
    /// The partial interface mixin definitions of each mixin.
    partial_mixins: BTreeMap<
        &'a str,
        Vec<(
            &'a SourceFile,
            &'a weedle::PartialInterfaceMixinDefinition<'a>,
        )>,
    >,
    typedefs: BTreeMap<&'a str, (&'a SourceFile, &'a AttributedType<'a>)>,
    callback_flags: BTreeMap<&'a str, bool>,
}

impl<'a> Resolver<'a> {
    fn declare_name(
        &mut self,
        file: &'a SourceFile,
        name: &'a str,
        kind: Kind,
    ) -> Result<(), GenError> {
        let location = loc(file, name);
        if let Some((_, previous)) = self.kinds.get(name) {
            return Err(err(
                &location,
                format!(
                    "`{name}` is already defined at {}:{}:{}",
                    previous.file.display(),
                    previous.line,
                    previous.column
                ),
            ));
        }
        self.kinds.insert(name, (kind, location));
        Ok(())
    }

    pub(super) fn declare(
        &mut self,
        file: &'a SourceFile,
        def: &'a Definition<'a>,
    ) -> Result<(), GenError> {
        match def {
            Definition::Interface(d) => self.declare_name(file, d.identifier.0, Kind::Interface),
            Definition::Dictionary(d) => self.declare_name(file, d.identifier.0, Kind::Dictionary),
            Definition::Enum(d) => self.declare_name(file, d.identifier.0, Kind::Enum),
            Definition::Callback(d) => {
                let treat = ExtAttrs::new(&d.attributes).has("LegacyTreatNonObjectAsNull");
                self.callback_flags.insert(d.identifier.0, treat);
                self.declare_name(file, d.identifier.0, Kind::Callback)
            }
            Definition::CallbackInterface(d) => {
                self.declare_name(file, d.identifier.0, Kind::CallbackInterface)
            }
            Definition::Typedef(d) => {
                self.typedefs.insert(d.identifier.0, (file, &d.type_));
                self.declare_name(file, d.identifier.0, Kind::Typedef)
            }
            Definition::InterfaceMixin(d) => self.declare_name(file, d.identifier.0, Kind::Mixin),
            // Applied once every definition is resolved (see `include_mixins`).
            Definition::IncludesStatement(_) => Ok(()),
            // Merged into their interface or mixin when it is resolved.
            Definition::PartialInterface(d) => {
                self.partial_interfaces
                    .entry(d.identifier.0)
                    .or_default()
                    .push((file, d));
                Ok(())
            }
            Definition::PartialInterfaceMixin(d) => {
                self.partial_mixins
                    .entry(d.identifier.0)
                    .or_default()
                    .push((file, d));
                Ok(())
            }
            other => {
                let (what, name) = unsupported_definition(other);
                let location = name.map_or_else(
                    || Location {
                        file: file.path.clone(),
                        line: 1,
                        column: 1,
                    },
                    |n| loc(file, n),
                );
                Err(err(&location, format!("{what} are not supported")))
            }
        }
    }

    pub(super) fn resolve(
        &self,
        file: &'a SourceFile,
        def: &'a Definition<'a>,
        out: &mut Definitions,
    ) -> Result<(), GenError> {
        match def {
            Definition::Interface(d) => {
                let iface = self.interface(file, d)?;
                out.interfaces.insert(iface.name.clone(), iface);
            }
            Definition::Dictionary(d) => {
                let dict = self.dictionary(file, d)?;
                out.dictionaries.insert(dict.name.clone(), dict);
            }
            Definition::Enum(d) => {
                let enumeration = self.enumeration(file, d)?;
                out.enums.insert(enumeration.name.clone(), enumeration);
            }
            Definition::Callback(d) => {
                let callback = self.callback_function(file, d)?;
                out.callbacks.insert(callback.name.clone(), callback);
            }
            Definition::CallbackInterface(d) => {
                let callback = self.callback_interface(file, d)?;
                out.callback_interfaces
                    .insert(callback.name.clone(), callback);
            }
            Definition::InterfaceMixin(d) => {
                let mixin = self.mixin(file, d)?;
                out.mixins.insert(mixin.name.clone(), mixin);
            }
            Definition::IncludesStatement(d) => {
                ExtAttrs::new(&d.attributes).check(file, "an includes statement", &[])?;
                let interface = d.lhs_identifier.0;
                let mixin = d.rhs_identifier.0;
                let interface_location = loc(file, interface);
                if !matches!(self.kinds.get(interface), Some((Kind::Interface, _))) {
                    return Err(err(
                        &interface_location,
                        format!("`{interface}` in an includes statement is not an interface"),
                    ));
                }
                let mixin_location = loc(file, mixin);
                if !matches!(self.kinds.get(mixin), Some((Kind::Mixin, _))) {
                    return Err(err(
                        &mixin_location,
                        format!("`{mixin}` in an includes statement is not an interface mixin"),
                    ));
                }
                out.includes.push(Includes {
                    interface: interface.to_owned(),
                    mixin: mixin.to_owned(),
                    location: mixin_location,
                });
            }
            Definition::PartialInterface(d) => {
                self.check_partial(file, d.identifier.0, Kind::Interface, "interface")?
            }
            Definition::PartialInterfaceMixin(d) => {
                self.check_partial(file, d.identifier.0, Kind::Mixin, "interface mixin")?
            }
            Definition::Typedef(d) => {
                ExtAttrs::new(&d.attributes).check(file, "a typedef", &[])?;
                // Resolve once so that a bad typedef is reported even if unused.
                self.attributed_type(file, &d.type_, &loc(file, d.identifier.0))?;
            }
            _ => unreachable!("rejected by declare"),
        }
        Ok(())
    }

    /// An enumeration (<https://webidl.spec.whatwg.org/#idl-enums>).
    fn enumeration(
        &self,
        file: &'a SourceFile,
        d: &'a weedle::EnumDefinition<'a>,
    ) -> Result<Enumeration, GenError> {
        ExtAttrs::new(&d.attributes).check(file, "an enum", &[])?;
        let location = loc(file, d.identifier.0);
        let mut values = Vec::new();
        for v in &d.values.body.list {
            let value = v.value.0.to_owned();
            if values.contains(&value) {
                return Err(err(
                    &loc(file, v.value.0),
                    format!("duplicate value \"{value}\" in enum {}", d.identifier.0),
                ));
            }
            values.push(value);
        }
        Ok(Enumeration {
            name: d.identifier.0.to_owned(),
            values,
            location,
        })
    }

    /// A callback function (<https://webidl.spec.whatwg.org/#idl-callback-functions>).
    fn callback_function(
        &self,
        file: &'a SourceFile,
        d: &'a weedle::CallbackDefinition<'a>,
    ) -> Result<CallbackFunction, GenError> {
        ExtAttrs::new(&d.attributes).check(
            file,
            "a callback function",
            &["LegacyTreatNonObjectAsNull"],
        )?;
        let location = loc(file, d.identifier.0);
        let arguments = self.arguments(file, &d.arguments.body.list, &location, false)?;
        let return_type = self.return_type(file, &d.return_type, &location)?;
        check_callback_types(&arguments, &return_type, &location)?;
        Ok(CallbackFunction {
            name: d.identifier.0.to_owned(),
            arguments,
            return_type,
            treat_non_object_as_null: self.callback_flags[d.identifier.0],
            location,
        })
    }

    /// A callback interface
    /// (<https://webidl.spec.whatwg.org/#idl-callback-interfaces>) with one
    /// regular operation.
    fn callback_interface(
        &self,
        file: &'a SourceFile,
        d: &'a weedle::CallbackInterfaceDefinition<'a>,
    ) -> Result<CallbackInterface, GenError> {
        ExtAttrs::new(&d.attributes).check(file, "a callback interface", &[])?;
        let location = loc(file, d.identifier.0);
        if d.inheritance.is_some() {
            return Err(err(&location, "callback interfaces cannot inherit"));
        }
        let mut operation = None;
        for member in &d.members.body {
            match member {
                InterfaceMember::Operation(op) if op.modifier.is_none() && op.special.is_none() => {
                    let Some(id) = &op.identifier else {
                        return Err(err(&location, "callback interface operations need a name"));
                    };
                    ExtAttrs::new(&op.attributes).check(file, "an operation", &[])?;
                    let op_location = loc(file, id.0);
                    if operation.is_some() {
                        return Err(err(
                            &op_location,
                            "callback interfaces with more than one operation are not supported",
                        ));
                    }
                    let arguments = self.arguments(file, &op.args.body.list, &op_location, false)?;
                    let return_type = self.return_type(file, &op.return_type, &op_location)?;
                    check_callback_types(&arguments, &return_type, &op_location)?;
                    operation = Some(Operation {
                        name: Some(ident_name(id.0)),
                        arguments,
                        return_type,
                        secure_context: false,
                        location: op_location,
                    });
                }
                _ => {
                    return Err(err(
                        &location,
                        "callback interfaces may only have one regular operation here (constants and attributes are not supported)",
                    ))
                }
            }
        }
        let Some(operation) = operation else {
            return Err(err(&location, "a callback interface needs an operation"));
        };
        Ok(CallbackInterface {
            name: d.identifier.0.to_owned(),
            operation,
            location,
        })
    }

    /// A partial definition names a definition of its kind.
    fn check_partial(
        &self,
        file: &SourceFile,
        name: &str,
        kind: Kind,
        what: &str,
    ) -> Result<(), GenError> {
        if !matches!(self.kinds.get(name), Some((k, _)) if *k == kind) {
            return Err(err(
                &loc(file, name),
                format!("partial {what} {name} has no {what} {name}"),
            ));
        }
        Ok(())
    }
}

fn unsupported_definition<'a>(def: &'a Definition<'a>) -> (&'static str, Option<&'a str>) {
    match def {
        Definition::Namespace(d) => ("namespaces", Some(d.identifier.0)),
        Definition::PartialNamespace(d) => ("partial namespaces", Some(d.identifier.0)),
        Definition::PartialDictionary(d) => ("partial dictionaries", Some(d.identifier.0)),
        Definition::Implements(d) => ("implements statements", Some(d.lhs_identifier.0)),
        _ => ("these definitions", None),
    }
}
