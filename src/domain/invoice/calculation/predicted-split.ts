/**
 * The one-pass split: `splitColumn` without its second pass over the lines, for large splits.
 *
 * In a largest-remainder split the lines that get a unit are those whose fraction is above some threshold
 * that is only known once every floor is (the units to give are the target less the sum of floors). A
 * sample of a few thousand lines predicts it: the units to give are about the sum of the fractions, so
 * the threshold is the sample quantile at the sample's mean fraction. One pass then gives each line its
 * floor, plus a unit when it is surely above a window around the prediction, settles it at once, and
 * keeps the lines inside the window with their exact remainders. Afterwards an exact check, as in
 * `threshold.ts`, confirms that the threshold lies in the window, and the window's largest remainders take
 * the units left. When the prediction missed, the caller undoes the pass and runs the two-pass split.
 */
import { divideInto, exactDivider } from '../../../kernel/scaled.js';
import { type ColumnSplit, type SplitSettlement, TAKES_CAP } from './split-types.js';
import { ESTIMATE_ERROR, nearLines, remainderAtEdge, resolveThreshold } from './threshold.js';

/** Below this many lines the two passes are cheap: no prediction. */
export const PREDICTION_MIN_LINES = 16_384;
/** Sample size: a wider window costs exact work per line in it, a bigger sample costs a sort. */
const sampleSize = (lines: number): number => Math.min(16_384, Math.max(2048, Math.floor(lines / 32)));
/** Window edges are multiples of 1 / 2^20, so exact remainders compare with them in one comparison. */
const EDGE_SCALE = 2 ** 20;
/** Half-width of the window, in standard errors of the sampled quantile (a miss costs a second pass). */
const STANDARD_ERRORS = 4;

/** The window [bottom, top) / EDGE_SCALE of estimated fractions predicted to hold a group's threshold. */
interface Window {
  readonly top: number;
  readonly bottom: number;
}

/** A window per group from a strided sample of estimated fractions. */
function predictWindows(split: ColumnSplit, ratio: number): Window[] {
  const { classOf, groupOfClass, weights } = split;
  const groupCount = split.groupTargets.length;
  const stride = Math.max(1, Math.floor(classOf.length / sampleSize(classOf.length)));
  const capacity = Math.ceil(classOf.length / stride);
  const samples = Array.from({ length: groupCount }, () => new Float64Array(capacity));
  const sizes = new Int32Array(groupCount);
  for (let line = 0; line < classOf.length; line += stride) {
    const group = groupOfClass[classOf[line]!]!;
    if (group < 0) continue;
    const estimate = weights[line]! * ratio;
    samples[group]![sizes[group]!] = estimate - Math.floor(estimate);
    sizes[group] = sizes[group]! + 1;
  }
  const windows: Window[] = [];
  for (let group = 0; group < groupCount; group += 1) {
    const size = sizes[group]!;
    // A group the sample missed holds few lines: a window over every fraction decides them exactly. (A
    // group with no line at all must give nothing, which the exact check confirms.)
    if (size < 512) {
      windows.push({ top: EDGE_SCALE, bottom: 0 });
      continue;
    }
    const sample = samples[group]!.subarray(0, size).sort();
    let sum = 0;
    for (let index = 0; index < size; index += 1) sum += sample[index]!;
    // About `share` of the lines take a unit: the threshold is the sample's (1 − share) quantile.
    const share = sum / size;
    const spread = STANDARD_ERRORS * Math.sqrt(Math.max(share * (1 - share), 0.01) / size);
    const quantile = (rank: number): number =>
      sample[Math.min(size - 1, Math.max(0, Math.floor(rank * size)))]!;
    const top = Math.min(EDGE_SCALE, Math.ceil(quantile(1 - share + spread) * EDGE_SCALE) + 1);
    const bottom = Math.max(0, Math.floor(quantile(1 - share - spread) * EDGE_SCALE) - 1);
    windows.push({ top, bottom });
  }
  return windows;
}

/**
 * The split in one pass over the lines, when the sampled prediction holds; false otherwise, with every
 * settlement undone and `out` to be overwritten (the caller then runs the two-pass split).
 * @example predictedSplit(split, out, settlement, overdrawn) // true when done
 */
