// URL Standard
// https://url.spec.whatwg.org/#interface-urlsearchparams
//
// Deviations until the generator has them (branch s4-gen):
// * the constructor's union has no `record<USVString, USVString>` member
//   (an object that is not iterable converts to a string instead of being
//   read as a record);
// * the constructor's `init` has no default value `""` (the generator
//   has no union defaults); a missing init is treated as "".

[Exposed=*]
interface URLSearchParams {
  constructor(optional (sequence<sequence<USVString>> or USVString) init);

  readonly attribute unsigned long size;

  undefined append(USVString name, USVString value);
  undefined delete(USVString name, optional USVString value);
  USVString? get(USVString name);
  sequence<USVString> getAll(USVString name);
  boolean has(USVString name, optional USVString value);
  undefined set(USVString name, USVString value);

  undefined sort();

  iterable<USVString, USVString>;
  stringifier;
};
