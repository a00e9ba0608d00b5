//! Buffer source types (<https://webidl.spec.whatwg.org/#idl-buffer-source-types>)
//! as arguments and return values: `ArrayBuffer`, `ArrayBufferView`,
//! `BufferSource`, `AllowSharedBufferSource` and the typed array types.
//!
//! Each Rust type holds a rooted reference to the JS object (an IDL value
//! of these types *is* a reference to the object). The DOM code reads the
//! bytes with [`BufferObject::bytes`] ("get a copy of the bytes held by the
//! buffer source", <https://webidl.spec.whatwg.org/#dfn-get-buffer-source-copy>),
//! writes into a view with `with_bytes_mut`, and creates new objects with
//! `ArrayBuffer::new` / `Uint8Array::new`
//! (<https://webidl.spec.whatwg.org/#arraybuffer-create>,
//! <https://webidl.spec.whatwg.org/#arraybufferview-create>).

use std::ptr;

use mozjs::context::JSContext;
use mozjs::jsapi::{
    GetArrayBufferMaybeSharedLengthAndData, IsArrayBufferViewShared,
    IsResizableArrayBufferMaybeShared, IsResizableArrayBufferView, JSObject,
    JS_GetArrayBufferViewType, Scalar::Type as ScalarType, UnwrapArrayBuffer,
    UnwrapArrayBufferView, UnwrapSharedArrayBuffer,
};
use mozjs::jsval::ObjectValue;
use mozjs::rooted;
use mozjs::rust::{maybe_wrap_value, HandleValue, MutableHandleValue};
use mozjs::typedarray::{
    ArrayBufferU8, ArrayBufferViewU8, ClampedU8, CreateWith, Float32, Float64, Int16, Int32, Int8,
    TypedArray, TypedArrayElement, Uint16, Uint32, Uint8,
};

use crate::conversions::{FromJsValue, RootedJsObject, ToJsValue};
use crate::error::throw_type_error;

/// Which buffer source type a value was converted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    ArrayBuffer,
    SharedArrayBuffer,
    View,
}

/// The object of a buffer source value, rooted.
pub struct BufferObject {
    object: RootedJsObject,
    shape: Shape,
}

impl BufferObject {
    fn new(object: *mut JSObject, shape: Shape) -> Self {
        let root = RootedJsObject::new(Default::default());
        root.set(object);
        BufferObject {
            object: root,
            shape,
        }
    }

    /// The JS object.
    pub fn object(&self) -> *mut JSObject {
        self.object.get()
    }

    /// Get a copy of the bytes held by the buffer source
    /// (<https://webidl.spec.whatwg.org/#dfn-get-buffer-source-copy>):
    /// empty if the buffer is detached.
    pub fn bytes(&self) -> Vec<u8> {
        match self.shape {
            Shape::ArrayBuffer => TypedArray::<ArrayBufferU8, *mut JSObject>::from(self.object())
                .ok()
                .and_then(|a| a.to_vec())
                .unwrap_or_default(),
            Shape::SharedArrayBuffer => {
                // SAFETY: `self.object()` is rooted by `self`; unwrapping only reads the
                // object.
                let unwrapped = unsafe { UnwrapSharedArrayBuffer(self.object()) };
                if unwrapped.is_null() {
                    return Vec::new();
                }
                let mut length = 0;
                let mut shared = false;
                let mut data = ptr::null_mut();
                // SAFETY: the data pointer is read at once, before any
                // script can run.
                unsafe {
                    GetArrayBufferMaybeSharedLengthAndData(
                        unwrapped,
                        &mut length,
                        &mut shared,
                        &mut data,
                    );
                    if data.is_null() {
                        return Vec::new();
                    }
                    std::slice::from_raw_parts(data, length).to_vec()
                }
            }
            Shape::View => TypedArray::<ArrayBufferViewU8, *mut JSObject>::from(self.object())
                .ok()
                .and_then(|a| a.to_vec())
                .unwrap_or_default(),
        }
    }

    /// The byte length (0 if detached).
    pub fn byte_length(&self) -> usize {
        match self.shape {
            Shape::ArrayBuffer => TypedArray::<ArrayBufferU8, *mut JSObject>::from(self.object())
                .map(|a| a.len())
                .unwrap_or(0),
            Shape::SharedArrayBuffer => self.bytes().len(),
            Shape::View => TypedArray::<ArrayBufferViewU8, *mut JSObject>::from(self.object())
                .map(|a| a.len())
                .unwrap_or(0),
        }
    }

    /// Whether the value is an `ArrayBufferView` (else an `ArrayBuffer` or
    /// a `SharedArrayBuffer`).
    pub fn is_view(&self) -> bool {
        self.shape == Shape::View
    }

    /// The element type of a view.
    pub fn view_type(&self) -> Option<ScalarType> {
        if self.shape != Shape::View {
            return None;
        }
        // SAFETY: `self.object()` is rooted by `self`; unwrapping only reads
        // the object.
        let unwrapped = unsafe { UnwrapArrayBufferView(self.object()) };
        if unwrapped.is_null() {
            return None;
        }
        // SAFETY: `unwrapped` is a live (rooted through `self`) non-null view.
        Some(unsafe { JS_GetArrayBufferViewType(unwrapped) })
    }

