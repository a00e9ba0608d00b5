// HTML Standard
// https://html.spec.whatwg.org/multipage/webappapis.html#eventhandler

[LegacyTreatNonObjectAsNull]
callback EventHandlerNonNull = any (Event event);
typedef EventHandlerNonNull? EventHandler;
