// A module exporting a function named by the `fn` query parameter, which
// keeps itself on the stack for `ms` milliseconds (defined on line 5).
export const url = import.meta.url;

export function {{GET[fn]}}(ms) {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) {
    x = (x + Math.sqrt(x + 1)) % 1e6;
  }
  return x;
}
