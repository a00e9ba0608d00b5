//! References from Rust to DOM objects.
//!
//! * [`DomRoot<T>`]: a rooted reference, for the stack and for return
//!   values. While it lives the reflector (hence the Rust object) is alive.
//! * [`Dom<T>`]: a traced reference, for fields of DOM objects. The
//!   holder's `Traceable` impl must trace it.
//! * [`MutNullableDom<T>`]: a mutable, nullable [`Dom<T>`].
//!
//! # The root set
//!
//! A `DomRoot` is an index into this thread's [`RootSet`], a table of
//! object pointers traced as GC roots (updated in place when the GC moves
//! an object). Rooting and unrooting cost O(1) in any order, with no
//! allocation once the table has grown: a `Vec` of thousands of roots
//! (a subtree walk, a `querySelectorAll` result) is dropped front to back,
//! which with one SpiderMonkey `RootedTraceableBox` per root cost a search
//! and a shift of the whole rooted set per element, quadratic in the
//! number of roots. The table is registered with mozjs's set of rooted
//! traceables while it holds at least one root, and only then.

use jsprof_script_derive::JSTraceable;
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::ops::Deref;

use mozjs::gc::{RootedTraceableSet, Traceable};
use mozjs::glue::CallObjectRootTracer;
use mozjs::jsapi::Heap;
use mozjs::jsapi::{JSObject, JSTracer};

use crate::reflector::{unwrap_dom_object, DerivedFrom, DomObjectIface};

/// This thread's `DomRoot` slots (see the module documentation).
struct RootSet {
    /// One object per live root; null in a free slot.
    slots: RefCell<Vec<*mut JSObject>>,
    /// Indices of the free slots.
    free: RefCell<Vec<usize>>,
    live: Cell<usize>,
}

// Per thread, not per agent: the context's root tracer reads it until the
// context is destroyed, after the agent is gone.
thread_local! {
    static ROOTS: RootSet = const {
        RootSet {
            slots: RefCell::new(Vec::new()),
            free: RefCell::new(Vec::new()),
            live: Cell::new(0),
        }
    };
}

// Hand-written: the slots are raw root cells traced with
// `CallObjectRootTracer` (not `Traceable` values), and free slots are null.
// SAFETY: traces every live slot as a root; the GC runs only inside
// JSAPI calls, never while a slot is being read or written below.
unsafe impl Traceable for RootSet {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        for slot in self.slots.borrow_mut().iter_mut() {
            if !slot.is_null() {
                // SAFETY: a live slot holds a live object; the tracer
                // updates the slot if the object moves.
                unsafe { CallObjectRootTracer(trc, slot, c"DomRoot".as_ptr()) };
            }
        }
    }
}

impl RootSet {
    fn add(&self, object: *mut JSObject) -> usize {
        if self.live.get() == 0 {
            // SAFETY: a thread-local outlives every root of its thread;
            // `remove` unregisters it when the last root goes.
            unsafe { RootedTraceableSet::add(self as *const RootSet as *const dyn Traceable) };
        }
        self.live.set(self.live.get() + 1);
        let mut slots = self.slots.borrow_mut();
        match self.free.borrow_mut().pop() {
            Some(index) => {
                slots[index] = object;
                index
            }
            None => {
                slots.push(object);
                slots.len() - 1
            }
        }
    }

    fn remove(&self, index: usize) {
        self.slots.borrow_mut()[index] = std::ptr::null_mut();
        self.live.set(self.live.get() - 1);
        if self.live.get() == 0 {
            self.slots.borrow_mut().clear();
            self.free.borrow_mut().clear();
            // SAFETY: registered by `add` when the first root came.
            unsafe { RootedTraceableSet::remove(self as *const RootSet as *const dyn Traceable) };
        } else {
            self.free.borrow_mut().push(index);
        }
    }

    fn get(&self, index: usize) -> *mut JSObject {
        self.slots.borrow()[index]
    }
}

/// A rooted reference to a DOM object of interface `T`.
pub struct DomRoot<T: DomObjectIface> {
    /// This root's slot in the thread's [`RootSet`].
    slot: usize,
    marker: PhantomData<*const T>,
}

impl<T: DomObjectIface> Drop for DomRoot<T> {
    fn drop(&mut self) {
        // The set may already be gone when a root held by another
        // thread-local is dropped at thread exit: nothing to unroot then.
        let _ = ROOTS.try_with(|roots| roots.remove(self.slot));
    }
}

impl<T: DomObjectIface> DomRoot<T> {
    /// # Safety
    /// `object` must be a live reflector implementing `T`.
    pub unsafe fn from_object(object: *mut JSObject) -> DomRoot<T> {
        // SAFETY: as this function's contract: `object` is a live reflector.
        debug_assert!(unsafe { unwrap_dom_object::<T>(object) }.is_some());
        DomRoot {
            slot: ROOTS.with(|roots| roots.add(object)),
            marker: PhantomData,
        }
    }

