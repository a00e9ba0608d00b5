//! Conversions between JS values and the Rust types of IDL types
//! (<https://webidl.spec.whatwg.org/#es-type-mapping>).
//!
//! Every `from_js` either returns the value or throws (a JS exception is
//! pending) and returns `Err(())`.

use jsprof_script_derive::JSTraceable;
use std::ffi::CStr;
use std::ops::{ControlFlow, Deref};
use std::ptr::{self, NonNull};
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::conversions::{jsstr_to_string, ToJSValConvertible};
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::Heap;
use mozjs::jsapi::{
    IsCallable, JSObject, PropertyDescriptor, SymbolCode, JSITER_HIDDEN, JSITER_OWNONLY,
    JSITER_SYMBOLS, JSPROP_ENUMERATE,
};
use mozjs::jsid::SymbolId;
use mozjs::jsval::{BooleanValue, DoubleValue, JSVal, NullValue, ObjectValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    GetPropertyKeys, GetWellKnownSymbol, JS_DefineElement, JS_DefineProperty,
    JS_DefinePropertyById2, JS_GetOwnPropertyDescriptorById, JS_GetProperty, JS_GetPropertyById,
    JS_IdToValue, JS_NewPlainObject, JS_ValueToId, JS_WrapValue, NewArrayObject1,
};
use mozjs::rust::{
    for_of, maybe_wrap_value, ForOfIterationFailure, HandleObject, HandleValue, IdVector,
    MutableHandleValue, ToBoolean, ToNumber, ToString,
};

use crate::error::throw_type_error;
use crate::reflector::{DomObject, DomObjectIface};
use crate::root::DomRoot;

/// `DOMString`. Lone surrogates become U+FFFD (a Rust string is UTF-8).
pub type DOMString = String;

/// `USVString` (<https://webidl.spec.whatwg.org/#js-USVString>).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, JSTraceable)]
pub struct USVString(pub String);

/// `any`, rooted while the value lives.
pub type RootedJsValue = RootedTraceableBox<Heap<JSVal>>;

/// `object`, rooted while the value lives.
pub type RootedJsObject = RootedTraceableBox<Heap<*mut JSObject>>;

/// A restricted `float`/`double`: never NaN or infinite.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub struct Finite<T>(T);

impl Finite<f64> {
    pub fn new(value: f64) -> Option<Self> {
        value.is_finite().then_some(Finite(value))
    }

    /// For values known to be finite; a non-finite value becomes 0.
    pub fn wrap(value: f64) -> Self {
        debug_assert!(value.is_finite());
        Finite(if value.is_finite() { value } else { 0.0 })
    }
}

impl Finite<f32> {
    pub fn new(value: f32) -> Option<Self> {
        value.is_finite().then_some(Finite(value))
    }

    pub fn wrap(value: f32) -> Self {
        debug_assert!(value.is_finite());
        Finite(if value.is_finite() { value } else { 0.0 })
    }
}

impl<T> Deref for Finite<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// How to convert to an integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IntegerConversion {
    #[default]
    Default,
    EnforceRange,
    Clamp,
}

/// JS value to Rust (the "converted to an IDL value" algorithms).
pub trait FromJsValue: Sized {
    type Config;
    /// # Safety
    /// `value` must be rooted; may run script.
    unsafe fn from_js(
        cx: &mut JSContext,
        value: HandleValue,
        config: Self::Config,
    ) -> Result<Self, ()>;
}

/// Rust to JS value (the "converted to a JavaScript value" algorithms).
pub trait ToJsValue {
    /// # Safety
    /// `rval` must be rooted.
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue);
}

// ---------------------------------------------------------------------------
// Primitives

impl ToJsValue for () {
    unsafe fn to_js(&self, _cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(UndefinedValue());
    }
}

impl FromJsValue for bool {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-boolean>
    unsafe fn from_js(_cx: &mut JSContext, value: HandleValue, _: ()) -> Result<bool, ()> {
        // SAFETY: `value` is rooted (this function's contract).
        Ok(unsafe { ToBoolean(value) })
    }
}

impl ToJsValue for bool {
    unsafe fn to_js(&self, _cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(BooleanValue(*self));
    }
}

