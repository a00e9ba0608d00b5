// Functions at known positions, for script-resources.html. Do not move them
// without updating the expected lines and columns there.
"use strict";
function externalFunction() {
  return busyWait(150);
}

const externalObject = {
  method() {
    return busyWait(150);
  },
};
