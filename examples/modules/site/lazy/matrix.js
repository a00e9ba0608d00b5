export function matrixWork(n) {
  const a = identityPlus(n, 1), b = identityPlus(n, 2);
  return multiply(a, b, n).reduce((sum, row) => sum + row[0], 0);
}

function identityPlus(n, k) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? k : 1 / (1 + i + j))));
}

function multiply(a, b, n) {
  const c = Array.from({ length: n }, () => new Float64Array(n));
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++)
      for (let j = 0; j < n; j++) c[i][j] += a[i][k] * b[k][j];
  return c;
}
