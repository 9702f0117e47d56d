/**
 * Splitting an amount in proportion to weights when no part may exceed its cap ("water-filling"):
 * a coupon's discount over line classes (no class gives more than it has left), and, rarely, over the
 * lines of one class. Integer minor units throughout, exact.
 */

import { invariant } from '../../../kernel/invariant.js';
import { compareProducts, divideInto, exactDivider } from '../../../kernel/scaled.js';

/** The result of `splitWithCaps`. */
export interface CappedSplit {
  /** Per row, summing exactly to the total. */
  readonly amounts: Float64Array;
  /** Per row: 1 when the row gives its whole cap (its proportional share would have exceeded it). */
  readonly capped: Uint8Array;
  /** The uncapped rows' exact shares are numerator × weight / denominator. */
  readonly numerator: number;
  readonly denominator: number;
}

/**
 * Splits `total` over rows in proportion to `weights`, no row above its cap: rows whose share would
 * exceed their cap give exactly their cap, the rest is shared by the others in proportion to their
 * weights (repeatedly, until no share exceeds a cap), then rounded by largest remainder (ties to the
 * earlier row). O(n log n): rows are sorted by cap / weight, and the capped rows are a prefix of that
 * order.
 *
 * Preconditions (a bug otherwise): integers within `SCALED_LIMIT`, every cap ≤ its weight (so a weight of
 * 0 means a cap of 0), Σ caps ≥ total.
 * @example splitWithCaps(10, [1, 1, 1], [1, 9, 9]).amounts // Float64Array [1, 5, 4]
 */
export function splitWithCaps(
  total: number,
  weights: ArrayLike<number>,
  caps: ArrayLike<number>,
): CappedSplit {
  const count = weights.length;
  const rows: number[] = [];
  let denominator = 0;
  for (let row = 0; row < count; row += 1) {
    if (weights[row]! > 0) {
      rows.push(row);
      denominator += weights[row]!;
    }
  }
  // Ascending cap / weight: the rows most likely to run out come first.
  rows.sort((a, b) => compareProducts(caps[a]!, weights[b]!, caps[b]!, weights[a]!) || a - b);
  const capped = new Uint8Array(count);
  let numerator = total;
  for (const row of rows) {
    // Capped when its share numerator × weight / denominator exceeds its cap. Capping a row raises the
    // others' share, so once a row is not capped, no later (roomier) row is either.
    if (compareProducts(caps[row]!, denominator, numerator, weights[row]!) >= 0) break;
    capped[row] = 1;
    numerator -= caps[row]!;
    denominator -= weights[row]!;
  }
  const amounts = new Float64Array(count);
  for (let row = 0; row < count; row += 1) if (capped[row] === 1) amounts[row] = caps[row]!;
  const open = rows.filter((row) => capped[row] === 0);
  distributeByLargestRemainder(numerator, numerator, denominator, weights, open, amounts);
  return { amounts, capped, numerator, denominator };
}

/**
 * Gives each row of `rows` floor(numerator × weight / denominator), then one more unit to the rows with
 * the largest remainders (ties to the earlier row) until they add up to `target`. Exact; O(n log n).
 * @example
 * const out = new Float64Array(3);
 * distributeByLargestRemainder(10, 10, 3, [1, 1, 1], [0, 1, 2], out); // out = [4, 3, 3]
 */
export function distributeByLargestRemainder(
  target: number,
  numerator: number,
  denominator: number,
  weights: ArrayLike<number>,
  rows: readonly number[],
  amounts: Float64Array,
): void {
  if (rows.length === 0 || denominator === 0) {
    invariant(target === 0, 'an amount to split needs something to split it over');
    return;
  }
  const remainders = new Float64Array(amounts.length);
  const divider = exactDivider(numerator, denominator);
  let assigned = 0;
  for (const row of rows) {
    divideInto(divider, weights[row]!, amounts, remainders, row);
    assigned += amounts[row]!;
  }
  const units = target - assigned;
  invariant(units >= 0 && units <= rows.length, 'largest remainder needs 0 to n extra units');
  if (units === 0) return;
  const ranked = [...rows].sort((a, b) => remainders[b]! - remainders[a]! || a - b);
  for (let rank = 0; rank < units; rank += 1) amounts[ranked[rank]!] = amounts[ranked[rank]!]! + 1;
}
