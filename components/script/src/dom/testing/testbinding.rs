//! `TestBinding`: a test-only interface (`webidl/TestBinding.webidl`,
//! `[Pref="dom.testbinding.enabled"]`) that exercises the generated
//! conversions. Installed only on runtimes made with
//! `JsRuntime::new_for_tests`.

use jsprof_script_derive::JSTraceable;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mozjs::context::JSContext;
use mozjs::gc::RootedTraceableBox;
use mozjs::jsapi::Heap;
use mozjs::jsapi::{GCReason, JSObject};
use mozjs::jsval::{JSVal, NullValue, UndefinedValue};
use mozjs::rooted;
use mozjs::rust::wrappers2::JS_GC;
use mozjs::rust::HandleObject;

use crate::dom::bindings::buffer::{
    AllowSharedBufferSource, ArrayBuffer, ArrayBufferView, BufferSource, Uint8Array,
};
use crate::dom::bindings::callback::ExceptionHandling;
use crate::dom::bindings::codegen::TestBindingBinding::TestBindingMethods;
use crate::dom::bindings::codegen::{
    BufferSourceOrString, ByteStringSequenceSequenceOrByteStringByteStringRecord, StringOrLong,
    TestBindingOrString, TestCallback, TestCallbackInterface, TestDictionary, TestEnum,
    TestInnerDictionary, TestInnerDictionaryOrBoolean,
    USVStringSequenceSequenceOrUSVStringUSVStringRecordOrUSVString,
};
use crate::dom::bindings::conversions::{
    ByteString, DOMString, Finite, Record, RootedJsObject, RootedJsValue, USVString,
};
use crate::dom::bindings::error::{Error, Fallible};
use crate::dom::bindings::promise::Promise;
use crate::dom::bindings::reflector::{reflect_dom_object, DomObject};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::events::event::Event;
use crate::dom::events::eventtarget::EventTarget;
use crate::dom::globals::globalscope::GlobalScope;

// Per thread, not per agent: finalizers count, and they also run while
// the context is destroyed, after the agent is gone.
thread_local! {
    /// How many `TestBinding` structs the finalizer dropped on this thread.
    static DROPPED: Cell<u32> = const { Cell::new(0) };
    /// `TestBinding.staticLong`.
    static STATIC_LONG: Cell<i32> = const { Cell::new(0) };
}

#[derive(JSTraceable)]
pub struct TestBinding {
    eventtarget: EventTarget,
    boolean: Cell<bool>,
    byte: Cell<i8>,
    octet: Cell<u8>,
    short: Cell<i16>,
    unsigned_short: Cell<u16>,
    long: Cell<i32>,
    unsigned_long: Cell<u32>,
    long_long: Cell<i64>,
    unsigned_long_long: Cell<u64>,
    enforced_unsigned_long: Cell<u32>,
    clamped_octet: Cell<u8>,
    float: Cell<f32>,
    unrestricted_float: Cell<f32>,
    double: Cell<f64>,
    unrestricted_double: Cell<f64>,
    time_stamp: Cell<f64>,
    string: RefCell<DOMString>,
    usv_string: RefCell<USVString>,
    nullable_string: RefCell<Option<DOMString>>,
    #[no_trace]
    enum_value: Cell<TestEnum>,
    any: Box<Heap<JSVal>>,
    object: Box<Heap<*mut JSObject>>,
    nullable_object: Box<Heap<*mut JSObject>>,
    event: MutNullableDom<Event>,
    #[no_trace]
    union_value: RefCell<StringOrLong>,
    stored_callback: RefCell<Option<Rc<TestCallback>>>,
    readonly_long: i32,
}

impl AsRef<EventTarget> for TestBinding {
    fn as_ref(&self) -> &EventTarget {
        &self.eventtarget
    }
}

impl Drop for TestBinding {
    fn drop(&mut self) {
        DROPPED.with(|d| d.set(d.get() + 1));
    }
}

fn rooted_value(value: JSVal) -> RootedJsValue {
    let root = RootedTraceableBox::new(Heap::default());
    root.set(value);
    root
}

