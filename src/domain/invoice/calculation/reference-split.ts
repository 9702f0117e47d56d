/**
 * The splitting rules of the reference implementation, written plainly on decimal strings (money.ts):
 * integer minor units as `Dec`, full sorts, water-filling by repeated rounds. Slow, obviously exact.
 */
import { invariant } from '../../../kernel/invariant.js';
import { add, cmp, type Dec, div, isZero, mul, roundTo, sub, sum } from '../../../kernel/money.js';

/** floor(a / b) for non-negative integers a and b > 0. */
function floorDiv(a: Dec, b: Dec): Dec {
  let quotient = roundTo(div(a, b), 0);
  // div keeps 40 significant digits and roundTo rounds half up: step back or forward to the true floor.
  while (cmp(mul(quotient, b), a) > 0) quotient = sub(quotient, '1');
  while (cmp(sub(a, mul(quotient, b)), b) >= 0) quotient = add(quotient, '1');
  return quotient;
}

/**
 * Each weight's share floor(numerator × weight / denominator), then one more unit for the largest
 * remainders (ties to the earlier row) until the shares add up to `target`.
 * @example largestRemainder('10', '10', '3', ['1', '1', '1']) // ['4', '3', '3']
 */
export function largestRemainder(
  target: Dec,
  numerator: Dec,
  denominator: Dec,
  weights: readonly Dec[],
): Dec[] {
  if (isZero(denominator)) {
    invariant(isZero(target), 'nothing to split over');
    return weights.map(() => '0');
  }
  const shares = weights.map((weight) => {
    const exact = mul(numerator, weight);
    const floor = floorDiv(exact, denominator);
    return { floor, remainder: sub(exact, mul(floor, denominator)) };
  });
  const units = Number(sub(target, sum(shares.map((share) => share.floor))));
  invariant(units >= 0 && units <= weights.length, 'largest remainder needs 0 to n extra units');
  const ranked = shares.map((_, index) => index);
  ranked.sort((a, b) => cmp(shares[b]!.remainder, shares[a]!.remainder) || a - b);
  const result = shares.map((share) => share.floor);
  for (const index of ranked.slice(0, units)) result[index] = add(result[index]!, '1');
  return result;
}

/** The result of `waterFill`. */
export interface ReferenceCappedSplit {
  readonly amounts: readonly Dec[];
  readonly capped: readonly boolean[];
  readonly numerator: Dec;
  readonly denominator: Dec;
}

/**
 * Splits `total` in proportion to weights, no row above its cap: in rounds, every row whose share
 * exceeds its cap gives its cap and leaves the sharing, until no share exceeds a cap; then largest
 * remainder over the rest.
 * @example waterFill('10', ['1', '1', '1'], ['1', '9', '9']).amounts // ['1', '5', '4']
 */
export function waterFill(total: Dec, weights: readonly Dec[], caps: readonly Dec[]): ReferenceCappedSplit {
  const capped = weights.map(() => false);
  const sharing = (row: number): boolean => !capped[row] && !isZero(weights[row]!);
  let numerator = total;
  let denominator = '0';
  for (;;) {
    numerator = sub(total, sum(caps.filter((_, row) => capped[row])));
    denominator = sum(weights.filter((_, row) => sharing(row)));
    const over = weights
      .map((_, row) => row)
      .filter((row) => sharing(row) && cmp(mul(caps[row]!, denominator), mul(numerator, weights[row]!)) < 0);
    if (over.length === 0) break;
    for (const row of over) capped[row] = true;
  }
  const open = weights.map((_, row) => row).filter(sharing);
  const shares = largestRemainder(
    numerator,
    numerator,
    denominator,
    open.map((row) => weights[row]!),
  );
  const amounts = weights.map((_, row) => (capped[row] ? caps[row]! : '0'));
  open.forEach((row, position) => {
    amounts[row] = shares[position]!;
  });
  return { amounts, capped, numerator, denominator };
}
