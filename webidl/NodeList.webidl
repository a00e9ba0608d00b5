// DOM Standard
// https://dom.spec.whatwg.org/#interface-nodelist
// Deviation: the indexed getter and `iterable<Node>` wait for the
// generator's special operations (branch s4-gen); `length` and `item()`
// are here.

[Exposed=Window]
interface NodeList {
  Node? item(unsigned long index);
  readonly attribute unsigned long length;
};
