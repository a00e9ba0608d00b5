// HTML Standard
// https://html.spec.whatwg.org/multipage/sections.html#the-body-element
// Without the obsolete attributes (text, link, vLink, aLink, bgColor,
// background); a subset of WindowEventHandlers and of the
// Window-reflecting body element event handler set: on `body` these are
// the Window's event handlers
// (https://html.spec.whatwg.org/multipage/webappapis.html#window-reflecting-body-element-event-handler-set).

[Exposed=Window]
interface HTMLBodyElement : HTMLElement {
  // Window-reflecting body element event handler set (subset)
  attribute EventHandler onblur;
  attribute EventHandler onerror; // OnErrorEventHandler in the standard
  attribute EventHandler onfocus;
  attribute EventHandler onload;

  // WindowEventHandlers (subset)
  attribute EventHandler onmessage;
  attribute EventHandler onrejectionhandled;
  attribute EventHandler onunhandledrejection;
};
