// UI Events
// https://w3c.github.io/uievents/#interface-mouseevent
// with CSSOM View's redefinition of the coordinates as double
// (https://drafts.csswg.org/cssom-view/#extensions-to-the-mouseevent-interface),
// as browsers have them. Not included: CSSOM View's pageX/pageY/x/y/
// offsetX/offsetY (no layout), the legacy initMouseEvent().

[Exposed=Window]
interface MouseEvent : UIEvent {
  constructor(DOMString type, optional MouseEventInit eventInitDict = {});
  readonly attribute double screenX;
  readonly attribute double screenY;
  readonly attribute double clientX;
  readonly attribute double clientY;

  readonly attribute boolean ctrlKey;
  readonly attribute boolean shiftKey;
  readonly attribute boolean altKey;
  readonly attribute boolean metaKey;

  readonly attribute short button;
  readonly attribute unsigned short buttons;

  readonly attribute EventTarget? relatedTarget;

  boolean getModifierState(DOMString keyArg);
};

dictionary MouseEventInit : EventModifierInit {
  double screenX = 0.0;
  double screenY = 0.0;
  double clientX = 0.0;
  double clientY = 0.0;

  short button = 0;
  unsigned short buttons = 0;
  EventTarget? relatedTarget = null;
};
