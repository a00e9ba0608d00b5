// DOM Standard
// https://dom.spec.whatwg.org/#interface-text
// Subset: no splitText() or wholeText.

[Exposed=Window]
interface Text : CharacterData {
  constructor(optional DOMString data = "");
};
