/**
 * The one-pass split on its own, against brute force in BigInt: when it is tried, that its prediction
 * holds on invoice-like lines (a miss is still exact, through the two-pass split, so only a direct test
 * sees a prediction that always misses), what it settles and reports, and the miss it undoes.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { remainderBuffers } from '../../../../src/domain/invoice/calculation/largest-remainders.js';
import {
  PREDICTION_MIN_LINES,
  type PredictionScratch,
  predictedSplit,
  predictionScratch,
} from '../../../../src/domain/invoice/calculation/predicted-split.js';
import {
  type ColumnSplit,
  NOT_ELIGIBLE,
  TAKES_CAP,
} from '../../../../src/domain/invoice/calculation/split-types.js';
import {
  bruteForce,
  type Case,
  capsOf,
  caseOf,
  columnSplitOf,
  fractionOf,
  misleadingSampleCase,
  seeded,
  targetsOf,
} from './split-cases.js';

/**
 * Runs the split on a column that starts at `start` per line; when the prediction held, checks every
 * part against brute force, the settled column, and the classes reported below zero. Returns whether
 * it held.
 */
function expectPredicted(
  split: Case,
  sign: 1 | -1,
  start: (line: number) => number,
  scratch?: PredictionScratch,
): boolean {
  const lineCount = split.weights.length;
  const before = Float64Array.from({ length: lineCount }, (_, line) => start(line));
  const column = before.slice();
  const out = new Float64Array(lineCount);
  const overdrawn = new Set<number>();
  const settlement = { column, sign, watchOverdraft: true };
  const held = predictedSplit(columnSplitOf(split), out, settlement, overdrawn, scratch);
  if (!held) {
    expect(column).toEqual(before);
    expect(overdrawn.size).toBe(0);
    return false;
  }
  const expected = bruteForce(split, capsOf(split));
  expect([...out]).toEqual(expected);
  const settled = expected.map((part, line) => before[line]! + sign * part);
  expect([...column]).toEqual(settled);
  const negative = new Set(settled.flatMap((value, line) => (value < 0 ? [split.classOf[line]!] : [])));
  expect([...overdrawn].sort()).toEqual([...negative].sort());
  return true;
}

/** Invoice-like lines (subtotals of every size, three classes) split as a coupon or a tax would be. */
function invoiceLike(ratio: number, groupOfClass: readonly number[], seed: number): Case {
  const random = seeded(seed);
  const weights = Array.from({ length: PREDICTION_MIN_LINES * 2 }, () => Math.floor(random() * 1_000_000));
  const classOf = weights.map(() => Math.floor(random() * 3));
  const fraction = fractionOf(weights, classOf, groupOfClass, { ratio, nudge: 0 });
  const shape = { weights, classOf, groupOfClass, ...fraction };
  return { ...shape, targets: targetsOf(shape, true, [0.7, 0.2, 0.9]) };
}

describe('predictedSplit', () => {
  it('is not tried below PREDICTION_MIN_LINES lines or with nothing to split over, and then writes nothing', () => {
    const tried = (lines: number, denominator: number): boolean => {
      const column = new Float64Array(lines).fill(5);
      const split: ColumnSplit = {
        classOf: new Uint32Array(lines),
        groupOfClass: Int32Array.of(0),
        groupTargets: [0],
        weights: new Float64Array(lines).fill(1),
        caps: new Float64Array(lines),
        numerator: 0,
        denominator,
      };
      const held = predictedSplit(
        split,
        new Float64Array(lines),
        { column, sign: 1, watchOverdraft: true },
        new Set(),
      );
      if (!held) expect(column.every((value) => value === 5)).toBe(true);
      return held;
    };
    expect(tried(PREDICTION_MIN_LINES - 1, PREDICTION_MIN_LINES - 1)).toBe(false);
    expect(tried(PREDICTION_MIN_LINES, 0)).toBe(false);
    expect(tried(PREDICTION_MIN_LINES, PREDICTION_MIN_LINES)).toBe(true);
  });

  it('holds its prediction on invoice-like lines for coupon and tax shapes, exactly', () => {
    const shapes: readonly (readonly number[])[] = [
      [0, 1, 2],
      [0, NOT_ELIGIBLE, 1],
      [TAKES_CAP, 0, 1],
      [0, 0, 0],
    ];
    shapes.forEach((groupOfClass, index) => {
      for (const ratio of [0.1, 0.055, 0.08875, 0.5, 1e-6]) {
        const split = invoiceLike(ratio, groupOfClass, index + 1);
        // Taken from twice the weights (never below zero), added to zero.
        expect(expectPredicted(split, -1, (line) => split.weights[line]! * 2)).toBe(true);
        expect(expectPredicted(split, 1, () => 0)).toBe(true);
      }
    });
  });

  it('reuses one scratch for many splits, growing its room for lines inside the windows when short', () => {
    const lineCount = PREDICTION_MIN_LINES * 2;
    // Room for 8 lines inside the windows, where each split below keeps hundreds: it must grow, keeping
    // what it held, and stay exact from one split to the next.
    const scratch: PredictionScratch = { ...predictionScratch(lineCount), near: remainderBuffers(8) };
    const shapes: readonly (readonly number[])[] = [
      [0, 1, 2],
      [0, NOT_ELIGIBLE, 1],
      [0, 0, 0],
    ];
    shapes.forEach((groupOfClass, index) => {
      for (const ratio of [0.1, 0.08875, 0.5]) {
        const split = invoiceLike(ratio, groupOfClass, 40 + index);
        expect(expectPredicted(split, -1, (line) => split.weights[line]! * 2, scratch)).toBe(true);
        expect(expectPredicted(split, 1, () => 0, scratch)).toBe(true);
      }
    });
    expect(scratch.near.lines.length).toBeGreaterThan(8);
    expect(scratch.samples.length).toBe(predictionScratch(lineCount).samples.length);
  });

  it('reports the classes whose lines went below zero, and only those', () => {
    const split = invoiceLike(0.1, [0, 1, 2], 9);
    // Lines of class 1 start with nothing: any part they give takes them below zero.
    expect(expectPredicted(split, -1, (line) => (split.classOf[line] === 1 ? 0 : split.weights[line]!))).toBe(
      true,
    );
  });

  test.prop([caseOf(PREDICTION_MIN_LINES, PREDICTION_MIN_LINES + 8000), fc.constantFrom<1 | -1>(1, -1)], {
    numRuns: 10,
  })(
    'equals brute force whenever its prediction holds, and leaves everything as it was when not',
    (split, sign) => {
      expectPredicted(split, sign, (line) => split.weights[line]! * 2);
    },
  );

  it('reports a missed prediction with the settlement taken back out', () => {
    // A column below zero everywhere: the undone pass must also forget what it reported.
    expect(expectPredicted(misleadingSampleCase(), -1, () => -1)).toBe(false);
  });
});
