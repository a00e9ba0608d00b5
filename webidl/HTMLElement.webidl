// HTML Standard
// https://html.spec.whatwg.org/multipage/dom.html#htmlelement
// Subset, with a subset of the GlobalEventHandlers mixin
// (https://html.spec.whatwg.org/multipage/webappapis.html#globaleventhandlers)
// flattened in. Every name of that mixin works as a content attribute
// (see components/script/src/dom/eventtarget.rs).

[Exposed=Window]
interface HTMLElement : Element {
  attribute DOMString title;
  attribute DOMString lang;

  // https://html.spec.whatwg.org/multipage/interaction.html#dom-click
  undefined click();

  // GlobalEventHandlers (subset)
  attribute EventHandler onblur;
  attribute EventHandler onchange;
  attribute EventHandler onclick;
  attribute EventHandler ondblclick;
  attribute OnErrorEventHandler onerror;
  attribute EventHandler onfocus;
  attribute EventHandler oninput;
  attribute EventHandler onkeydown;
  attribute EventHandler onkeypress;
  attribute EventHandler onkeyup;
  attribute EventHandler onload;
  attribute EventHandler onmousedown;
  attribute EventHandler onmousemove;
  attribute EventHandler onmouseout;
  attribute EventHandler onmouseover;
  attribute EventHandler onmouseup;
  attribute EventHandler onsubmit;
};
