// The consumer scripts' shared check: a failed condition is printed and
// counted, and `finish()` exits with status 1 if any failed.
let failures = 0;

export function check(condition, message) {
  if (!condition) {
    console.error("FAIL " + message);
    failures++;
  }
}

export function finish() {
  process.exit(failures ? 1 : 0);
}
