// HTML Standard
// https://html.spec.whatwg.org/multipage/system-state.html#the-navigator-object
// with WebDriver's NavigatorAutomationInformation
// (https://w3c.github.io/webdriver/#interface) and HTML's
// NavigatorConcurrentHardware
// (https://html.spec.whatwg.org/multipage/workers.html#navigator.hardwareconcurrency).
//
// Deviations:
// * The partial interface mixin NavigatorID (`taintEnabled()`, `oscpu`) is
//   written into the mixin (no partial definitions in the generator).
// * `languages` is `FrozenArray<DOMString>` in the standard; the generator
//   has no FrozenArray, so it is `object`: the getter returns the same
//   frozen array object until the languages change (never, in the shell),
//   which is what a FrozenArray attribute returns.
// * No NavigatorContentUtils (`registerProtocolHandler`), NavigatorPlugins
//   (`plugins`, `mimeTypes`, `javaEnabled()`, `pdfViewerEnabled`).

[Exposed=Window]
interface Navigator {
  // objects implementing this interface also implement the interfaces given below
};
Navigator includes NavigatorID;
Navigator includes NavigatorLanguage;
Navigator includes NavigatorOnLine;
Navigator includes NavigatorCookies;
Navigator includes NavigatorConcurrentHardware;
Navigator includes NavigatorAutomationInformation;

interface mixin NavigatorID {
  readonly attribute DOMString appCodeName; // constant "Mozilla"
  readonly attribute DOMString appName; // constant "Netscape"
  readonly attribute DOMString appVersion;
  readonly attribute DOMString platform;
  readonly attribute DOMString product; // constant "Gecko"
  [Exposed=Window] readonly attribute DOMString productSub;
  readonly attribute DOMString userAgent;
  [Exposed=Window] readonly attribute DOMString vendor;
  [Exposed=Window] readonly attribute DOMString vendorSub; // constant ""

  // partial interface mixin NavigatorID
  [Exposed=Window] boolean taintEnabled(); // constant false
  [Exposed=Window] readonly attribute DOMString oscpu;
};

interface mixin NavigatorLanguage {
  readonly attribute DOMString language;
  readonly attribute object languages;
};

interface mixin NavigatorOnLine {
  readonly attribute boolean onLine;
};

interface mixin NavigatorCookies {
  readonly attribute boolean cookieEnabled;
};

interface mixin NavigatorConcurrentHardware {
  readonly attribute unsigned long long hardwareConcurrency;
};

interface mixin NavigatorAutomationInformation {
  readonly attribute boolean webdriver;
};
