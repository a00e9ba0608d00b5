// Static operations: functions of the interface object, no `this`; the
// trait method gets the global instead of `&self`.
[Exposed=*]
interface Registry {
  static DOMString register(object value, optional DOMString kind = "plain");
  static undefined forget(DOMString key);
  boolean has(DOMString key);
  // Not an overload of the regular `has`: `StaticHas` in the trait.
  static boolean has(DOMString key, boolean strict);
};

// Static attributes and extended attributes on attributes and arguments.
[Exposed=Window]
interface Extended {
  static attribute long counter;
  static readonly attribute DOMString label;
  [CEReactions] attribute [LegacyNullToEmptyString] DOMString innerHTML;
  [SameObject, PutForwards=value] readonly attribute Extended child;
  [Replaceable] readonly attribute long replaceable;
  // An enum attribute: the setter ignores other strings.
  attribute Speed speed;
  [CEReactions, NewObject] DOMString echo([LegacyNullToEmptyString] DOMString data);
};

// Overloads.
[Exposed=Window]
interface Overloads {
  // Overloaded constructors: `Constructor`, `Constructor_`.
  constructor();
  constructor(DOMString name, optional long count = 1);
  // [SecureContext] members; [AllowShared]/[AllowResizable] buffer types.
  [SecureContext] undefined secureOnly([AllowShared] Uint8Array view, [AllowResizable] ArrayBuffer buffer);
  [SecureContext] readonly attribute long secureLong;
  undefined open(ByteString method, USVString url);
  undefined open(ByteString method, USVString url, boolean async, optional USVString? username = null);
  undefined postMessage(any message, USVString targetOrigin);
  undefined postMessage(any message, optional Dict options = {});
  static long pick(long a);
  static long pick(DOMString s);
};

dictionary Dict {
  boolean flag = false;
};

enum Speed { "slow", "fast" };
