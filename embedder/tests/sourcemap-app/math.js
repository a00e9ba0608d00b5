export function computePrimes(limit) {
  const primes = [];
  for (let candidate = 2; primes.length < limit; candidate++) {
    if (isPrime(candidate)) primes.push(candidate);
  }
  return primes;
}

function isPrime(value) {
  for (let divisor = 2; divisor * divisor <= value; divisor++) {
    if (value % divisor === 0) return false;
  }
  return true;
}
