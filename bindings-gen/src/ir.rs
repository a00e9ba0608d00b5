//! The resolved WebIDL model the code generator works from.
//!
//! Typedefs are expanded, every type name is resolved to the kind of
//! definition it names, and everything the generator cannot handle has been
//! rejected with a positioned error (see [`crate::parse`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where a definition or member was declared (1-origin line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
}

/// A WebIDL integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegerType {
    Byte,
    Octet,
    Short,
    UnsignedShort,
    Long,
    UnsignedLong,
    LongLong,
    UnsignedLongLong,
}

impl IntegerType {
    /// The IDL spelling.
    pub fn idl_name(self) -> &'static str {
        match self {
            IntegerType::Byte => "byte",
            IntegerType::Octet => "octet",
            IntegerType::Short => "short",
            IntegerType::UnsignedShort => "unsigned short",
            IntegerType::Long => "long",
            IntegerType::UnsignedLong => "unsigned long",
            IntegerType::LongLong => "long long",
            IntegerType::UnsignedLongLong => "unsigned long long",
        }
    }

    /// The Rust type the value converts to.
    pub fn rust_name(self) -> &'static str {
        match self {
            IntegerType::Byte => "i8",
            IntegerType::Octet => "u8",
            IntegerType::Short => "i16",
            IntegerType::UnsignedShort => "u16",
            IntegerType::Long => "i32",
            IntegerType::UnsignedLong => "u32",
            IntegerType::LongLong => "i64",
            IntegerType::UnsignedLongLong => "u64",
        }
    }
}

/// How a value converts to an integer type
/// (<https://webidl.spec.whatwg.org/#abstract-opdef-converttoint>).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IntegerConversion {
    /// Modulo conversion.
    #[default]
    Default,
    /// `[EnforceRange]`.
    EnforceRange,
    /// `[Clamp]`.
    Clamp,
}

/// A resolved WebIDL type.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    Undefined,
    Any,
    Boolean,
    Integer(IntegerType, IntegerConversion),
    /// `float` or `double`; `restricted` unless declared `unrestricted`.
    Float {
        double: bool,
        restricted: bool,
    },
    DOMString,
    /// `[LegacyNullToEmptyString] DOMString`: null converts to the empty
    /// string (<https://webidl.spec.whatwg.org/#LegacyNullToEmptyString>).
    NullToEmptyString,
    USVString,
    /// `ByteString` (<https://webidl.spec.whatwg.org/#idl-ByteString>).
    ByteString,
    Object,
    /// `record<K, V>` (K is a string type).
    Record(Box<Type>, Box<Type>),
    /// A buffer source type (<https://webidl.spec.whatwg.org/#idl-buffer-source-types>),
    /// by its Rust name in `dom::bindings::buffer` (`ArrayBuffer`,
    /// `ArrayBufferView`, `BufferSource`, `AllowSharedBufferSource`,
    /// `Uint8Array`, ...).
    Buffer(&'static str, BufferAllow),
    Sequence(Box<Type>),
    Nullable(Box<Type>),
    Promise(Box<Type>),
    Enum(String),
    Dictionary(String),
    Interface(String),
    CallbackFunction(String),
    CallbackInterface(String),
    /// The flattened member types of a union (no nullable members: a
    /// nullable union is `Nullable(Union(..))`).
    Union(Vec<Type>),
}

/// `[AllowShared]` and `[AllowResizable]` on a buffer source type
/// (<https://webidl.spec.whatwg.org/#AllowShared>,
/// <https://webidl.spec.whatwg.org/#AllowResizable>): whether views of a
/// `SharedArrayBuffer`, and resizable (or growable) buffers and views of
/// them, convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BufferAllow {
    pub shared: bool,
    pub resizable: bool,
}

