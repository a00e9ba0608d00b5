//! Interface objects and interface prototype objects
//! (<https://webidl.spec.whatwg.org/#es-interfaces>), created once per
//! global from the generated [`InterfaceSpec`]s and cached in the global's
//! [`GlobalBindings`].

use std::ffi::CStr;
use std::ptr;

use mozjs::context::{JSContext, RawJSContext};
use mozjs::jsapi::{
    JSClass, JSFunctionSpec, JSNativeWrapper, JSObject, JSPropertySpec, JSPropertySpec_Accessor,
    JSPropertySpec_AccessorsOrValue, JSPropertySpec_AccessorsOrValue_Accessors,
    JSPropertySpec_Kind, JSPropertySpec_Name, JS_GetFunctionObject, SymbolCode, JSFUN_CONSTRUCTOR,
    JSPROP_PERMANENT, JSPROP_READONLY,
};
use mozjs::jsid::SymbolId;
use mozjs::jsval::{BooleanValue, DoubleValue, JSVal, ObjectValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::{
    GetRealmArrayPrototype, GetRealmErrorPrototype, GetRealmFunctionPrototype,
    GetRealmObjectPrototype, GetWellKnownSymbol, JS_DefineFunctions, JS_DefineProperties,
    JS_DefineProperty, JS_DefinePropertyById2, JS_GetProperty, JS_NewFunction,
    JS_NewObjectWithGivenProto, JS_SetPrototype,
};
use mozjs::rust::HandleObject;

use crate::conversions::ToJsValue;
use crate::error::throw_type_error;
use crate::global::{GlobalBindings, GlobalKind};
use crate::hooks::hooks;
use crate::iterable::{define_pair_iterator, PairIteratorSpec};
use crate::native::{call_native, ReturnKind};

/// Identifies an interface: its index in the generated `INTERFACES` (see
/// [`DomHooks::interfaces`](crate::hooks::DomHooks::interfaces)) and in the
/// per-global caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrototypeId(pub u16);

/// What the interface prototype object's `[[Prototype]]` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtoParent {
    /// `%Object.prototype%`.
    ObjectPrototype,
    /// `%Error.prototype%` (DOMException only).
    ErrorPrototype,
    /// The parent interface's prototype object.
    Parent,
}

/// The globals an interface is exposed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exposure {
    pub window: bool,
    pub dedicated_worker: bool,
}

impl Exposure {
    /// <https://webidl.spec.whatwg.org/#dfn-exposed>
    pub fn includes(self, kind: GlobalKind) -> bool {
        match kind {
            GlobalKind::Window => self.window,
            GlobalKind::DedicatedWorker => self.dedicated_worker,
        }
    }
}

pub enum ConstantValue {
    Bool(bool),
    Number(f64),
}

/// A `const` member.
pub struct ConstantSpec {
    pub name: &'static CStr,
    pub value: ConstantValue,
}

type Native = unsafe extern "C" fn(*mut RawJSContext, u32, *mut JSVal) -> bool;

/// Everything needed to create an interface's objects.
pub struct InterfaceSpec {
    pub id: PrototypeId,
    pub name: &'static CStr,
    pub parent: Option<PrototypeId>,
    pub proto_parent: ProtoParent,
    /// `None`: the interface has no constructor operation.
    pub constructor: Option<Native>,
    /// The `length` of the interface object.
    pub constructor_length: u32,
    pub attributes: &'static [JSPropertySpec],
    pub methods: &'static [JSFunctionSpec],
    /// Static operations: functions of the interface object.
    pub static_methods: &'static [JSFunctionSpec],
    /// Static attributes: accessors of the interface object.
    pub static_attributes: &'static [JSPropertySpec],
    pub constants: &'static [ConstantSpec],
    pub exposure: Exposure,
    /// `[Pref="name"]`: installed only on globals with that pref enabled.
    pub pref: Option<&'static str>,
    /// `[Global]`: the regular attributes and operations are own
    /// properties of the global object, not of the interface prototype
    /// object (<https://webidl.spec.whatwg.org/#es-attributes>,
    /// <https://webidl.spec.whatwg.org/#es-operations>: "the global object
    /// if the interface is declared with `[Global]`").
    pub global: bool,
    /// The iterable declaration, if any.
    pub iterator: IteratorKind,
    /// `[SecureContext]` on the interface
    /// (<https://webidl.spec.whatwg.org/#SecureContext>): its interface
    /// object is defined only on globals that are secure contexts.
    pub secure_context: bool,
    /// The `[SecureContext]` members, defined only on globals that are
    /// secure contexts.
    pub secure: SecureContextMembers,
}

