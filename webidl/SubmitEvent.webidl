// HTML Standard
// https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#the-submitevent-interface

[Exposed=Window]
interface SubmitEvent : Event {
  constructor(DOMString type, optional SubmitEventInit eventInitDict = {});

  readonly attribute HTMLElement? submitter;
};

dictionary SubmitEventInit : EventInit {
  HTMLElement? submitter = null;
};