impl Type {
    /// The name used for this type in generated union names
    /// (`BooleanOrAddEventListenerOptions`).
    pub fn union_member_name(&self) -> String {
        match self {
            Type::Undefined => "Undefined".into(),
            Type::Any => "Any".into(),
            Type::Boolean => "Boolean".into(),
            Type::Integer(i, _) => {
                let mut s = String::new();
                for word in i.idl_name().split(' ') {
                    let mut c = word.chars();
                    if let Some(f) = c.next() {
                        s.push(f.to_ascii_uppercase());
                        s.push_str(c.as_str());
                    }
                }
                s
            }
            Type::Float { double, restricted } => {
                let base = if *double { "Double" } else { "Float" };
                if *restricted {
                    base.into()
                } else {
                    format!("Unrestricted{base}")
                }
            }
            Type::DOMString | Type::NullToEmptyString => "String".into(),
            Type::USVString => "USVString".into(),
            Type::ByteString => "ByteString".into(),
            Type::Object => "Object".into(),
            Type::Record(k, v) => {
                format!("{}{}Record", k.union_member_name(), v.union_member_name())
            }
            Type::Buffer(name, _) => (*name).into(),
            Type::Sequence(t) => format!("{}Sequence", t.union_member_name()),
            Type::Nullable(t) => format!("Nullable{}", t.union_member_name()),
            Type::Promise(t) => format!("{}Promise", t.union_member_name()),
            Type::Enum(n)
            | Type::Dictionary(n)
            | Type::Interface(n)
            | Type::CallbackFunction(n)
            | Type::CallbackInterface(n) => n.clone(),
            Type::Union(members) => union_name(members),
        }
    }

    /// Whether `undefined`/`null` converts to this type without an error,
    /// which decides whether a dictionary argument may be required.
    pub fn is_nullable(&self) -> bool {
        matches!(self, Type::Nullable(_))
    }

    /// The type without a nullable wrapper.
    pub fn inner(&self) -> &Type {
        match self {
            Type::Nullable(t) => t,
            t => t,
        }
    }
}

/// The Rust name of the enum generated for a union.
pub fn union_name(members: &[Type]) -> String {
    members
        .iter()
        .map(Type::union_member_name)
        .collect::<Vec<_>>()
        .join("Or")
}

/// A default value (`= ...`) of an optional argument or dictionary member.
#[derive(Debug, Clone, PartialEq)]
pub enum DefaultValue {
    Boolean(bool),
    /// An integer literal, kept as written (decimal, hex or octal).
    Integer(i128),
    Float(f64),
    String(String),
    Null,
    /// `{}`.
    EmptyDictionary,
    /// `[]`.
    EmptySequence,
    Undefined,
}

/// A constant's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    Boolean(bool),
    Integer(i128),
    Float(f64),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Argument {
    pub name: String,
    pub ty: Type,
    pub optional: bool,
    pub default: Option<DefaultValue>,
    /// `T... name`: the last argument, taking every remaining value (its
    /// Rust type is `Vec<T>`).
    pub variadic: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// `None` for constructors.
    pub name: Option<String>,
    pub arguments: Vec<Argument>,
    pub return_type: Type,
    /// `[SecureContext]` (<https://webidl.spec.whatwg.org/#SecureContext>):
    /// defined only on globals whose settings object is a secure context.
    pub secure_context: bool,
    pub location: Location,
}

impl Operation {
    /// The `length` of the function object: the number of arguments before
    /// the first optional one
    /// (<https://webidl.spec.whatwg.org/#dfn-create-operation-function>).
    pub fn required_argument_count(&self) -> usize {
        self.arguments
            .iter()
            .take_while(|a| !a.optional && !a.variadic)
            .count()
    }

