//! WebIDL text to the resolved model ([`crate::ir`]), with the `weedle2`
//! parser. Every construct the generator does not support is rejected here
//! with the file, line and column it appears at.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use weedle::argument::Argument as WArgument;
use weedle::attribute::{ExtendedAttribute, ExtendedAttributeList, IdentifierOrString};
use weedle::interface::{
    ConstMember, InterfaceMember, StringifierOrInheritOrStatic, StringifierOrStatic,
};
use weedle::literal::{ConstValue as WConstValue, DefaultValue as WDefault, FloatLit, IntegerLit};
use weedle::mixin::MixinMember;
use weedle::types::{
    AttributedType, FloatingPointType, IntegerType as WIntegerType, NonAnyType, ReturnType,
    SingleType, Type as WType, UnionMemberType,
};
use weedle::{Definition, Parse};

use crate::error::{offset_of, GenError};
use crate::ir::*;

/// One `.webidl` file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

/// Parses and resolves a set of files that may refer to each other.
pub fn parse_files(files: &[SourceFile]) -> Result<Definitions, GenError> {
    // weedle2 has no grammar for `[Exposed=*]`; the wildcard is replaced by
    // a one-letter identifier, which keeps every position the same.
    let files: Vec<SourceFile> = files
        .iter()
        .map(|f| SourceFile {
            path: f.path.clone(),
            text: replace_exposed_wildcard(&f.text),
        })
        .collect();
    let files = &files[..];
    let mut parsed = Vec::new();
    for file in files {
        parsed.push((file, parse_syntax(file)?));
    }
    let mut resolver = Resolver::default();
    for (file, defs) in &parsed {
        for def in defs {
            resolver.declare(file, def)?;
        }
    }
    let mut out = Definitions::default();
    for (file, defs) in &parsed {
        for def in defs {
            resolver.resolve(file, def, &mut out)?;
        }
    }
    include_mixins(&mut out)?;
    validate(&out)?;
    Ok(out)
}

