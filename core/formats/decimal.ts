/**
 * Exact sums of money amounts written as decimals ("49.00", "0.5", "500"), as SQL's numeric sums them: the
 * result keeps the largest number of decimal places among its terms.
 *
 * @module
 */

const split = (text: string): [bigint, number] => {
  const [whole = '0', fraction = ''] = text.split('.');
  return [BigInt(whole + fraction), fraction.length];
};

/** a + b, exactly. */
export function addDecimals(a: string, b: string): string {
  const [x, xs] = split(a);
  const [y, ys] = split(b);
  const scale = Math.max(xs, ys);
  const sum = x * 10n ** BigInt(scale - xs) + y * 10n ** BigInt(scale - ys);
  if (scale === 0) return sum.toString();
  const digits = sum.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** Zero in the decimals of `amount` ("49.00" gives "0.00"), as SQL's amount * 0. */
export function zeroLike(amount: string): string {
  const fraction = amount.split('.')[1];
  return fraction === undefined ? '0' : `0.${'0'.repeat(fraction.length)}`;
}
