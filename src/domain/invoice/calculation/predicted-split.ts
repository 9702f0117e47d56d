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
import { chooseLargestRemainders, type RemainderBuffers, remainderBuffers } from './largest-remainders.js';
import { type ColumnSplit, type SplitSettlement, TAKES_CAP } from './split-types.js';
import { ESTIMATE_ERROR, remainderAtEdge } from './threshold.js';

/** Below this many lines the two passes are cheap: no prediction. */
export const PREDICTION_MIN_LINES = 16_384;
/** Sample size: a wider window costs exact work per line in it, a bigger sample costs a sort. */
const sampleSize = (lines: number): number => Math.min(16_384, Math.max(2048, Math.floor(lines / 32)));
const sampleStride = (lines: number): number => Math.max(1, Math.floor(lines / sampleSize(lines)));
/** Window edges are multiples of 1 / 2^20, so exact remainders compare with them in one comparison. */
const EDGE_SCALE = 2 ** 20;
/** Half-width of the window, in standard errors of the sampled quantile (a miss costs a second pass). */
const STANDARD_ERRORS = 4;

/**
 * Working space of one-pass splits over a given number of lines: the sample, and the lines inside the
 * windows with their exact remainders. A calculation makes one before its million-line columns and
 * reuses it for every split: V8 counts a typed array of more than 64 bytes as memory outside the JS heap,
 * and once the columns are held, one more such allocation (or a young generation filled by plain arrays)
 * starts a collection that marks the whole heap.
 */
export interface PredictionScratch {
  readonly samples: Float64Array;
  /** Grown (by doubling) when the windows hold more lines than a sixteenth of them. */
  near: RemainderBuffers;
}

/**
 * Scratch for splits over `lines` lines.
 * @example predictionScratch(1_000_000).samples.length // 16_394
 */
export function predictionScratch(lines: number): PredictionScratch {
  return {
    samples: new Float64Array(Math.ceil(lines / sampleStride(lines))),
    near: remainderBuffers(Math.max(1024, Math.ceil(lines / 16))),
  };
}

/** Doubles the room for lines inside the windows, keeping the `count` held. */
function growNear(scratch: PredictionScratch, count: number): RemainderBuffers {
  const grown = remainderBuffers(2 * count);
  grown.lines.set(scratch.near.lines.subarray(0, count));
  grown.remainders.set(scratch.near.remainders.subarray(0, count));
  scratch.near = grown;
  return grown;
}

/** The window [bottom, top) / EDGE_SCALE of estimated fractions predicted to hold a group's threshold. */
interface Window {
  readonly top: number;
  readonly bottom: number;
}

/**
 * A window per group from a strided sample of estimated fractions, kept in `samples` group by group.
 */
