//! Reflectors (`jsprof_script_bindings::reflector`), and the way from a DOM
//! object to the DOM's state of its relevant global.

pub use jsprof_script_bindings::reflector::*;

use crate::dom::globals::globalscope::GlobalScope;

/// The [`GlobalScope`] of a DOM object's relevant global.
pub trait DomGlobal {
    /// The [`GlobalScope`] of this object's relevant global.
    fn global_scope(&self) -> &GlobalScope;
}

impl<T: DomObject + ?Sized> DomGlobal for T {
    fn global_scope(&self) -> &GlobalScope {
        self.global_bindings()
            .dom::<GlobalScope>()
            .expect("every global of the DOM has a GlobalScope")
    }
}