    /// Runs `f` on the bytes of a view (its viewed range), without
    /// running script meanwhile (`None` if not a view or detached).
    pub fn with_bytes_mut<R>(
        &self,
        cx: &mut JSContext,
        f: impl FnOnce(&mut [u8]) -> R,
    ) -> Option<R> {
        if self.shape != Shape::View {
            return None;
        }
        let mut view = TypedArray::<ArrayBufferViewU8, *mut JSObject>::from(self.object()).ok()?;
        let bytes = view.as_mut_slice_safe(cx.no_gc())?;
        Some(f(bytes))
    }
}

impl ToJsValue for BufferObject {
    unsafe fn to_js(&self, cx: &mut JSContext, mut rval: MutableHandleValue) {
        rval.set(ObjectValue(self.object()));
        maybe_wrap_value(cx, rval);
    }
}

/// The shared steps of the conversions
/// (<https://webidl.spec.whatwg.org/#js-buffer-source-types>): the shape
/// of `object` if it is one this type accepts.
fn classify(
    object: *mut JSObject,
    accepts: Accepts,
    conversion: BufferConversion,
) -> Option<Shape> {
    // SAFETY: `object` is a live object the caller holds rooted (a conversion's value); these
    // calls only read it.
    unsafe {
        let buffer = UnwrapArrayBuffer(object);
        if !buffer.is_null() {
            // "If the conversion is not to an IDL type associated with the
            // [AllowResizable] extended attribute, and
            // IsFixedLengthArrayBuffer(V) is false, then throw a TypeError."
            let resizable_refused =
                !conversion.allow_resizable && IsResizableArrayBufferMaybeShared(buffer);
            return (accepts.array_buffer && !resizable_refused).then_some(Shape::ArrayBuffer);
        }
        let shared = UnwrapSharedArrayBuffer(object);
        if !shared.is_null() {
            // (Growable SharedArrayBuffers likewise.)
            let resizable_refused =
                !conversion.allow_resizable && IsResizableArrayBufferMaybeShared(shared);
            return (accepts.shared_array_buffer && !resizable_refused)
                .then_some(Shape::SharedArrayBuffer);
        }
        let view = UnwrapArrayBufferView(object);
        if !view.is_null() {
            // https://webidl.spec.whatwg.org/#js-buffer-source-types: "If
            // the conversion is not to an IDL type associated with the
            // [AllowShared] extended attribute, and
            // IsSharedArrayBuffer(V.[[ViewedArrayBuffer]]) is true, then
            // throw a TypeError. If the conversion is not to an IDL type
            // associated with the [AllowResizable] extended attribute, and
            // IsFixedLengthArrayBuffer(V.[[ViewedArrayBuffer]]) is false,
            // then throw a TypeError."
            if !accepts.view || (!conversion.allow_resizable && IsResizableArrayBufferView(view)) {
                return None;
            }
            if IsArrayBufferViewShared(view) && !accepts.shared_view && !conversion.allow_shared {
                return None;
            }
            if let Some(only) = accepts.element {
                if JS_GetArrayBufferViewType(view) != only {
                    return None;
                }
            }
            return Some(Shape::View);
        }
        None
    }
}

/// `[AllowShared]` and `[AllowResizable]` on the type converted to
/// (<https://webidl.spec.whatwg.org/#AllowShared>,
/// <https://webidl.spec.whatwg.org/#AllowResizable>): the conversion's
/// `Config` for every buffer source type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferConversion {
    /// Views of a `SharedArrayBuffer` convert.
    pub allow_shared: bool,
    /// Resizable `ArrayBuffer`s, growable `SharedArrayBuffer`s and views
    /// of them convert.
    pub allow_resizable: bool,
}

#[derive(Clone, Copy)]
struct Accepts {
    array_buffer: bool,
    shared_array_buffer: bool,
    view: bool,
    shared_view: bool,
    /// A typed array type: only views of this element type.
    element: Option<ScalarType>,
}

fn convert(
    cx: &mut JSContext,
    value: HandleValue,
    accepts: Accepts,
    conversion: BufferConversion,
    name: &str,
) -> Result<BufferObject, ()> {
    if value.is_object() {
        if let Some(shape) = classify(value.to_object(), accepts, conversion) {
            return Ok(BufferObject::new(value.to_object(), shape));
        }
    }
    throw_type_error(cx, &format!("Value is not an {name}."));
    Err(())
}

