//! Stage 3: `includes` statements, applied once every definition is
//! resolved.

use std::collections::BTreeSet;

use super::err;
use crate::error::GenError;
use crate::ir::*;

/// <https://webidl.spec.whatwg.org/#include-statement>: every `A includes
/// M;` adds the members of mixin `M` to interface `A`, after `A`'s own
/// members (in the order of the statements), as if written there.
pub(super) fn include_mixins(defs: &mut Definitions) -> Result<(), GenError> {
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
