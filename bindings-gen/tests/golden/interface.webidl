// An interface with a parent, a constructor, attributes, operations,
// constants, a promise-returning operation and a pref.
[Exposed=*]
interface Base {
  constructor();
};

[Exposed=Window, Pref="dom.thing.enabled"]
interface Thing : Base {
  constructor(DOMString name, optional [EnforceRange] long size = 1);
  readonly attribute DOMString name;
  attribute double? weight;
  [LegacyUnforgeable] readonly attribute boolean trusted;
  const unsigned short KIND = 2;
  Promise<undefined> settle(optional boolean now = false);
  any inspect(any value, object target);
};