/// <https://webidl.spec.whatwg.org/#include-statement>: every `A includes
/// M;` adds the members of mixin `M` to interface `A`, after `A`'s own
/// members (in the order of the statements), as if written there.
fn include_mixins(defs: &mut Definitions) -> Result<(), GenError> {
    for includes in defs.includes.clone() {
        let mixin = &defs.mixins[&includes.mixin];
        let iface = &defs.interfaces[&includes.interface];
        // A member is included where it is exposed wherever the interface
        // is, and left out where it is exposed nowhere the interface is.
        let kept = |member: &str, exposure: Exposure| -> Result<bool, GenError> {
            if iface.exposure.is_subset_of(exposure) {
                Ok(true)
            } else if !iface.exposure.intersects(exposure) {
                Ok(false)
            } else {
                Err(err(
                    &includes.location,
                    format!(
                        "`{member}` of mixin {} would be exposed on only some of the globals of {} (not supported)",
                        includes.mixin, includes.interface
                    ),
                ))
            }
        };
        let mut attributes = Vec::new();
        for (a, exposure) in &mixin.attributes {
            if kept(&a.name, *exposure)? {
                attributes.push(a.clone());
            }
        }
        let mut operations = Vec::new();
        for (o, exposure) in &mixin.operations {
            if kept(o.name.as_deref().unwrap_or_default(), *exposure)? {
                operations.push(o.clone());
            }
        }
        let mut constants = Vec::new();
        for (c, exposure) in &mixin.constants {
            if kept(&c.name, *exposure)? {
                constants.push(c.clone());
            }
        }
        let own: BTreeSet<&str> = iface
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .chain(iface.operations.iter().filter_map(|o| o.name.as_deref()))
            .chain(
                iface
                    .static_operations
                    .iter()
                    .filter_map(|o| o.name.as_deref()),
            )
            .chain(iface.constants.iter().map(|c| c.name.as_str()))
            .collect();
        let theirs = attributes
            .iter()
            .map(|a| a.name.as_str())
            .chain(operations.iter().filter_map(|o| o.name.as_deref()))
            .chain(constants.iter().map(|c| c.name.as_str()));
        for name in theirs {
            if own.contains(name) {
                return Err(err(
                    &includes.location,
                    format!(
                        "duplicate member `{name}` in {} (also in the included mixin {})",
                        includes.interface, includes.mixin
                    ),
                ));
            }
        }
        let mixin_stringifier = mixin.stringifier.clone();
        let iface = defs
            .interfaces
            .get_mut(&includes.interface)
            .expect("checked when resolved");
        iface.attributes.extend(attributes);
        iface.operations.extend(operations);
        iface.constants.extend(constants);
        if let Some(stringifier) = mixin_stringifier {
            if iface.stringifier.is_some() {
                return Err(err(
                    &includes.location,
                    format!(
                        "{} has a stringifier and so has the included mixin {}",
                        includes.interface, includes.mixin
                    ),
                ));
            }
            iface.stringifier = Some(stringifier);
        }
    }
    Ok(())
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

fn replace_exposed_wildcard(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("Exposed") {
        let (before, after) = rest.split_at(i + "Exposed".len());
        out.push_str(before);
        let trimmed = after.trim_start();
        if let Some(star) = trimmed
            .strip_prefix('=')
            .map(str::trim_start)
            .filter(|t| t.starts_with('*'))
        {
            let star_at = after.len() - star.len();
            out.push_str(&after[..star_at]);
            // A one-byte identifier for the one-byte `*` (no global is
            // called `Z`; `exposure` reads it as the wildcard).
            out.push('Z');
            rest = &after[star_at + 1..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The definitions of one file, or the position of its first syntax error.
fn parse_syntax(file: &SourceFile) -> Result<Vec<Definition<'_>>, GenError> {
    let text = file.text.as_str();
    match weedle::Definitions::parse(text) {
        Ok((rest, defs)) if rest.trim().is_empty() => Ok(defs),
        Ok((rest, _)) => Err(syntax_error(file, rest)),
        Err(_) => Err(syntax_error(file, text)),
    }
}

/// Finds how far the parser got into the definition starting at `rest`, by
/// trying every kind of definition and keeping the one that got furthest.
fn syntax_error(file: &SourceFile, rest: &str) -> GenError {
    fn furthest<'a, T: Parse<'a>>(input: &'a str, best: &mut &'a str) {
        if let Err(weedle::Err::Error(e) | weedle::Err::Failure(e)) = T::parse(input) {
            if e.input.len() < best.len() {
                *best = e.input;
            }
        }
    }
    let start = rest.trim_start();
    let mut best = start;
    furthest::<weedle::InterfaceDefinition>(start, &mut best);
    furthest::<weedle::CallbackInterfaceDefinition>(start, &mut best);
    furthest::<weedle::CallbackDefinition>(start, &mut best);
    furthest::<weedle::DictionaryDefinition>(start, &mut best);
    furthest::<weedle::EnumDefinition>(start, &mut best);
    furthest::<weedle::TypedefDefinition>(start, &mut best);
    furthest::<weedle::InterfaceMixinDefinition>(start, &mut best);
    furthest::<weedle::NamespaceDefinition>(start, &mut best);
    furthest::<weedle::PartialInterfaceDefinition>(start, &mut best);
    // Skip the whitespace and comments the failing parser stopped before.
    let at = skip_trivia(best);
    let offset = offset_of(&file.text, at).unwrap_or(file.text.len());
    let snippet: String = at.lines().next().unwrap_or("").chars().take(40).collect();
    let message = if snippet.is_empty() {
        "syntax error: unexpected end of file (missing `}` or `;`?)".to_owned()
    } else {
        format!("syntax error: unexpected `{}`", snippet.trim_end())
    };
    GenError::at_offset(&file.path, &file.text, offset, message)
}

fn skip_trivia(mut s: &str) -> &str {
    loop {
        let trimmed = s.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            s = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            s = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            return trimmed;
        }
    }
}

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
struct Resolver<'a> {
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

/// The position of the first character of `ident` in `file`.
fn loc(file: &SourceFile, ident: &str) -> Location {
    let offset = offset_of(&file.text, ident).unwrap_or(0);
    let (line, column) = crate::error::line_column(&file.text, offset);
    Location {
        file: file.path.clone(),
        line,
        column,
    }
}

fn err(location: &Location, message: impl Into<String>) -> GenError {
    GenError {
        file: location.file.clone(),
        line: location.line,
        column: location.column,
        message: message.into(),
    }
}

/// WebIDL identifiers drop one leading underscore
/// (<https://webidl.spec.whatwg.org/#idl-names>).
fn ident_name(s: &str) -> String {
    s.strip_prefix('_').unwrap_or(s).to_owned()
}

/// The extended attributes of a construct, checked against the ones that
/// construct supports.
struct ExtAttrs<'a> {
    list: Vec<&'a ExtendedAttribute<'a>>,
}

impl<'a> ExtAttrs<'a> {
    fn new(attrs: &'a Option<ExtendedAttributeList<'a>>) -> Self {
        ExtAttrs {
            list: attrs.iter().flat_map(|l| l.body.list.iter()).collect(),
        }
    }

    fn name(attr: &ExtendedAttribute<'a>) -> &'a str {
        match attr {
            ExtendedAttribute::ArgList(a) => a.identifier.0,
            ExtendedAttribute::NamedArgList(a) => a.lhs_identifier.0,
            ExtendedAttribute::IdentList(a) => a.identifier.0,
            ExtendedAttribute::Ident(a) => a.lhs_identifier.0,
            ExtendedAttribute::NoArgs(a) => (a.0).0,
        }
    }

    /// Rejects any attribute not in `allowed`.
    fn check(&self, file: &SourceFile, on: &str, allowed: &[&str]) -> Result<(), GenError> {
        for attr in &self.list {
            let name = Self::name(attr);
            if !allowed.contains(&name) {
                let what = if allowed.is_empty() {
                    "no extended attributes are supported".to_owned()
                } else {
                    format!("supported: {}", allowed.join(", "))
                };
                return Err(err(
                    &loc(file, name),
                    format!("unsupported extended attribute [{name}] on {on} ({what})"),
                ));
            }
        }
        Ok(())
    }

    fn has(&self, name: &str) -> bool {
        self.list.iter().any(|a| Self::name(a) == name)
    }

    fn find(&self, name: &str) -> Option<&'a ExtendedAttribute<'a>> {
        self.list.iter().copied().find(|a| Self::name(a) == name)
    }
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

    fn declare(&mut self, file: &'a SourceFile, def: &'a Definition<'a>) -> Result<(), GenError> {
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

    fn resolve(
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
                out.enums.insert(
                    d.identifier.0.to_owned(),
                    Enumeration {
                        name: d.identifier.0.to_owned(),
                        values,
                        location,
                    },
                );
            }
            Definition::Callback(d) => {
                ExtAttrs::new(&d.attributes).check(
                    file,
                    "a callback function",
                    &["LegacyTreatNonObjectAsNull"],
                )?;
                let location = loc(file, d.identifier.0);
                let arguments = self.arguments(file, &d.arguments.body.list, &location, false)?;
                let return_type = self.return_type(file, &d.return_type, &location)?;
                check_callback_types(&arguments, &return_type, &location)?;
                out.callbacks.insert(
                    d.identifier.0.to_owned(),
                    CallbackFunction {
                        name: d.identifier.0.to_owned(),
                        arguments,
                        return_type,
                        treat_non_object_as_null: self.callback_flags[d.identifier.0],
                        location,
                    },
                );
            }
            Definition::CallbackInterface(d) => {
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
                out.callback_interfaces.insert(
                    d.identifier.0.to_owned(),
                    CallbackInterface {
                        name: d.identifier.0.to_owned(),
                        operation,
                        location,
                    },
                );
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

    fn interface(
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

    /// One member of an interface (or of one of its partial definitions).
    fn interface_member(
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
                let mut stringifier = false;
                match a.modifier {
                    None => {}
                    Some(StringifierOrInheritOrStatic::Static(_)) => {
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
                    Some(StringifierOrInheritOrStatic::Stringifier(_)) => stringifier = true,
                    Some(StringifierOrInheritOrStatic::Inherit(_)) => {
                        return Err(err(&a_loc, "inherit attributes are not supported"))
                    }
                }
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
                let operation = self.regular_operation(
                    file,
                    name,
                    false,
                    &op.attributes,
                    &op.return_type,
                    id.0,
                    &op.args.body.list,
                    member_names,
                )?;
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
                let operation = self.regular_operation(
                    file,
                    name,
                    false,
                    &op.attributes,
                    &op.return_type,
                    id.0,
                    &op.args.body.list,
                    member_names,
                )?;
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

    fn dictionary(
        &self,
        file: &'a SourceFile,
        d: &'a weedle::DictionaryDefinition<'a>,
    ) -> Result<Dictionary, GenError> {
        let name = d.identifier.0;
        let location = loc(file, name);
        ExtAttrs::new(&d.attributes).check(file, "a dictionary", &[])?;
        let parent = match &d.inheritance {
            None => None,
            Some(inh) => {
                let p = inh.identifier.0;
                match self.kinds.get(p) {
                    Some((Kind::Dictionary, _)) => Some(p.to_owned()),
                    _ => {
                        return Err(err(
                            &loc(file, p),
                            format!(
                                "dictionary {name} inherits from `{p}`, which is not a dictionary"
                            ),
                        ))
                    }
                }
            }
        };
        let mut members: Vec<DictionaryMember> = Vec::new();
        for m in &d.members.body {
            let m_loc = loc(file, m.identifier.0);
            ExtAttrs::new(&m.attributes).check(
                file,
                "a dictionary member",
                &["CrossOriginIsolated"],
            )?;
            let member_name = ident_name(m.identifier.0);
            if members.iter().any(|x| x.name == member_name) {
                return Err(err(
                    &m_loc,
                    format!("duplicate member `{member_name}` in dictionary {name}"),
                ));
            }
            let ty = self.plain_type(file, &m.type_, None, &m_loc)?;
            if matches!(ty.inner(), Type::Promise(_)) {
                return Err(err(&m_loc, "Promise dictionary members are not supported"));
            }
            check_no_nested_callbacks(&ty, &m_loc, "a dictionary member")?;
            if matches!(ty, Type::Nullable(ref t) if matches!(**t, Type::Dictionary(_))) {
                return Err(err(
                    &m_loc,
                    "dictionary members cannot be nullable dictionaries",
                ));
            }
            let default = match &m.default {
                None => None,
                Some(def) => Some(default_value(&def.value, &ty, &m_loc, self)?),
            };
            if m.required.is_some() && default.is_some() {
                return Err(err(
                    &m_loc,
                    "a required dictionary member cannot have a default value",
                ));
            }
            // An optional dictionary-typed member defaults to `{}`.
            let default = match (&default, &ty, m.required.is_some()) {
                (None, Type::Dictionary(_), false) => Some(DefaultValue::EmptyDictionary),
                _ => default,
            };
            members.push(DictionaryMember {
                name: member_name,
                ty,
                required: m.required.is_some(),
                cross_origin_isolated: dictionary_member_cross_origin_isolated(
                    &m.attributes,
                    m.required.is_some() || default.is_some(),
                    &m_loc,
                )?,
                default,
            });
        }
        members.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Dictionary {
            name: name.to_owned(),
            parent,
            members,
            location,
        })
    }

    /// A regular attribute of interface or interface mixin `owner`
    /// (`[Exposed]` is allowed on it in a mixin, see [`Resolver::mixin`]).
    #[allow(clippy::too_many_arguments)]
    fn regular_attribute(
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
        let allowed: &[&str] = if in_mixin {
            &[
                "LegacyUnforgeable",
                "Throws",
                "CEReactions",
                "SameObject",
                "PutForwards",
                "Replaceable",
                "Exposed",
                "SecureContext",
            ]
        } else {
            &[
                "LegacyUnforgeable",
                "Throws",
                "CEReactions",
                "SameObject",
                "PutForwards",
                "Replaceable",
                "SecureContext",
            ]
        };
        a_attrs.check(file, "an attribute", allowed)?;
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

    /// A regular operation of interface or interface mixin `owner`
    /// (`[Exposed]` is allowed on it in a mixin).
    #[allow(clippy::too_many_arguments)]
    fn regular_operation(
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
    fn constant(
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

    /// An interface mixin (<https://webidl.spec.whatwg.org/#idl-interface-mixins>):
    /// its regular attributes, regular operations and constants, which
    /// `includes` statements add to interfaces.
    fn mixin(
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

    fn arguments(
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
                    arg_attrs.check(
                        file,
                        "an argument",
                        &[
                            "EnforceRange",
                            "Clamp",
                            "LegacyNullToEmptyString",
                            "AllowShared",
                            "AllowResizable",
                        ],
                    )?;
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

    fn return_type(
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

    fn attributed_type(
        &self,
        file: &'a SourceFile,
        ty: &'a AttributedType<'a>,
        location: &Location,
    ) -> Result<Type, GenError> {
        let attrs = ExtAttrs::new(&ty.attributes);
        attrs.check(
            file,
            "a type",
            &[
                "EnforceRange",
                "Clamp",
                "LegacyNullToEmptyString",
                "AllowShared",
                "AllowResizable",
            ],
        )?;
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

    fn plain_type(
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

fn unsupported_definition<'a>(def: &'a Definition<'a>) -> (&'static str, Option<&'a str>) {
    match def {
        Definition::Namespace(d) => ("namespaces", Some(d.identifier.0)),
        Definition::PartialNamespace(d) => ("partial namespaces", Some(d.identifier.0)),
        Definition::PartialDictionary(d) => ("partial dictionaries", Some(d.identifier.0)),
        Definition::Implements(d) => ("implements statements", Some(d.lhs_identifier.0)),
        _ => ("these definitions", None),
    }
}

fn nullable(t: Type, location: &Location) -> Result<Type, GenError> {
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

fn integer_type(t: &WIntegerType) -> IntegerType {
    match t {
        WIntegerType::LongLong(t) if t.unsigned.is_some() => IntegerType::UnsignedLongLong,
        WIntegerType::LongLong(_) => IntegerType::LongLong,
        WIntegerType::Long(t) if t.unsigned.is_some() => IntegerType::UnsignedLong,
        WIntegerType::Long(_) => IntegerType::Long,
        WIntegerType::Short(t) if t.unsigned.is_some() => IntegerType::UnsignedShort,
        WIntegerType::Short(_) => IntegerType::Short,
    }
}

fn float_type(t: &FloatingPointType) -> Type {
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

fn integer_literal(lit: &IntegerLit, location: &Location) -> Result<i128, GenError> {
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

fn float_literal(lit: &FloatLit, location: &Location) -> Result<f64, GenError> {
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

fn check_const_value(ty: &Type, value: &ConstValue, location: &Location) -> Result<(), GenError> {
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

fn default_value(
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

/// Callback values must be held where the GC can trace them; the generated
/// glue roots them only as direct arguments and attribute values.
/// Whether `ty` is or holds a callback or a promise type.
fn contains_callback_or_promise(ty: &Type) -> bool {
    match ty {
        Type::CallbackFunction(_) | Type::CallbackInterface(_) | Type::Promise(_) => true,
        Type::Nullable(t) | Type::Sequence(t) => contains_callback_or_promise(t),
        Type::Union(m) => m.iter().any(contains_callback_or_promise),
        _ => false,
    }
}

/// The extended attributes accepted on operations
/// (<https://webidl.spec.whatwg.org/#idl-extended-attributes>) that need no
/// binding code here: `[CEReactions]` (no custom elements: nothing to
/// queue), `[NewObject]` (the DOM method returns a new object anyway).
const OPERATION_ATTRIBUTES: &[&str] = &["CEReactions", "NewObject", "SecureContext"];
const OPERATION_ATTRIBUTES_IN_MIXIN: &[&str] =
    &["CEReactions", "NewObject", "Exposed", "SecureContext"];

/// `[AllowShared]` (<https://webidl.spec.whatwg.org/#AllowShared>: on
/// buffer view types) and `[AllowResizable]`
/// (<https://webidl.spec.whatwg.org/#AllowResizable>: on buffer and buffer
/// view types) in `attrs`, applied to `ty`.
fn buffer_allow(ty: Type, attrs: &ExtAttrs<'_>, location: &Location) -> Result<Type, GenError> {
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
fn null_to_empty_string(ty: Type, location: &Location) -> Result<Type, GenError> {
    match ty {
        Type::DOMString | Type::NullToEmptyString => Ok(Type::NullToEmptyString),
        _ => Err(err(
            location,
            "[LegacyNullToEmptyString] only applies to DOMString (not nullable)",
        )),
    }
}

/// A stringifier's type is DOMString or USVString
/// (<https://webidl.spec.whatwg.org/#idl-stringifiers>).
fn check_stringifier_type(ty: &Type, location: &Location) -> Result<(), GenError> {
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
fn set_stringifier(
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

fn check_no_nested_callbacks_in(ty: &Type, location: &Location) -> Result<(), GenError> {
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

fn check_no_nested_callbacks(ty: &Type, location: &Location, place: &str) -> Result<(), GenError> {
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

fn check_callback_types(
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

fn exposure(file: &SourceFile, attr: &ExtendedAttribute) -> Result<Exposure, GenError> {
    let names: Vec<&str> = match attr {
        ExtendedAttribute::Ident(a) => match a.rhs {
            IdentifierOrString::Identifier(i) => vec![i.0],
            IdentifierOrString::String(s) => vec![s.0],
        },
        ExtendedAttribute::IdentList(a) => a.list.body.list.iter().map(|i| i.0).collect(),
        _ => {
            let name = ExtAttrs::name(attr);
            return Err(err(
                &loc(file, name),
                "[Exposed] takes a global name, a list of them, or *",
            ));
        }
    };
    let mut exposure = Exposure::default();
    for name in names {
        match name {
            "*" | "Z" => exposure = Exposure::all(),
            "Window" => exposure.window = true,
            "Worker" | "DedicatedWorker" => exposure.dedicated_worker = true,
            other => {
                return Err(err(
                    &loc(file, other),
                    format!("unknown global `{other}` in [Exposed] (known: Window, Worker, DedicatedWorker, *)"),
                ))
            }
        }
    }
    Ok(exposure)
}

/// Checks that need every definition resolved.
fn validate(defs: &Definitions) -> Result<(), GenError> {
    for iface in defs.interfaces.values() {
        // Inheritance cycles.
        let mut seen = vec![iface.name.as_str()];
        let mut current = iface.parent.as_deref();
        while let Some(p) = current {
            if seen.contains(&p) {
                return Err(err(
                    &iface.location,
                    format!("interface {} inherits from itself", iface.name),
                ));
            }
            seen.push(p);
            current = defs.interfaces.get(p).and_then(|i| i.parent.as_deref());
        }
        if let Some(parent) = iface.parent.as_deref().and_then(|p| defs.interfaces.get(p)) {
            if !iface.exposure.is_subset_of(parent.exposure) {
                return Err(err(
                    &iface.location,
                    format!(
                        "interface {} is exposed on a global its parent {} is not exposed on",
                        iface.name, parent.name
                    ),
                ));
            }
        }
        if let Some(a) = iface.attributes.iter().find(|a| a.event_handler) {
            if !defs.inherits_event_target(&iface.name) {
                return Err(err(
                    &a.location,
                    format!(
                        "the event handler attribute `{}` needs an interface that inherits from EventTarget ({} does not)",
                        a.name, iface.name
                    ),
                ));
            }
        }
        // Special operations are inherited (a derived interface's objects
        // are legacy platform objects too), which a [Global] interface
        // cannot have (named properties objects are not supported).
        if iface.global {
            if let Some(ancestor) = defs
                .ancestors(&iface.name)
                .into_iter()
                .find(|a| a.specials.legacy_platform_object())
            {
                return Err(err(
                    &iface.location,
                    format!(
                        "special operations on [Global] interfaces are not supported ({} inherits them from {})",
                        iface.name, ancestor.name
                    ),
                ));
            }
        }
        if iface.name == "DOMException" && iface.parent.is_some() {
            return Err(err(&iface.location, "DOMException cannot inherit"));
        }
        let ops = iface.constructors.iter().chain(iface.operations.iter());
        for op in ops {
            check_final_dictionary_argument(defs, op)?;
        }
        // Overloaded constructors: distinguishable as operations are.
        if iface.constructors.len() > 1 {
            let group: Vec<&Operation> = iface.constructors.iter().collect();
            let last = group[group.len() - 1];
            overload_plan(&group).map_err(|message| err(&last.location, message))?;
        }
        // Overloads (https://webidl.spec.whatwg.org/#idl-overloading): a
        // static and a regular operation with the same identifier are not
        // overloads of each other (overloads are among operations of the
        // same static-ness; Fetch's `static json()` and `json()`).
        for list in [&iface.operations, &iface.static_operations] {
            for group in overload_groups(list) {
                let first = group[0];
                let name = first.name.as_deref().unwrap_or_default();
                if group.len() < 2 {
                    continue;
                }
                let last = group[group.len() - 1];
                // https://webidl.spec.whatwg.org/#SecureContext: on every
                // overload or none.
                if group
                    .iter()
                    .any(|o| o.secure_context != first.secure_context)
                {
                    return Err(err(
                        &last.location,
                        format!("[SecureContext] must be on every overload of `{name}` or none"),
                    ));
                }
                if group
                    .iter()
                    .any(|o| o.returns_promise() != first.returns_promise())
                {
                    return Err(err(
                        &last.location,
                        format!("the overloads of `{name}` must all return promises or none"),
                    ));
                }
                overload_plan(&group).map_err(|message| err(&last.location, message))?;
            }
        }
    }
    for dict in defs.dictionaries.values() {
        let mut seen = vec![dict.name.as_str()];
        let mut current = dict.parent.as_deref();
        while let Some(p) = current {
            if seen.contains(&p) {
                return Err(err(
                    &dict.location,
                    format!("dictionary {} inherits from itself", dict.name),
                ));
            }
            seen.push(p);
            current = defs.dictionaries.get(p).and_then(|d| d.parent.as_deref());
        }
        for m in &dict.members {
            if let Type::Dictionary(inner) = m.ty.inner() {
                if dictionary_contains(defs, inner, &dict.name, &mut Vec::new()) {
                    return Err(err(
                        &dict.location,
                        format!(
                            "dictionary {} contains itself through member `{}`",
                            dict.name, m.name
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn dictionary_contains(
    defs: &Definitions,
    name: &str,
    target: &str,
    seen: &mut Vec<String>,
) -> bool {
    if name == target {
        return true;
    }
    if seen.iter().any(|s| s == name) {
        return false;
    }
    seen.push(name.to_owned());
    defs.dictionary_chain(name).iter().any(|d| {
        d.members.iter().any(|m| match m.ty.inner() {
            Type::Dictionary(inner) => dictionary_contains(defs, inner, target, seen),
            _ => false,
        })
    })
}

/// <https://webidl.spec.whatwg.org/#idl-operations>: a dictionary argument
/// with no required members must be optional if it is the last one.
fn check_final_dictionary_argument(defs: &Definitions, op: &Operation) -> Result<(), GenError> {
    let Some(last) = op.arguments.last() else {
        return Ok(());
    };
    if last.optional {
        return Ok(());
    }
    if let Type::Dictionary(name) = &last.ty {
        let has_required = defs
            .dictionary_chain(name)
            .iter()
            .any(|d| d.members.iter().any(|m| m.required));
        if !has_required {
            return Err(err(
                &op.location,
                format!(
                    "argument `{}` must be optional: dictionary {name} has no required members",
                    last.name
                ),
            ));
        }
    }
    Ok(())
}

/// The path used in error messages for a file given on the command line.
pub fn display_path(path: &Path) -> String {
    path.display().to_string()
}

/// Operations grouped by name, in the order of each name's first
/// declaration.
pub(crate) fn overload_groups(ops: &[Operation]) -> Vec<Vec<&Operation>> {
    let mut groups: Vec<Vec<&Operation>> = Vec::new();
    for op in ops {
        match groups.iter_mut().find(|g| g[0].name == op.name) {
            Some(group) => group.push(op),
            None => groups.push(vec![op]),
        }
    }
    groups
}

/// `[CrossOriginIsolated]` on a dictionary member: the member exists only
/// when the current realm is cross-origin isolated (the JS Self-Profiling
/// markers proposal, <https://github.com/WICG/js-self-profiling/blob/main/markers.md>;
/// as on interface members, <https://html.spec.whatwg.org/multipage/webappapis.html#concept-settings-object-cross-origin-isolated-capability>).
/// Such a member must be optional without a default (it is absent
/// otherwise), and takes no arguments.
fn dictionary_member_cross_origin_isolated(
    attributes: &Option<ExtendedAttributeList<'_>>,
    always_present: bool,
    location: &Location,
) -> Result<bool, GenError> {
    let Some(attr) = ExtAttrs::new(attributes).find("CrossOriginIsolated") else {
        return Ok(false);
    };
    if !matches!(attr, ExtendedAttribute::NoArgs(_)) {
        return Err(err(location, "[CrossOriginIsolated] takes no arguments"));
    }
    if always_present {
        return Err(err(
            location,
            "a [CrossOriginIsolated] dictionary member must be optional without a default value",
        ));
    }
    Ok(true)
}
