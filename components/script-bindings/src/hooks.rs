//! What the bindings runtime needs from the DOM above it, as one table of
//! functions installed once per process, before the first global is made
//! (the script crate installs it when it initialises the engine).
//!
//! This is the crate's only way up: the bindings never name a DOM type.
//! Each entry is a narrow operation the runtime cannot do itself because
//! its meaning belongs to the DOM (how an uncaught exception is reported,
//! what a `DOMException` object is) or to the agent (the heap reserve, the
//! profiler's "other" work).

use std::any::Any;
use std::sync::OnceLock;

use mozjs::context::JSContext;
use mozjs::rust::MutableHandleValue;

use crate::global::GlobalBindings;
use crate::interface::InterfaceSpec;
use crate::reflector::DOMJSClass;

/// Work to run with the heap reserve (see [`DomHooks::with_heap_reserve`]).
pub type ReserveWork<'a> = &'a mut dyn FnMut(&mut JSContext);

/// The DOM's side of the bindings runtime.
pub struct DomHooks {
    /// Every interface's spec, indexed by its prototype ID (the generated
    /// `INTERFACES` table).
    pub interfaces: &'static [&'static InterfaceSpec],
    /// The classes of the `[Global]` interfaces: an object is one of our
    /// globals exactly when its class is one of these.
    pub global_classes: &'static [&'static DOMJSClass],
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#report-the-exception>
    /// for the exception pending on the context (clearing it).
    pub report_pending_exception: fn(&mut JSContext),
    /// Makes a `DOMException` named `name` with `message` in `global`'s
    /// realm (the current one) and stores it in `out`; false (nothing
    /// stored) if it could not be made.
    pub new_dom_exception: fn(
        &mut JSContext,
        &GlobalBindings,
        name: &str,
        message: String,
        MutableHandleValue,
    ) -> bool,
    /// Runs the closure with the agent's heap ceiling raised by its reserve
    /// (the objects the engine must make even at the ceiling).
    pub with_heap_reserve: fn(&mut JSContext, ReserveWork<'_>),
    /// Marks the work from now until the returned guard is dropped as the
    /// profiler's "other" work of the current realm's global, if any.
    pub other_work: fn(&JSContext) -> Option<Box<dyn Any>>,
}

static HOOKS: OnceLock<&'static DomHooks> = OnceLock::new();

/// Installs the DOM's hooks; the first call wins (a process has one DOM).
/// Returns false if other hooks were installed before.
pub fn install(hooks: &'static DomHooks) -> bool {
    let installed = HOOKS.get_or_init(|| hooks);
    std::ptr::eq(*installed, hooks)
}

/// The installed hooks.
///
/// # Panics
/// If none were installed: no global of ours can exist before they are,
/// so every caller reaching here without them is a bug.
pub fn hooks() -> &'static DomHooks {
    HOOKS
        .get()
        .expect("the DOM's bindings hooks are installed before any global is made")
}

/// [`DomHooks::with_heap_reserve`] for a closure with a result.
pub fn with_heap_reserve<R>(cx: &mut JSContext, f: impl FnOnce(&mut JSContext) -> R) -> R {
    let mut f = Some(f);
    let mut result = None;
    (hooks().with_heap_reserve)(cx, &mut |cx| {
        if let Some(f) = f.take() {
            result = Some(f(cx));
        }
    });
    result.expect("with_heap_reserve runs its closure once")
}
