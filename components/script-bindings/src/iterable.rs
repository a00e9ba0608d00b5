//! Pair iterators (`iterable<K, V>`,
//! <https://webidl.spec.whatwg.org/#idl-iterable>): the `entries`, `keys`,
//! `values` and `forEach` operations and `@@iterator` of the interface
//! prototype object, default iterator objects and their iterator prototype
//! object `%FooIteratorPrototype%` with its `next` method
//! (<https://webidl.spec.whatwg.org/#es-iterators>).
//!
//! A default iterator object is an ordinary object of [`ITERATOR_CLASS`]
//! whose reserved slots hold its target (the platform object), its kind and
//! its index. The iterator prototype object of an interface is kept in
//! reserved slot [`ITERATOR_PROTOTYPE_SLOT`] of the interface prototype
//! object (not observable from script).
//!
//! The generated code passes the DOM struct's `PairIterableEntry` (the
//! value pair at an index of its current list of value pairs to iterate
//! over, `None` past the end) as a closure.

use std::ffi::CStr;
use std::ptr;

use mozjs::context::JSContext;
use mozjs::glue::JS_GetReservedSlot;
use mozjs::jsapi::{
    HandleValueArray, JSClass, JS_SetReservedSlot, SymbolCode, JSCLASS_RESERVED_SLOTS_SHIFT,
    JSPROP_ENUMERATE, JSPROP_READONLY,
};
use mozjs::jsid::SymbolId;
use mozjs::jsval::{BooleanValue, Int32Value, ObjectValue, UndefinedValue};
use mozjs::rust::wrappers2::{
    Call, GetRealmIteratorPrototype, GetWellKnownSymbol, JS_DefineFunction, JS_DefineProperty,
    JS_DefinePropertyById2, JS_GetProperty, JS_NewObjectWithGivenProto, JS_NewPlainObject,
};
use mozjs::rust::{HandleObject, HandleValue, MutableHandleValue};
use mozjs::{rooted, rooted_vec};

use crate::conversions::{is_callable, ToJsValue};
use crate::error::throw_type_error;
use crate::global::GlobalBindings;
use crate::interface::PrototypeId;
use crate::native::{unwrap_this, NativeArgs};
use crate::reflector::{unwrap_dom_object, DomObjectIface};

type Native =
    unsafe extern "C" fn(*mut mozjs::context::RawJSContext, u32, *mut mozjs::jsval::JSVal) -> bool;

/// What the runtime needs to set up an interface's pair iterator.
pub struct PairIteratorSpec {
    /// The class string of the iterator prototype object
    /// (`"Foo Iterator"`).
    pub name: &'static CStr,
    /// The iterator prototype object's `next`.
    pub next: Native,
}

/// The reserved slot of interface prototype objects holding the iterator
/// prototype object.
pub const ITERATOR_PROTOTYPE_SLOT: u32 = 0;

const TARGET_SLOT: u32 = 0;
const KIND_SLOT: u32 = 1;
const INDEX_SLOT: u32 = 2;

/// The class of default iterator objects: ordinary objects with three
/// reserved slots (an object value in a slot is traced by the engine).
pub static ITERATOR_CLASS: JSClass = JSClass {
    name: c"Object".as_ptr(),
    flags: 3 << JSCLASS_RESERVED_SLOTS_SHIFT,
    cOps: ptr::null(),
    spec: ptr::null(),
    ext: ptr::null(),
    oOps: ptr::null(),
};

/// A default iterator object's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterationKind {
    Key = 0,
    Value = 1,
    KeyValue = 2,
}

