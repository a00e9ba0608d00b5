// DOM Standard
// https://dom.spec.whatwg.org/#interface-element
// Deviations: collections are returned as sequences; attribute nodes are
// not exposed.

[Exposed=Window]
interface Element : Node {
  readonly attribute DOMString? namespaceURI;
  readonly attribute DOMString? prefix;
  readonly attribute DOMString localName;
  readonly attribute DOMString tagName;

  attribute DOMString id;
  attribute DOMString className;

  boolean hasAttributes();
  [SameObject] readonly attribute NamedNodeMap attributes;
  sequence<DOMString> getAttributeNames();
  DOMString? getAttribute(DOMString qualifiedName);
  undefined setAttribute(DOMString qualifiedName, DOMString value);
  undefined removeAttribute(DOMString qualifiedName);
  boolean hasAttribute(DOMString qualifiedName);
  boolean toggleAttribute(DOMString qualifiedName, optional boolean force);

  // https://dom.spec.whatwg.org/#interface-childnode (the ChildNode mixin's
  // remove(), written here; the mixin is not included by Text yet)
  undefined remove();

  Element? querySelector(DOMString selectors);
  sequence<Element> querySelectorAll(DOMString selectors);
  HTMLCollection getElementsByTagName(DOMString qualifiedName);
  HTMLCollection getElementsByClassName(DOMString classNames);

  // https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#dom-parsing-and-serialization
  // (TrustedHTML is not supported: strings only)
  attribute [LegacyNullToEmptyString] DOMString innerHTML;
  attribute [LegacyNullToEmptyString] DOMString outerHTML;
  undefined insertAdjacentHTML(DOMString position, DOMString string);

  // https://dom.spec.whatwg.org/#dom-element-classlist (no [SameObject,
  // PutForwards=value] annotations: the same object is returned anyway)
  readonly attribute DOMTokenList classList;
  boolean matches(DOMString selectors);
  boolean webkitMatchesSelector(DOMString selectors); // legacy alias of .matches
  Element? closest(DOMString selectors);

  // CSSOM View (https://drafts.csswg.org/cssom-view/#extension-to-the-element-interface):
  // the shell has no layout, so no element has a box (zeros; see the
  // methods' comments). scrollIntoView takes a boolean only (no
  // ScrollIntoViewOptions).
  DOMRect getBoundingClientRect();
  undefined scrollIntoView(optional boolean arg);
  attribute unrestricted double scrollTop;
  attribute unrestricted double scrollLeft;
  readonly attribute long scrollWidth;
  readonly attribute long scrollHeight;
  readonly attribute long clientTop;
  readonly attribute long clientLeft;
  readonly attribute long clientWidth;
  readonly attribute long clientHeight;
};
