throw new Error("thrown by throw.js");
