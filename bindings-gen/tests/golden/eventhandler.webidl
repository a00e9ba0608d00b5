// Event handler IDL attributes (`attribute EventHandler onx`): provided
// trait methods over the struct's EventTarget part, on a direct child of
// EventTarget and on a grandchild.
[LegacyTreatNonObjectAsNull]
callback EventHandlerNonNull = any (Event event);
typedef EventHandlerNonNull? EventHandler;

[Exposed=*]
interface Event {
};

[Exposed=*]
interface EventTarget {
  constructor();
};

[Exposed=Window]
interface Port : EventTarget {
  attribute EventHandler onmessage;
  readonly attribute EventHandler onclose;
  attribute EventHandlerNonNull? notAnEventHandler;
};

[Exposed=Window]
interface SpecialPort : Port {
  attribute EventHandler onspecial;
};
