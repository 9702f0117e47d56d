/**
 * Choosing which lines get the extra units of a largest-remainder split, in O(n) whatever the remainders.
 */
import { invariant } from '../../../kernel/invariant.js';

/** Buckets per round of radix selection. */
const MAX_BUCKETS = 4096;

/**
 * Working space for `chooseLargestRemainders`: the candidates (lines and their remainders) and as much
 * again to partition into. Large splits keep one for the whole calculation, so that selecting among tens
 * of thousands of lines allocates nothing.
 */
export interface RemainderBuffers {
  lines: Int32Array;
  remainders: Float64Array;
  spareLines: Int32Array;
  spareRemainders: Float64Array;
  readonly histogram: Int32Array;
}

/**
 * Buffers for `capacity` candidates.
 * @example remainderBuffers(16).lines.length // 16
 */
export const remainderBuffers = (capacity: number): RemainderBuffers => ({
  lines: new Int32Array(capacity),
  remainders: new Float64Array(capacity),
  spareLines: new Int32Array(capacity),
  spareRemainders: new Float64Array(capacity),
  // A round uses at most one bucket per candidate.
  histogram: new Int32Array(Math.min(MAX_BUCKETS, capacity)),
});

/**
 * Calls `choose` for each of the `need` candidates in positions [start, end) of `buffers.lines` (with
 * their remainders in `buffers.remainders`, in line order) with the largest remainders, ties to the
 * earlier line. Radix selection: each round buckets the candidates' remainder range, takes the buckets
 * above the threshold and goes on with the threshold bucket alone, which it moves to the same positions
 * of the spare arrays (so both arrays' contents are overwritten there). Remainders are integers below 2^50
 * and each round divides their range by up to 4096, so a handful of rounds end in a single value (a tie,
 * settled by line order): O(n) however the remainders cluster (percentages make them cluster).
 * @example
 * const buffers = remainderBuffers(4);
 * buffers.lines.set([0, 1, 2, 3]); buffers.remainders.set([5, 7, 7, 1]);
 * chooseLargestRemainders(buffers, 0, 4, 2, (line) => chosen.push(line)); // chooses 1 and 2
 */
export function chooseLargestRemainders(
  buffers: RemainderBuffers,
  start: number,
  end: number,
  need: number,
  choose: (line: number) => void,
): void {
  invariant(need <= end - start, 'there are as many candidates as units to give');
  let { lines, remainders, spareLines, spareRemainders } = buffers;
  const histogram = buffers.histogram;
  let size = end - start;
  let left = need;
  while (left > 0) {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (let index = start; index < start + size; index += 1) {
      const remainder = remainders[index]!;
      if (remainder < low) low = remainder;
      if (remainder > high) high = remainder;
    }
    if (low === high || left === size) {
      // All equal (or all needed): the earliest lines win, and the candidates are in line order.
      for (let index = start; index < start + left; index += 1) choose(lines[index]!);
      return;
    }
    const buckets = Math.min(MAX_BUCKETS, size);
    const scale = buckets / (high - low + 1);
    histogram.fill(0, 0, buckets);
    for (let index = start; index < start + size; index += 1) {
      const bucket = Math.min(buckets - 1, Math.floor((remainders[index]! - low) * scale));
      histogram[bucket] = histogram[bucket]! + 1;
    }
    let threshold = buckets - 1;
    let above = 0;
    while (above + histogram[threshold]! < left) {
      above += histogram[threshold]!;
      threshold -= 1;
    }
    let kept = start;
    for (let index = start; index < start + size; index += 1) {
      const bucket = Math.min(buckets - 1, Math.floor((remainders[index]! - low) * scale));
      if (bucket > threshold) {
        choose(lines[index]!);
      } else if (bucket === threshold) {
        spareLines[kept] = lines[index]!;
        spareRemainders[kept] = remainders[index]!;
        kept += 1;
      }
    }
    [lines, spareLines] = [spareLines, lines];
    [remainders, spareRemainders] = [spareRemainders, remainders];
    size = kept - start;
    left -= above;
  }
}

/**
 * The `need` lines of `candidates` (in line order) with the largest exact remainders (`remainders[k]` is
 * the remainder of `candidates[k]`), ties to the earlier line; see `chooseLargestRemainders`.
 * @example largestRemainders([0, 1, 2, 3], 2, [5, 7, 7, 1]) // [1, 2]
 */
export function largestRemainders(
  candidates: readonly number[],
  need: number,
  remainders: readonly number[],
): number[] {
  invariant(need <= candidates.length, 'there are as many candidates as units to give');
  const buffers = remainderBuffers(candidates.length);
  buffers.lines.set(candidates);
  buffers.remainders.set(remainders);
  const chosen: number[] = [];
  chooseLargestRemainders(buffers, 0, candidates.length, need, (line) => chosen.push(line));
  return chosen;
}
