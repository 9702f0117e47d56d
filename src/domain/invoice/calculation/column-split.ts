/**
 * The hot loop: splitting one discount or tax over up to millions of lines by largest remainder.
 *
 * Each participating line gets floor(numerator × weight / denominator); each group of lines (a line class
 * for discounts, all taxable lines for a tax) must then add up to a given target, so the group's missing
 * units go to its lines with the largest remainders, ties to the earlier line.
 *
 * Exact, but mostly computed in plain doubles: a line's share is estimated as weight × ratio, whose error
 * is below share × 2^-51, so the floor is certain unless the fraction lies within that margin of an
 * integer; only those lines take the exact two-product path (`divideInto`). A histogram of the estimated
 * fractions finds the bucket where each group's threshold lies; lines clearly above it get a unit, lines
 * clearly below do not, and only the lines near it get exact remainders and an exact selection. If the
 * estimates straddle the bucket edges in a way the exact check cannot settle, the group is redone exactly.
 * Large splits first try `predictedSplit`, which does the same in one pass from a sampled threshold.
 */
import { invariant } from '../../../kernel/invariant.js';
import { divideInto, type ExactDivider, exactDivider } from '../../../kernel/scaled.js';
import { largestRemainders } from './largest-remainders.js';
import { type PredictionScratch, predictedSplit } from './predicted-split.js';
import { type ColumnSplit, type SplitSettlement, TAKES_CAP } from './split-types.js';
import { ESTIMATE_ERROR, nearLines, remainderAtEdge, resolveThreshold } from './threshold.js';

const NO_THRESHOLD = -1;

/** Buckets per group, a power of two (so scaling a fraction is exact): a handful of lines per bucket. */
function bucketCount(lines: number, groups: number): number {
  const wanted = Math.ceil(lines / (8 * Math.max(1, groups)));
  return 2 ** Math.max(0, Math.min(12, Math.ceil(Math.log2(Math.max(1, wanted)))));
}

/**
 * Writes each line's part to `out` (0 for lines outside the split) and settles it into the settlement
 * column. `fractions` is scratch space of the same length, or a function that makes it: the one-pass
 * split of large columns needs none, and at a million lines it is 8 MB the garbage collector must then
 * reclaim. `prediction` is the one-pass split's scratch, when the caller keeps one. Returns
 * the classes in which the settled column went below zero (when watched).
 * @example
 * const out = new Float64Array(3);
 * const left = Float64Array.of(5, 5, 5);
 * splitColumn({ classOf: new Uint32Array(3), groupOfClass: Int32Array.of(0), groupTargets: [10],
 *   weights: Float64Array.of(1, 1, 1), caps: left, numerator: 10, denominator: 3 },
 *   out, new Float64Array(3), { column: left, sign: -1, watchOverdraft: true });
 * // out = [4, 3, 3], left = [1, 2, 2]
 */
