// Static operations: functions of the interface object, no `this`; the
// trait method gets the global instead of `&self`.
[Exposed=*]
interface Registry {
  static DOMString register(object value, optional DOMString kind = "plain");
  static undefined forget(DOMString key);
  boolean has(DOMString key);
};
