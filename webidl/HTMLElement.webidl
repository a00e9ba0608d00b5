// HTML Standard
// https://html.spec.whatwg.org/multipage/dom.html#htmlelement
// Subset, with a subset of the GlobalEventHandlers mixin
// (https://html.spec.whatwg.org/multipage/webappapis.html#globaleventhandlers)
// flattened in. Every name of that mixin works as a content attribute
// (see components/script/src/dom/events/eventtarget/).

[Exposed=Window]
interface HTMLElement : Element {
  attribute DOMString title;
  attribute DOMString lang;

  // https://html.spec.whatwg.org/multipage/dom.html#the-innertext-idl-attribute
  // ([LegacyNullToEmptyString] and [CEReactions] are not written: the
  // generator takes no such extended attributes)
  attribute DOMString innerText;

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

  // https://html.spec.whatwg.org/multipage/interaction.html#the-hidden-attribute
  // (a boolean here: the "until-found" value is not supported)
  attribute boolean hidden;

  // HTMLOrSVGElement (https://html.spec.whatwg.org/multipage/dom.html#htmlorsvgelement)
  readonly attribute DOMStringMap dataset;
  attribute long tabIndex;
  undefined focus(optional FocusOptions options = {});
  undefined blur();

  // https://drafts.csswg.org/cssom-view/#extensions-to-the-htmlelement-interface
  // (no layout: no element has a CSS layout box, so these are null and 0)
  readonly attribute Element? offsetParent;
  readonly attribute long offsetTop;
  readonly attribute long offsetLeft;
  readonly attribute long offsetWidth;
  readonly attribute long offsetHeight;

  // ElementCSSInlineStyle (https://drafts.csswg.org/cssom/#the-elementcssinlinestyle-mixin)
  readonly attribute CSSStyleDeclaration style;
};

// https://html.spec.whatwg.org/multipage/interaction.html#focusoptions
dictionary FocusOptions {
  boolean preventScroll = false;
  boolean focusVisible;
};
