/**
 * The exact checks behind the estimated splits: where a bucket edge falls in exact remainders, and when
 * the lines near a threshold settle it (or the group must be redone exactly).
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { remainderAtEdge, resolveThreshold } from '../../../../src/domain/invoice/calculation/threshold.js';

const LIMIT = 2 ** 50;

describe('remainderAtEdge', () => {
  it('is the least remainder whose fraction of the denominator reaches the edge', () => {
    expect(remainderAtEdge(1, 10, 4)).toBe(3);
    expect(remainderAtEdge(2, 10, 4)).toBe(5);
    expect(remainderAtEdge(0, 10, 4)).toBe(0);
    expect(remainderAtEdge(4, 10, 4)).toBe(10);
    expect(remainderAtEdge(3, 7, 2 ** 20)).toBe(1);
  });

  test.prop(
    [
      fc.integer({ min: 1, max: LIMIT }),
      fc
        .integer({ min: 0, max: 20 })
        .chain((bits) =>
          fc.record({ scale: fc.constant(2 ** bits), edge: fc.integer({ min: 0, max: 2 ** bits }) }),
        ),
    ],
    { numRuns: 200 },
  )(
    'law: remainderAtEdge(edge, d, scale) = ceil(edge × d / scale), exactly',
    (denominator, { scale, edge }) => {
      const product = BigInt(edge) * BigInt(denominator);
      const ceiling = (product + BigInt(scale) - 1n) / BigInt(scale);
      expect(remainderAtEdge(edge, denominator, scale)).toBe(Number(ceiling));
    },
  );
});

describe('resolveThreshold', () => {
  const near = (remainders: number[], atOrAboveTop: number, atOrAboveBottom: number) => ({
    lines: remainders.map((_, index) => 10 + index),
    remainders,
    atOrAboveTop,
    atOrAboveBottom,
  });

  it('gives the units left to the near lines with the largest remainders', () => {
    expect(resolveThreshold(near([5, 8], 0, 2), 1)).toEqual([11]);
    expect(resolveThreshold(near([5, 8, 8], 1, 3), 2)).toEqual([11, 12]);
    // Exactly as many units as lines at or above the bucket's top, or at or above its bottom: settled.
    expect(resolveThreshold(near([9, 3, 9], 2, 3), 2)).toEqual([10, 12]);
    expect(resolveThreshold(near([9, 3, 9], 2, 3), 3)).toEqual([10, 11, 12]);
  });

  it('answers undefined when the estimates misled (threshold outside the bucket): the group is redone', () => {
    // More lines surely above the bucket than units: the threshold lies above it.
    expect(resolveThreshold(near([9, 9, 9], 3, 3), 2)).toBeUndefined();
    // Fewer lines at or above its bottom than units: the threshold lies below it.
    expect(resolveThreshold(near([9, 1, 1], 1, 1), 2)).toBeUndefined();
  });
});
