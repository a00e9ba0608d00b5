//! The DOM's side of the bindings runtime: the hooks table it installs
//! (`jsprof_script_bindings::hooks`), and the entry points of the
//! generated code that hand it the DOM's [`GlobalScope`] rather than the
//! bindings' state of the global.

#![allow(clippy::result_unit_err)]

use std::any::Any;

use mozjs::context::JSContext;
use mozjs::rooted;
use mozjs::rust::MutableHandleValue;

use crate::dom::bindings::codegen::{DedicatedWorkerGlobalScopeBinding, WindowBinding, INTERFACES};
use crate::dom::bindings::conversions::{RootedJsObject, ToJsValue};
use crate::dom::bindings::global::GlobalBindings;
use crate::dom::bindings::interface::PrototypeId;
use crate::dom::bindings::native::NativeArgs;
use crate::dom::globals::domexception::DOMException;
use crate::dom::globals::globalscope::{report_pending_exception, GlobalScope};
use jsprof_script_bindings::hooks::DomHooks;

pub use jsprof_script_bindings::hooks;

static HOOKS: DomHooks = DomHooks {
    interfaces: &INTERFACES,
    global_classes: &[
        &WindowBinding::CLASS,
        &DedicatedWorkerGlobalScopeBinding::CLASS,
    ],
    report_pending_exception,
    new_dom_exception,
    with_heap_reserve,
    other_work,
};

/// Installs the DOM's hooks into the bindings runtime (once per process;
/// every later call does nothing).
pub(crate) fn install_hooks() {
    let installed = hooks::install(&HOOKS);
    debug_assert!(installed, "one DOM per process");
}

fn new_dom_exception(
    cx: &mut JSContext,
    global: &GlobalBindings,
    name: &str,
    message: String,
    out: MutableHandleValue,
) -> bool {
    let Some(global) = global.dom::<GlobalScope>() else {
        return false;
    };
    let exception = DOMException::new(cx, global, name.to_owned(), message);
    // SAFETY: `out` is the caller's rooted value, and `cx` is in `global`'s
    // realm (the current one, where the exception is thrown).
    unsafe { exception.to_js(cx, out) };
    true
}

fn with_heap_reserve(cx: &mut JSContext, f: &mut dyn FnMut(&mut JSContext)) {
    crate::runtime::watchdog::with_heap_reserve(cx, f)
}

fn other_work(cx: &JSContext) -> Option<Box<dyn Any>> {
    crate::runtime::profiling::other_work_here(cx).map(|work| Box::new(work) as Box<dyn Any>)
}

/// The global a static operation runs for: the current global (the
/// interface object's realm).
/// <https://webidl.spec.whatwg.org/#dfn-create-operation-function> step
/// 2.1.2 (static: no `this` check).
pub fn static_operation_global<'g>(cx: &mut JSContext) -> Result<&'g GlobalScope, ()> {
    jsprof_script_bindings::native::static_operation_global(cx)?
        .dom::<GlobalScope>()
        .ok_or(())
}

/// The first steps of an interface's constructor
/// (<https://webidl.spec.whatwg.org/#js-constructor>), as
/// `jsprof_script_bindings::native::constructor_prologue`, with the
/// current global's [`GlobalScope`].
pub fn constructor_prologue<'g>(
    cx: &mut JSContext,
    args: &NativeArgs,
    id: PrototypeId,
    name: &str,
) -> Result<(&'g GlobalScope, RootedJsObject), ()> {
    let (global, proto) = jsprof_script_bindings::native::constructor_prologue(cx, args, id, name)?;
    Ok((global.dom::<GlobalScope>().ok_or(())?, proto))
}

/// Whether the current realm's global is cross-origin isolated
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#concept-settings-object-cross-origin-isolated-capability>):
/// `[CrossOriginIsolated]` dictionary members exist only then. A realm
/// that is not one of our globals' is not.
pub fn current_realm_is_cross_origin_isolated(cx: &JSContext) -> bool {
    // SAFETY: the reference is used within this call, while the current
    // realm's global is alive.
    unsafe { GlobalScope::current(cx) }.is_some_and(|g| g.cross_origin_isolated())
}

/// `jsprof_script_bindings::interface::expose_secure_context_members` for
/// `scope`'s global if its environment is a secure context (`cx` in its
/// realm).
pub(crate) fn expose_secure_context_members_if_secure(
    cx: &mut JSContext,
    scope: &GlobalScope,
) -> Result<(), ()> {
    if !scope.is_secure_context() {
        return Ok(());
    }
    rooted!(&in(cx) let global = scope.global_object());
    crate::dom::bindings::interface::expose_secure_context_members(cx, global.handle())
}
