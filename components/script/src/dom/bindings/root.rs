//! References from Rust to DOM objects.
//!
//! * [`DomRoot<T>`]: a rooted reference, for the stack and for return
//!   values. While it lives the reflector (hence the Rust object) is alive.
//! * [`Dom<T>`]: a traced reference, for fields of DOM objects. The
//!   holder's `Traceable` impl must trace it.
//! * [`MutNullableDom<T>`]: a mutable, nullable [`Dom<T>`].

use std::cell::RefCell;
use std::marker::PhantomData;
use std::ops::Deref;

use mozjs::gc::{RootedTraceableBox, Traceable};
use mozjs::jsapi::Heap;
use mozjs::jsapi::{JSObject, JSTracer};

use crate::dom::bindings::reflector::{unwrap_dom_object, DerivedFrom, DomObjectIface};

/// A rooted reference to a DOM object of interface `T`.
pub struct DomRoot<T: DomObjectIface> {
    object: RootedTraceableBox<Heap<*mut JSObject>>,
    marker: PhantomData<*const T>,
}

impl<T: DomObjectIface> DomRoot<T> {
    /// # Safety
    /// `object` must be a live reflector implementing `T`.
    pub unsafe fn from_object(object: *mut JSObject) -> DomRoot<T> {
        debug_assert!(unsafe { unwrap_dom_object::<T>(object) }.is_some());
        let root = RootedTraceableBox::new(Heap::default());
        root.set(object);
        DomRoot {
            object: root,
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
        unsafe { unwrap_dom_object::<T>(object) }.map(|_| unsafe { DomRoot::from_object(object) })
    }

    /// The reflector.
    pub fn reflector_object(&self) -> *mut JSObject {
        self.object.get()
    }

    /// The same object as one of its ancestor interfaces.
    pub fn upcast<U: DomObjectIface>(self) -> DomRoot<U>
    where
        T: DerivedFrom<U>,
    {
        // SAFETY: T inherits from U.
        unsafe { DomRoot::from_object(self.object.get()) }
    }

    /// The same object as a derived interface, if it implements it.
    pub fn downcast<U: DomObjectIface + DerivedFrom<T>>(&self) -> Option<DomRoot<U>> {
        // SAFETY: rooted by self.
        unsafe { DomRoot::try_from_object(self.object.get()) }
    }
}

impl<T: DomObjectIface> Deref for DomRoot<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: rooted, so alive; checked at construction to implement T.
        unsafe { unwrap_dom_object::<T>(self.object.get()) }
            .expect("a DomRoot always points at a reflector implementing its interface")
    }
}

impl<T: DomObjectIface> Clone for DomRoot<T> {
    fn clone(&self) -> Self {
        // SAFETY: same object.
        unsafe { DomRoot::from_object(self.object.get()) }
    }
}

impl<T: DomObjectIface> PartialEq for DomRoot<T> {
    fn eq(&self, other: &Self) -> bool {
        self.object.get() == other.object.get()
    }
}

unsafe impl<T: DomObjectIface> Traceable for DomRoot<T> {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        // Already a root; tracing again (when inside a traced container) is
        // harmless.
        unsafe { self.object.trace(trc) }
    }
}

/// A traced reference to a DOM object, for fields of DOM objects.
pub struct Dom<T: DomObjectIface> {
    // Boxed: a Heap must not move once it holds a pointer.
    object: Box<Heap<*mut JSObject>>,
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

unsafe impl<T: DomObjectIface> Traceable for Dom<T> {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe { self.object.trace(trc) }
    }
}

/// A mutable, nullable traced reference. Never borrowed across calls that
/// can run script or GC.
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
}

unsafe impl<T: DomObjectIface> Traceable for MutNullableDom<T> {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        if let Ok(value) = self.value.try_borrow() {
            unsafe { value.trace(trc) };
        }
    }
}
