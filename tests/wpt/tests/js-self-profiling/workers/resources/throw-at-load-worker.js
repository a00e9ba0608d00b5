// Line 1. Throws while its script is evaluated (line 3).
"use strict";
throw new RangeError("thrown while the worker script runs");
