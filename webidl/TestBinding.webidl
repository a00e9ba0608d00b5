// Test-only interfaces (as Servo's TestBinding.webidl): they exercise every
// conversion the generator supports. Installed only on runtimes made for
// tests (JsRuntime::new_for_tests), never on normal globals.

enum TestEnum { "", "foo", "bar-baz" };

callback TestCallback = DOMString (DOMString value);

callback interface TestCallbackInterface {
  long compute(long value);
};

dictionary TestDictionaryParent {
  DOMString parentMember = "parent";
};

dictionary TestInnerDictionary {
  boolean flag = false;
};

dictionary TestDictionary : TestDictionaryParent {
  required boolean requiredBoolean;
  long longWithDefault = 42;
  DOMString? nullableString;
  double restrictedDouble;
  unrestricted double unrestrictedDouble;
  sequence<DOMString> strings;
  TestEnum enumValue = "foo";
  any anyValue;
  object objectValue;
  unsigned long long bigNumber;
  TestInnerDictionary inner;
  (DOMString or boolean) stringOrBoolean;
};

[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled"]
interface TestBinding : EventTarget {
  constructor(optional long initialLong = 0);

  attribute boolean booleanAttribute;
  attribute byte byteAttribute;
  attribute octet octetAttribute;
  attribute short shortAttribute;
  attribute unsigned short unsignedShortAttribute;
  attribute long longAttribute;
  attribute unsigned long unsignedLongAttribute;
  attribute long long longLongAttribute;
  attribute unsigned long long unsignedLongLongAttribute;
  attribute [EnforceRange] unsigned long enforcedUnsignedLongAttribute;
  attribute [Clamp] octet clampedOctetAttribute;
  attribute float floatAttribute;
  attribute unrestricted float unrestrictedFloatAttribute;
  attribute double doubleAttribute;
  attribute unrestricted double unrestrictedDoubleAttribute;
  attribute DOMHighResTimeStamp timeStampAttribute;
  attribute DOMString stringAttribute;
  attribute USVString usvStringAttribute;
  attribute DOMString? nullableStringAttribute;
  attribute TestEnum enumAttribute;
  attribute any anyAttribute;
  attribute object objectAttribute;
  attribute object? nullableObjectAttribute;
  attribute Event? eventAttribute;
  attribute (DOMString or long) unionAttribute;
  attribute EventHandler onping;
  readonly attribute long readonlyLong;
  // Extended attributes on attributes.
  [CEReactions] attribute [LegacyNullToEmptyString] DOMString nullToEmptyAttribute;
  [SameObject, PutForwards=longAttribute] readonly attribute TestBinding forwarded;
  [Replaceable] readonly attribute long replaceableLong;
  static attribute long staticLong;
  static readonly attribute DOMString staticName;
  [LegacyUnforgeable] readonly attribute DOMString unforgeableAttribute;

  const long CONSTANT_LONG = 7;
  const boolean CONSTANT_BOOLEAN = true;

  boolean echoBoolean(boolean value);
  unsigned long echoUnsignedLong(unsigned long value);
  unsigned long long echoUnsignedLongLong(unsigned long long value);
  long long echoLongLong(long long value);
  double echoDouble(double value);
  unrestricted double echoUnrestrictedDouble(unrestricted double value);
  DOMHighResTimeStamp echoTimeStamp(DOMHighResTimeStamp value);
  DOMString echoString(DOMString value);
  sequence<long> echoSequence(sequence<long> values);
  sequence<DOMString>? echoNullableSequence(sequence<DOMString>? values);
  TestEnum echoEnum(TestEnum value);
  any echoAny(any value);
  object echoObject(object value);
  TestBinding? echoTestBinding(TestBinding? value);
  TestDictionary echoDictionary(TestDictionary dict);
  TestInnerDictionary echoInnerDictionary(optional TestInnerDictionary dict = {});
  (DOMString or long) echoUnion((DOMString or long) value);
  DOMString describeDictionaryOrBoolean(optional (TestInnerDictionary or boolean) value = {});
  DOMString? echoOptionalString(optional DOMString value);
  DOMString withDefaults(optional long a = 5, optional boolean b = true, optional DOMString c = "x", optional TestEnum d = "bar-baz");
  long sum(long a, long b, optional long c);
  // Overloads by argument count (as XMLHttpRequest.open) and by type at
  // the distinguishing index (as postMessage).
  DOMString overloadedByCount(DOMString a);
  DOMString overloadedByCount(DOMString a, DOMString b, boolean c, optional DOMString? d = null);
  DOMString overloadedByType(TestBinding value);
  DOMString overloadedByType(DOMString value);
  DOMString overloadedByType(sequence<long> value);
  DOMString overloadedByType(BufferSource value);
  DOMString overloadedPost(any message, DOMString targetOrigin);
  DOMString overloadedPost(any message, optional TestInnerDictionary options = {});
  [CEReactions, NewObject] DOMString echoNullToEmpty([LegacyNullToEmptyString] DOMString value);
  // Variadic arguments of any type: each remaining value converted.
  DOMString describeVariadic(long first, (TestBinding or DOMString)... rest);
  sequence<sequence<long>> echoVariadicSequences(sequence<long>... values);

  // ByteString and records.
  ByteString echoByteString(ByteString value);
  record<DOMString, long> echoRecord(record<DOMString, long> value);
  record<ByteString, ByteString> echoByteStringRecord(record<ByteString, ByteString> value);
  DOMString describeHeadersInit((sequence<sequence<ByteString>> or record<ByteString, ByteString>) init);
  DOMString describeSearchInit(optional (sequence<sequence<USVString>> or record<USVString, USVString> or USVString) init = "");

  // Buffer source types.
  DOMString describeBuffer(BufferSource source);
  sequence<octet> bytesOf(AllowSharedBufferSource source);
  ArrayBuffer makeArrayBuffer(sequence<octet> bytes);
  Uint8Array makeUint8Array(sequence<octet> bytes);
  Uint8Array fillUint8Array(Uint8Array array, octet value);
  ArrayBufferView? echoView(ArrayBufferView? view);
  DOMString describeBufferOrString((BufferSource or DOMString) value);
  // [AllowShared] / [AllowResizable] buffer source types.
  sequence<octet> bytesOfSharedView([AllowShared] Uint8Array view);
  DOMString describeResizable([AllowResizable] ArrayBuffer buffer);
  DOMString describeAnyView(optional [AllowShared, AllowResizable] ArrayBufferView? view = null);

  Promise<DOMString> promiseEcho(DOMString value);
  Promise<undefined> promiseRejectWith(DOMString name);
  Promise<long> promiseEnforcedLong([EnforceRange] long value);
  Promise<TestDictionary> promiseDictionary(TestDictionary dict);

  undefined throwDOMException(DOMString name, DOMString message);
  undefined throwTypeError(DOMString message);
  undefined throwRangeError(DOMString message);

  DOMString invokeCallback(TestCallback callback, DOMString value);
  long invokeCallbackInterface(TestCallbackInterface callback, long value);
  undefined storeCallback(TestCallback? callback);
  DOMString? invokeStoredCallback(DOMString value);

  Event createEvent(DOMString type, optional boolean cancelable = false);
  boolean fireEvent(DOMString type);
  undefined collectGarbage();
  readonly attribute unsigned long droppedInstances;

  // The JS Self-Profiling API's WebDriver "Force Sample" as a shell hook:
  // every started session of the current browsing context takes a sample
  // now; returns how many did.
  unsigned long forceProfilerSample();
  // Profiling sessions still held by a Profiler (or the shell).
  readonly attribute unsigned long liveProfilingSessions;
};

// A partial interface: its members join TestBinding's.
partial interface TestBinding {
  readonly attribute DOMString fromPartial;
  DOMString partialOperation(DOMString value);
  // A static and a regular operation with the same identifier are not
  // overloads of each other (as Fetch's `static json(data)` and `json()`).
  DOMString sameName();
  static DOMString sameName(DOMString value, optional long count = 1);
  // [SecureContext] members: absent outside secure contexts.
  [SecureContext] readonly attribute DOMString secureAttribute;
  [SecureContext] DOMString secureOperation();
  [SecureContext] static DOMString secureStatic();
};

[Exposed=DedicatedWorker, Pref="dom.testbinding.enabled"]
interface TestWorkerOnly {
};

// A legacy platform object with an indexed property getter, a value
// iterator and a stringifier (as NodeList and DOMTokenList).
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled"]
interface TestIndexedList {
  constructor(sequence<DOMString> items);
  readonly attribute unsigned long length;
  getter DOMString? item(unsigned long index);
  undefined push(DOMString value);
  iterable<DOMString>;
  stringifier;
};

// Named properties with a setter and a deleter (as Storage).
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled"]
interface TestNamedMap {
  constructor();
  readonly attribute unsigned long length;
  getter DOMString? getItem(DOMString name);
  setter undefined setItem(DOMString name, DOMString value);
  deleter undefined removeItem(DOMString name);
};

// [LegacyOverrideBuiltIns] named properties with identifier-less special
// operations (as DOMStringMap).
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled", LegacyOverrideBuiltIns]
interface TestOverrideMap {
  constructor();
  getter DOMString (DOMString name);
  setter undefined (DOMString name, DOMString value);
  deleter undefined (DOMString name);
  readonly attribute DOMString builtin;
};

// Indexed and [LegacyUnenumerableNamedProperties] named properties without
// setters (as HTMLCollection); entries are "name=value" strings.
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled", LegacyUnenumerableNamedProperties]
interface TestCollection {
  constructor(sequence<DOMString> entries);
  readonly attribute unsigned long length;
  getter DOMString? item(unsigned long index);
  getter DOMString? namedItem(DOMString name);
};

// A pair iterator (as URLSearchParams, Headers, FormData).
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled"]
interface TestPairIterable {
  constructor();
  undefined append(DOMString name, long value);
  undefined clear();
  iterable<DOMString, long>;
};

// Inherited special operations (as HTMLFormControlsCollection :
// HTMLCollection, which overrides the named getter, and RadioNodeList :
// NodeList, which inherits the indexed getter).
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled"]
interface TestDerivedCollection : TestCollection {
  constructor(sequence<DOMString> entries);
  getter (long or DOMString)? namedItem(DOMString name);
};

[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled"]
interface TestDerivedList : TestIndexedList {
  // Overloaded constructors (by type at index 0, and by count).
  constructor(sequence<DOMString> items);
  constructor(TestIndexedList copyOf);
  constructor(DOMString item, [EnforceRange] unsigned long count);
  attribute DOMString value;
};

// A [SecureContext] interface: no interface object outside secure contexts.
[Exposed=(Window,DedicatedWorker), Pref="dom.testbinding.enabled", SecureContext]
interface TestSecureOnly {
  constructor();
};