fn to_number(cx: &mut JSContext, value: HandleValue) -> Result<f64, ()> {
    // SAFETY: `value` is a rooted handle (the caller's); `cx` is this thread's
    // live context.
    unsafe { ToNumber(cx, value) }
}

/// <https://webidl.spec.whatwg.org/#abstract-opdef-converttoint>
/// (bit length `bits`, `signed` or not). The result fits the IDL type.
fn convert_to_int(
    cx: &mut JSContext,
    value: HandleValue,
    bits: u32,
    signed: bool,
    conversion: IntegerConversion,
) -> Result<i128, ()> {
    // Steps 1-3: the bounds (for 64 bits, the safe integer range).
    let (lower, upper): (f64, f64) = if bits == 64 {
        if signed {
            (-(2f64.powi(53)) + 1.0, 2f64.powi(53) - 1.0)
        } else {
            (0.0, 2f64.powi(53) - 1.0)
        }
    } else if signed {
        (
            -(2f64.powi(bits as i32 - 1)),
            2f64.powi(bits as i32 - 1) - 1.0,
        )
    } else {
        (0.0, 2f64.powi(bits as i32) - 1.0)
    };
    // Step 4: Let x be ? ToNumber(V).
    let mut x = to_number(cx, value)?;
    // Step 5: If x is −0, then set x to +0.
    if x == 0.0 {
        x = 0.0;
    }
    match conversion {
        // Step 6: [EnforceRange].
        IntegerConversion::EnforceRange => {
            if !x.is_finite() {
                throw_type_error(
                    cx,
                    "Value is not a finite number (the type is [EnforceRange]).",
                );
                return Err(());
            }
            let x = x.trunc();
            if x < lower || x > upper {
                throw_type_error(
                    cx,
                    "Value is out of range for the [EnforceRange] integer type.",
                );
                return Err(());
            }
            return Ok(x as i128);
        }
        // Step 7: [Clamp], rounding ties to even.
        IntegerConversion::Clamp if !x.is_nan() => {
            let clamped = x.clamp(lower, upper);
            let rounded = clamped.round_ties_even();
            return Ok(if rounded == 0.0 { 0 } else { rounded as i128 });
        }
        _ => {}
    }
    // Step 8: If x is NaN, +0, +∞, or −∞, then return +0.
    if !x.is_finite() || x == 0.0 {
        return Ok(0);
    }
    // Step 9: Set x to IntegerPart(x).
    let x = x.trunc();
    // Step 10: Set x to x modulo 2^bitLength. Beyond 2^127 every double is a
    // multiple of 2^64, so the result is 0.
    if x.abs() >= 2f64.powi(127) {
        return Ok(0);
    }
    let modulus = 1i128 << bits;
    let mut x = (x as i128).rem_euclid(modulus);
    // Step 11: If signed and x ≥ 2^(bitLength − 1), return x − 2^bitLength.
    if signed && x >= modulus / 2 {
        x -= modulus;
    }
    Ok(x)
}

macro_rules! integer_conversions {
    ($($t:ty: $bits:expr, $signed:expr;)*) => {$(
        impl FromJsValue for $t {
            type Config = IntegerConversion;
            /// <https://webidl.spec.whatwg.org/#es-integer-types>
            unsafe fn from_js(cx: &mut JSContext, value: HandleValue, config: IntegerConversion) -> Result<$t, ()> {
                convert_to_int(cx, value, $bits, $signed, config).map(|x| x as $t)
            }
        }

        impl ToJsValue for $t {
            unsafe fn to_js(&self, _cx: &mut JSContext, mut rval: MutableHandleValue) {
                rval.set(DoubleValue(*self as f64));
            }
        }
    )*};
}

integer_conversions! {
    i8: 8, true;
    u8: 8, false;
    i16: 16, true;
    u16: 16, false;
    i32: 32, true;
    u32: 32, false;
    i64: 64, true;
    u64: 64, false;
}

impl FromJsValue for f64 {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-unrestricted-double>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<f64, ()> {
        to_number(cx, value)
    }
}

impl FromJsValue for f32 {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-unrestricted-float>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<f32, ()> {
        to_number(cx, value).map(|x| x as f32)
    }
}

