dictionary Flags {
  boolean on = false;
};

[Exposed=Window]
interface Switch {
  undefined set(optional (Flags or boolean) options = {});
  (DOMString or long or sequence<long>) pick((DOMString or long or sequence<long>) value);
};