    /// Roots a DOM object the caller has a reference to.
    pub fn from_ref(object: &T) -> DomRoot<T> {
        // SAFETY: a reflected DOM object's reflector implements T.
        unsafe { DomRoot::from_object(object.reflector().get_jsobject()) }
    }

    /// The reflector if `object` implements `T`.
    ///
    /// # Safety
    /// `object` is a live object (or null).
    pub unsafe fn try_from_object(object: *mut JSObject) -> Option<DomRoot<T>> {
        // SAFETY: `object` is live or null (this function's contract), and `from_object` runs
        // only when it is a reflector implementing `T`.
        unsafe { unwrap_dom_object::<T>(object) }.map(|_| unsafe { DomRoot::from_object(object) })
    }

    /// The reflector.
    pub fn reflector_object(&self) -> *mut JSObject {
        ROOTS.with(|roots| roots.get(self.slot))
    }

    /// The same object as one of its ancestor interfaces.
    pub fn upcast<U: DomObjectIface>(self) -> DomRoot<U>
    where
        T: DerivedFrom<U>,
    {
        // SAFETY: T inherits from U.
        unsafe { DomRoot::from_object(self.reflector_object()) }
    }

    /// The same object as a derived interface, if it implements it.
    pub fn downcast<U: DomObjectIface + DerivedFrom<T>>(&self) -> Option<DomRoot<U>> {
        // SAFETY: rooted by self.
        unsafe { DomRoot::try_from_object(self.reflector_object()) }
    }
}

impl<T: DomObjectIface> Deref for DomRoot<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: rooted, so alive; checked at construction to implement T.
        unsafe { unwrap_dom_object::<T>(self.reflector_object()) }
            .expect("a DomRoot always points at a reflector implementing its interface")
    }
}

impl<T: DomObjectIface> Clone for DomRoot<T> {
    fn clone(&self) -> Self {
        // SAFETY: same object.
        unsafe { DomRoot::from_object(self.reflector_object()) }
    }
}

impl<T: DomObjectIface> PartialEq for DomRoot<T> {
    fn eq(&self, other: &Self) -> bool {
        self.reflector_object() == other.reflector_object()
    }
}

// Hand-written: a `DomRoot` is already a root (the root set traces its
// slot), so tracing it again from a container would be redundant; no
// field of it is a GC edge.
// SAFETY: tracing nothing is sound: the object is kept alive and updated by
// the root set.
unsafe impl<T: DomObjectIface> Traceable for DomRoot<T> {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        // Already a root (the root set traces it): nothing more to do
        // when it sits inside a traced container.
        let _ = trc;
    }
}

/// A traced reference to a DOM object, for fields of DOM objects.
#[derive(JSTraceable)]
pub struct Dom<T: DomObjectIface> {
    // Boxed: a Heap must not move once it holds a pointer.
    object: Box<Heap<*mut JSObject>>,
    #[no_trace]
    marker: PhantomData<*const T>,
}

impl<T: DomObjectIface> Dom<T> {
    pub fn from_ref(object: &T) -> Dom<T> {
        Dom {
            object: Heap::boxed(object.reflector().get_jsobject()),
            marker: PhantomData,
        }
    }

    /// Roots the reference.
    pub fn root(&self) -> DomRoot<T> {
        // SAFETY: traced by the holder, so alive.
        unsafe { DomRoot::from_object(self.object.get()) }
    }

    pub fn reflector_object(&self) -> *mut JSObject {
        self.object.get()
    }
}

/// A mutable, nullable traced reference. Never borrowed across calls that
/// can run script or GC.
#[derive(JSTraceable)]
pub struct MutNullableDom<T: DomObjectIface> {
    value: RefCell<Option<Dom<T>>>,
}

impl<T: DomObjectIface> Default for MutNullableDom<T> {
    fn default() -> Self {
        MutNullableDom {
            value: RefCell::new(None),
        }
    }
}

impl<T: DomObjectIface> MutNullableDom<T> {
    pub fn new(value: Option<&T>) -> Self {
        MutNullableDom {
            value: RefCell::new(value.map(Dom::from_ref)),
        }
    }

    pub fn get(&self) -> Option<DomRoot<T>> {
        self.value.borrow().as_ref().map(Dom::root)
    }

    pub fn set(&self, value: Option<&T>) {
        *self.value.borrow_mut() = value.map(Dom::from_ref);
    }

    pub fn is_some(&self) -> bool {
        self.value.borrow().is_some()
    }

    /// The object held, or else the one `init` makes, which is held from
    /// then on (an attribute that returns "the same object each time").
    pub fn or_init(&self, init: impl FnOnce() -> DomRoot<T>) -> DomRoot<T> {
        match self.try_or_init(|| Ok::<_, std::convert::Infallible>(init())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    /// [`Self::or_init`] with an `init` that can fail (nothing is held
    /// then).
    pub fn try_or_init<E>(
        &self,
        init: impl FnOnce() -> Result<DomRoot<T>, E>,
    ) -> Result<DomRoot<T>, E> {
        if let Some(value) = self.get() {
            return Ok(value);
        }
        let value = init()?;
        self.set(Some(&value));
        Ok(value)
    }
}
