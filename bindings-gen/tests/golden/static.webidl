// Static operations: functions of the interface object, no `this`; the
// trait method gets the global instead of `&self`.
[Exposed=*]
interface Registry {
  static DOMString register(object value, optional DOMString kind = "plain");
  static undefined forget(DOMString key);
  boolean has(DOMString key);
};

// Static attributes and extended attributes on attributes and arguments.
[Exposed=Window]
interface Extended {
  static attribute long counter;
  static readonly attribute DOMString label;
  [CEReactions] attribute [LegacyNullToEmptyString] DOMString innerHTML;
  [SameObject, PutForwards=value] readonly attribute Extended child;
  [Replaceable] readonly attribute long replaceable;
  [CEReactions, NewObject] DOMString echo([LegacyNullToEmptyString] DOMString data);
};
