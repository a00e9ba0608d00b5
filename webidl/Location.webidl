// HTML Standard
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-location-interface
// Deviation: read-only subset (no navigation: href is readonly, no
// assign/replace/reload).

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
  [LegacyUnforgeable] readonly attribute USVString hash;
};
