[Exposed=Window]
interface Payload {
};

callback Transform = DOMString (DOMString input, Payload payload);

[LegacyTreatNonObjectAsNull]
callback Handler = any (Payload payload);

callback interface Observer {
  undefined observe(unsigned long count);
};