impl FromJsValue for Finite<f64> {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-double>: Step 2: If x is NaN,
    /// +∞, or −∞, then throw a TypeError.
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        let x = to_number(cx, value)?;
        match Finite::<f64>::new(x) {
            Some(x) => Ok(x),
            None => {
                throw_type_error(cx, "Value is not a finite floating-point value.");
                Err(())
            }
        }
    }
}

impl FromJsValue for Finite<f32> {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-float>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        let x = to_number(cx, value)?;
        match Finite::<f32>::new(x as f32).filter(|_| x.is_finite()) {
            Some(y) => Ok(y),
            None => {
                throw_type_error(cx, "Value is not a finite floating-point value.");
                Err(())
            }
        }
    }
}

impl ToJsValue for f64 {
    unsafe fn to_js(&self, _cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(DoubleValue(*self));
    }
}

impl ToJsValue for f32 {
    unsafe fn to_js(&self, _cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(DoubleValue(*self as f64));
    }
}

impl<T: ToJsValue> ToJsValue for Finite<T> {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        // SAFETY: `rval` is rooted (this function's contract).
        unsafe { self.0.to_js(cx, rval) }
    }
}

// ---------------------------------------------------------------------------
// Strings

/// ToString, then to UTF-8 (lone surrogates become U+FFFD).
pub fn to_rust_string(cx: &mut JSContext, value: HandleValue) -> Result<String, ()> {
    // SAFETY: `value` is a rooted handle (the caller's); the result is rooted
    // just below, before anything can GC.
    let string = unsafe { ToString(cx, value) };
    let Some(string) = NonNull::new(string) else {
        return Err(());
    };
    rooted!(&in(cx) let _root = string.as_ptr());
    // SAFETY: `string` is non-null and rooted by `_root`.
    Ok(unsafe { jsstr_to_string(cx, string) })
}

impl FromJsValue for String {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-DOMString>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<String, ()> {
        to_rust_string(cx, value)
    }
}

/// `[LegacyNullToEmptyString] DOMString`
/// (<https://webidl.spec.whatwg.org/#LegacyNullToEmptyString>): "If V is
/// null, return the DOMString value that represents the empty string";
/// else the usual conversion.
pub unsafe fn convert_null_to_empty_string(
    cx: &mut JSContext,
    value: HandleValue,
) -> Result<DOMString, ()> {
    if value.is_null() {
        Ok(DOMString::new())
    } else {
        to_rust_string(cx, value)
    }
}

impl FromJsValue for USVString {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-USVString>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        to_rust_string(cx, value).map(USVString)
    }
}

impl ToJsValue for str {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        self.to_jsval(cx, rval);
    }
}

impl ToJsValue for String {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        self.as_str().to_jsval(cx, rval);
    }
}

impl ToJsValue for USVString {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        self.0.as_str().to_jsval(cx, rval);
    }
}

impl<T: ToJsValue + ?Sized> ToJsValue for &T {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        // SAFETY: `rval` is rooted (this function's contract).
        unsafe { (**self).to_js(cx, rval) }
    }
}

// ---------------------------------------------------------------------------
// any, object

impl FromJsValue for RootedJsValue {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-any>
    unsafe fn from_js(_cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        let root = RootedTraceableBox::new(Heap::default());
        root.set(value.get());
        Ok(root)
    }
}

impl ToJsValue for RootedJsValue {
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(self.get());
        maybe_wrap_value(cx, rval);
    }
}

impl FromJsValue for RootedJsObject {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-object>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        require_object(cx, value, "Value is not an object.")?;
        let root = RootedTraceableBox::new(Heap::default());
        root.set(value.to_object());
        Ok(root)
    }
}

impl ToJsValue for RootedJsObject {
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(ObjectValue(self.get()));
        // SAFETY: `rval` is rooted (this function's contract) and holds the
        // object; wrapping it for the current compartment keeps it rooted.
        unsafe { JS_WrapValue(cx, rval) };
    }
}

// ---------------------------------------------------------------------------
// Nullable, sequences