    pub fn returns_promise(&self) -> bool {
        matches!(self.return_type, Type::Promise(_))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub ty: Type,
    pub readonly: bool,
    /// `[LegacyUnforgeable]`: defined on each instance, non-configurable.
    pub unforgeable: bool,
    /// `[Throws]` (a binding annotation, as in Gecko and Servo): the getter
    /// may throw (its trait method returns `Fallible`), as prose-defined
    /// getters do (a cross-origin `WindowProxy`'s `document`).
    pub getter_throws: bool,
    /// Declared with the type `EventHandler`: an event handler IDL
    /// attribute
    /// (<https://html.spec.whatwg.org/multipage/webappapis.html#event-handler-idl-attributes>)
    /// for the event type named by the attribute's name without its `on`
    /// prefix. Its getter and setter are provided methods of the `*Methods`
    /// trait (the interface must inherit from `EventTarget`).
    pub event_handler: bool,
    /// Declared with the type `OnErrorEventHandler` (an event handler IDL
    /// attribute whose callback is an `OnErrorEventHandlerNonNull`, called
    /// with five arguments for `ErrorEvent`s at a global): `event_handler`
    /// is set too. The handler is stored as the same callback object as
    /// any event handler; the getter and setter convert.
    pub on_error_event_handler: bool,
    /// `[PutForwards=name]` (<https://webidl.spec.whatwg.org/#PutForwards>):
    /// assigning sets `name` on the attribute's value.
    pub put_forwards: Option<String>,
    /// `[Replaceable]` (<https://webidl.spec.whatwg.org/#Replaceable>):
    /// assigning defines an own data property shadowing the attribute.
    pub replaceable: bool,
    /// `[SecureContext]` (<https://webidl.spec.whatwg.org/#SecureContext>):
    /// defined only on globals whose settings object is a secure context.
    pub secure_context: bool,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    pub name: String,
    pub ty: Type,
    pub value: ConstValue,
}

/// The globals an interface is exposed on
/// (<https://webidl.spec.whatwg.org/#Exposed>).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Exposure {
    pub window: bool,
    pub dedicated_worker: bool,
}

impl Exposure {
    pub fn all() -> Exposure {
        Exposure {
            window: true,
            dedicated_worker: true,
        }
    }

    /// Whether some global is in both.
    pub fn intersects(self, other: Exposure) -> bool {
        (self.window && other.window) || (self.dedicated_worker && other.dedicated_worker)
    }

    /// Whether every global in `self` is also in `other`.
    pub fn is_subset_of(self, other: Exposure) -> bool {
        (!self.window || other.window) && (!self.dedicated_worker || other.dedicated_worker)
    }
}

/// The special operations of an interface
/// (<https://webidl.spec.whatwg.org/#idl-special-operations>). An operation
/// declared with an identifier is also among the interface's regular
/// operations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Specials {
    /// `getter T (unsigned long index)`.
    pub indexed_getter: Option<Operation>,
    /// `setter undefined (unsigned long index, T value)`.
    pub indexed_setter: Option<Operation>,
    /// `getter T (DOMString name)`.
    pub named_getter: Option<Operation>,
    /// `setter undefined (DOMString name, T value)`.
    pub named_setter: Option<Operation>,
    /// `deleter undefined (DOMString name)` (or returning `boolean`).
    pub named_deleter: Option<Operation>,
    /// `[LegacyOverrideBuiltIns]` on the interface.
    pub override_builtins: bool,
    /// `[LegacyUnenumerableNamedProperties]` on the interface.
    pub unenumerable_named_properties: bool,
}

impl Specials {
    /// Whether the interface's objects are legacy platform objects
    /// (<https://webidl.spec.whatwg.org/#dfn-legacy-platform-object>).
    pub fn legacy_platform_object(&self) -> bool {
        self.indexed_getter.is_some() || self.named_getter.is_some()
    }
}

/// An iterable declaration (<https://webidl.spec.whatwg.org/#idl-iterable>).
#[derive(Debug, Clone, PartialEq)]
pub enum Iterable {
    /// `iterable<V>`: a value iterator (the interface has an indexed
    /// property getter).
    Value(Type),
    /// `iterable<K, V>`: a pair iterator.
    Pair(Type, Type),
}

