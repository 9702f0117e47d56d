/**
 * Split cases shared by the tests of the split machinery (`column-split.ts`, `predicted-split.ts`): weights
 * shaped to make remainders cluster, tie, sit on bucket edges or need the exact path, and the brute-force
 * largest remainder in BigInt they are checked against.
 */
import { fc } from '@fast-check/vitest';
import { PREDICTION_MIN_LINES } from '../../../../src/domain/invoice/calculation/predicted-split.js';
import {
  type ColumnSplit,
  NOT_ELIGIBLE,
  TAKES_CAP,
} from '../../../../src/domain/invoice/calculation/split-types.js';
import { SCALED_LIMIT } from '../../../../src/kernel/scaled.js';

/** Weights shaped to make remainders cluster, tie, sit on bucket edges or need the exact path. */
export const weightsOf = (minLines: number, maxLines: number): fc.Arbitrary<readonly number[]> =>
  fc.integer({ min: minLines, max: maxLines }).chain((count) =>
    fc.oneof(
      fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: count, maxLength: count }),
      fc.array(
        fc.integer({ min: 0, max: 100_000 }).map((value) => value * 10),
        { minLength: count, maxLength: count },
      ),
      fc.integer({ min: 0, max: 5000 }).map((value) => Array.from({ length: count }, () => value)),
      fc.array(fc.constantFrom(0, 1, 2, 7, 8, 800, 1000), { minLength: count, maxLength: count }),
      fc.array(fc.integer({ min: 0, max: Math.floor(SCALED_LIMIT / 4096) }), {
        minLength: count,
        maxLength: count,
      }),
    ),
  );

/** Numerator over denominator near simple ratios (1/10, 71/800, 1/3, 1/2, 1), nudged by a few units. */
export const ratioArbitrary = fc.record({
  ratio: fc.oneof(
    fc.constantFrom(0.1, 0.08875, 1 / 3, 0.5, 1, 0.055, 0),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
  nudge: fc.integer({ min: -3, max: 3 }),
});

export interface Case {
  readonly weights: readonly number[];
  readonly classOf: readonly number[];
  readonly groupOfClass: readonly number[];
  readonly numerator: number;
  readonly denominator: number;
  readonly targets: readonly number[];
}

/**
 * Splits over `minLines` to `maxLines` lines. Targets are either natural (the group's exact share rounded
 * down or up, as the invoice level sets them) or anywhere between the sums of floors and of ceilings.
 */
export const caseOf = (minLines: number, maxLines: number): fc.Arbitrary<Case> =>
  fc
    .record({
      weights: weightsOf(minLines, maxLines),
      groupOfClass: fc.constantFrom(
        [0],
        [0, 1],
        [NOT_ELIGIBLE, 0],
        [0, TAKES_CAP, 1],
        [1, 0, NOT_ELIGIBLE],
        // Group 1 has no line at all.
        [0, 2, TAKES_CAP],
      ),
      // Skewed: the second class holds one line in a hundred (a group the sample can miss).
      skewed: fc.boolean(),
      seed: fc.integer(),
      ratio: ratioArbitrary,
      natural: fc.boolean(),
      extra: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 2 }),
    })
    .map(({ weights, groupOfClass, skewed, seed, ratio, natural, extra }) => {
      const classOf = weights.map((_, line) =>
        skewed
          ? (line % 100 === 0 ? 1 : 0) % groupOfClass.length
          : Math.abs((line * 7 + seed) % groupOfClass.length),
      );
      const { numerator, denominator } = fractionOf(weights, classOf, groupOfClass, ratio);
      const targets = targetsOf({ weights, classOf, groupOfClass, numerator, denominator }, natural, extra);
      return { weights, classOf, groupOfClass, numerator, denominator, targets };
    });

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
function inverse(value: bigint, modulus: bigint): bigint {
  let [r0, r1, s0, s1] = [value % modulus, modulus, 1n, 0n];
  while (r1 !== 0n) {
    const quotient = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - quotient * r1, s1, s0 - quotient * s1];
  }
  return ((s0 % modulus) + modulus) % modulus;
}

/**
 * Many remainders exactly on a bucket edge (a half) with a denominator that is not a power of two, so
 * the estimates fall on either side of the edge: the shape that sends a group down the exact redo path.
 */
export const edgeCaseArbitrary: fc.Arbitrary<Case> = fc
  .record({
    multiple: fc.integer({ min: 1, max: 1000 }),
    numeratorShare: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
    picks: fc.array(
      fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 49 }), fc.double({ min: 0, max: 1, noNaN: true })),
      {
        minLength: 256,
        maxLength: 256,
      },
    ),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ multiple, numeratorShare, picks, share }) => {
    const denominator = BigInt(3 * 1024 * multiple);
    let numerator = BigInt(Math.max(1, Math.floor(Number(denominator) * numeratorShare)));
    while (gcd(numerator, denominator) !== 1n) numerator += 1n;
    const onEdge = ((denominator / 2n) * inverse(numerator, denominator)) % denominator;
    const weights = picks.map(([edge, times, random]) =>
      edge ? Number(onEdge + denominator * BigInt(times)) : Math.floor(random * Number(denominator)),
    );
    let floors = 0n;
    let positive = 0;
    for (const weight of weights) {
      floors += (numerator * BigInt(weight)) / denominator;
      if ((numerator * BigInt(weight)) % denominator !== 0n) positive += 1;
    }
    const target = Number(floors) + Math.floor(share * positive);
    const classOf = weights.map(() => 0);
    return {
      weights,
      classOf,
      groupOfClass: [0],
      numerator: Number(numerator),
      denominator: Number(denominator),
      targets: [target],
    };
  });

