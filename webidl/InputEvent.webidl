// UI Events
// https://w3c.github.io/uievents/#interface-inputevent
// with Input Events' inputType
// (https://w3c.github.io/input-events/#interface-InputEvent). Not
// included: dataTransfer and getTargetRanges() (no DataTransfer or
// StaticRange interfaces).

[Exposed=Window]
interface InputEvent : UIEvent {
  constructor(DOMString type, optional InputEventInit eventInitDict = {});
  readonly attribute DOMString? data;
  readonly attribute boolean isComposing;
  readonly attribute DOMString inputType;
};

dictionary InputEventInit : UIEventInit {
  DOMString? data = null;
  boolean isComposing = false;
  DOMString inputType = "";
};
