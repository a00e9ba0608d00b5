// Defines a global function named by the `fn` query parameter, which keeps
// itself on the stack for `ms` milliseconds. Self-contained on purpose: no
// helper frame of another script appears inside it.
function {{GET[fn]}}(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x = (x + Math.sqrt(x + 1)) % 1e6;
  }
  return x;
}