export function splitColumn(
  split: ColumnSplit,
  out: Float64Array,
  scratch: Float64Array | (() => Float64Array),
  settlement: SplitSettlement,
  prediction?: PredictionScratch,
): ReadonlySet<number> {
  const overdrawn = new Set<number>();
  if (predictedSplit(split, out, settlement, overdrawn, prediction)) return overdrawn;
  const fractions = typeof scratch === 'function' ? scratch() : scratch;
  const { classOf, groupOfClass, weights, caps, numerator, denominator } = split;
  const lineCount = classOf.length;
  const groupCount = split.groupTargets.length;
  const buckets = bucketCount(lineCount, groupCount);
  const histogram = new Int32Array(groupCount * buckets);
  const floorSums = new Float64Array(groupCount);
  const ratio = denominator > 0 ? numerator / denominator : 0;
  const divider = exactDivider(numerator, Math.max(denominator, 1));
  // Imported bindings are read through getters once transpiled to CommonJS (tsx, vitest): one call per
  // line in this loop. Local copies are plain reads.
  const takesCap = TAKES_CAP;
  const estimateError = ESTIMATE_ERROR;
  const divide = divideInto;
  for (let line = 0; line < lineCount; line += 1) {
    const group = groupOfClass[classOf[line]!]!;
    if (group < 0) {
      out[line] = group === takesCap ? caps[line]! : 0;
      continue;
    }
    const weight = weights[line]!;
    const estimate = weight * ratio;
    const floor = Math.floor(estimate);
    const margin = (floor + 2) * estimateError;
    let fraction = estimate - floor;
    if (denominator > 0 && (fraction < margin || fraction + margin >= 1)) {
      // Too close to an integer for the estimate to decide the floor: compute it exactly.
      divide(divider, weight, out, fractions, line);
      fraction = fractions[line]! / denominator;
    } else {
      out[line] = floor;
    }
    fractions[line] = fraction;
    floorSums[group] = floorSums[group]! + out[line]!;
    const bucket = group * buckets + Math.floor(fraction * buckets);
    histogram[bucket] = histogram[bucket]! + 1;
  }

  // Per group: the bucket holding the threshold. Lines estimated clearly above it get a unit.
  const units = new Float64Array(groupCount);
  /** Per group: lines given a unit without an exact check (counted from the histogram, then corrected). */
  const given = new Float64Array(groupCount);
  const threshold = new Int32Array(groupCount).fill(NO_THRESHOLD);
  for (let group = 0; group < groupCount; group += 1) {
    units[group] = split.groupTargets[group]! - floorSums[group]!;
    invariant(units[group]! >= 0, 'a group target is never below the sum of its floors');
    invariant(denominator > 0 || units[group] === 0, 'a split of zero weights has nothing to give');
    if (units[group] === 0) continue;
    let above = 0;
    let bucket = buckets - 1;
    while (bucket >= 0 && above + histogram[group * buckets + bucket]! < units[group]!) {
      above += histogram[group * buckets + bucket]!;
      bucket -= 1;
    }
    invariant(bucket >= 0, 'a group target is never above the sum of its ceilings');
    threshold[group] = bucket;
    given[group] = above;
  }

  const { column, sign, watchOverdraft } = settlement;
  const settle = (line: number, amount: number): void => {
    column[line] = column[line]! + sign * amount;
    if (watchOverdraft && column[line]! < 0) overdrawn.add(classOf[line]!);
  };
  const near = Array.from({ length: groupCount }, nearLines);
  // The threshold bucket's edges as fractions (exact: `buckets` is a power of two), and as the least
  // exact remainders at or above them. No threshold: no line qualifies.
  const top = new Float64Array(groupCount).fill(Number.POSITIVE_INFINITY);
  const bottom = new Float64Array(groupCount).fill(Number.POSITIVE_INFINITY);
  const topRemainder = new Float64Array(groupCount);
  const bottomRemainder = new Float64Array(groupCount);
  for (let group = 0; group < groupCount; group += 1) {
    if (threshold[group] === NO_THRESHOLD) continue;
    top[group] = (threshold[group]! + 1) / buckets;
    bottom[group] = threshold[group]! / buckets;
    topRemainder[group] = remainderAtEdge(threshold[group]! + 1, denominator, buckets);
    bottomRemainder[group] = remainderAtEdge(threshold[group]!, denominator, buckets);
  }
  for (let line = 0; line < lineCount; line += 1) {
    const group = groupOfClass[classOf[line]!]!;
    if (group >= 0) {
      const fraction = fractions[line]!;
      const margin = (out[line]! + 2) * estimateError;
      if (fraction - margin >= top[group]!) {
        out[line] = out[line]! + 1;
      } else if (fraction + margin >= bottom[group]!) {
        // Too close to call: the exact remainder now, while the line is in cache (before settling, since
        // the settled column may be this split's weights), and the unit, if any, after the selection.
        const floor = out[line]!;
        divide(divider, weights[line]!, out, fractions, line);
        invariant(out[line] === floor, 'an estimated floor is exact');
        const remainder = fractions[line]!;
        const lines = near[group]!;
        lines.lines.push(line);
        lines.remainders.push(remainder);
        if (remainder >= topRemainder[group]!) lines.atOrAboveTop += 1;
        if (remainder >= bottomRemainder[group]!) lines.atOrAboveBottom += 1;
        // Counted above the threshold by the histogram, yet not given a unit here.
        if (fraction >= top[group]!) given[group] = given[group]! - 1;
      }
    }
    column[line] = column[line]! + sign * out[line]!;
    if (watchOverdraft && column[line]! < 0) overdrawn.add(classOf[line]!);
  }

  for (let group = 0; group < groupCount; group += 1) {
    if (threshold[group] === NO_THRESHOLD) continue;
    const chosen = resolveThreshold(near[group]!, units[group]! - given[group]!);
    if (chosen === undefined) {
      for (let id = 0; id < groupOfClass.length; id += 1)
        if (groupOfClass[id] === group) overdrawn.delete(id);
      redoGroupExactly(split, group, units[group]!, divider, out, fractions, settle);
      continue;
    }
    for (const line of chosen) {
      out[line] = out[line]! + 1;
      settle(line, 1);
    }
  }
  return overdrawn;
}

/** The rare path: every line of the group exactly, then an exact selection over all of them. O(n). */
function redoGroupExactly(
  split: ColumnSplit,
  group: number,
  units: number,
  divider: ExactDivider,
  out: Float64Array,
  remainders: Float64Array,
  settle: (line: number, amount: number) => void,
): void {
  const lines: number[] = [];
  for (let line = 0; line < split.classOf.length; line += 1) {
    if (split.groupOfClass[split.classOf[line]!] !== group) continue;
    settle(line, -out[line]!);
    divideInto(divider, split.weights[line]!, out, remainders, line);
    lines.push(line);
  }
  const chosen = new Set(
    largestRemainders(
      lines,
      units,
      lines.map((line) => remainders[line]!),
    ),
  );
  for (const line of lines) {
    if (chosen.has(line)) out[line] = out[line]! + 1;
    settle(line, out[line]!);
  }
}
