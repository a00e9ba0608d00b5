//! Everything the generated code refers to.

pub use std::ffi::c_void;
pub use std::rc::Rc;

pub use mozjs::context::{JSContext, RawJSContext};
pub use mozjs::gc::{RootedTraceableBox, Traceable};
pub use mozjs::jsapi::Heap;
pub use mozjs::jsapi::{
    JSClass, JSClassOps, JSFunctionSpec, JSObject, JSPropertySpec, JSTracer, JSPROP_ENUMERATE,
    JSPROP_PERMANENT,
};
pub use mozjs::jsval::{JSVal, NullValue, ObjectValue, UndefinedValue};
pub use mozjs::rust::{HandleObject, HandleValue, MutableHandleValue};
pub use mozjs::{rooted, rooted_vec};

pub use crate::dom::bindings::buffer::{
    AllowSharedBufferSource, ArrayBuffer, ArrayBufferView, BufferConversion, BufferSource,
    Float32Array, Float64Array, Int16Array, Int32Array, Int8Array, Uint16Array, Uint32Array,
    Uint8Array, Uint8ClampedArray,
};
pub use crate::dom::bindings::callback::{
    callback_conversion_failed, CallbackFunction, CallbackInterface, CallbackType,
    ExceptionHandling,
};
pub use crate::dom::bindings::codegen::{PrototypeList, INTERFACES};
pub use crate::dom::bindings::conversions::{
    convert_null_to_empty_string, convert_to_enum_index, define_dictionary_member,
    dictionary_object, dom_object_to_js, enum_attribute_index, get_dictionary_member,
    has_iterator_method, is_callable, new_plain_object, ByteString, DOMString, Finite, FromJsValue,
    IntegerConversion, Record, RootedJsObject, RootedJsValue, ToJsValue, USVString,
};
pub use crate::dom::bindings::error::{
    throw_dom_error, throw_type_error, DomExceptionName, Error, ErrorResult, Fallible,
};
pub use crate::dom::bindings::global::{dom_global_jsclass, global_class_ops};
pub use crate::dom::bindings::glue::{
    constructor_prologue, current_realm_is_cross_origin_isolated, static_operation_global,
};
pub use crate::dom::bindings::interface::{
    accessor_spec, function_spec, ConstantSpec, ConstantValue, Exposure, InterfaceSpec,
    IteratorKind, ProtoParent, PrototypeId, SecureContextMembers, StaticSpecs,
};
pub use crate::dom::bindings::iterable::{
    pair_iterable_for_each, pair_iterable_method, pair_iterator_next, IterationKind,
    PairIteratorSpec,
};
pub use crate::dom::bindings::native::{
    call_native, check_argument_count, put_forwards, replace_attribute, require_new_target,
    unwrap_this, NativeArgs, ReturnKind,
};
pub use crate::dom::bindings::promise::Promise;
pub use crate::dom::bindings::proxyhandler::{
    proxy_traps, LegacyPlatformObject, ProxyHandlerCell, Specials,
};
pub use crate::dom::bindings::reflector::{
    dom_class_ops, dom_jsclass, DOMClass, DOMJSClass, DerivedFrom, DomObject, DomObjectIface,
    Reflector, MAX_PROTO_CHAIN_LENGTH,
};
pub use crate::dom::bindings::root::DomRoot;
pub use crate::dom::events::eventtarget::AsEventTarget;
pub use crate::dom::globals::globalscope::GlobalScope;
pub use mozjs::glue::ProxyTraps;
