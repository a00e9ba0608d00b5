//! Dictionaries and their members.

use weedle::attribute::{ExtendedAttribute, ExtendedAttributeList};

use super::arguments::default_value;
use super::types::check_no_nested_callbacks;
use super::{Kind, Resolver};
use crate::error::GenError;
use crate::ir::*;
use crate::parse::ext_attrs::ExtAttrs;
use crate::parse::{err, ident_name, loc, SourceFile};

impl<'a> Resolver<'a> {
    pub(super) fn dictionary(
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
