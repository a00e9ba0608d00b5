// A same-origin script: some work worth profiling.
function fibonacci(n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}
console.log("2 app.js (same origin): fibonacci(20) =", fibonacci(20));
