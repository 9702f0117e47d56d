/**
 * Worked examples of the capped split (a discount over line classes, no class giving more than it has
 * left) and of the largest-remainder rounding beneath it, with the figures written out.
 */
import { describe, expect, it } from 'vitest';
import {
  distributeByLargestRemainder,
  splitWithCaps,
} from '../../../../src/domain/invoice/calculation/capped-split.js';
import { InvariantError } from '../../../../src/kernel/invariant.js';

describe('splitWithCaps', () => {
  it('gives a row its cap when its share would exceed it and shares the rest by weight', () => {
    // 10 over equal weights is 3.33 each; the first row can give 1, the others share 9 (4.5 each, the
    // tie going to the earlier row).
    const split = splitWithCaps(10, [1, 1, 1], [1, 9, 9]);
    expect([...split.amounts]).toEqual([1, 5, 4]);
    expect([...split.capped]).toEqual([1, 0, 0]);
    expect([split.numerator, split.denominator]).toEqual([9, 2]);
  });

  it('caps rows in turn: capping one raises the others’ share past their caps too', () => {
    // Shares of 90 over 30/30/40: 27/27/36. Row 0 can give 20, so rows 1 and 2 share 70 (30, 40), then
    // row 1 can give 25 only, and row 2 takes the remaining 45 of its 100.
    const split = splitWithCaps(90, [30, 30, 40], [20, 25, 100]);
    expect([...split.amounts]).toEqual([20, 25, 45]);
    expect([...split.capped]).toEqual([1, 1, 0]);
    expect([split.numerator, split.denominator]).toEqual([45, 40]);
  });

  it('does not cap a row whose share is exactly its cap', () => {
    const split = splitWithCaps(6, [1, 2], [2, 4]);
    expect([...split.amounts]).toEqual([2, 4]);
    expect([...split.capped]).toEqual([0, 0]);
  });

  it('leaves rows of zero weight out, whatever their position', () => {
    const split = splitWithCaps(7, [0, 5, 0, 2], [0, 5, 0, 2]);
    expect([...split.amounts]).toEqual([0, 5, 0, 2]);
    expect([split.numerator, split.denominator]).toEqual([7, 7]);
    const nothing = splitWithCaps(0, [0, 0], [0, 0]);
    expect([...nothing.amounts]).toEqual([0, 0]);
    expect([...nothing.capped]).toEqual([0, 0]);
  });
});

describe('distributeByLargestRemainder', () => {
  it('gives floors, then one unit each to the largest remainders, ties to the earlier row', () => {
    const out = new Float64Array(4);
    distributeByLargestRemainder(10, 10, 3, [1, 1, 1, 9], [0, 1, 2], out);
    expect([...out]).toEqual([4, 3, 3, 0]);
    const skewed = new Float64Array(3);
    // 7 × (1, 2, 4) / 7 = 1, 2, 4 exactly: no unit to give.
    distributeByLargestRemainder(7, 7, 7, [1, 2, 4], [0, 1, 2], skewed);
    expect([...skewed]).toEqual([1, 2, 4]);
    const rounded = new Float64Array(3);
    // 5 × (1, 1, 3) / 5 with a target of 5: remainders 0 everywhere.
    distributeByLargestRemainder(5, 5, 5, [1, 1, 3], [2, 0, 1], rounded);
    expect([...rounded]).toEqual([1, 1, 3]);
  });

  it('splits nothing over no rows, and refuses to split an amount over nothing (a caller bug)', () => {
    const out = new Float64Array(2);
    distributeByLargestRemainder(0, 0, 0, [1, 1], [], out);
    distributeByLargestRemainder(0, 5, 0, [1, 1], [0, 1], out);
    expect([...out]).toEqual([0, 0]);
    expect(() => distributeByLargestRemainder(3, 3, 0, [0, 0], [0, 1], out)).toThrow(
      new InvariantError('an amount to split needs something to split it over'),
    );
    expect(() => distributeByLargestRemainder(3, 3, 2, [1, 1], [], out)).toThrow(InvariantError);
  });

  it('refuses a target the floors cannot reach with one unit per row (a caller bug)', () => {
    const out = new Float64Array(3);
    expect(() => distributeByLargestRemainder(10, 1, 3, [1, 1, 1], [0, 1, 2], out)).toThrow(
      new InvariantError('largest remainder needs 0 to n extra units'),
    );
    expect(() => distributeByLargestRemainder(0, 3, 1, [1, 1, 1], [0, 1, 2], out)).toThrow(InvariantError);
  });
});
