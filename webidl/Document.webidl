// DOM Standard
// https://dom.spec.whatwg.org/#interface-document
// (plus the HTML "partial interface Document" members the shell needs)
// Deviations: collections are returned as sequences.

[Exposed=Window]
interface Document : Node {
  readonly attribute USVString URL;
  readonly attribute USVString documentURI;
  readonly attribute DOMString compatMode;
  readonly attribute DOMString characterSet;
  readonly attribute DOMString contentType;
  [SameObject] readonly attribute DOMImplementation implementation;

  readonly attribute Element? documentElement;
  HTMLCollection getElementsByTagName(DOMString qualifiedName);
  HTMLCollection getElementsByClassName(DOMString classNames);
  Element? getElementById(DOMString elementId);
  Element? querySelector(DOMString selectors);
  sequence<Element> querySelectorAll(DOMString selectors);

  Element createElement(DOMString localName);
  Element createElementNS(DOMString? namespace, DOMString qualifiedName);
  Text createTextNode(DOMString data);
  DocumentFragment createDocumentFragment();
  Comment createComment(DOMString data);

  // https://html.spec.whatwg.org/multipage/dom.html#the-document-object
  readonly attribute DOMString readyState;
  readonly attribute HTMLElement? head;
  readonly attribute HTMLElement? body;
  readonly attribute HTMLScriptElement? currentScript;
  attribute DOMString title;

  // https://html.spec.whatwg.org/multipage/interaction.html#dom-documentorshadowroot-activeelement
  // (the DocumentOrShadowRoot mixin's member)
  readonly attribute Element? activeElement;
  // https://html.spec.whatwg.org/multipage/dom.html#dom-document-cookie
  // (no [LegacyLenientThis]: not supported by the generator; [Throws]:
  // the getter throws a SecurityError for an opaque origin)
  [Throws] attribute USVString cookie;
};