/// Defines `@@iterator` (the same function object as `entries`,
/// {\[\[Writable]]: true, \[\[Enumerable]]: false, \[\[Configurable]]: true};
/// <https://webidl.spec.whatwg.org/#es-iterator>) on the interface
/// prototype object, and creates the iterator prototype object
/// (<https://webidl.spec.whatwg.org/#es-iterator-prototype-object>).
pub fn define_pair_iterator(
    cx: &mut JSContext,
    proto: HandleObject,
    spec: &PairIteratorSpec,
) -> Result<(), ()> {
    rooted!(&in(cx) let mut entries = UndefinedValue());
    // SAFETY: `proto` is the caller's rooted interface prototype object and
    // `entries` is rooted.
    if !unsafe { JS_GetProperty(cx, proto, c"entries".as_ptr(), entries.handle_mut()) } {
        return Err(());
    }
    // SAFETY: a plain query of this thread's live context; well-known symbols
    // are permanent, and the id is rooted at once anyway.
    rooted!(&in(cx) let iterator_id = SymbolId(unsafe { GetWellKnownSymbol(cx, SymbolCode::iterator) }));
    // SAFETY: `proto`, `iterator_id` and `entries` are all rooted.
    if !unsafe { JS_DefinePropertyById2(cx, proto, iterator_id.handle(), entries.handle(), 0) } {
        return Err(());
    }
    // The iterator prototype object: its [[Prototype]] is
    // %Iterator.prototype%.
    // SAFETY: a query of the current realm (the caller's, which is setting up
    // `proto`); the result is rooted at once.
    rooted!(&in(cx) let iterator_proto_proto = unsafe { GetRealmIteratorPrototype(cx) });
    if iterator_proto_proto.get().is_null() {
        return Err(());
    }
    // SAFETY: `iterator_proto_proto` is rooted and non-null (checked above);
    // the new object is rooted at once.
    rooted!(&in(cx) let iterator_proto = unsafe {
        JS_NewObjectWithGivenProto(cx, ptr::null(), iterator_proto_proto.handle())
    });
    if iterator_proto.get().is_null() {
        return Err(());
    }
    // `next`: {[[Writable]]: true, [[Enumerable]]: true,
    // [[Configurable]]: true}, length 0.
    // SAFETY: `iterator_proto` is rooted; `spec.next` is a native with the
    // JSNative signature, and the name is a static C string.
    if unsafe {
        JS_DefineFunction(
            cx,
            iterator_proto.handle(),
            c"next".as_ptr(),
            Some(spec.next),
            0,
            JSPROP_ENUMERATE as u32,
        )
    }
    .is_null()
    {
        return Err(());
    }
    // @@toStringTag: "Foo Iterator", {[[Writable]]: false,
    // [[Enumerable]]: false, [[Configurable]]: true}.
    rooted!(&in(cx) let mut tag = UndefinedValue());
    let name = spec.name.to_str().map_err(|_| ())?;
    // SAFETY: `tag` is rooted.
    unsafe { name.to_js(cx, tag.handle_mut()) };
    // SAFETY: a plain query of this thread's live context; the id is rooted
    // at once.
    rooted!(&in(cx) let tag_id = SymbolId(unsafe { GetWellKnownSymbol(cx, SymbolCode::toStringTag) }));
    // SAFETY: `iterator_proto`, `tag_id` and `tag` are all rooted.
    if !unsafe {
        JS_DefinePropertyById2(
            cx,
            iterator_proto.handle(),
            tag_id.handle(),
            tag.handle(),
            JSPROP_READONLY as u32,
        )
    } {
        return Err(());
    }
    let value = ObjectValue(iterator_proto.get());
    // SAFETY: `proto` is an interface prototype object, whose class reserves
    // ITERATOR_PROTOTYPE_SLOT; the slot keeps `iterator_proto` alive
    // (objects in reserved slots are traced).
    unsafe { JS_SetReservedSlot(proto.get(), ITERATOR_PROTOTYPE_SLOT, &value) };
    Ok(())
}

/// `entries`, `keys` and `values`
/// (<https://webidl.spec.whatwg.org/#es-iterable-entries> and the next
/// sections): check that `this` implements the interface, then return a
/// new default iterator object with it as target, `kind`, and index 0.
pub fn pair_iterable_method<T: DomObjectIface>(
    cx: &mut JSContext,
    args: &NativeArgs,
    what: &str,
    kind: IterationKind,
    id: PrototypeId,
) -> Result<(), ()> {
    unwrap_this::<T>(cx, args, what)?;
    let this = args.thisv();
    rooted!(&in(cx) let target = this.to_object());
    // The default iterator object's [[Prototype]] is the iterator
    // prototype object of the interface in the current realm.
    // SAFETY: we are inside a binding call, so the current realm's global is
    // entered and alive for the whole call, which `global` does not outlive.
    let global = unsafe { GlobalBindings::current(cx) }.ok_or(())?;
    rooted!(&in(cx) let interface_proto = global.interface_prototype(cx, id));
    if interface_proto.get().is_null() {
        return Err(());
    }
    let mut slot = UndefinedValue();
    // SAFETY: `interface_proto` is rooted and non-null (checked above), an
    // interface prototype object whose class reserves that slot; `slot` is
    // rooted just below, before anything can GC.
    unsafe { JS_GetReservedSlot(interface_proto.get(), ITERATOR_PROTOTYPE_SLOT, &mut slot) };
    if !slot.is_object() {
        throw_type_error(cx, "The interface has no iterator prototype object.");
        return Err(());
    }
    rooted!(&in(cx) let iterator_proto = slot.to_object());
    // SAFETY: `iterator_proto` is rooted; ITERATOR_CLASS is static; the new
    // object is rooted at once.
    rooted!(&in(cx) let iterator = unsafe {
        JS_NewObjectWithGivenProto(cx, &ITERATOR_CLASS, iterator_proto.handle())
    });
    if iterator.get().is_null() {
        return Err(());
    }
    // SAFETY: `iterator` is rooted and non-null (checked above), of
    // ITERATOR_CLASS with its three slots; `target` is rooted, and the slot
    // keeps it alive from here on.
    unsafe {
        JS_SetReservedSlot(iterator.get(), TARGET_SLOT, &ObjectValue(target.get()));
        JS_SetReservedSlot(iterator.get(), KIND_SLOT, &Int32Value(kind as i32));
        JS_SetReservedSlot(iterator.get(), INDEX_SLOT, &Int32Value(0));
    }
    let mut rval = args.rval();
    rval.set(ObjectValue(iterator.get()));
    Ok(())
}

