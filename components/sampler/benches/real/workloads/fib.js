// Call-dense: recursive fib(30), four times per iteration.
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
var BENCH = {
  name: "fib",
  run: function () {
    var sum = 0;
    for (var i = 0; i < 4; i++) {
      sum += fib(30);
    }
    return sum;
  },
};