fn rooted_object(object: *mut JSObject) -> RootedJsObject {
    let root = RootedTraceableBox::new(Heap::default());
    root.set(object);
    root
}

impl TestBindingMethods for TestBinding {
    fn Constructor(
        cx: &mut JSContext,
        global: &GlobalScope,
        proto: Option<HandleObject>,
        initial_long: i32,
    ) -> Fallible<DomRoot<TestBinding>> {
        let object = TestBinding {
            eventtarget: EventTarget::new_inherited(),
            boolean: Cell::new(false),
            byte: Cell::new(0),
            octet: Cell::new(0),
            short: Cell::new(0),
            unsigned_short: Cell::new(0),
            long: Cell::new(initial_long),
            unsigned_long: Cell::new(0),
            long_long: Cell::new(0),
            unsigned_long_long: Cell::new(0),
            enforced_unsigned_long: Cell::new(0),
            clamped_octet: Cell::new(0),
            float: Cell::new(0.0),
            unrestricted_float: Cell::new(0.0),
            double: Cell::new(0.0),
            unrestricted_double: Cell::new(0.0),
            time_stamp: Cell::new(0.0),
            string: RefCell::new(DOMString::new()),
            usv_string: RefCell::new(USVString::default()),
            nullable_string: RefCell::new(None),
            enum_value: Cell::new(TestEnum::Foo),
            any: Heap::boxed(UndefinedValue()),
            object: Heap::boxed(std::ptr::null_mut()),
            nullable_object: Heap::boxed(std::ptr::null_mut()),
            event: MutNullableDom::default(),
            union_value: RefCell::new(StringOrLong::Long(0)),
            stored_callback: RefCell::new(None),
            readonly_long: 42,
        };
        Ok(reflect_dom_object(cx, global, Box::new(object), proto))
    }