function predictWindows(split: ColumnSplit, ratio: number, samples: Float64Array): Window[] {
  const { classOf, groupOfClass, weights } = split;
  const groupCount = split.groupTargets.length;
  const stride = sampleStride(classOf.length);
  const starts = new Array<number>(groupCount + 1).fill(0);
  for (let line = 0; line < classOf.length; line += stride) {
    const group = groupOfClass[classOf[line]!]!;
    if (group >= 0) starts[group + 1] = starts[group + 1]! + 1;
  }
  for (let group = 0; group < groupCount; group += 1) starts[group + 1] = starts[group + 1]! + starts[group]!;
  const filled = starts.slice(0, groupCount);
  for (let line = 0; line < classOf.length; line += stride) {
    const group = groupOfClass[classOf[line]!]!;
    if (group < 0) continue;
    const estimate = weights[line]! * ratio;
    samples[filled[group]!] = estimate - Math.floor(estimate);
    filled[group] = filled[group]! + 1;
  }
  const windows: Window[] = [];
  for (let group = 0; group < groupCount; group += 1) {
    const size = starts[group + 1]! - starts[group]!;
    // A group the sample missed holds few lines: a window over every fraction decides them exactly. (A
    // group with no line at all must give nothing, which the exact check confirms.)
    if (size < 512) {
      windows.push({ top: EDGE_SCALE, bottom: 0 });
      continue;
    }
    const sample = samples.subarray(starts[group]!, starts[group + 1]!).sort();
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
 * settlement undone and `out` to be overwritten (the caller then runs the two-pass split). Without a
 * `scratch`, one is made for this split.
 * @example predictedSplit(split, out, settlement, overdrawn) // true when done
 */
export function predictedSplit(
  split: ColumnSplit,
  out: Float64Array,
  settlement: SplitSettlement,
  overdrawn: Set<number>,
  scratch?: PredictionScratch,
): boolean {
  const { classOf, groupOfClass, weights, caps, numerator, denominator } = split;
  if (classOf.length < PREDICTION_MIN_LINES || denominator === 0) return false;
  const work = scratch ?? predictionScratch(classOf.length);
  const ratio = numerator / denominator;
  const windows = predictWindows(split, ratio, work.samples);
  const groupCount = windows.length;
  // A line's estimated fraction decides it when it lies outside the window by more than its error
  // margin: |fraction − middle| ≥ halfWidth + margin. Above the window it takes a unit, and
  // ⌊fraction + 1 − middle⌋ is then 1 (0 below it), which decides without a branch on the unit. Window
  // edges are multiples of 2^-20, so middle, halfWidth and 1 − middle are exact; the comparisons round by
  // at most 2^-54, far inside the margin's slack (at least 2^-49 against an error below 2^-50.9).
  const middle = Float64Array.from(windows, (window) => (window.top + window.bottom) / 2 / EDGE_SCALE);
  const halfWidth = Float64Array.from(windows, (window) => (window.top - window.bottom) / 2 / EDGE_SCALE);
  const lift = middle.map((value) => 1 - value);
  const topRemainder = Float64Array.from(windows, (window) =>
    remainderAtEdge(window.top, denominator, EDGE_SCALE),
  );
  const bottomRemainder = Float64Array.from(windows, (window) =>
    remainderAtEdge(window.bottom, denominator, EDGE_SCALE),
  );
  const divider = exactDivider(numerator, denominator);
  const quotient = new Float64Array(1);
  const remainder = new Float64Array(1);
  /** Per group: Σ of the parts given in the pass (floors, plus the units of lines surely above the window). */
  const given = new Float64Array(groupCount);
  /** Per group: its lines inside the window (kept, in line order, in `near` up to `nearCount`). */
  const nearOfGroup = new Float64Array(groupCount);
  let near = work.near;
  let nearCount = 0;
  const { column, sign, watchOverdraft } = settlement;
  // Imported bindings are read through getters once transpiled to CommonJS (tsx, vitest): one call per
  // line in this loop. Local copies are plain reads.
  const takesCap = TAKES_CAP;
  const estimateError = ESTIMATE_ERROR;
  const divide = divideInto;
  for (let line = 0; line < classOf.length; line += 1) {
    const group = groupOfClass[classOf[line]!]!;
    let part: number;
    if (group < 0) {
      part = group === takesCap ? caps[line]! : 0;
    } else {
      const weight = weights[line]!;
      const estimate = weight * ratio;
      const floor = Math.floor(estimate);
      const margin = (floor + 2) * estimateError;
      const fraction = estimate - floor;
      if (
        Math.abs(fraction - middle[group]!) < halfWidth[group]! + margin ||
        Math.abs(fraction - 0.5) > 0.5 - margin
      ) {
        // In the window, or a floor the estimate cannot decide: exact, before the settlement below
        // changes what may be this split's weights (a compound coupon).
        divide(divider, weight, quotient, remainder, 0);
        const exactRemainder = remainder[0]!;
        part = quotient[0]!;
        if (exactRemainder >= topRemainder[group]!) {
          part += 1;
        } else if (exactRemainder >= bottomRemainder[group]!) {
          if (nearCount === near.lines.length) near = growNear(work, nearCount);
          near.lines[nearCount] = line;
          near.remainders[nearCount] = exactRemainder;
          nearCount += 1;
          nearOfGroup[group] = nearOfGroup[group]! + 1;
        }
      } else {
        part = floor + Math.floor(fraction + lift[group]!);
      }
      given[group] = given[group]! + part;
    }
    out[line] = part;
    column[line] = column[line]! + sign * part;
    if (watchOverdraft && column[line]! < 0) overdrawn.add(classOf[line]!);
  }
  // The exact check: each group's units left must be shared among its lines inside the window, that is
  // its threshold lies in the window.
  for (let group = 0; group < groupCount; group += 1) {
    const need = split.groupTargets[group]! - given[group]!;
    if (need < 0 || need > nearOfGroup[group]!) {
      for (let line = 0; line < classOf.length; line += 1) column[line] = column[line]! - sign * out[line]!;
      overdrawn.clear();
      return false;
    }
  }
  const giveUnit = (line: number): void => {
    out[line] = out[line]! + 1;
    column[line] = column[line]! + sign;
    if (watchOverdraft && column[line]! < 0) overdrawn.add(classOf[line]!);
  };
  if (groupCount === 1) {
    chooseLargestRemainders(near, 0, nearCount, split.groupTargets[0]! - given[0]!, giveUnit);
    return true;
  }
  // Several groups: their lines inside the windows, grouped (stably) into the spare arrays first.
  const starts = new Array<number>(groupCount + 1).fill(0);
  for (let group = 0; group < groupCount; group += 1)
    starts[group + 1] = starts[group]! + nearOfGroup[group]!;
  const filled = starts.slice(0, groupCount);
  for (let index = 0; index < nearCount; index += 1) {
    const line = near.lines[index]!;
    const group = groupOfClass[classOf[line]!]!;
    near.spareLines[filled[group]!] = line;
    near.spareRemainders[filled[group]!] = near.remainders[index]!;
    filled[group] = filled[group]! + 1;
  }
  const grouped: RemainderBuffers = {
    lines: near.spareLines,
    remainders: near.spareRemainders,
    spareLines: near.lines,
    spareRemainders: near.remainders,
    histogram: near.histogram,
  };
  for (let group = 0; group < groupCount; group += 1) {
    const need = split.groupTargets[group]! - given[group]!;
    chooseLargestRemainders(grouped, starts[group]!, starts[group + 1]!, need, giveUnit);
  }
  return true;
}
