/**
 * The halt rule's test (docs/releases.md "The halt rule"): is a release's rate of reporting clients per
 * install more than `factor` times the previous release's? Reporting clients are taken as Poisson counts
 * over the installs; given their total, the release's share is binomial (the exact conditional test of
 * two Poisson rates, Przyborowski and Wilenski 1940), so the p-value is a binomial tail.
 *
 * @module
 */

/** ln(n!) for every n up to `n`, summed once per call: counts here stay far below a million. */
function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) table[i] = table[i - 1]! + Math.log(i);
  return table;
}

/**
 * P(X >= k) for X ~ Binomial(n, p).
 *
 * @param k The observed count (0 to n).
 * @param n The trials.
 * @param p The chance of each.
 */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n || p <= 0) return 0;
  if (p >= 1) return 1;
  const lf = logFactorials(n);
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  let sum = 0;
  for (let x = k; x <= n; x++) sum += Math.exp(lf[n]! - lf[x]! - lf[n - x]! + x * lp + (n - x) * lq);
  return Math.min(1, sum);
}

/**
 * The one-sided p-value that `k1` events over exposure `n1` are more than `factor` times the rate of `k2`
 * events over `n2`: under that hypothesis, given k1 + k2, k1 is Binomial(k1 + k2, f n1 / (f n1 + n2)).
 */
export function excessPValue(k1: number, n1: number, k2: number, n2: number, factor: number): number {
  const p = (factor * n1) / (factor * n1 + n2);
  return binomialUpperTail(k1, k1 + k2, p);
}