    fn BooleanAttribute(&self, _cx: &mut JSContext) -> bool {
        self.boolean.get()
    }
    fn SetBooleanAttribute(&self, _cx: &mut JSContext, value: bool) -> Fallible<()> {
        self.boolean.set(value);
        Ok(())
    }
    fn ByteAttribute(&self, _cx: &mut JSContext) -> i8 {
        self.byte.get()
    }
    fn SetByteAttribute(&self, _cx: &mut JSContext, value: i8) -> Fallible<()> {
        self.byte.set(value);
        Ok(())
    }
    fn OctetAttribute(&self, _cx: &mut JSContext) -> u8 {
        self.octet.get()
    }
    fn SetOctetAttribute(&self, _cx: &mut JSContext, value: u8) -> Fallible<()> {
        self.octet.set(value);
        Ok(())
    }
    fn ShortAttribute(&self, _cx: &mut JSContext) -> i16 {
        self.short.get()
    }
    fn SetShortAttribute(&self, _cx: &mut JSContext, value: i16) -> Fallible<()> {
        self.short.set(value);
        Ok(())
    }
    fn UnsignedShortAttribute(&self, _cx: &mut JSContext) -> u16 {
        self.unsigned_short.get()
    }
    fn SetUnsignedShortAttribute(&self, _cx: &mut JSContext, value: u16) -> Fallible<()> {
        self.unsigned_short.set(value);
        Ok(())
    }
    fn LongAttribute(&self, _cx: &mut JSContext) -> i32 {
        self.long.get()
    }
    fn SetLongAttribute(&self, _cx: &mut JSContext, value: i32) -> Fallible<()> {
        self.long.set(value);
        Ok(())
    }
    fn UnsignedLongAttribute(&self, _cx: &mut JSContext) -> u32 {
        self.unsigned_long.get()
    }
    fn SetUnsignedLongAttribute(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        self.unsigned_long.set(value);
        Ok(())
    }
    fn LongLongAttribute(&self, _cx: &mut JSContext) -> i64 {
        self.long_long.get()
    }
    fn SetLongLongAttribute(&self, _cx: &mut JSContext, value: i64) -> Fallible<()> {
        self.long_long.set(value);
        Ok(())
    }
    fn UnsignedLongLongAttribute(&self, _cx: &mut JSContext) -> u64 {
        self.unsigned_long_long.get()
    }
    fn SetUnsignedLongLongAttribute(&self, _cx: &mut JSContext, value: u64) -> Fallible<()> {
        self.unsigned_long_long.set(value);
        Ok(())
    }
    fn EnforcedUnsignedLongAttribute(&self, _cx: &mut JSContext) -> u32 {
        self.enforced_unsigned_long.get()
    }
    fn SetEnforcedUnsignedLongAttribute(&self, _cx: &mut JSContext, value: u32) -> Fallible<()> {
        self.enforced_unsigned_long.set(value);
        Ok(())
    }
    fn ClampedOctetAttribute(&self, _cx: &mut JSContext) -> u8 {
        self.clamped_octet.get()
    }
    fn SetClampedOctetAttribute(&self, _cx: &mut JSContext, value: u8) -> Fallible<()> {
        self.clamped_octet.set(value);
        Ok(())
    }
    fn FloatAttribute(&self, _cx: &mut JSContext) -> Finite<f32> {
        Finite::<f32>::wrap(self.float.get())
    }
    fn SetFloatAttribute(&self, _cx: &mut JSContext, value: Finite<f32>) -> Fallible<()> {
        self.float.set(*value);
        Ok(())
    }
    fn UnrestrictedFloatAttribute(&self, _cx: &mut JSContext) -> f32 {
        self.unrestricted_float.get()
    }
    fn SetUnrestrictedFloatAttribute(&self, _cx: &mut JSContext, value: f32) -> Fallible<()> {
        self.unrestricted_float.set(value);
        Ok(())
    }
    fn DoubleAttribute(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.double.get())
    }
    fn SetDoubleAttribute(&self, _cx: &mut JSContext, value: Finite<f64>) -> Fallible<()> {
        self.double.set(*value);
        Ok(())
    }
    fn UnrestrictedDoubleAttribute(&self, _cx: &mut JSContext) -> f64 {
        self.unrestricted_double.get()
    }
    fn SetUnrestrictedDoubleAttribute(&self, _cx: &mut JSContext, value: f64) -> Fallible<()> {
        self.unrestricted_double.set(value);
        Ok(())
    }
    fn TimeStampAttribute(&self, _cx: &mut JSContext) -> Finite<f64> {
        Finite::<f64>::wrap(self.time_stamp.get())
    }
    fn SetTimeStampAttribute(&self, _cx: &mut JSContext, value: Finite<f64>) -> Fallible<()> {
        self.time_stamp.set(*value);
        Ok(())
    }
    fn StringAttribute(&self, _cx: &mut JSContext) -> DOMString {
        self.string.borrow().clone()
    }
    fn SetStringAttribute(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        *self.string.borrow_mut() = value;
        Ok(())
    }
    fn UsvStringAttribute(&self, _cx: &mut JSContext) -> USVString {
        self.usv_string.borrow().clone()
    }
    fn SetUsvStringAttribute(&self, _cx: &mut JSContext, value: USVString) -> Fallible<()> {
        *self.usv_string.borrow_mut() = value;
        Ok(())
    }
    fn NullableStringAttribute(&self, _cx: &mut JSContext) -> Option<DOMString> {
        self.nullable_string.borrow().clone()
    }
    fn SetNullableStringAttribute(
        &self,
        _cx: &mut JSContext,
        value: Option<DOMString>,
    ) -> Fallible<()> {
        *self.nullable_string.borrow_mut() = value;
        Ok(())
    }
    fn EnumAttribute(&self, _cx: &mut JSContext) -> TestEnum {
        self.enum_value.get()
    }
    fn SetEnumAttribute(&self, _cx: &mut JSContext, value: TestEnum) -> Fallible<()> {
        self.enum_value.set(value);
        Ok(())
    }
    fn AnyAttribute(&self, _cx: &mut JSContext) -> RootedJsValue {
        rooted_value(self.any.get())
    }
    fn SetAnyAttribute(&self, _cx: &mut JSContext, value: RootedJsValue) -> Fallible<()> {
        self.any.set(value.get());
        Ok(())
    }
    fn ObjectAttribute(&self, _cx: &mut JSContext) -> RootedJsObject {
        if self.object.get().is_null() {
            // Never set: return the reflector itself rather than null.
            return rooted_object(self.reflector().get_jsobject());
        }
        rooted_object(self.object.get())
    }
    fn SetObjectAttribute(&self, _cx: &mut JSContext, value: RootedJsObject) -> Fallible<()> {
        self.object.set(value.get());
        Ok(())
    }
    fn NullableObjectAttribute(&self, _cx: &mut JSContext) -> Option<RootedJsObject> {
        let object = self.nullable_object.get();
        (!object.is_null()).then(|| rooted_object(object))
    }
    fn SetNullableObjectAttribute(
        &self,
        _cx: &mut JSContext,
        value: Option<RootedJsObject>,
    ) -> Fallible<()> {
        self.nullable_object
            .set(value.map_or(std::ptr::null_mut(), |v| v.get()));
        Ok(())
    }
    fn EventAttribute(&self, _cx: &mut JSContext) -> Option<DomRoot<Event>> {
        self.event.get()
    }
    fn SetEventAttribute(
        &self,
        _cx: &mut JSContext,
        value: Option<DomRoot<Event>>,
    ) -> Fallible<()> {
        self.event.set(value.as_deref());
        Ok(())
    }
    fn UnionAttribute(&self, _cx: &mut JSContext) -> StringOrLong {
        match &*self.union_value.borrow() {
            StringOrLong::String(s) => StringOrLong::String(s.clone()),
            StringOrLong::Long(l) => StringOrLong::Long(*l),
        }
    }
    fn SetUnionAttribute(&self, _cx: &mut JSContext, value: StringOrLong) -> Fallible<()> {
        *self.union_value.borrow_mut() = value;
        Ok(())
    }

    fn ReadonlyLong(&self, _cx: &mut JSContext) -> i32 {
        self.readonly_long
    }
    fn NullToEmptyAttribute(&self, _cx: &mut JSContext) -> DOMString {
        self.string.borrow().clone()
    }
    fn SetNullToEmptyAttribute(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        *self.string.borrow_mut() = value;
        Ok(())
    }
    fn Forwarded(&self, _cx: &mut JSContext) -> DomRoot<TestBinding> {
        DomRoot::from_ref(self)
    }
    fn ReplaceableLong(&self, _cx: &mut JSContext) -> i32 {
        11
    }
    fn StaticLong(_cx: &mut JSContext, _global: &GlobalScope) -> i32 {
        STATIC_LONG.with(|v| v.get())
    }
    fn SetStaticLong(_cx: &mut JSContext, _global: &GlobalScope, value: i32) -> Fallible<()> {
        STATIC_LONG.with(|v| v.set(value));
        Ok(())
    }
    fn StaticName(_cx: &mut JSContext, _global: &GlobalScope) -> DOMString {
        "static".into()
    }
    fn FromPartial(&self, _cx: &mut JSContext) -> DOMString {
        "partial".into()
    }
    fn PartialOperation(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<DOMString> {
        Ok(format!("partial {value}"))
    }
    fn SecureAttribute(&self, _cx: &mut JSContext) -> DOMString {
        "secure".into()
    }
    fn SecureOperation(&self, _cx: &mut JSContext) -> Fallible<DOMString> {
        Ok("secure operation".into())
    }
    fn SecureStatic(_cx: &mut JSContext, global: &GlobalScope) -> Fallible<DOMString> {
        Ok(format!("secure static {}", global.is_secure_context()))
    }
    fn SameName(&self, _cx: &mut JSContext) -> Fallible<DOMString> {
        Ok(format!("regular {}", self.long.get()))
    }
    fn StaticSameName(
        _cx: &mut JSContext,
        _global: &GlobalScope,
        value: DOMString,
        count: i32,
    ) -> Fallible<DOMString> {
        Ok(format!("static {value} {count}"))
    }
    fn OverloadedByCount(&self, _cx: &mut JSContext, a: DOMString) -> Fallible<DOMString> {
        Ok(format!("1: {a}"))
    }
    fn OverloadedByCount_(
        &self,
        _cx: &mut JSContext,
        a: DOMString,
        b: DOMString,
        c: bool,
        d: Option<DOMString>,
    ) -> Fallible<DOMString> {
        Ok(format!("2: {a} {b} {c} {d:?}"))
    }
    fn OverloadedByType(
        &self,
        _cx: &mut JSContext,
        value: DomRoot<TestBinding>,
    ) -> Fallible<DOMString> {
        Ok(format!("interface {}", value.long.get()))
    }
    fn OverloadedByType_(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<DOMString> {
        Ok(format!("string {value}"))
    }
    fn OverloadedByType__(&self, _cx: &mut JSContext, value: Vec<i32>) -> Fallible<DOMString> {
        Ok(format!("sequence {value:?}"))
    }
    fn OverloadedByType___(&self, _cx: &mut JSContext, value: BufferSource) -> Fallible<DOMString> {
        Ok(format!("buffer {:?}", value.bytes()))
    }
    fn OverloadedPost(
        &self,
        _cx: &mut JSContext,
        _message: RootedJsValue,
        target_origin: DOMString,
    ) -> Fallible<DOMString> {
        Ok(format!("origin {target_origin}"))
    }
    fn OverloadedPost_(
        &self,
        _cx: &mut JSContext,
        _message: RootedJsValue,
        options: TestInnerDictionary,
    ) -> Fallible<DOMString> {
        Ok(format!("options {}", options.flag))
    }
    fn EchoNullToEmpty(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<DOMString> {
        Ok(value)
    }
    fn UnforgeableAttribute(&self, _cx: &mut JSContext) -> DOMString {
        "unforgeable".to_owned()
    }
    fn DroppedInstances(&self, _cx: &mut JSContext) -> u32 {
        DROPPED.with(Cell::get)
    }

    fn EchoBoolean(&self, _cx: &mut JSContext, value: bool) -> Fallible<bool> {
        Ok(value)
    }
    fn EchoUnsignedLong(&self, _cx: &mut JSContext, value: u32) -> Fallible<u32> {
        Ok(value)
    }
    fn EchoUnsignedLongLong(&self, _cx: &mut JSContext, value: u64) -> Fallible<u64> {
        Ok(value)
    }
    fn EchoLongLong(&self, _cx: &mut JSContext, value: i64) -> Fallible<i64> {
        Ok(value)
    }
    fn EchoDouble(&self, _cx: &mut JSContext, value: Finite<f64>) -> Fallible<Finite<f64>> {
        Ok(value)
    }
    fn EchoUnrestrictedDouble(&self, _cx: &mut JSContext, value: f64) -> Fallible<f64> {
        Ok(value)
    }
    fn EchoTimeStamp(&self, _cx: &mut JSContext, value: Finite<f64>) -> Fallible<Finite<f64>> {
        Ok(value)
    }
    fn EchoString(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<DOMString> {
        Ok(value)
    }
    fn EchoSequence(&self, _cx: &mut JSContext, values: Vec<i32>) -> Fallible<Vec<i32>> {
        Ok(values)
    }
    fn EchoNullableSequence(
        &self,
        _cx: &mut JSContext,
        values: Option<Vec<DOMString>>,
    ) -> Fallible<Option<Vec<DOMString>>> {
        Ok(values)
    }
    fn EchoEnum(&self, _cx: &mut JSContext, value: TestEnum) -> Fallible<TestEnum> {
        Ok(value)
    }
    fn EchoAny(&self, _cx: &mut JSContext, value: RootedJsValue) -> Fallible<RootedJsValue> {
        Ok(value)
    }
    fn EchoObject(&self, _cx: &mut JSContext, value: RootedJsObject) -> Fallible<RootedJsObject> {
        Ok(value)
    }
    fn EchoTestBinding(
        &self,
        _cx: &mut JSContext,
        value: Option<DomRoot<TestBinding>>,
    ) -> Fallible<Option<DomRoot<TestBinding>>> {
        Ok(value)
    }
    fn EchoDictionary(
        &self,
        _cx: &mut JSContext,
        dict: TestDictionary,
    ) -> Fallible<TestDictionary> {
        Ok(dict)
    }
    fn EchoInnerDictionary(
        &self,
        _cx: &mut JSContext,
        dict: TestInnerDictionary,
    ) -> Fallible<TestInnerDictionary> {
        Ok(dict)
    }
    fn EchoUnion(&self, _cx: &mut JSContext, value: StringOrLong) -> Fallible<StringOrLong> {
        Ok(value)
    }
    fn DescribeDictionaryOrBoolean(
        &self,
        _cx: &mut JSContext,
        value: TestInnerDictionaryOrBoolean,
    ) -> Fallible<DOMString> {
        Ok(match value {
            TestInnerDictionaryOrBoolean::Boolean(b) => format!("boolean {b}"),
            TestInnerDictionaryOrBoolean::TestInnerDictionary(d) => {
                format!("dictionary flag={}", d.flag)
            }
        })
    }
    fn EchoOptionalString(
        &self,
        _cx: &mut JSContext,
        value: Option<DOMString>,
    ) -> Fallible<Option<DOMString>> {
        Ok(value)
    }
    fn WithDefaults(
        &self,
        _cx: &mut JSContext,
        a: i32,
        b: bool,
        c: DOMString,
        d: TestEnum,
    ) -> Fallible<DOMString> {
        Ok(format!("{a} {b} {c} {}", d.as_str()))
    }
    fn DescribeVariadic(
        &self,
        _cx: &mut JSContext,
        first: i32,
        rest: Vec<TestBindingOrString>,
    ) -> Fallible<DOMString> {
        let mut out = first.to_string();
        for value in rest {
            out.push(';');
            match value {
                TestBindingOrString::TestBinding(t) => {
                    out.push_str(&format!("TestBinding({})", t.long.get()))
                }
                TestBindingOrString::String(s) => out.push_str(&s),
            }
        }
        Ok(out)
    }
    fn EchoVariadicSequences(
        &self,
        _cx: &mut JSContext,
        values: Vec<Vec<i32>>,
    ) -> Fallible<Vec<Vec<i32>>> {
        Ok(values)
    }
    fn EchoByteString(&self, _cx: &mut JSContext, value: ByteString) -> Fallible<ByteString> {
        Ok(value)
    }
    fn EchoRecord(
        &self,
        _cx: &mut JSContext,
        value: Record<DOMString, i32>,
    ) -> Fallible<Record<DOMString, i32>> {
        Ok(value)
    }
    fn EchoByteStringRecord(
        &self,
        _cx: &mut JSContext,
        value: Record<ByteString, ByteString>,
    ) -> Fallible<Record<ByteString, ByteString>> {
        Ok(value)
    }
    fn DescribeHeadersInit(
        &self,
        _cx: &mut JSContext,
        init: ByteStringSequenceSequenceOrByteStringByteStringRecord,
    ) -> Fallible<DOMString> {
        let show = |b: &ByteString| String::from_utf8_lossy(b.as_bytes()).into_owned();
        Ok(match init {
            ByteStringSequenceSequenceOrByteStringByteStringRecord::ByteStringSequenceSequence(
                pairs,
            ) => {
                let items: Vec<String> = pairs
                    .iter()
                    .map(|p| p.iter().map(show).collect::<Vec<_>>().join(":"))
                    .collect();
                format!("sequence {}", items.join(","))
            }
            ByteStringSequenceSequenceOrByteStringByteStringRecord::ByteStringByteStringRecord(
                record,
            ) => {
                let items: Vec<String> = record
                    .0
                    .iter()
                    .map(|(k, v)| format!("{}:{}", show(k), show(v)))
                    .collect();
                format!("record {}", items.join(","))
            }
        })
    }
    fn DescribeSearchInit(
        &self,
        _cx: &mut JSContext,
        init: USVStringSequenceSequenceOrUSVStringUSVStringRecordOrUSVString,
    ) -> Fallible<DOMString> {
        type Init = USVStringSequenceSequenceOrUSVStringUSVStringRecordOrUSVString;
        Ok(match init {
            Init::USVStringSequenceSequence(s) => format!("sequence {}", s.len()),
            Init::USVStringUSVStringRecord(r) => format!("record {}", r.0.len()),
            Init::USVString(s) => format!("string {}", s.0),
        })
    }
    fn DescribeBuffer(&self, _cx: &mut JSContext, source: BufferSource) -> Fallible<DOMString> {
        let kind = if source.is_view() { "view" } else { "buffer" };
        Ok(format!(
            "{kind} {} {:?}",
            source.byte_length(),
            source.bytes()
        ))
    }
    fn BytesOf(&self, _cx: &mut JSContext, source: AllowSharedBufferSource) -> Fallible<Vec<u8>> {
        Ok(source.bytes())
    }
    fn BytesOfSharedView(&self, _cx: &mut JSContext, view: Uint8Array) -> Fallible<Vec<u8>> {
        Ok(view.bytes())
    }
    fn DescribeResizable(&self, _cx: &mut JSContext, buffer: ArrayBuffer) -> Fallible<DOMString> {
        Ok(format!(
            "buffer {} {:?}",
            buffer.byte_length(),
            buffer.bytes()
        ))
    }
    fn DescribeAnyView(
        &self,
        _cx: &mut JSContext,
        view: Option<ArrayBufferView>,
    ) -> Fallible<DOMString> {
        Ok(match view {
            Some(view) => format!("view {} {:?}", view.byte_length(), view.bytes()),
            None => "null".into(),
        })
    }
    fn MakeArrayBuffer(&self, cx: &mut JSContext, bytes: Vec<u8>) -> Fallible<ArrayBuffer> {
        ArrayBuffer::new(cx, &bytes).map_err(|()| Error::JSFailed)
    }
    fn MakeUint8Array(&self, cx: &mut JSContext, bytes: Vec<u8>) -> Fallible<Uint8Array> {
        Uint8Array::new(cx, &bytes).map_err(|()| Error::JSFailed)
    }
    fn FillUint8Array(
        &self,
        cx: &mut JSContext,
        array: Uint8Array,
        value: u8,
    ) -> Fallible<Uint8Array> {
        array.with_bytes_mut(cx, |bytes| bytes.fill(value));
        Ok(array)
    }
    fn EchoView(
        &self,
        _cx: &mut JSContext,
        view: Option<ArrayBufferView>,
    ) -> Fallible<Option<ArrayBufferView>> {
        Ok(view)
    }
    fn DescribeBufferOrString(
        &self,
        _cx: &mut JSContext,
        value: BufferSourceOrString,
    ) -> Fallible<DOMString> {
        Ok(match value {
            BufferSourceOrString::BufferSource(b) => format!("buffer {:?}", b.bytes()),
            BufferSourceOrString::String(s) => format!("string {s}"),
        })
    }
    fn Sum(&self, _cx: &mut JSContext, a: i32, b: i32, c: Option<i32>) -> Fallible<i32> {
        Ok(a.wrapping_add(b).wrapping_add(c.unwrap_or(0)))
    }

    fn PromiseEcho(&self, cx: &mut JSContext, value: DOMString) -> Fallible<Rc<Promise>> {
        let promise = Promise::new(cx);
        promise.resolve(cx, &value);
        Ok(promise)
    }
    fn PromiseRejectWith(&self, _cx: &mut JSContext, name: DOMString) -> Fallible<Rc<Promise>> {
        // Thrown: the binding turns it into a rejected promise.
        Err(Error::dom_by_name(&name, format!("rejected with {name}")))
    }
    fn PromiseEnforcedLong(&self, cx: &mut JSContext, value: i32) -> Fallible<Rc<Promise>> {
        let promise = Promise::new(cx);
        promise.resolve(cx, &value);
        Ok(promise)
    }
    fn PromiseDictionary(&self, cx: &mut JSContext, dict: TestDictionary) -> Fallible<Rc<Promise>> {
        let promise = Promise::new(cx);
        promise.resolve(cx, &dict);
        Ok(promise)
    }

    fn ThrowDOMException(
        &self,
        _cx: &mut JSContext,
        name: DOMString,
        message: DOMString,
    ) -> Fallible<()> {
        Err(Error::dom_by_name(&name, message))
    }
    fn ThrowTypeError(&self, _cx: &mut JSContext, message: DOMString) -> Fallible<()> {
        Err(Error::Type(message))
    }
    fn ThrowRangeError(&self, _cx: &mut JSContext, message: DOMString) -> Fallible<()> {
        Err(Error::Range(message))
    }

    fn InvokeCallback(
        &self,
        cx: &mut JSContext,
        callback: Rc<TestCallback>,
        value: DOMString,
    ) -> Fallible<DOMString> {
        rooted!(&in(cx) let this = NullValue());
        callback.Call_(cx, this.handle(), value, ExceptionHandling::Rethrow)
    }
    fn InvokeCallbackInterface(
        &self,
        cx: &mut JSContext,
        callback: Rc<TestCallbackInterface>,
        value: i32,
    ) -> Fallible<i32> {
        rooted!(&in(cx) let this = UndefinedValue());
        callback.Compute(cx, this.handle(), value, ExceptionHandling::Rethrow)
    }
    fn StoreCallback(
        &self,
        _cx: &mut JSContext,
        callback: Option<Rc<TestCallback>>,
    ) -> Fallible<()> {
        *self.stored_callback.borrow_mut() = callback;
        Ok(())
    }
    fn InvokeStoredCallback(
        &self,
        cx: &mut JSContext,
        value: DOMString,
    ) -> Fallible<Option<DOMString>> {
        let callback = self.stored_callback.borrow().clone();
        let Some(callback) = callback else {
            return Ok(None);
        };
        rooted!(&in(cx) let this = UndefinedValue());
        callback
            .Call_(cx, this.handle(), value, ExceptionHandling::Rethrow)
            .map(Some)
    }

    fn CreateEvent(
        &self,
        cx: &mut JSContext,
        type_: DOMString,
        cancelable: bool,
    ) -> Fallible<DomRoot<Event>> {
        // SAFETY: the current global lives while its realm is entered, which outlasts this
        // call.
        let global = unsafe { GlobalScope::current(cx) }.ok_or(Error::JSFailed)?;
        Ok(Event::new(cx, global, &type_, false, cancelable))
    }
    fn FireEvent(&self, cx: &mut JSContext, type_: DOMString) -> Fallible<bool> {
        // https://dom.spec.whatwg.org/#concept-event-fire (trusted, from
        // the "user agent").
        // SAFETY: the current global lives while its realm is entered, which outlasts this
        // call.
        let global = unsafe { GlobalScope::current(cx) }.ok_or(Error::JSFailed)?;
        let event = Event::new(cx, global, &type_, false, true);
        event.set_trusted(true);
        Ok(self.eventtarget.dispatch(cx, &event))
    }
    fn CollectGarbage(&self, cx: &mut JSContext) -> Fallible<()> {
        // SAFETY: a GC from a binding method: no unrooted GC pointer is held across it.
        unsafe { JS_GC(cx, GCReason::API) };
        Ok(())
    }

    /// <https://wicg.github.io/js-self-profiling/#force-sample> for the
    /// current browsing context.
    fn ForceProfilerSample(&self, cx: &mut JSContext) -> Fallible<u32> {
        // SAFETY: the current global lives while its realm is entered, which outlasts this
        // call.
        let navigable = unsafe { GlobalScope::current(cx) }
            .and_then(|g| g.as_window())
            .map(|w| w.navigable_id());
        Ok(crate::runtime::profiling::force_sample(navigable) as u32)
    }

    fn LiveProfilingSessions(&self, _cx: &mut JSContext) -> u32 {
        crate::runtime::profiling::live_session_count() as u32
    }
}
