/**
 * The selection that settles every largest-remainder split (which lines get the extra minor units),
 * against a plain sort, on remainders shaped like those of percentages: clustered, tied, spread over the
 * whole range, and pools large enough for several rounds of radix selection.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  chooseLargestRemainders,
  largestRemainders,
  remainderBuffers,
} from '../../../../src/domain/invoice/calculation/largest-remainders.js';
import { InvariantError } from '../../../../src/kernel/invariant.js';

/** The `need` candidates with the largest remainders, ties to the earlier candidate, in line order. */
function bySort(candidates: readonly number[], need: number, remainders: readonly number[]): number[] {
  return candidates
    .map((line, position) => ({ line, position, remainder: remainders[position]! }))
    .sort((a, b) => b.remainder - a.remainder || a.position - b.position)
    .slice(0, need)
    .map(({ line }) => line)
    .sort((a, b) => a - b);
}

const MAX_REMAINDER = 2 ** 50 - 1;

/** Remainders of one split: few distinct values (ties), narrow clusters, or anywhere below 2^50. */
const remaindersOf = (count: number): fc.Arbitrary<number[]> =>
  fc.oneof(
    fc.array(fc.constantFrom(0, 1, 5, 7, 4096, MAX_REMAINDER), { minLength: count, maxLength: count }),
    fc.integer({ min: 0, max: MAX_REMAINDER - 10_000 }).chain((base) =>
      fc.array(
        fc.integer({ min: 0, max: 10_000 }).map((offset) => base + offset),
        { minLength: count, maxLength: count },
      ),
    ),
    fc.array(fc.integer({ min: 0, max: MAX_REMAINDER }), { minLength: count, maxLength: count }),
  );

/** Lines in increasing order (gaps where other groups' lines are), their remainders, and the units to give. */
const selectionArbitrary = (maxCount: number) =>
  fc.integer({ min: 0, max: maxCount }).chain((count) =>
    fc.record({
      candidates: fc
        .array(fc.integer({ min: 1, max: 3 }), { minLength: count, maxLength: count })
        .map((gaps) => {
          let line = -1;
          return gaps.map((gap) => {
            line += gap;
            return line;
          });
        }),
      remainders: remaindersOf(count),
      need: fc.integer({ min: 0, max: count }),
    }),
  );

describe('largestRemainders', () => {
  it('gives the units to the largest remainders, ties to the earlier line', () => {
    expect(largestRemainders([0, 1, 2, 3], 2, [5, 7, 7, 1])).toEqual([1, 2]);
    expect(largestRemainders([4, 8, 9], 1, [3, 3, 3])).toEqual([4]);
    expect(largestRemainders([4, 8, 9], 3, [1, 2, 3])).toEqual([4, 8, 9]);
    expect(largestRemainders([4, 8, 9], 0, [1, 2, 3])).toEqual([]);
    expect(largestRemainders([10, 11, 12, 13, 14], 2, [100, 0, 100, 100, 99])).toEqual([10, 12]);
  });

  it('refuses to give more units than there are candidates (a caller bug)', () => {
    expect(() => largestRemainders([1, 2], 3, [0, 0])).toThrow(InvariantError);
  });

  test.prop([selectionArbitrary(64)], { numRuns: 300 })(
    'law: the chosen lines are the largest remainders, ties to the earlier line (small pools)',
    ({ candidates, remainders, need }) => {
      const chosen = largestRemainders(candidates, need, remainders);
      expect(chosen).toHaveLength(need);
      expect([...chosen].sort((a, b) => a - b)).toEqual(bySort(candidates, need, remainders));
    },
  );

  test.prop([selectionArbitrary(12_000)], { numRuns: 25 })(
    'law: the chosen lines are the largest remainders, ties to the earlier line (pools of several thousand)',
    ({ candidates, remainders, need }) => {
      const chosen = largestRemainders(candidates, need, remainders);
      expect([...chosen].sort((a, b) => a - b)).toEqual(bySort(candidates, need, remainders));
    },
  );
});

describe('chooseLargestRemainders', () => {
  test.prop([selectionArbitrary(3000), fc.nat(50), fc.nat(50), fc.integer()], { numRuns: 60 })(
    'law: on one segment of shared buffers it chooses as largestRemainders does, and writes only there',
    ({ candidates, remainders, need }, before, after, filler) => {
      // The segment sits between other groups' candidates, which must come through untouched.
      const size = before + candidates.length + after;
      const buffers = remainderBuffers(size);
      buffers.lines.fill(filler);
      buffers.remainders.fill(filler);
      buffers.spareLines.fill(filler);
      buffers.spareRemainders.fill(filler);
      buffers.lines.set(candidates, before);
      buffers.remainders.set(remainders, before);
      const chosen: number[] = [];
      chooseLargestRemainders(buffers, before, before + candidates.length, need, (line) => chosen.push(line));
      expect(chosen).toEqual(largestRemainders(candidates, need, remainders));
      const outside = (column: Int32Array | Float64Array): number[] => [
        ...column.subarray(0, before),
        ...column.subarray(before + candidates.length),
      ];
      for (const column of [buffers.lines, buffers.remainders, buffers.spareLines, buffers.spareRemainders])
        expect(outside(column).every((value) => value === (filler | 0) || value === filler)).toBe(true);
    },
  );

  it('refuses to give more units than the segment holds (a caller bug)', () => {
    expect(() => chooseLargestRemainders(remainderBuffers(8), 2, 4, 3, () => undefined)).toThrow(
      InvariantError,
    );
  });
});