export function predictedSplit(
  split: ColumnSplit,
  out: Float64Array,
  settlement: SplitSettlement,
  overdrawn: Set<number>,
): boolean {
  const { classOf, groupOfClass, weights, caps, numerator, denominator } = split;
  if (classOf.length < PREDICTION_MIN_LINES || denominator === 0) return false;
  const ratio = numerator / denominator;
  const windows = predictWindows(split, ratio);
  const groupCount = windows.length;
  const top = Float64Array.from(windows, (window) => window.top / EDGE_SCALE);
  const bottom = Float64Array.from(windows, (window) => window.bottom / EDGE_SCALE);
  const topRemainder = Float64Array.from(windows, (window) =>
    remainderAtEdge(window.top, denominator, EDGE_SCALE),
  );
  const bottomRemainder = Float64Array.from(windows, (window) =>
    remainderAtEdge(window.bottom, denominator, EDGE_SCALE),
  );
  const divider = exactDivider(numerator, denominator);
  const quotient = new Float64Array(1);
  const remainder = new Float64Array(1);
  const floorSums = new Float64Array(groupCount);
  /** Per group: lines given a unit in the pass (each surely at or above the window's top). */
  const given = new Float64Array(groupCount);
  const near = Array.from({ length: groupCount }, nearLines);
  const { column, sign, watchOverdraft } = settlement;
  // Imported bindings are read through getters once transpiled to CommonJS (tsx, vitest): one call per
  // line in this loop. Local copies are plain reads.
  const takesCap = TAKES_CAP;
  const estimateError = ESTIMATE_ERROR;
  const divide = divideInto;
  for (let line = 0; line < classOf.length; line += 1) {
    const group = groupOfClass[classOf[line]!]!;
    if (group < 0) {
      out[line] = group === takesCap ? caps[line]! : 0;
    } else {
      const weight = weights[line]!;
      const estimate = weight * ratio;
      const floor = Math.floor(estimate);
      const margin = (floor + 2) * estimateError;
      const fraction = estimate - floor;
      if (fraction - margin >= top[group]! && fraction + margin < 1) {
        out[line] = floor + 1;
        floorSums[group] = floorSums[group]! + floor;
        given[group] = given[group]! + 1;
      } else if (fraction + margin < bottom[group]! && fraction >= margin) {
        out[line] = floor;
        floorSums[group] = floorSums[group]! + floor;
      } else {
        // In the window, or a floor the estimate cannot decide: exact, before the settlement below
        // changes what may be this split's weights (a compound coupon).
        divide(divider, weight, quotient, remainder, 0);
        const exactFloor = quotient[0]!;
        const exactRemainder = remainder[0]!;
        floorSums[group] = floorSums[group]! + exactFloor;
        if (exactRemainder >= topRemainder[group]!) {
          out[line] = exactFloor + 1;
          given[group] = given[group]! + 1;
        } else {
          out[line] = exactFloor;
          if (exactRemainder >= bottomRemainder[group]!) {
            const lines = near[group]!;
            lines.lines.push(line);
            lines.remainders.push(exactRemainder);
            lines.atOrAboveBottom += 1;
          }
        }
      }
    }
    column[line] = column[line]! + sign * out[line]!;
    if (watchOverdraft && column[line]! < 0) overdrawn.add(classOf[line]!);
  }
  const chosen: number[][] = [];
  for (let group = 0; group < groupCount; group += 1) {
    const units = split.groupTargets[group]! - floorSums[group]!;
    const lines = resolveThreshold(near[group]!, units - given[group]!);
    if (lines === undefined) {
      for (let line = 0; line < classOf.length; line += 1) column[line] = column[line]! - sign * out[line]!;
      overdrawn.clear();
      return false;
    }
    chosen.push(lines);
  }
  for (const lines of chosen) {
    for (const line of lines) {
      out[line] = out[line]! + 1;
      column[line] = column[line]! + sign;
      if (watchOverdraft && column[line]! < 0) overdrawn.add(classOf[line]!);
    }
  }
  return true;
}
