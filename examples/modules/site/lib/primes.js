export function primesBelow(limit) {
  const sieve = new Uint8Array(limit);
  const primes = [];
  for (let i = 2; i < limit; i++) {
    if (sieve[i]) continue;
    primes.push(i);
    for (let j = i * i; j < limit; j += i) sieve[j] = 1;
  }
  return primes;
}