macro_rules! buffer_source_type {
    ($(#[$doc:meta])* $name:ident, $idl:expr, $accepts:expr) => {
        $(#[$doc])*
        pub struct $name(pub BufferObject);

        impl std::ops::Deref for $name {
            type Target = BufferObject;
            fn deref(&self) -> &BufferObject {
                &self.0
            }
        }

        impl $name {
            /// The value if `object` is one this type (with `conversion`'s
            /// extended attributes) accepts (a union's conversion steps,
            /// overload resolution), else `None` (nothing thrown).
            pub fn try_from_object(object: *mut JSObject, conversion: BufferConversion) -> Option<Self> {
                classify(object, $accepts, conversion)
                    .map(|shape| $name(BufferObject::new(object, shape)))
            }
        }

        impl FromJsValue for $name {
            type Config = BufferConversion;
            unsafe fn from_js(
                cx: &mut JSContext,
                value: HandleValue,
                conversion: BufferConversion,
            ) -> Result<Self, ()> {
                convert(cx, value, $accepts, conversion, $idl).map($name)
            }
        }

        impl ToJsValue for $name {
            unsafe fn to_js(&self, cx: &mut JSContext, rval: MutableHandleValue) {
                // SAFETY: forwards this `to_js`'s own contract (rooted `rval`, `cx` in a
                // realm).
                unsafe { self.0.to_js(cx, rval) }
            }
        }
    };
}

const NONE: Accepts = Accepts {
    array_buffer: false,
    shared_array_buffer: false,
    view: false,
    shared_view: false,
    element: None,
};

const fn typed(element: ScalarType) -> Accepts {
    Accepts {
        view: true,
        element: Some(element),
        ..NONE
    }
}

buffer_source_type!(
    /// `ArrayBuffer` (<https://webidl.spec.whatwg.org/#js-ArrayBuffer>).
    ArrayBuffer,
    "ArrayBuffer",
    Accepts { array_buffer: true, ..NONE }
);
buffer_source_type!(
    /// `ArrayBufferView` (<https://webidl.spec.whatwg.org/#js-ArrayBufferView>).
    ArrayBufferView,
    "ArrayBufferView",
    Accepts { view: true, ..NONE }
);
buffer_source_type!(
    /// `BufferSource`: `(ArrayBufferView or ArrayBuffer)`
    /// (<https://webidl.spec.whatwg.org/#BufferSource>).
    BufferSource,
    "ArrayBuffer or ArrayBufferView",
    Accepts { array_buffer: true, view: true, ..NONE }
);
buffer_source_type!(
    /// `AllowSharedBufferSource`: `(ArrayBuffer or SharedArrayBuffer or
    /// [AllowShared] ArrayBufferView)`
    /// (<https://webidl.spec.whatwg.org/#AllowSharedBufferSource>).
    AllowSharedBufferSource,
    "ArrayBuffer, SharedArrayBuffer or ArrayBufferView",
    Accepts { array_buffer: true, shared_array_buffer: true, view: true, shared_view: true, element: None }
);

/// The typed array types (<https://webidl.spec.whatwg.org/#js-typed-array>),
/// each a view with its element type.
macro_rules! typed_array_types {
    ($($name:ident: $element:ident),* $(,)?) => {
        $(buffer_source_type!(
            #[doc = concat!("`", stringify!($name), "`.")]
            $name, stringify!($name), typed(ScalarType::$element)
        );)*
    };
}

typed_array_types! {
    Uint8Array: Uint8,
    Int8Array: Int8,
    Uint8ClampedArray: Uint8Clamped,
    Int16Array: Int16,
    Uint16Array: Uint16,
    Int32Array: Int32,
    Uint32Array: Uint32,
    Float32Array: Float32,
    Float64Array: Float64,
}

/// Creates a typed array of element type `E` holding `data`.
fn create_typed<E: TypedArrayElement + mozjs::typedarray::TypedArrayElementCreator>(
    cx: &mut JSContext,
    data: &[E::Element],
    shape: Shape,
) -> Result<BufferObject, ()> {
    rooted!(&in(cx) let mut object = ptr::null_mut::<JSObject>());
    // SAFETY: `object` is rooted above; `data` is a live slice copied into the new array.
    unsafe {
        TypedArray::<E, *mut JSObject>::create(cx, CreateWith::Slice(data), object.handle_mut())
    }?;
    Ok(BufferObject::new(object.get(), shape))
}

impl ArrayBuffer {
    /// Create an ArrayBuffer holding a copy of `bytes`
    /// (<https://webidl.spec.whatwg.org/#arraybuffer-create>); `Err` with
    /// an exception pending if out of memory.
    pub fn new(cx: &mut JSContext, bytes: &[u8]) -> Result<Self, ()> {
        create_typed::<ArrayBufferU8>(cx, bytes, Shape::ArrayBuffer).map(ArrayBuffer)
    }
}

macro_rules! typed_array_constructors {
    ($($name:ident: $element:ty, $rust:ty;)*) => {$(
        impl $name {
            /// Create a new typed array holding a copy of `data`
            /// (<https://webidl.spec.whatwg.org/#arraybufferview-create>).
            pub fn new(cx: &mut JSContext, data: &[$rust]) -> Result<Self, ()> {
                create_typed::<$element>(cx, data, Shape::View).map($name)
            }
        }
    )*};
}

typed_array_constructors! {
    Uint8Array: Uint8, u8;
    Int8Array: Int8, i8;
    Uint8ClampedArray: ClampedU8, u8;
    Int16Array: Int16, i16;
    Uint16Array: Uint16, u16;
    Int32Array: Int32, i32;
    Uint32Array: Uint32, u32;
    Float32Array: Float32, f32;
    Float64Array: Float64, f64;
}
