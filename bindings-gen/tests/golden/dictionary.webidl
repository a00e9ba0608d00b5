// Dictionaries: inheritance, required members, defaults, lexicographic order,
// [CrossOriginIsolated] members.
dictionary Base {
  boolean zeta = true;
  DOMString alpha;
};

dictionary Options : Base {
  required unsigned long count;
  double ratio = 0.5;
  sequence<DOMString> names;
  [CrossOriginIsolated] DOMString isolatedOnly;
};
