// HTML Standard
// https://html.spec.whatwg.org/multipage/comms.html#messageevent
// Deviations: `source` is `MessageEventSource?` (a union of WindowProxy,
// MessagePort and ServiceWorker) in the standard, `object?` here; no
// `ports` (no MessagePort yet) and no `initMessageEvent`.

[Exposed=(Window,Worker)]
interface MessageEvent : Event {
  constructor(DOMString type, optional MessageEventInit eventInitDict = {});

  readonly attribute any data;
  readonly attribute USVString origin;
  readonly attribute DOMString lastEventId;
  readonly attribute object? source;
};

dictionary MessageEventInit : EventInit {
  any data = null;
  USVString origin = "";
  DOMString lastEventId = "";
  object? source = null;
};
