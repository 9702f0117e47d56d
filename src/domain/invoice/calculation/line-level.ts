/**
 * The per-line results, as integer columns: each line's discount, tax and total, and on request each
 * coupon's and each tax's breakout per line. Derived from the invoice-level figures, which fix what every
 * class's lines add up to; here only the split inside each class is decided.
 */
import { splitWithCaps } from './capped-split.js';
import { splitColumn } from './column-split.js';
import type { CouponTerms, InvoiceLevel } from './invoice-level.js';
import type { LineTable } from './line-table.js';
import { PREDICTION_MIN_LINES, predictionScratch } from './predicted-split.js';
import { type ColumnSplit, NOT_ELIGIBLE, TAKES_CAP } from './split-types.js';
import type { InvoiceColumns } from './types.js';

/** The per-line results and, when kept, every breakout column. */
export interface LineResults {
  readonly columns: InvoiceColumns;
  /** Per coupon: each line's breakout (0 where it does not apply); empty unless asked for. */
  readonly discountBreakouts: readonly Float64Array[];
  /** Per tax: each line's breakout (0 outside the tax); empty unless asked for. */
  readonly taxBreakouts: readonly Float64Array[];
}

/**
 * Splits every discount and tax over the lines.
 *
 * A discount's line shares are the invoice-wide exact shares (so each breakout is within one minor unit
 * of its exact share), with the units each class must add up to fixed at invoice level. If that would
 * take a line below zero (possible only for full-price and amount coupons, which are computed on the
 * original subtotal while earlier coupons already took part of it), that class is split again with caps:
 * such lines give what they have left and the class's other lines share the rest.
 *
 * Breakout columns are kept only when `keepBreakouts` is set: at a million lines each costs 8 MB, and
 * allocating them all outside the JS heap would trigger a full garbage collection mid-calculation.
 * @example computeLineResults(table, terms, level, false).columns.total // line totals in minor units
 */
export function computeLineResults(
  table: LineTable,
  terms: readonly CouponTerms[],
  level: InvoiceLevel,
  keepBreakouts: boolean,
): LineResults {
  const { classOf, subtotal } = table;
  const lineCount = subtotal.length;
  const classes = table.classifier.classes;
  // Every column and all scratch are allocated here, before the splits: once a calculation holds its
  // million-line columns, one more typed array (memory outside the JS heap, for V8) starts a collection
  // that marks the whole heap.
  const groupOfClass = new Int32Array(classes.length);
  const groupTargets = new Float64Array(classes.length);
  const prediction = lineCount >= PREDICTION_MIN_LINES ? predictionScratch(lineCount) : undefined;
  const remaining = subtotal.slice();
  const tax = new Float64Array(lineCount);
  let fractionColumn: Float64Array | undefined;
  const fractions = (): Float64Array => {
    fractionColumn ??= new Float64Array(lineCount);
    return fractionColumn;
  };
  const reused = keepBreakouts ? undefined : new Float64Array(lineCount);
  const outColumn = (): Float64Array => reused ?? new Float64Array(lineCount);
  const discountBreakouts = level.discounts.map((discount, couponIndex) => {
    // Each uncapped eligible class is its own group, which must add up to the class's invoice-level part.
    for (let id = 0; id < classes.length; id += 1) {
      groupOfClass[id] = !classes[id]!.eligible[couponIndex]
        ? NOT_ELIGIBLE
        : discount.classCapped[id] === 1
          ? TAKES_CAP
          : id;
      groupTargets[id] = groupOfClass[id]! >= 0 ? discount.classAmounts[id]! : 0;
    }
    const out = outColumn();
    const split: ColumnSplit = {
      classOf,
      groupOfClass,
      groupTargets,
      weights: terms[couponIndex]!.onWhatIsLeft ? remaining : subtotal,
      caps: remaining,
      numerator: discount.numerator,
      denominator: discount.denominator,
    };
    // Only coupons computed on the original subtotal can ask a line for more than it has left.
    const watchOverdraft = !terms[couponIndex]!.onWhatIsLeft;
    const overdrawn = splitColumn(
      split,
      out,
      fractions,
      { column: remaining, sign: -1, watchOverdraft },
      prediction,
    );
    for (const id of overdrawn)
      resplitClass(id, discount.classAmounts[id]!, split.weights, table, out, remaining);
    return out;
  });

  const taxBreakouts = level.taxes.map((taxLevel) => {
    for (let id = 0; id < classes.length; id += 1) groupOfClass[id] = classes[id]!.taxable ? 0 : NOT_ELIGIBLE;
    const out = outColumn();
    const split: ColumnSplit = {
      classOf,
      groupOfClass,
      groupTargets: Float64Array.of(taxLevel.taxAmount),
      weights: remaining,
      caps: remaining,
      numerator: taxLevel.taxAmount,
      denominator: taxLevel.taxableAmount,
    };
    splitColumn(split, out, fractions, { column: tax, sign: 1, watchOverdraft: false }, prediction);
    return out;
  });

  // `remaining` (what lines have left after discounts) becomes the total; the spare column the discount.
  const discount = outColumn();
  settleTotals(subtotal, remaining, tax, discount);
  return {
    columns: { minorDigits: table.digits, subtotal, discount, tax, total: remaining },
    discountBreakouts: keepBreakouts ? discountBreakouts : [],
    taxBreakouts: keepBreakouts ? taxBreakouts : [],
  };
}

/** discount = subtotal − left; left becomes the total (left + tax). Its own function: a hot, stable loop. */
function settleTotals(
  subtotal: Float64Array,
  left: Float64Array,
  tax: Float64Array,
  discount: Float64Array,
): void {
  for (let line = 0; line < subtotal.length; line += 1) {
    discount[line] = subtotal[line]! - left[line]!;
    left[line] = left[line]! + tax[line]!;
  }
}

/** Redoes one class's split of a discount with per-line caps (the rare path; O(n log n) in the class). */
function resplitClass(
  id: number,
  classAmount: number,
  weights: Float64Array,
  table: LineTable,
  out: Float64Array,
  remaining: Float64Array,
): void {
  const lines: number[] = [];
  for (let line = 0; line < table.classOf.length; line += 1) {
    if (table.classOf[line] !== id) continue;
    remaining[line] = remaining[line]! + out[line]!;
    lines.push(line);
  }
  // Weights for a compound coupon are what was left, which `remaining` holds again now.
  const split = splitWithCaps(
    classAmount,
    lines.map((line) => weights[line]!),
    lines.map((line) => remaining[line]!),
  );
  lines.forEach((line, row) => {
    out[line] = split.amounts[row]!;
    remaining[line] = remaining[line]! - split.amounts[row]!;
  });
}
