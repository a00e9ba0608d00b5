// `[Throws]` attributes: the getter returns `Fallible` and throws the
// error; the setter is fallible as always.
[Exposed=Window]
interface Guarded {
  [Throws] readonly attribute any secret;
  [Throws] attribute DOMString label;
  readonly attribute boolean plain;
};