impl<T: FromJsValue> FromJsValue for Option<T> {
    type Config = T::Config;
    /// <https://webidl.spec.whatwg.org/#js-nullable-type>
    unsafe fn from_js(
        cx: &mut JSContext,
        value: HandleValue,
        config: T::Config,
    ) -> Result<Self, ()> {
        if value.is_null_or_undefined() {
            Ok(None)
        } else {
            // SAFETY: `value` is rooted (this function's contract).
            unsafe { T::from_js(cx, value, config) }.map(Some)
        }
    }
}

impl<T: ToJsValue> ToJsValue for Option<T> {
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        match self {
            // SAFETY: `rval` is rooted (this function's contract).
            Some(value) => unsafe { value.to_js(cx, rval) },
            None => rval.set(NullValue()),
        }
    }
}

impl<T: FromJsValue> FromJsValue for Vec<T>
where
    T::Config: Clone,
{
    type Config = T::Config;
    /// <https://webidl.spec.whatwg.org/#js-sequence>
    unsafe fn from_js(
        cx: &mut JSContext,
        value: HandleValue,
        config: T::Config,
    ) -> Result<Self, ()> {
        // Step 1: If V is not an Object, throw a TypeError.
        require_object(cx, value, "Value is not an object (expected a sequence).")?;
        // Steps 2-4: GetMethod(V, @@iterator); undefined is a TypeError;
        // then create a sequence from the iterable.
        let mut out = Vec::new();
        let result: Result<(), ForOfIterationFailure<()>> =
            for_of(cx, value, |cx: &mut JSContext, item| {
                // SAFETY: `item` is the iteration's rooted value (a handle `for_of`
                // passes).
                let converted = unsafe { T::from_js(cx, item, config.clone()) }
                    .map_err(|()| ForOfIterationFailure::<()>::JSFailed)?;
                out.push(converted);
                Ok(ControlFlow::Continue(()))
            });
        match result {
            Ok(()) => Ok(out),
            Err(ForOfIterationFailure::ValueIsNotIterable) => {
                throw_type_error(cx, "Value is not iterable (expected a sequence).");
                Err(())
            }
            Err(_) => Err(()),
        }
    }
}

impl<T: ToJsValue> ToJsValue for [T] {
    /// <https://webidl.spec.whatwg.org/#js-sequence>: a new Array.
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        // SAFETY: the new array is rooted at once.
        rooted!(&in(cx) let array = unsafe { NewArrayObject1(cx, self.len()) });
        if array.get().is_null() {
            rval.set(UndefinedValue());
            return;
        }
        rooted!(&in(cx) let mut element = UndefinedValue());
        for (index, item) in self.iter().enumerate() {
            // SAFETY: `element` is rooted.
            unsafe { item.to_js(cx, element.handle_mut()) };
            // SAFETY: `array` is rooted and non-null (checked above), `element` is
            // rooted.
            unsafe {
                JS_DefineElement(
                    cx,
                    array.handle(),
                    index as u32,
                    element.handle(),
                    JSPROP_ENUMERATE as u32,
                )
            };
        }
        rval.set(ObjectValue(array.get()));
    }
}

impl<T: ToJsValue> ToJsValue for Vec<T> {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        // SAFETY: `rval` is rooted (this function's contract).
        unsafe { self.as_slice().to_js(cx, rval) }
    }
}

impl<T: ToJsValue> ToJsValue for Rc<T> {
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        // SAFETY: `rval` is rooted (this function's contract).
        unsafe { (**self).to_js(cx, rval) }
    }
}

// ---------------------------------------------------------------------------
// Interfaces

impl<T: DomObjectIface> FromJsValue for DomRoot<T> {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-interface>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        if value.is_object() {
            // SAFETY: `value` is rooted (this function's contract), so the object is
            // live.
            if let Some(root) = unsafe { DomRoot::<T>::try_from_object(value.to_object()) } {
                return Ok(root);
            }
        }
        throw_type_error(
            cx,
            &format!("Value does not implement interface {}.", T::NAME),
        );
        Err(())
    }
}

impl<T: DomObjectIface> ToJsValue for DomRoot<T> {
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(ObjectValue(self.reflector_object()));
        maybe_wrap_value(cx, rval);
    }
}

/// The reflector of `object` as a value.
pub fn dom_object_to_js<T: DomObject>(object: &T, mut rval: MutableHandleValue) {
    rval.set(ObjectValue(object.reflector().get_jsobject()));
}