/** Largest remainder by brute force: exact floors, then units to the largest remainders, earlier lines first. */
export function bruteForce(split: Case, caps: readonly number[]): number[] {
  const out = split.weights.map(() => 0);
  split.targets.forEach((target, group) => {
    const lines = split.weights
      .map((_, line) => line)
      .filter((line) => split.groupOfClass[split.classOf[line]!] === group);
    const remainders = new Map<number, bigint>();
    let assigned = 0;
    for (const line of lines) {
      const exact = BigInt(split.numerator) * BigInt(split.weights[line]!);
      const denominator = BigInt(Math.max(split.denominator, 1));
      out[line] = Number(exact / denominator);
      remainders.set(line, exact % denominator);
      assigned += out[line]!;
    }
    const ranked = [...lines].sort((a, b) => {
      const difference = remainders.get(b)! - remainders.get(a)!;
      return difference > 0n ? 1 : difference < 0n ? -1 : a - b;
    });
    for (const line of ranked.slice(0, target - assigned)) out[line] = out[line]! + 1;
  });
  split.weights.forEach((_, line) => {
    if (split.groupOfClass[split.classOf[line]!] === TAKES_CAP) out[line] = caps[line]!;
  });
  return out;
}

/** The split's numerator and denominator: the participating weights' sum, and about `ratio` of it. */
export function fractionOf(
  weights: readonly number[],
  classOf: readonly number[],
  groupOfClass: readonly number[],
  ratio: { readonly ratio: number; readonly nudge: number },
): { readonly numerator: number; readonly denominator: number } {
  const participating = (line: number): boolean => groupOfClass[classOf[line]!]! >= 0;
  const denominator = weights.reduce((sum, weight, line) => sum + (participating(line) ? weight : 0), 0);
  const numerator = Math.min(denominator, Math.max(0, Math.round(denominator * ratio.ratio) + ratio.nudge));
  return { numerator, denominator };
}

/**
 * Each group's target: either natural (the group's exact share rounded down or up, as the invoice level
 * sets them) or anywhere between the sums of floors and of ceilings, as `extra` (per group, in [0, 1]) says.
 */
export function targetsOf(
  split: Omit<Case, 'targets'>,
  natural: boolean,
  extra: readonly number[],
): number[] {
  const { weights, classOf, groupOfClass, numerator, denominator } = split;
  const groups = Math.max(...groupOfClass) + 1;
  return Array.from({ length: groups }, (_, group) => {
    let floors = 0n;
    let positive = 0;
    let weight = 0n;
    weights.forEach((value, line) => {
      if (groupOfClass[classOf[line]!] !== group || denominator === 0) return;
      const exact = BigInt(numerator) * BigInt(value);
      floors += exact / BigInt(denominator);
      weight += BigInt(value);
      if (exact % BigInt(denominator) !== 0n) positive += 1;
    });
    if (natural && denominator > 0) {
      const share = BigInt(numerator) * weight;
      const down = share / BigInt(denominator);
      return Number(down) + ((extra[group] ?? 0) < 0.5 || share % BigInt(denominator) === 0n ? 0 : 1);
    }
    return Number(floors) + Math.floor((extra[group] ?? 0) * (positive + 1) * 0.999_999);
  });
}

/** The caps the split tests give every line: one more than its weight. */
export const capsOf = (split: Case): number[] => split.weights.map((weight) => weight + 1);

/** A case as the typed columns `splitColumn` and `predictedSplit` take, with `capsOf` caps. */
export function columnSplitOf(split: Case): ColumnSplit {
  return {
    classOf: Uint32Array.from(split.classOf),
    groupOfClass: Int32Array.from(split.groupOfClass),
    groupTargets: split.targets,
    weights: Float64Array.from(split.weights),
    caps: Float64Array.from(capsOf(split)),
    numerator: split.numerator,
    denominator: split.denominator,
  };
}

/**
 * A split whose sample misleads the one-pass prediction: the sampled lines (every stride-th) get fractions
 * near 0.9, all others near 0.1.
 */
export function misleadingSampleCase(): Case {
  const count = PREDICTION_MIN_LINES * 2;
  const stride = Math.floor(count / 4096);
  const weights = Array.from(
    { length: count },
    (_, line) => (line % stride === 0 ? 9 : 1) + 10 * (line % 97),
  );
  const denominator = weights.reduce((sum, weight) => sum + weight, 0);
  const numerator = Math.floor(denominator / 10);
  // The weights add up to the denominator: the whole split's share is the numerator.
  return {
    weights,
    classOf: weights.map(() => 0),
    groupOfClass: [0],
    numerator,
    denominator,
    targets: [numerator],
  };
}

/** A small deterministic generator of numbers in [0, 1) for fixed fixtures. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}
