// Line 1. Throws from its message handler (line 4); keeps answering after.
"use strict";
self.onmessage = (event) => {
  if (event.data === "throw") { throw new TypeError("thrown by the message handler"); }
  postMessage("pong:" + event.data);
};
