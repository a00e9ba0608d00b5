// HTML Standard
// https://html.spec.whatwg.org/multipage/workers.html#worker-locations
//
// Deviation: `href` is not a `stringifier` (the generator has no
// stringifiers), as in Location.webidl.
[Exposed=Worker]
interface WorkerLocation {
  readonly attribute USVString href;
  readonly attribute USVString origin;
  readonly attribute USVString protocol;
  readonly attribute USVString host;
  readonly attribute USVString hostname;
  readonly attribute USVString port;
  readonly attribute USVString pathname;
  readonly attribute USVString search;
  readonly attribute USVString hash;
};
