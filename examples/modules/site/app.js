import { primesBelow } from "lib/primes.js";
import { renderTable } from "lib/render.js";

function startup() {
  const primes = primesBelow(300000);
  console.log(`app: ${primes.length} primes, table of ${renderTable(primes).length} characters`);
}

startup();

// A lazily loaded chunk, as bundlers emit for code splitting.
const { matrixWork } = await import("./lazy/matrix.js");
console.log(`lazy chunk (${import.meta.resolve("./lazy/matrix.js")}): ${matrixWork(120)}`);
