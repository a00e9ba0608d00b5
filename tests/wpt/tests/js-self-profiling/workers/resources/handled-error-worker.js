// Line 1. Its global handles (cancels) the error its message handler
// throws (line 12), so none is reported at the Worker object.
"use strict";
self.addEventListener("error", (event) => {
  event.preventDefault();
  postMessage("handled|" + event.message + "|" + event.lineno + "|" +
    (event.error instanceof Error) + "|" + (event instanceof ErrorEvent));
});
self.onmessage = () => {
  // Posted from a later task: after the error was handled.
  setTimeout(() => postMessage("still running"), 0);
  throw new Error("handled in the worker");
};
