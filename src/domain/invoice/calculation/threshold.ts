/**
 * What settling a group's largest-remainder threshold exactly needs, beyond the histogram pass.
 *
 * After the histogram pass, a group's lines are of three kinds: surely above the threshold bucket (given
 * a unit already), surely below it, and near it (their estimated fraction lies within its error margin of
 * the bucket). The near lines get exact remainders; then an exact check that the estimates did not
 * mislead: the lines at or above the bucket's top must be no more than the units to give, and the lines
 * at or above its bottom no fewer. If so, the near lines with the largest remainders take the units left;
 * if not (many remainders exactly on a bucket edge), the group is redone exactly.
 */
import { divideInto, exactDivider } from '../../../kernel/scaled.js';
import { largestRemainders } from './largest-remainders.js';

/** The relative error bound of a share estimate (2^-51.9 · share), with a margin. */
export const ESTIMATE_ERROR = 2 ** -50;

/**
 * The least remainder r with r / denominator ≥ edge / scale, i.e. ceil(edge × denominator / scale), so
 * that comparing exact remainders with a bucket edge is one comparison.
 * @example remainderAtEdge(1, 10, 4) // 3 (3/10 ≥ 1/4 > 2/10)
 */
export function remainderAtEdge(edge: number, denominator: number, scale: number): number {
  const quotient = new Float64Array(1);
  const remainder = new Float64Array(1);
  divideInto(exactDivider(edge, scale), denominator, quotient, remainder, 0);
  return quotient[0]! + (remainder[0]! > 0 ? 1 : 0);
}

/** One group's near lines with their exact remainders, and the exact counts at the bucket's edges. */
export interface NearLines {
  readonly lines: number[];
  readonly remainders: number[];
  /** Near lines whose exact fraction is at or above the bucket's top. */
  atOrAboveTop: number;
  /** Near lines whose exact fraction is at or above the bucket's bottom. */
  atOrAboveBottom: number;
}

/** An empty collection of near lines. @example nearLines().lines // [] */
export const nearLines = (): NearLines => ({
  lines: [],
  remainders: [],
  atOrAboveTop: 0,
  atOrAboveBottom: 0,
});

/**
 * The near lines that take the `need` units left, decided exactly; undefined when the estimates misled
 * (the group must then be redone exactly).
 * @example resolveThreshold({ lines: [3, 9], remainders: [5, 8], atOrAboveTop: 0, atOrAboveBottom: 2 }, 1) // [9]
 */
export function resolveThreshold(near: NearLines, need: number): number[] | undefined {
  if (near.atOrAboveTop > need || need > near.atOrAboveBottom) return undefined;
  return largestRemainders(near.lines, need, near.remainders);
}
