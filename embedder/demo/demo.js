// The bundled demo: a little work of the kinds a page does (number crunching,
// string building, JSON), ending in a one-line summary.
function sieve(limit) {
  const composite = new Uint8Array(limit + 1);
  let count = 0;
  for (let i = 2; i <= limit; i++) {
    if (composite[i]) continue;
    count++;
    for (let j = i * i; j <= limit; j += i) composite[j] = 1;
  }
  return count;
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function roundTrip(items) {
  const rows = [];
  for (let i = 0; i < items; i++) rows.push({ id: i, name: "item" + i, tags: ["a", "b"] });
  return JSON.parse(JSON.stringify(rows)).length;
}

`primes below 1e6: ${sieve(1e6)}; fib(25): ${fib(25)}; JSON rows: ${roundTrip(20000)}`;
