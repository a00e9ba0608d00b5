// DOM Standard
// https://dom.spec.whatwg.org/#interface-domtokenlist
// Deviations: `item` is a regular operation and the list is not iterable
// and has no stringifier yet (the generator's special operations); no
// `[CEReactions]`.

[Exposed=Window]
interface DOMTokenList {
  readonly attribute unsigned long length;
  DOMString? item(unsigned long index);
  boolean contains(DOMString token);
  undefined add(DOMString... tokens);
  undefined remove(DOMString... tokens);
  boolean toggle(DOMString token, optional boolean force);
  boolean replace(DOMString token, DOMString newToken);
  boolean supports(DOMString token);
  attribute DOMString value;
};
