//! Stage 4: the checks that need every definition resolved (inheritance,
//! dictionaries that contain themselves, overloads, exposure of what a
//! member refers to, ...).

use super::{err, overload_groups};
use crate::error::GenError;
use crate::ir::*;

/// Checks that need every definition resolved.
pub(super) fn validate(defs: &Definitions) -> Result<(), GenError> {
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