/// `%FooIteratorPrototype%.next()`
/// (<https://webidl.spec.whatwg.org/#es-iterator-prototype-object>).
pub fn pair_iterator_next<T: DomObjectIface, K: ToJsValue, V: ToJsValue>(
    cx: &mut JSContext,
    args: &NativeArgs,
    what: &str,
    entry: impl FnOnce(&T, &mut JSContext, u32) -> Option<(K, V)>,
) -> Result<(), ()> {
    // Steps 2-5: If object is not a default iterator object for
    // interface, then throw a TypeError.
    let this = args.thisv();
    let is_iterator = this.is_object()
        && ptr::eq(
            // SAFETY: `this` is an object (checked first), rooted by the call's
            // arguments.
            unsafe { mozjs::rust::get_object_class(this.to_object()) },
            &ITERATOR_CLASS,
        );
    let mut target_value = UndefinedValue();
    if is_iterator {
        // SAFETY: `this` is rooted by the call's arguments and of ITERATOR_CLASS
        // (checked above), which has TARGET_SLOT; no GC can happen before
        // `target_value` is rooted below.
        unsafe { JS_GetReservedSlot(this.to_object(), TARGET_SLOT, &mut target_value) };
    }
    let target: Option<&T> = if target_value.is_object() {
        // SAFETY: `target_value` is the live target held in the iterator's slot
        // (the iterator is rooted by the call's arguments), so `target` is
        // valid while the iterator is.
        unsafe { unwrap_dom_object::<T>(target_value.to_object()) }
    } else {
        None
    };
    let Some(target) = target else {
        throw_type_error(
            cx,
            &format!(
                "'{what}' called on an object that is not a {} iterator.",
                T::NAME
            ),
        );
        return Err(());
    };
    rooted!(&in(cx) let iterator = this.to_object());
    rooted!(&in(cx) let _target_root = target_value);
    // Steps 6-7: index and kind.
    let mut slot = UndefinedValue();
    // SAFETY: `iterator` is rooted and of ITERATOR_CLASS (checked above),
    // which has INDEX_SLOT; `slot` holds an int32, no GC thing.
    unsafe { JS_GetReservedSlot(iterator.get(), INDEX_SLOT, &mut slot) };
    let index = slot.to_int32() as u32;
    // SAFETY: as above, for KIND_SLOT.
    unsafe { JS_GetReservedSlot(iterator.get(), KIND_SLOT, &mut slot) };
    let kind = slot.to_int32();
    rooted!(&in(cx) let mut result = UndefinedValue());
    // Steps 8-10: If index ≥ len, then return
    // CreateIterResultObject(undefined, true).
    let Some((key, value)) = entry(target, cx, index) else {
        return create_iter_result_object(cx, result.handle(), true, args.rval());
    };
    // Step 12: Set object's index to index + 1.
    // SAFETY: `iterator` is rooted and of ITERATOR_CLASS, which has
    // INDEX_SLOT.
    unsafe { JS_SetReservedSlot(iterator.get(), INDEX_SLOT, &Int32Value(index as i32 + 1)) };
    // Step 13: the iterator result for pair and kind
    // (<https://webidl.spec.whatwg.org/#iterator-result>).
    rooted!(&in(cx) let mut key_js = UndefinedValue());
    rooted!(&in(cx) let mut value_js = UndefinedValue());
    match kind {
        // SAFETY: `result` is rooted.
        k if k == IterationKind::Key as i32 => unsafe { key.to_js(cx, result.handle_mut()) },
        // SAFETY: `result` is rooted.
        k if k == IterationKind::Value as i32 => unsafe { value.to_js(cx, result.handle_mut()) },
        _ => {
            // SAFETY: `key_js` and `value_js` are rooted.
            unsafe {
                key.to_js(cx, key_js.handle_mut());
                value.to_js(cx, value_js.handle_mut());
            }
            // CreateArrayFromList(« key, value »).
            let pair = vec![key_js.get(), value_js.get()];
            rooted_vec!(let pair_root <- pair.into_iter());
            // SAFETY: `pair_root` roots the values for the call.
            let array = unsafe {
                mozjs::rust::wrappers2::NewArrayObject(cx, &HandleValueArray::from(&pair_root))
            };
            if array.is_null() {
                return Err(());
            }
            result.set(ObjectValue(array));
        }
    }
    create_iter_result_object(cx, result.handle(), false, args.rval())
}

