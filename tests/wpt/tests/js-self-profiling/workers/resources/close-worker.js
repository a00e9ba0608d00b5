// On "close": schedules a timer, posts "closing", then calls close(). No
// task may run after close(): neither the timer nor another message.
"use strict";
self.onmessage = (event) => {
  if (event.data === "close") {
    setTimeout(() => postMessage("the timer ran after close()"), 0);
    postMessage("closing");
    close();
    return;
  }
  postMessage("pong:" + event.data);
};
