//! Extended attributes: the ones a construct carries, checked against the
//! ones it supports, and `[Exposed]` read into an [`Exposure`].

use weedle::attribute::{ExtendedAttribute, ExtendedAttributeList, IdentifierOrString};

use super::{err, loc, SourceFile};
use crate::error::GenError;
use crate::ir::*;

/// The extended attributes of a construct, checked against the ones that
/// construct supports.
pub(super) struct ExtAttrs<'a> {
    list: Vec<&'a ExtendedAttribute<'a>>,
}

impl<'a> ExtAttrs<'a> {
    pub(super) fn new(attrs: &'a Option<ExtendedAttributeList<'a>>) -> Self {
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
    pub(super) fn check(
        &self,
        file: &SourceFile,
        on: &str,
        allowed: &[&str],
    ) -> Result<(), GenError> {
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

    pub(super) fn has(&self, name: &str) -> bool {
        self.list.iter().any(|a| Self::name(a) == name)
    }

    pub(super) fn find(&self, name: &str) -> Option<&'a ExtendedAttribute<'a>> {
        self.list.iter().copied().find(|a| Self::name(a) == name)
    }
}

pub(super) fn exposure(file: &SourceFile, attr: &ExtendedAttribute) -> Result<Exposure, GenError> {
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
