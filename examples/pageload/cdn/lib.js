// A third-party library on another origin, loaded without CORS.
window.cdnLibrary = {
  greet: function () {
    return "hello from " + "not-web-platform.test";
  },
  fail: function () {
    throw new Error("details that must not leak to the page");
  },
};
console.log("2b lib.js (cross origin) loaded");
