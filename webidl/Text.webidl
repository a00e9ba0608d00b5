// DOM Standard
// https://dom.spec.whatwg.org/#interface-text
// Deviation: CharacterData is folded into Text (only `data`), and comments
// are Text-less nodes (Comment is not exposed).

[Exposed=Window]
interface Text : Node {
  constructor(optional DOMString data = "");
  attribute DOMString data;
  readonly attribute unsigned long length;
};
