// DOM Standard
// https://dom.spec.whatwg.org/#interface-customevent

[Exposed=*]
interface CustomEvent : Event {
  constructor(DOMString type, optional CustomEventInit eventInitDict = {});
  readonly attribute any detail;
};

dictionary CustomEventInit : EventInit {
  any detail = null;
};
