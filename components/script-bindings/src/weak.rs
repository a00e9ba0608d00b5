//! Weak handles to DOM objects: [`WeakDom<T>`], for tasks and callbacks
//! that must reach a DOM object later only if the GC has not collected it
//! meanwhile (a `Profiler`'s `samplebufferfull` handler, which must not keep
//! the `Profiler` alive). Servo's `Trusted<T>` is the model; this is its
//! weak form, and the rooting rules of such handles are written here once:
//!
//! - The object owns a [`WeakAnchor`] field. The anchor's table entry (the
//!   object's address) exists from [`WeakDom::new`] until the anchor is
//!   dropped, which is when the object's finalizer drops the object; the
//!   address is stable meanwhile (the object is boxed in its reflector's
//!   reserved slot).
//! - [`WeakDom::root`] first completes an incremental GC in progress (so an
//!   object that GC already found unreachable is finalized, not
//!   resurrected), then looks the entry up and roots the object before
//!   anything else can GC.
//! - A handle is `!Send`: the table and the object belong to one thread.
//!
//! Before this, each registry kept `(key, *const T)` pairs in its own
//! `thread_local!` and repeated these rules at each use.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::marker::PhantomData;

use mozjs::context::JSContext;

use crate::reflector::DomObjectIface;
use crate::root::DomRoot;

thread_local! {
    /// The anchors with a live object: anchor id → the object's address.
    /// Per thread, not per agent: anchors are dropped by finalizers, which
    /// also run while the context is destroyed, after the agent is gone.
    static LIVE: RefCell<HashMap<u64, *const ()>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

/// The field of a DOM object that weak handles to it are anchored to.
pub struct WeakAnchor {
    id: u64,
}

impl Default for WeakAnchor {
    fn default() -> Self {
        WeakAnchor::new()
    }
}

impl WeakAnchor {
    pub fn new() -> WeakAnchor {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        WeakAnchor { id }
    }
}

impl Drop for WeakAnchor {
    /// The object is being finalized: no handle upgrades any more.
    fn drop(&mut self) {
        // `try_with`: the table may already be gone at thread exit.
        let _ = LIVE.try_with(|live| live.borrow_mut().remove(&self.id));
    }
}

/// A DOM object that weak handles can refer to.
///
/// # Safety
/// `weak_anchor` returns a field of `self` (so the anchor is dropped with
/// the object, by its finalizer, and never before).
pub unsafe trait WeakReferenceable: DomObjectIface {
    fn weak_anchor(&self) -> &WeakAnchor;
}

/// A weak handle to a DOM object of this thread (see the module docs).
pub struct WeakDom<T: WeakReferenceable> {
    id: u64,
    marker: PhantomData<*const T>,
}

impl<T: WeakReferenceable> Clone for WeakDom<T> {
    fn clone(&self) -> Self {
        WeakDom {
            id: self.id,
            marker: PhantomData,
        }
    }
}

impl<T: WeakReferenceable> WeakDom<T> {
    /// A weak handle to `object` (a reflected DOM object).
    pub fn new(object: &T) -> WeakDom<T> {
        let id = object.weak_anchor().id;
        LIVE.with(|live| {
            live.borrow_mut()
                .insert(id, object as *const T as *const ())
        });
        WeakDom {
            id,
            marker: PhantomData,
        }
    }

    /// The object, rooted, unless it has been finalized.
    pub fn root(&self, cx: &mut JSContext) -> Option<DomRoot<T>> {
        finish_incremental_gc(cx);
        let address = LIVE.with(|live| live.borrow().get(&self.id).copied())?;
        // SAFETY: the entry exists while the object's box does (module
        // docs), and its anchor id was taken from a `T` (`new`); nothing
        // between the lookup and the rooting can GC.
        Some(DomRoot::from_ref(unsafe { &*(address as *const T) }))
    }
}

/// Completes an incremental GC in progress, if any.
fn finish_incremental_gc(cx: &mut JSContext) {
    // SAFETY: plain JSAPI calls on this thread's context.
    unsafe {
        if mozjs::rust::wrappers2::IsIncrementalGCInProgress(cx) {
            mozjs::rust::wrappers2::PrepareForFullGC(cx);
            mozjs::rust::wrappers2::FinishIncrementalGC(cx, mozjs::jsapi::GCReason::API);
        }
    }
}
