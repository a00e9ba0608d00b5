// HTML Standard
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-location-interface
// Deviation: a subset (no cross-document navigation: href is readonly, no
// assign/replace/reload); `hash` is settable (a fragment navigation)
// and, as the generator has [LegacyUnforgeable] on readonly attributes
// only, an accessor of Location.prototype instead of an own property.

[Exposed=Window]
interface Location {
  [LegacyUnforgeable] readonly attribute USVString href;
  [LegacyUnforgeable] readonly attribute USVString origin;
  [LegacyUnforgeable] readonly attribute USVString protocol;
  [LegacyUnforgeable] readonly attribute USVString host;
  [LegacyUnforgeable] readonly attribute USVString hostname;
  [LegacyUnforgeable] readonly attribute USVString port;
  [LegacyUnforgeable] readonly attribute USVString pathname;
  [LegacyUnforgeable] readonly attribute USVString search;
  attribute USVString hash;
};