// ---------------------------------------------------------------------------
// Helpers of generated conversions

/// <https://webidl.spec.whatwg.org/#js-enumeration>: ToString, then the
/// index of the value in `values`, else a TypeError.
pub unsafe fn convert_to_enum_index(
    cx: &mut JSContext,
    value: HandleValue,
    values: &[&str],
    name: &str,
) -> Result<usize, ()> {
    let s = to_rust_string(cx, value)?;
    match values.iter().position(|v| *v == s) {
        Some(i) => Ok(i),
        None => {
            throw_type_error(
                cx,
                &format!("'{s}' is not a valid value for enumeration {name}."),
            );
            Err(())
        }
    }
}

/// The enumeration step of the attribute setter
/// (<https://webidl.spec.whatwg.org/#dfn-attribute-setter>, "If the
/// attribute's type is an enumeration"): `S` is `? ToString(V)`; a value
/// that is not one of the enumeration's values is ignored (`None`: the
/// setter returns undefined without throwing).
///
/// # Safety
/// `cx` must be in a realm and `value` rooted.
pub unsafe fn enum_attribute_index(
    cx: &mut JSContext,
    value: HandleValue,
    values: &[&str],
) -> Result<Option<usize>, ()> {
    // 1. Let S be ? ToString(V).
    let s = to_rust_string(cx, value)?;
    // 2. If S is not one of the enumeration's values, then return undefined.
    Ok(values.iter().position(|v| *v == s))
}

/// <https://webidl.spec.whatwg.org/#js-dictionary>, step 1: the object to
/// read members from (null for `undefined` and `null`), or a TypeError.
pub unsafe fn dictionary_object(
    cx: &mut JSContext,
    value: HandleValue,
    name: &str,
) -> Result<*mut JSObject, ()> {
    if value.is_null_or_undefined() {
        Ok(ptr::null_mut())
    } else if value.is_object() {
        Ok(value.to_object())
    } else {
        throw_type_error(
            cx,
            &format!("Value can't be converted to a dictionary ({name})."),
        );
        Err(())
    }
}

/// Step 4.1.2 of <https://webidl.spec.whatwg.org/#js-dictionary>:
/// `Get(jsDict, key)`, or undefined when there is no object.
///
/// # Safety
/// `object` (or null) and `rval` are rooted; may run script.
pub unsafe fn get_dictionary_member(
    cx: &mut JSContext,
    object: HandleObject,
    key: &CStr,
    mut rval: MutableHandleValue,
) -> Result<(), ()> {
    if object.get().is_null() {
        rval.set(UndefinedValue());
        return Ok(());
    }
    // SAFETY: `object` is rooted and non-null (checked above), `rval` is
    // rooted (this function's contract); the key is a C string.
    if unsafe { JS_GetProperty(cx, object, key.as_ptr(), rval) } {
        Ok(())
    } else {
        Err(())
    }
}

/// <https://webidl.spec.whatwg.org/#dictionary-to-js>: CreateDataProperty.
///
/// # Safety
/// `object` is rooted and non-null.
pub unsafe fn define_dictionary_member<T: ToJsValue + ?Sized>(
    cx: &mut JSContext,
    object: HandleObject,
    key: &CStr,
    value: &T,
) {
    rooted!(&in(cx) let mut js = UndefinedValue());
    // SAFETY: `js` is rooted; `object` is rooted and non-null (this
    // function's contract) and the key is a C string.
    unsafe {
        value.to_js(cx, js.handle_mut());
        JS_DefineProperty(
            cx,
            object,
            key.as_ptr(),
            js.handle(),
            JSPROP_ENUMERATE as u32,
        );
    }
}

/// OrdinaryObjectCreate(%Object.prototype%).
///
/// # Safety
/// The caller roots the result before anything can GC.
pub unsafe fn new_plain_object(cx: &mut JSContext) -> *mut JSObject {
    // SAFETY: `cx` is this thread's live context; the caller roots the result
    // (this function's contract).
    unsafe { JS_NewPlainObject(cx) }
}