/// CreateIterResultObject(value, done)
/// (<https://tc39.es/ecma262/#sec-createiterresultobject>).
fn create_iter_result_object(
    cx: &mut JSContext,
    value: HandleValue,
    done: bool,
    mut rval: MutableHandleValue,
) -> Result<(), ()> {
    // SAFETY: the new object is rooted at once.
    rooted!(&in(cx) let object = unsafe { JS_NewPlainObject(cx) });
    if object.get().is_null() {
        return Err(());
    }
    rooted!(&in(cx) let done = BooleanValue(done));
    let flags = JSPROP_ENUMERATE as u32;
    // SAFETY: `object` is rooted and `value` is a handle the caller roots.
    if !unsafe { JS_DefineProperty(cx, object.handle(), c"value".as_ptr(), value, flags) }
        // SAFETY: `object` and `done` are rooted.
        || !unsafe {
            JS_DefineProperty(cx, object.handle(), c"done".as_ptr(), done.handle(), flags)
        }
    {
        return Err(());
    }
    rval.set(ObjectValue(object.get()));
    Ok(())
}

/// `forEach(callback, thisArg)`
/// (<https://webidl.spec.whatwg.org/#es-forEach>).
pub fn pair_iterable_for_each<T: DomObjectIface, K: ToJsValue, V: ToJsValue>(
    cx: &mut JSContext,
    args: &NativeArgs,
    what: &str,
    mut entry: impl FnMut(&T, &mut JSContext, u32) -> Option<(K, V)>,
) -> Result<(), ()> {
    // Steps 1-3: this value as the IDL interface type value.
    let object = unwrap_this::<T>(cx, args, what)?;
    rooted!(&in(cx) let this_object = ObjectValue(object.reflector().get_jsobject()));
    // Step 4: Let idlCallback be callback, converted to a Function.
    let callback = args.get(0);
    if !is_callable(callback) {
        throw_type_error(cx, &format!("{what}: Argument 1 is not callable."));
        return Err(());
    }
    let this_arg = args.get(1);
    // Steps 5-6: for each index below the number of value pairs (the list
    // is read again at each step, so changes made by the callback are
    // seen).
    let mut index = 0;
    rooted!(&in(cx) let mut key_js = UndefinedValue());
    rooted!(&in(cx) let mut value_js = UndefinedValue());
    rooted!(&in(cx) let mut ignored = UndefinedValue());
    while let Some((key, value)) = entry(object, cx, index) {
        // SAFETY: `key_js` and `value_js` are rooted.
        unsafe {
            key.to_js(cx, key_js.handle_mut());
            value.to_js(cx, value_js.handle_mut());
        }
        // Step 6.2: Invoke idlCallback with « pair's value, pair's key,
        // idlObject » and thisArg; rethrow exceptions.
        let argv = vec![value_js.get(), key_js.get(), this_object.get()];
        rooted_vec!(let argv_root <- argv.into_iter());
        // SAFETY: `this_arg` and `callback` are handles into the call's rooted
        // arguments; `argv_root` roots the arguments and `ignored` is rooted.
        if !unsafe {
            Call(
                cx,
                this_arg,
                callback,
                &HandleValueArray::from(&argv_root),
                ignored.handle_mut(),
            )
        } {
            return Err(());
        }
        index += 1;
    }
    let mut rval = args.rval();
    rval.set(UndefinedValue());
    Ok(())
}