/// The `[SecureContext]` regular and static attributes and operations of
/// an interface (<https://webidl.spec.whatwg.org/#SecureContext>), each
/// list ending with a zero spec.
pub struct SecureContextMembers {
    pub attributes: &'static [JSPropertySpec],
    pub methods: &'static [JSFunctionSpec],
    pub static_attributes: &'static [JSPropertySpec],
    pub static_methods: &'static [JSFunctionSpec],
}

/// The iterable declaration of an interface
/// (<https://webidl.spec.whatwg.org/#idl-iterable>).
#[derive(Clone, Copy)]
pub enum IteratorKind {
    None,
    /// `iterable<V>` on an interface with an indexed property getter: the
    /// iteration methods are %Array.prototype%'s.
    Value,
    /// An indexed property getter without an iterable declaration: only
    /// @@iterator, %Array.prototype.values%
    /// (<https://webidl.spec.whatwg.org/#es-iterator>).
    Indexed,
    /// `iterable<K, V>`: the generated `entries`, `keys`, `values` and
    /// `forEach`, and the iterator prototype object.
    Pair(&'static PairIteratorSpec),
}

// SAFETY: immutable statics pointing at other statics.
unsafe impl Sync for InterfaceSpec {}

/// Makes arrays of specs (which hold raw pointers) usable in statics.
pub struct StaticSpecs<T>(pub T);

// SAFETY: only used for immutable statics pointing at 'static data.
unsafe impl<T> Sync for StaticSpecs<T> {}

/// An accessor property spec (<https://webidl.spec.whatwg.org/#es-attributes>).
pub const fn accessor_spec(
    name: &'static CStr,
    getter: Option<Native>,
    setter: Option<Native>,
    attributes: u8,
) -> JSPropertySpec {
    JSPropertySpec {
        name: JSPropertySpec_Name {
            string_: name.as_ptr(),
        },
        attributes_: attributes,
        kind_: JSPropertySpec_Kind::NativeAccessor,
        u: JSPropertySpec_AccessorsOrValue {
            accessors: JSPropertySpec_AccessorsOrValue_Accessors {
                getter: JSPropertySpec_Accessor {
                    native: JSNativeWrapper {
                        op: getter,
                        info: ptr::null(),
                    },
                },
                setter: JSPropertySpec_Accessor {
                    native: JSNativeWrapper {
                        op: setter,
                        info: ptr::null(),
                    },
                },
            },
        },
    }
}

/// A method spec (<https://webidl.spec.whatwg.org/#es-operations>).
pub const fn function_spec(
    name: &'static CStr,
    call: Option<Native>,
    length: u16,
    flags: u8,
) -> JSFunctionSpec {
    JSFunctionSpec {
        name: JSPropertySpec_Name {
            string_: name.as_ptr(),
        },
        call: JSNativeWrapper {
            op: call,
            info: ptr::null(),
        },
        nargs: length,
        flags: flags as u16,
        selfHostedName: ptr::null(),
    }
}

/// The class of interface prototype objects: ordinary objects, with one
/// reserved slot for the iterator prototype object of a pair iterator
/// ([`crate::iterable::ITERATOR_PROTOTYPE_SLOT`]).
static PROTOTYPE_CLASS: JSClass = JSClass {
    name: c"Object".as_ptr(),
    flags: 1 << mozjs::jsapi::JSCLASS_RESERVED_SLOTS_SHIFT,
    cOps: ptr::null(),
    spec: ptr::null(),
    ext: ptr::null(),
    oOps: ptr::null(),
};

/// The \[\[Call]]/\[\[Construct]] of an interface object without a constructor
/// operation: <https://webidl.spec.whatwg.org/#js-interface-object>, step 1
/// of the steps: "throw a TypeError".
unsafe extern "C" fn illegal_constructor(cx: *mut RawJSContext, argc: u32, vp: *mut JSVal) -> bool {
    // SAFETY: `cx`, `argc` and `vp` are this JSNative's own arguments, passed
    // by SpiderMonkey.
    unsafe {
        call_native(
            cx,
            argc,
            vp,
            "constructor",
            ReturnKind::Value,
            |cx, _args| {
                throw_type_error(cx, "Illegal constructor.");
                Err(())
            },
        )
    }
}

/// Creates `id`'s interface object and interface prototype object in
/// `global` unless they exist (and those of its ancestors first).
/// `global` must be a global made by `GlobalBindings::create_global` (checked:
/// any other object panics), with `cx` in its realm.
pub fn get_or_create_interface_objects(
    cx: &mut JSContext,
    global: HandleObject,
    id: PrototypeId,
) -> Result<(), ()> {
    // SAFETY: `global` is a rooted handle, so the object is live for this
    // call, and `scope` is used only within it. `from_global` checks the
    // object's class (it panics for an object that is not one of our
    // globals), so no caller can make it read another object's slots.
    let scope = unsafe { GlobalBindings::from_global(global.get()) };
    if !scope.cached_prototype(id).is_null() {
        return Ok(());
    }
    let spec = hooks().interfaces[id.0 as usize];
    if let Some(parent) = spec.parent {
        get_or_create_interface_objects(cx, global, parent)?;
    }

    // https://webidl.spec.whatwg.org/#interface-prototype-object
    // Step 1-5: the [[Prototype]] of the interface prototype object.
    rooted!(&in(cx) let mut proto_proto = ptr::null_mut::<JSObject>());
    match (spec.proto_parent, spec.parent) {
        (ProtoParent::Parent, Some(parent)) => proto_proto.set(scope.cached_prototype(parent)),
        // SAFETY: a query of the current realm (`global`'s, entered by the
        // caller); the result is stored in the rooted `proto_proto` at once.
        (ProtoParent::ErrorPrototype, _) => proto_proto.set(unsafe { GetRealmErrorPrototype(cx) }),
        // SAFETY: as above.
        _ => proto_proto.set(unsafe { GetRealmObjectPrototype(cx) }),
    }
    if proto_proto.get().is_null() {
        return Err(());
    }
    // Step 6: the interface prototype object (an ordinary object).
    // SAFETY: `proto_proto` is rooted and non-null (checked above);
    // PROTOTYPE_CLASS is static; the new object is rooted at once.
    rooted!(&in(cx) let proto = unsafe {
        JS_NewObjectWithGivenProto(cx, &PROTOTYPE_CLASS, proto_proto.handle())
    });
    if proto.get().is_null() {
        return Err(());
    }
    // Regular attributes and operations
    // (https://webidl.spec.whatwg.org/#define-the-attributes,
    // https://webidl.spec.whatwg.org/#define-the-operations).
    if !spec.global {
        define_members(cx, proto.handle(), spec)?;
        if scope.secure_members_exposed() {
            define_secure_members(cx, proto.handle(), spec)?;
        }
    }
    define_constants(cx, proto.handle(), spec.constants)?;
    match spec.iterator {
        IteratorKind::None => {}
        IteratorKind::Value => define_value_iterator_methods(cx, proto.handle())?,
        IteratorKind::Indexed => define_indexed_iterator(cx, proto.handle())?,
        IteratorKind::Pair(pair) => define_pair_iterator(cx, proto.handle(), pair)?,
    }
    // https://webidl.spec.whatwg.org/#interface-prototype-object: the
    // @@toStringTag property ({[[Writable]]: false, [[Enumerable]]: false,
    // [[Configurable]]: true}) whose value is the identifier.
    let name = spec.name.to_str().map_err(|_| ())?;
    rooted!(&in(cx) let mut tag = mozjs::jsval::UndefinedValue());
    // SAFETY: `tag` is rooted.
    unsafe { name.to_js(cx, tag.handle_mut()) };
    // SAFETY: a plain query of this thread's live context; the id is rooted
    // at once.
    rooted!(&in(cx) let tag_id = SymbolId(unsafe { GetWellKnownSymbol(cx, SymbolCode::toStringTag) }));
    // SAFETY: `proto`, `tag_id` and `tag` are all rooted.
    if !unsafe {
        JS_DefinePropertyById2(
            cx,
            proto.handle(),
            tag_id.handle(),
            tag.handle(),
            JSPROP_READONLY as u32,
        )
    } {
        return Err(());
    }

    // https://webidl.spec.whatwg.org/#interface-object
    // Step 1-3 (CreateBuiltinFunction with `length` and `name` set): a
    // constructor function whose [[Call]] throws without NewTarget.
    let native = spec.constructor.unwrap_or(illegal_constructor);
    // SAFETY: `native` has the JSNative signature and the name is a static C
    // string; the function is rooted (through its object) on the next
    // statement, before anything can GC.
    let function = unsafe {
        JS_NewFunction(
            cx,
            Some(native),
            spec.constructor_length,
            JSFUN_CONSTRUCTOR,
            spec.name.as_ptr(),
        )
    };
    if function.is_null() {
        return Err(());
    }
    // SAFETY: `function` is non-null (checked above) and not yet collectable:
    // no GC can happen between its creation and this call.
    rooted!(&in(cx) let interface = unsafe { JS_GetFunctionObject(function) });
    // Its [[Prototype]]: the parent's interface object, else
    // %Function.prototype%.
    rooted!(&in(cx) let mut interface_proto = ptr::null_mut::<JSObject>());
    match spec.parent {
        Some(parent) => interface_proto.set(scope.cached_interface_object(parent)),
        // SAFETY: a query of the current realm (`global`'s); rooted at once.
        None => interface_proto.set(unsafe { GetRealmFunctionPrototype(cx) }),
    }
    // SAFETY: `interface` and `interface_proto` are rooted.
    if !unsafe { JS_SetPrototype(cx, interface.handle(), interface_proto.handle()) } {
        return Err(());
    }
    // Step 8 ("prototype": {[[Writable]]: false, [[Enumerable]]: false,
    // [[Configurable]]: false}).
    rooted!(&in(cx) let proto_value = ObjectValue(proto.get()));
    // SAFETY: `interface` and `proto_value` are rooted.
    if !unsafe {
        JS_DefineProperty(
            cx,
            interface.handle(),
            c"prototype".as_ptr(),
            proto_value.handle(),
            (JSPROP_READONLY | JSPROP_PERMANENT) as u32,
        )
    } {
        return Err(());
    }
    // Constants are also properties of the interface object.
    define_constants(cx, interface.handle(), spec.constants)?;
    // https://webidl.spec.whatwg.org/#es-static-operations: for each static
    // operation, define a property on the interface object.
    if spec.static_methods.len() > 1
        // SAFETY: the specs are the interface's static, null-terminated lists
        // (len > 1 checked first) and the target handle is rooted by the caller.
        && !unsafe { JS_DefineFunctions(cx, interface.handle(), spec.static_methods.as_ptr()) }
    {
        return Err(());
    }
    // https://webidl.spec.whatwg.org/#es-attributes: static attributes are
    // accessor properties of the interface object.
    if spec.static_attributes.len() > 1
        // SAFETY: the specs are the interface's static, null-terminated lists
        // (len > 1 checked first) and the target handle is rooted by the caller.
        && !unsafe { JS_DefineProperties(cx, interface.handle(), spec.static_attributes.as_ptr()) }
    {
        return Err(());
    }
    if scope.secure_members_exposed() {
        define_secure_static_members(cx, interface.handle(), spec)?;
    }
    // The prototype's "constructor" ({[[Writable]]: true, [[Enumerable]]:
    // false, [[Configurable]]: true}).
    rooted!(&in(cx) let interface_value = ObjectValue(interface.get()));
    // SAFETY: `proto` and `interface_value` are rooted.
    if !unsafe {
        JS_DefineProperty(
            cx,
            proto.handle(),
            c"constructor".as_ptr(),
            interface_value.handle(),
            0,
        )
    } {
        return Err(());
    }
    scope.cache_interface_objects(id, proto.get(), interface.get());
    Ok(())
}

/// <https://webidl.spec.whatwg.org/#define-the-attributes> and
/// <https://webidl.spec.whatwg.org/#define-the-operations> of `spec` on
/// `object`.
pub fn define_members(
    cx: &mut JSContext,
    object: HandleObject,
    spec: &InterfaceSpec,
) -> Result<(), ()> {
    // SAFETY: the specs are the interface's static, null-terminated lists
    // (len > 1 checked first) and the target handle is rooted by the caller.
    unsafe {
        if spec.attributes.len() > 1 && !JS_DefineProperties(cx, object, spec.attributes.as_ptr()) {
            return Err(());
        }
        if spec.methods.len() > 1 && !JS_DefineFunctions(cx, object, spec.methods.as_ptr()) {
            return Err(());
        }
    }
    Ok(())
}

/// The `[SecureContext]` regular attributes and operations of `spec` on
/// `object` (its interface prototype object, or the global for a
/// `[Global]` interface) (<https://webidl.spec.whatwg.org/#SecureContext>).
fn define_secure_members(
    cx: &mut JSContext,
    object: HandleObject,
    spec: &InterfaceSpec,
) -> Result<(), ()> {
    let secure = &spec.secure;
    // SAFETY: the specs are the interface's static, null-terminated lists
    // (len > 1 checked first) and the target handle is rooted by the caller.
    unsafe {
        if secure.attributes.len() > 1
            && !JS_DefineProperties(cx, object, secure.attributes.as_ptr())
        {
            return Err(());
        }
        if secure.methods.len() > 1 && !JS_DefineFunctions(cx, object, secure.methods.as_ptr()) {
            return Err(());
        }
    }
    Ok(())
}

/// The `[SecureContext]` static attributes and operations of `spec` on its
/// interface object (<https://webidl.spec.whatwg.org/#SecureContext>).
fn define_secure_static_members(
    cx: &mut JSContext,
    interface: HandleObject,
    spec: &InterfaceSpec,
) -> Result<(), ()> {
    let secure = &spec.secure;
    // SAFETY: the specs are the interface's static, null-terminated lists
    // (len > 1 checked first) and the target handle is rooted by the caller.
    unsafe {
        if secure.static_methods.len() > 1
            && !JS_DefineFunctions(cx, interface, secure.static_methods.as_ptr())
        {
            return Err(());
        }
        if secure.static_attributes.len() > 1
            && !JS_DefineProperties(cx, interface, secure.static_attributes.as_ptr())
        {
            return Err(());
        }
    }
    Ok(())
}

/// Whether the global `scope` exposes the interface `spec` at all (its
/// kind of global, its prefs, and `[SecureContext]`).
fn interface_exposed(scope: &GlobalBindings, spec: &InterfaceSpec) -> bool {
    spec.exposure.includes(scope.kind())
        && scope.prefs().interface_enabled(spec)
        && (!spec.secure_context || scope.secure_members_exposed())
}

/// Defines the global property of `spec`'s interface object on `global`
/// ({\[\[Writable]]: true, \[\[Enumerable]]: false, \[\[Configurable]]: true};
/// <https://webidl.spec.whatwg.org/#define-the-global-property-references>),
/// creating the interface objects first.
fn define_interface_property(
    cx: &mut JSContext,
    global: HandleObject,
    scope: &GlobalBindings,
    spec: &InterfaceSpec,
) -> Result<(), ()> {
    get_or_create_interface_objects(cx, global, spec.id)?;
    rooted!(&in(cx) let value = ObjectValue(scope.cached_interface_object(spec.id)));
    // SAFETY: `global` and `value` are rooted (the interface object exists:
    // created just above); the name is a static C string.
    if !unsafe { JS_DefineProperty(cx, global, spec.name.as_ptr(), value.handle(), 0) } {
        return Err(());
    }
    Ok(())
}

/// Defines the `[SecureContext]` interfaces and members
/// (<https://webidl.spec.whatwg.org/#SecureContext>: "exposed ... only if
/// the realm's settings object is a secure context") on `global`, once its
/// environment is known to be a secure context
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#secure-context>;
/// a document's or worker's environment is decided after its global is
/// created, before any of its scripts runs). Does nothing the second time.
/// `cx` is in `global`'s realm, and `global` must be a global made by
/// `GlobalBindings::create_global` (checked: any other object panics).
pub fn expose_secure_context_members(cx: &mut JSContext, global: HandleObject) -> Result<(), ()> {
    // SAFETY: `global` is a rooted handle (a live object for this call) and
    // `scope` is used only within the call; `from_global` checks that it is
    // one of our globals (and panics otherwise).
    let scope = unsafe { GlobalBindings::from_global(global.get()) };
    if scope.secure_members_exposed() {
        return Ok(());
    }
    scope.set_secure_members_exposed();
    for spec in hooks().interfaces.iter() {
        if !interface_exposed(scope, spec) {
            continue;
        }
        // The members of interfaces whose objects exist already (the
        // others get them when they are created).
        let proto = scope.cached_prototype(spec.id);
        if !proto.is_null() {
            rooted!(&in(cx) let proto = proto);
            rooted!(&in(cx) let interface = scope.cached_interface_object(spec.id));
            let target = if spec.global { global } else { proto.handle() };
            define_secure_members(cx, target, spec)?;
            define_secure_static_members(cx, interface.handle(), spec)?;
        }
        if spec.secure_context {
            define_interface_property(cx, global, scope, spec)?;
        }
    }
    Ok(())
}

/// The properties of an interface with a value iterator
/// (<https://webidl.spec.whatwg.org/#es-iterators>):
/// - @@iterator (<https://webidl.spec.whatwg.org/#es-iterator>): "If the
///   interface defines an indexed property getter, then F is
///   %Array.prototype.values%", {\[\[Writable]]: true, \[\[Enumerable]]: false,
///   \[\[Configurable]]: true};
/// - `entries`, `keys`, `values`, `forEach`
///   (<https://webidl.spec.whatwg.org/#es-iterable-entries> and the next
///   sections): "If the interface has a value iterator, then F is
///   %Array.prototype.entries%" (`keys`, `values`, `forEach` alike),
///   {\[\[Writable]]: true, \[\[Enumerable]]: true, \[\[Configurable]]: true}.
fn define_value_iterator_methods(cx: &mut JSContext, proto: HandleObject) -> Result<(), ()> {
    // SAFETY: a query of the current realm; rooted at once.
    rooted!(&in(cx) let array_proto = unsafe { GetRealmArrayPrototype(cx) });
    if array_proto.get().is_null() {
        return Err(());
    }
    rooted!(&in(cx) let mut function = mozjs::jsval::UndefinedValue());
    for name in [c"entries", c"keys", c"values", c"forEach"] {
        // SAFETY: `array_proto` is rooted and non-null (checked above);
        // `function` is rooted.
        if !unsafe {
            JS_GetProperty(
                cx,
                array_proto.handle(),
                name.as_ptr(),
                function.handle_mut(),
            )
        } {
            return Err(());
        }
        // SAFETY: `proto` is rooted by the caller, `function` is rooted.
        if !unsafe {
            JS_DefineProperty(
                cx,
                proto,
                name.as_ptr(),
                function.handle(),
                mozjs::jsapi::JSPROP_ENUMERATE as u32,
            )
        } {
            return Err(());
        }
    }
    define_indexed_iterator(cx, proto)
}

/// <https://webidl.spec.whatwg.org/#es-iterator>: "If the interface defines
/// an indexed property getter, then F is %Array.prototype.values%", with
/// {\[\[Writable]]: true, \[\[Enumerable]]: false, \[\[Configurable]]: true}.
fn define_indexed_iterator(cx: &mut JSContext, proto: HandleObject) -> Result<(), ()> {
    // SAFETY: a query of the current realm; rooted at once.
    rooted!(&in(cx) let array_proto = unsafe { GetRealmArrayPrototype(cx) });
    if array_proto.get().is_null() {
        return Err(());
    }
    rooted!(&in(cx) let mut function = mozjs::jsval::UndefinedValue());
    // SAFETY: `array_proto` is rooted and non-null (checked above);
    // `function` is rooted.
    if !unsafe {
        JS_GetProperty(
            cx,
            array_proto.handle(),
            c"values".as_ptr(),
            function.handle_mut(),
        )
    } {
        return Err(());
    }
    // SAFETY: a plain query of this thread's live context; rooted at once.
    rooted!(&in(cx) let iterator_id = SymbolId(unsafe { GetWellKnownSymbol(cx, SymbolCode::iterator) }));
    // SAFETY: `proto`, `iterator_id` and `function` are rooted.
    if !unsafe { JS_DefinePropertyById2(cx, proto, iterator_id.handle(), function.handle(), 0) } {
        return Err(());
    }
    Ok(())
}

/// <https://webidl.spec.whatwg.org/#define-the-constants>: {\[\[Writable]]:
/// false, \[\[Enumerable]]: true, \[\[Configurable]]: false}.
fn define_constants(
    cx: &mut JSContext,
    object: HandleObject,
    constants: &[ConstantSpec],
) -> Result<(), ()> {
    for constant in constants {
        let value = match constant.value {
            ConstantValue::Bool(b) => BooleanValue(b),
            ConstantValue::Number(n) => DoubleValue(n),
        };
        rooted!(&in(cx) let value = value);
        let attributes =
            (mozjs::jsapi::JSPROP_ENUMERATE | JSPROP_READONLY | JSPROP_PERMANENT) as u32;
        // SAFETY: `object` is rooted by the caller and `value` is rooted; the name
        // is a static C string.
        if !unsafe {
            JS_DefineProperty(
                cx,
                object,
                constant.name.as_ptr(),
                value.handle(),
                attributes,
            )
        } {
            return Err(());
        }
    }
    Ok(())
}

/// Defines, on `global`, the interface object of every interface exposed
/// on its kind of global and enabled by its prefs
/// (<https://webidl.spec.whatwg.org/#define-the-global-property-references>):
/// {\[\[Writable]]: true, \[\[Enumerable]]: false, \[\[Configurable]]: true}.
/// `global` must be a global made by `GlobalBindings::create_global` (checked:
/// any other object panics), with `cx` in its realm.
pub fn install_interfaces(cx: &mut JSContext, global: HandleObject) -> Result<(), ()> {
    // SAFETY: `global` is a rooted handle (a live object for this call) and
    // `scope` is used only within the call; `from_global` checks that it is
    // one of our globals with its state set (and panics otherwise).
    let scope = unsafe { GlobalBindings::from_global(global.get()) };
    for spec in hooks().interfaces.iter() {
        if !interface_exposed(scope, spec) {
            continue;
        }
        get_or_create_interface_objects(cx, global, spec.id)?;
        if spec.global {
            // The members of a [Global] interface live on the global.
            define_members(cx, global, spec)?;
            if scope.secure_members_exposed() {
                define_secure_members(cx, global, spec)?;
            }
        }
        define_interface_property(cx, global, scope, spec)?;
    }
    Ok(())
}