/// Whether GetMethod(value, @@iterator) is not undefined (union conversion,
/// the sequence step).
///
/// # Safety
/// `value` is rooted; may run script.
pub unsafe fn has_iterator_method(cx: &mut JSContext, value: HandleValue) -> Result<bool, ()> {
    if !value.is_object() {
        return Ok(false);
    }
    rooted!(&in(cx) let object = value.to_object());
    // SAFETY: a plain query of this thread's live context; rooted at once.
    rooted!(&in(cx) let id = SymbolId(unsafe { GetWellKnownSymbol(cx, SymbolCode::iterator) }));
    rooted!(&in(cx) let mut method = UndefinedValue());
    // SAFETY: `object`, `id` and `method` are rooted.
    if !unsafe { JS_GetPropertyById(cx, object.handle(), id.handle(), method.handle_mut()) } {
        return Err(());
    }
    Ok(!method.is_null_or_undefined())
}

/// IsCallable(value).
pub fn is_callable(value: HandleValue) -> bool {
    // SAFETY: `value` is an object (checked first) held by a rooted handle.
    value.is_object() && unsafe { IsCallable(value.to_object()) }
}

// ---------------------------------------------------------------------------
// ByteString, records

/// `ByteString` (<https://webidl.spec.whatwg.org/#idl-ByteString>): a
/// sequence of bytes (each a code unit 0-255 of the JS string).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteString(pub Vec<u8>);

impl ByteString {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl From<&str> for ByteString {
    /// The UTF-8 bytes of `s` (for ASCII, the same as its code units).
    fn from(s: &str) -> Self {
        ByteString(s.as_bytes().to_vec())
    }
}

impl From<Vec<u8>> for ByteString {
    fn from(bytes: Vec<u8>) -> Self {
        ByteString(bytes)
    }
}

impl FromJsValue for ByteString {
    type Config = ();
    /// <https://webidl.spec.whatwg.org/#js-ByteString>
    unsafe fn from_js(cx: &mut JSContext, value: HandleValue, _: ()) -> Result<Self, ()> {
        // Step 1: Let x be ? ToString(V).
        let x = to_rust_string(cx, value)?;
        // Step 2: If the value of any element of x is greater than 255,
        // then throw a TypeError (a lone surrogate became U+FFFD, also
        // above 255).
        let mut bytes = Vec::with_capacity(x.len());
        for c in x.chars() {
            match u8::try_from(u32::from(c)) {
                Ok(b) => bytes.push(b),
                Err(_) => {
                    throw_type_error(
                        cx,
                        "Value is not a valid ByteString (a character is above U+00FF).",
                    );
                    return Err(());
                }
            }
        }
        // Step 3: the bytes are the code units of x.
        Ok(ByteString(bytes))
    }
}

impl ToJsValue for ByteString {
    /// <https://webidl.spec.whatwg.org/#js-ByteString>: a String whose
    /// code units are the bytes.
    unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
        let s: String = self.0.iter().map(|&b| char::from(b)).collect();
        // SAFETY: `rval` is rooted (this function's contract).
        unsafe { s.to_js(cx, rval) }
    }
}

/// `record<K, V>` (<https://webidl.spec.whatwg.org/#idl-record>): ordered
/// key-value pairs with unique keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record<K, V>(pub Vec<(K, V)>);

impl<K: PartialEq, V> Record<K, V> {
    /// Set `key` to `value`: replaces an existing entry in place, else
    /// appends (<https://infra.spec.whatwg.org/#map-set>).
    pub fn insert(&mut self, key: K, value: V) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.0.push((key, value)),
        }
    }
}

