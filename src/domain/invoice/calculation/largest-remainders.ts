/**
 * Choosing which lines get the extra units of a largest-remainder split, in O(n) whatever the remainders.
 */
import { invariant } from '../../../kernel/invariant.js';

/**
 * The `need` lines of `candidates` (in line order) with the largest exact remainders (`remainders[k]` is
 * the remainder of `candidates[k]`), ties to the earlier line. Radix selection: each round buckets the
 * candidates' remainder range, keeps the buckets above the threshold and goes on with the threshold
 * bucket alone. Remainders are integers below 2^50 and each
 * round divides their range by up to 4096, so a handful of rounds end in a single value (a tie, settled by
 * line order): O(n) however the remainders cluster (percentages make them cluster).
 * @example largestRemainders([0, 1, 2, 3], 2, [5, 7, 7, 1]) // [1, 2]
 */
export function largestRemainders(
  candidates: readonly number[],
  need: number,
  remainders: readonly number[],
): number[] {
  invariant(need <= candidates.length, 'there are as many candidates as units to give');
  const chosen: number[] = [];
  let pool = Int32Array.from(candidates);
  let spare = new Int32Array(pool.length);
  let values = Float64Array.from(remainders);
  let spareValues = new Float64Array(pool.length);
  let size = pool.length;
  let left = need;
  while (left > 0) {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (let index = 0; index < size; index += 1) {
      const remainder = values[index]!;
      if (remainder < low) low = remainder;
      if (remainder > high) high = remainder;
    }
    if (low === high || left === size) {
      // All equal (or all needed): the earliest lines win, and the pool is in line order.
      for (let index = 0; index < left; index += 1) chosen.push(pool[index]!);
      return chosen;
    }
    const buckets = Math.min(4096, size);
    const scale = buckets / (high - low + 1);
    const histogram = new Int32Array(buckets);
    for (let index = 0; index < size; index += 1) {
      const bucket = Math.min(buckets - 1, Math.floor((values[index]! - low) * scale));
      histogram[bucket] = histogram[bucket]! + 1;
    }
    let threshold = buckets - 1;
    let above = 0;
    while (above + histogram[threshold]! < left) {
      above += histogram[threshold]!;
      threshold -= 1;
    }
    let kept = 0;
    for (let index = 0; index < size; index += 1) {
      const bucket = Math.min(buckets - 1, Math.floor((values[index]! - low) * scale));
      if (bucket > threshold) {
        chosen.push(pool[index]!);
      } else if (bucket === threshold) {
        spare[kept] = pool[index]!;
        spareValues[kept] = values[index]!;
        kept += 1;
      }
    }
    [pool, spare] = [spare, pool];
    [values, spareValues] = [spareValues, values];
    size = kept;
    left -= above;
  }
  return chosen;
}