/// The interface's stringifier (<https://webidl.spec.whatwg.org/#idl-stringifiers>).
#[derive(Debug, Clone, PartialEq)]
pub enum Stringifier {
    /// `stringifier;`: the trait's `Stringifier` method.
    Plain,
    /// `stringifier attribute DOMString name;`: the attribute's getter.
    Attribute(String),
    /// `stringifier DOMString name();`: the operation.
    Operation(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Interface {
    pub name: String,
    pub parent: Option<String>,
    pub exposure: Exposure,
    /// `[Pref="name"]`: installed only where that preference is enabled.
    pub pref: Option<String>,
    /// `[Global]`: the interface of a global object
    /// (<https://webidl.spec.whatwg.org/#Global>); its regular attributes and
    /// operations are own properties of the global, whose class is the
    /// interface's class.
    pub global: bool,
    /// `[SecureContext]` (<https://webidl.spec.whatwg.org/#SecureContext>):
    /// the interface object is defined only on globals whose settings
    /// object is a secure context.
    pub secure_context: bool,
    /// The constructor operations, overloads of each other (in
    /// declaration order); empty when the interface has none.
    pub constructors: Vec<Operation>,
    pub attributes: Vec<Attribute>,
    pub operations: Vec<Operation>,
    /// Static operations (<https://webidl.spec.whatwg.org/#es-static-operations>):
    /// properties of the interface object.
    pub static_operations: Vec<Operation>,
    /// Static attributes (<https://webidl.spec.whatwg.org/#es-attributes>,
    /// "static"): accessor properties of the interface object.
    pub static_attributes: Vec<Attribute>,
    pub constants: Vec<Constant>,
    pub specials: Specials,
    pub iterable: Option<Iterable>,
    pub stringifier: Option<Stringifier>,
    pub location: Location,
}

impl Interface {
    /// Whether any attribute is an event handler IDL attribute.
    pub fn has_event_handlers(&self) -> bool {
        self.attributes.iter().any(|a| a.event_handler)
    }
}

/// An interface mixin (<https://webidl.spec.whatwg.org/#idl-interface-mixins>):
/// members that `includes` statements add to interfaces (the generator
/// flattens them into each including [`Interface`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Mixin {
    pub name: String,
    /// Each member with the globals it is exposed on (the mixin's
    /// `[Exposed]`, narrowed by the member's own).
    pub attributes: Vec<(Attribute, Exposure)>,
    pub operations: Vec<(Operation, Exposure)>,
    pub constants: Vec<(Constant, Exposure)>,
    /// A stringifier declared in the mixin.
    pub stringifier: Option<Stringifier>,
    pub location: Location,
}

/// `interface includes mixin;`
/// (<https://webidl.spec.whatwg.org/#include-statement>).
#[derive(Debug, Clone, PartialEq)]
pub struct Includes {
    pub interface: String,
    pub mixin: String,
    /// Where the mixin is named.
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DictionaryMember {
    pub name: String,
    pub ty: Type,
    pub required: bool,
    pub default: Option<DefaultValue>,
    /// `[CrossOriginIsolated]`: the member exists only in cross-origin
    /// isolated realms (the JS Self-Profiling markers proposal's use).
    pub cross_origin_isolated: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Dictionary {
    pub name: String,
    pub parent: Option<String>,
    /// Sorted lexicographically by name, the order the WebIDL conversions
    /// visit them in.
    pub members: Vec<DictionaryMember>,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Enumeration {
    pub name: String,
    pub values: Vec<String>,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CallbackFunction {
    pub name: String,
    pub arguments: Vec<Argument>,
    pub return_type: Type,
    /// `[LegacyTreatNonObjectAsNull]`.
    pub treat_non_object_as_null: bool,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CallbackInterface {
    pub name: String,
    /// The single regular operation of the callback interface.
    pub operation: Operation,
    pub location: Location,
}

/// All definitions of a set of WebIDL files, resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Definitions {
    pub interfaces: BTreeMap<String, Interface>,
    pub dictionaries: BTreeMap<String, Dictionary>,
    pub enums: BTreeMap<String, Enumeration>,
    pub callbacks: BTreeMap<String, CallbackFunction>,
    pub callback_interfaces: BTreeMap<String, CallbackInterface>,
    pub mixins: BTreeMap<String, Mixin>,
    /// The `includes` statements, in the order they were read; their
    /// mixins' members are already in the interfaces.
    pub includes: Vec<Includes>,
}

impl Definitions {
    /// The interface's ancestors, nearest first.
    pub fn ancestors(&self, name: &str) -> Vec<&Interface> {
        let mut out = Vec::new();
        let mut current = self.interfaces.get(name).and_then(|i| i.parent.as_deref());
        while let Some(parent) = current {
            match self.interfaces.get(parent) {
                Some(iface) => {
                    out.push(iface);
                    current = iface.parent.as_deref();
                }
                None => break,
            }
        }
        out
    }

    /// Whether `name` is `EventTarget` or inherits from it.
    pub fn inherits_event_target(&self, name: &str) -> bool {
        name == "EventTarget" || self.ancestors(name).iter().any(|i| i.name == "EventTarget")
    }

    /// Interfaces ordered so that every parent comes before its children
    /// (ties broken by name), which is also the order of prototype IDs.
    pub fn interfaces_in_dependency_order(&self) -> Vec<&Interface> {
        let mut ordered: Vec<&Interface> = Vec::new();
        let mut depth: Vec<(usize, &Interface)> = self
            .interfaces
            .values()
            .map(|i| (self.ancestors(&i.name).len(), i))
            .collect();
        depth.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
        ordered.extend(depth.into_iter().map(|(_, i)| i));
        ordered
    }

    /// The dictionaries, most-derived last, each with its inherited ones.
    pub fn dictionary_chain(&self, name: &str) -> Vec<&Dictionary> {
        let mut chain = Vec::new();
        let mut current = self.dictionaries.get(name);
        while let Some(d) = current {
            chain.push(d);
            current = d.parent.as_deref().and_then(|p| self.dictionaries.get(p));
        }
        chain.reverse();
        chain
    }
}

/// How a call of an overloaded operation picks its overload: per argument
/// count, the overloads of the effective overload set
/// (<https://webidl.spec.whatwg.org/#dfn-effective-overload-set>) and the
/// distinguishing argument index
/// (<https://webidl.spec.whatwg.org/#dfn-distinguishing-argument-index>).
#[derive(Debug, Clone, PartialEq)]
pub struct OverloadPlan {
    /// The longest argument list: `argcount` is min(maxarg, number of
    /// arguments passed).
    pub maxarg: usize,
    /// For each `argcount` in `0..=maxarg`: the overloads (indices into the
    /// group) with an entry of that length, and the distinguishing index
    /// when there is more than one.
    pub arms: Vec<(Vec<usize>, Option<usize>)>,
    /// The function's `length`: the shortest argument list.
    pub length: usize,
}

/// The type of argument `index` in an entry of `op` (the variadic
/// argument's type past the end), and whether it is optional.
pub fn overload_argument(op: &Operation, index: usize) -> Option<(&Type, bool)> {
    match op.arguments.get(index) {
        Some(a) => Some((&a.ty, a.optional || a.variadic)),
        None => op
            .arguments
            .last()
            .filter(|a| a.variadic)
            .map(|a| (&a.ty, true)),
    }
}

/// The categories a type falls in for distinguishability
/// (<https://webidl.spec.whatwg.org/#dfn-distinguishable>), as the overload
/// resolution algorithm tests them.
pub fn overload_categories(ty: &Type) -> Vec<String> {
    match ty {
        Type::Nullable(t) => {
            let mut c = overload_categories(t);
            c.push("nullable".into());
            c
        }
        Type::Union(members) => members.iter().flat_map(overload_categories).collect(),
        Type::Dictionary(_) => vec!["nullable".into(), "dictionary".into()],
        Type::Record(..) | Type::CallbackInterface(_) => vec!["dictionary".into()],
        Type::Object => vec!["object".into()],
        Type::Interface(n) => vec![format!("interface {n}")],
        Type::Buffer(..) => vec!["buffer".into()],
        Type::CallbackFunction(_) => vec!["callback".into()],
        Type::Sequence(_) => vec!["sequence".into()],
        Type::Boolean => vec!["boolean".into()],
        Type::Integer(..) | Type::Float { .. } => vec!["numeric".into()],
        Type::DOMString
        | Type::NullToEmptyString
        | Type::USVString
        | Type::ByteString
        | Type::Enum(_) => vec!["string".into()],
        Type::Any | Type::Undefined | Type::Promise(_) => vec!["any".into()],
    }
}

/// The overload plan of a group of overloaded operations, or why the
/// overloads cannot be told apart.
pub fn overload_plan(ops: &[&Operation]) -> Result<OverloadPlan, String> {
    let maxarg = ops.iter().map(|o| o.arguments.len()).max().unwrap_or(0);
    let length = ops
        .iter()
        .map(|o| o.required_argument_count())
        .min()
        .unwrap_or(0);
    let mut arms = Vec::new();
    for count in 0..=maxarg {
        let entries: Vec<usize> = ops
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                let required = o.required_argument_count();
                let variadic = o.arguments.last().is_some_and(|a| a.variadic);
                count >= required && (count <= o.arguments.len() || variadic)
            })
            .map(|(i, _)| i)
            .collect();
        if entries.len() < 2 {
            arms.push((entries, None));
            continue;
        }
        // The first index at which the entries' types differ.
        let d = (0..count).find(|&i| {
            let first = overload_argument(ops[entries[0]], i).map(|(t, _)| t);
            entries
                .iter()
                .any(|&e| overload_argument(ops[e], i).map(|(t, _)| t) != first)
        });
        let Some(d) = d else {
            return Err(format!(
                "the overloads of `{}` cannot be told apart with {count} arguments",
                ops[0].name.as_deref().unwrap_or("constructor")
            ));
        };
        // Every pair must be distinguishable at d.
        for (a, &i) in entries.iter().enumerate() {
            for &j in &entries[a + 1..] {
                let ci = overload_categories(overload_argument(ops[i], d).expect("in range").0);
                let cj = overload_categories(overload_argument(ops[j], d).expect("in range").0);
                if categories_clash(&ci, &cj) {
                    return Err(format!(
                        "the overloads of `{}` are not distinguishable at argument {} with {count} arguments",
                        ops[0].name.as_deref().unwrap_or("constructor"),
                        d + 1
                    ));
                }
            }
        }
        arms.push((entries, Some(d)));
    }
    Ok(OverloadPlan {
        maxarg,
        arms,
        length,
    })
}

/// Whether two argument types fall in categories the distinguishability
/// table (<https://webidl.spec.whatwg.org/#dfn-distinguishable>) does not
/// tell apart.
fn categories_clash(a: &[String], b: &[String]) -> bool {
    let object_like = |c: &String| {
        c.starts_with("interface ")
            || matches!(
                c.as_str(),
                "callback" | "dictionary" | "sequence" | "buffer" | "object"
            )
    };
    let one_way = |x: &[String], y: &[String]| {
        x.iter().any(|c| {
            c == "any"
                || y.contains(c)
                || (c == "object" && y.iter().any(object_like))
                || (c == "callback" && y.iter().any(|o| o == "dictionary"))
        })
    };
    one_way(a, b) || one_way(b, a)
}