impl<K, V> FromJsValue for Record<K, V>
where
    K: FromJsValue<Config = ()> + PartialEq,
    V: FromJsValue,
    V::Config: Clone,
{
    type Config = V::Config;
    /// <https://webidl.spec.whatwg.org/#js-record>
    unsafe fn from_js(
        cx: &mut JSContext,
        value: HandleValue,
        config: V::Config,
    ) -> Result<Self, ()> {
        // Step 1: If V is not an Object, throw a TypeError.
        require_object(cx, value, "Value is not an object (expected a record).")?;
        rooted!(&in(cx) let object = value.to_object());
        // Step 2: Let result be a new empty instance of record<K, V>.
        let mut result = Record(Vec::new());
        // Step 3: Let keys be ? O.[[OwnPropertyKeys]]().
        let mut keys = IdVector::new(cx);
        // SAFETY: `object` is rooted and `keys` is a rooted id vector.
        if !unsafe {
            GetPropertyKeys(
                cx,
                object.handle(),
                JSITER_OWNONLY | JSITER_HIDDEN | JSITER_SYMBOLS,
                keys.handle_mut(),
            )
        } {
            return Err(());
        }
        rooted!(&in(cx) let mut id = mozjs::jsid::VoidId());
        rooted!(&in(cx) let mut key_value = UndefinedValue());
        rooted!(&in(cx) let mut member = UndefinedValue());
        rooted!(&in(cx) let mut desc = PropertyDescriptor::default());
        // `keys` stays rooted for the whole loop: the getters below run
        // script, which can GC, and a key held outside a root (a symbol, or
        // a string a getter removed from the object) could be swept.
        for key in keys.iter() {
            id.set(*key);
            // Step 4.1: Let desc be ? O.[[GetOwnProperty]](key).
            let mut is_none = true;
            // SAFETY: `object`, `id` and `desc` are rooted; `is_none` is a local
            // out-parameter.
            if !unsafe {
                JS_GetOwnPropertyDescriptorById(
                    cx,
                    object.handle(),
                    id.handle(),
                    desc.handle_mut(),
                    &mut is_none,
                )
            } {
                return Err(());
            }
            // Step 4.2: If desc is not undefined and desc.[[Enumerable]] is
            // true:
            if is_none || !desc.get().enumerable_() {
                continue;
            }
            // Step 4.2.1: Let typedKey be key converted to an IDL value of
            // type K (a symbol key throws, as ToString does).
            // SAFETY: `id` and `key_value` are rooted.
            if !unsafe { JS_IdToValue(cx, id.get(), key_value.handle_mut()) } {
                return Err(());
            }
            // SAFETY: `key_value` is rooted.
            let typed_key = unsafe { K::from_js(cx, key_value.handle(), ()) }?;
            // Step 4.2.2: Let value be ? Get(O, key).
            // SAFETY: `object`, `id` and `member` are rooted.
            if !unsafe { JS_GetPropertyById(cx, object.handle(), id.handle(), member.handle_mut()) }
            {
                return Err(());
            }
            // Step 4.2.3: Let typedValue be value converted to V.
            // SAFETY: `member` is rooted.
            let typed_value = unsafe { V::from_js(cx, member.handle(), config.clone()) }?;
            // Step 4.2.4: Set result[typedKey] to typedValue.
            result.insert(typed_key, typed_value);
        }
        // Step 5: Return result.
        Ok(result)
    }
}

impl<K: ToJsValue, V: ToJsValue> ToJsValue for Record<K, V> {
    /// <https://webidl.spec.whatwg.org/#js-record>: a new object with a
    /// data property per entry (CreateDataProperty).
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        // SAFETY: the new object is rooted at once.
        rooted!(&in(cx) let object = unsafe { JS_NewPlainObject(cx) });
        if object.get().is_null() {
            rval.set(UndefinedValue());
            return;
        }
        rooted!(&in(cx) let mut key = UndefinedValue());
        rooted!(&in(cx) let mut value = UndefinedValue());
        rooted!(&in(cx) let mut id = mozjs::jsid::VoidId());
        for (k, v) in &self.0 {
            // SAFETY: `key`, `value` and `id` are rooted, and so is `object` (non-null,
            // checked above); `rval` is rooted (this function's contract).
            unsafe {
                k.to_js(cx, key.handle_mut());
                v.to_js(cx, value.handle_mut());
                if !JS_ValueToId(cx, key.handle(), id.handle_mut()) {
                    continue;
                }
                JS_DefinePropertyById2(
                    cx,
                    object.handle(),
                    id.handle(),
                    value.handle(),
                    JSPROP_ENUMERATE as u32,
                );
            }
        }
        rval.set(ObjectValue(object.get()));
    }
}

/// A TypeError with `message` unless `value` is an object (the first step of
/// the conversions to `object`, sequences and records).
fn require_object(cx: &mut JSContext, value: HandleValue, message: &str) -> Result<(), ()> {
    if value.is_object() {
        return Ok(());
    }
    throw_type_error(cx, message);
    Err(())
}
