/**
 * The invoice calculation, kept up to date line by line: previews of a large draft edit one line at a
 * time, and each edit should cost what that line costs, not what the invoice costs.
 */
import { invariant } from '../../../kernel/invariant.js';
import { minorUnits } from '../../../kernel/money.js';
import { type CouponTerms, couponTerms, type InvoiceLevel, settleInvoice } from './invoice-level.js';
import { createLineClassifier } from './line-classes.js';
import { computeLineResults, type LineResults } from './line-level.js';
import { buildLineTable, type LineTable, replaceLine } from './line-table.js';
import { plainBreakouts, presentCalculation, presentLine, presentTotals } from './present.js';
import { calculateInvoiceReference } from './reference.js';
import type {
  BreakoutBuilders,
  CalcLine,
  CalculatedLine,
  InvoiceCalculation,
  InvoiceCalculationInput,
  InvoiceCalculationWith,
  InvoiceColumns,
  InvoiceTotals,
} from './types.js';

/**
 * A calculation that can be edited. It is a cache over one invoice's lines (mutable on purpose, never
 * part of site state); every answer equals `calculateInvoice` on the current lines.
 */
export interface InvoiceCalculator {
  /** Number of lines. */
  readonly size: number;
  /** Replaces the line at `index` (0-based). O(1) on the fast path. */
  updateLine(index: number, line: CalcLine): void;
  /** Invoice-level figures. After an edit: O(line classes × (coupons + taxes)), independent of the line count. */
  totals(): InvoiceTotals;
  /** One line's amounts (splits every breakout again after an edit: O(n)). */
  line(index: number): CalculatedLine;
  /** Every line's amounts. */
  lines(): readonly CalculatedLine[];
  /** The per-line results as typed columns of minor units; undefined when the exact fallback is in use. */
  columns(): InvoiceColumns | undefined;
  /** The whole calculation, as `calculateInvoice` returns it. */
  calculation(): InvoiceCalculation;
  /**
   * The whole calculation with every breakout built by `builders` (for a caller that keeps breakouts in
   * a shape of its own: they are built once, in that shape).
   */
  calculationWith<D, T>(builders: BreakoutBuilders<D, T>): InvoiceCalculationWith<D, T>;
}

/** What the fast path holds; the rest is derived on demand and dropped on every edit. */
interface FastState {
  readonly table: LineTable;
  level: InvoiceLevel | undefined;
  /** Per-line results, without breakout columns. */
  lineResults: LineResults | undefined;
  /** Per-line results with every breakout column (for the whole calculation). */
  detailedResults: LineResults | undefined;
}

/**
 * Prepares the calculation of an invoice for repeated edits. Totals after an edit are recomputed from
 * running per-class sums; breakouts are split again only when asked for.
 *
 * The fast path works on integer minor units (kernel/scaled.ts). When an amount or a sum leaves its range
 * (beyond about 10^15 minor units), the calculator answers with the exact reference implementation until
 * an edit brings the invoice back in range.
 * @example
 * const calculator = createInvoiceCalculator({
 *   currency: 'USD',
 *   lines: [{ uid: 'a', quantity: '2', unitPrice: '10', taxable: true }],
 *   coupons: [],
 *   taxes: [{ name: 'VAT', percentage: '10' }],
 * });
 * calculator.totals().total; // '22'
 * calculator.updateLine(0, { uid: 'a', quantity: '3', unitPrice: '10', taxable: true });
 * calculator.totals().total; // '33'
 */
export function createInvoiceCalculator(input: InvoiceCalculationInput): InvoiceCalculator {
  const digits = minorUnits(input.currency);
  const terms: readonly CouponTerms[] = input.coupons.map((coupon) => couponTerms(coupon, digits));
  // Copied on the first edit only: a full recalculation should not copy a million-element array.
  let lines: readonly CalcLine[] = input.lines;
  let ownLines: CalcLine[] | undefined;
  const current = (): InvoiceCalculationInput => ({ ...input, lines });
  let fast: FastState | undefined;
  let exact: InvoiceCalculation | undefined;

  const rebuild = (): void => {
    const table = buildLineTable(lines, digits, createLineClassifier(input.coupons));
    fast =
      table === undefined
        ? undefined
        : { table, level: undefined, lineResults: undefined, detailedResults: undefined };
  };
  rebuild();

  /** The fast path's invoice-level figures, or undefined when a figure leaves its range. */
  const level = (): InvoiceLevel | undefined => {
    if (fast === undefined) return undefined;
    const { classifier, classSubtotals } = fast.table;
    fast.level ??= settleInvoice(
      classifier.classes,
      classifier.canonicalOrder(),
      classSubtotals,
      terms,
      input.taxes,
    );
    return fast.level;
  };
  const lineResults = (detailed: boolean): LineResults | undefined => {
    const settled = level();
    if (fast === undefined || settled === undefined) return undefined;
    if (detailed) {
      fast.detailedResults ??= computeLineResults(fast.table, terms, settled, true);
      return fast.detailedResults;
    }
    fast.lineResults ??= fast.detailedResults ?? computeLineResults(fast.table, terms, settled, false);
    return fast.lineResults;
  };
  const columns = (): InvoiceColumns | undefined => lineResults(false)?.columns;
  const exactCalculation = (): InvoiceCalculation => {
    exact ??= calculateInvoiceReference(current());
    return exact;
  };

  const fastPathHolds = (): boolean => lineResults(true) !== undefined;
  const calculationWith = <D, T>(builders: BreakoutBuilders<D, T>): InvoiceCalculationWith<D, T> => {
    const computed = lineResults(true);
    const settled = level();
    if (fast === undefined || computed === undefined || settled === undefined)
      return withBreakouts(exactCalculation(), builders);
    return presentCalculation(current(), fast.table, settled, computed, builders);
  };

  return {
    size: lines.length,
    updateLine(index, line) {
      invariant(Number.isInteger(index) && index >= 0 && index < lines.length, `no line at index ${index}`);
      ownLines ??= input.lines.slice();
      ownLines[index] = line;
      lines = ownLines;
      exact = undefined;
      if (fast === undefined) {
        rebuild();
        return;
      }
      fast.level = undefined;
      fast.lineResults = undefined;
      fast.detailedResults = undefined;
      if (!replaceLine(fast.table, index, line)) fast = undefined;
    },
    totals() {
      const settled = level();
      if (settled !== undefined) return presentTotals(input, settled, digits);
      const { lines: _lines, discounts, taxes, ...sums } = exactCalculation();
      return {
        ...sums,
        discounts: discounts.map(({ breakouts: _breakouts, ...summary }) => summary),
        taxes: taxes.map(({ breakouts: _breakouts, ...summary }) => summary),
      };
    },
    line(index) {
      invariant(Number.isInteger(index) && index >= 0 && index < lines.length, `no line at index ${index}`);
      const computed = columns();
      if (computed !== undefined) return presentLine(lines, computed, index);
      return exactCalculation().lines[index]!;
    },
    lines() {
      const computed = columns();
      if (computed === undefined) return exactCalculation().lines;
      return Array.from({ length: lines.length }, (_, index) => presentLine(lines, computed, index));
    },
    columns,
    calculation() {
      // The reference's own breakouts are already the plain ones: no copy on the exact path.
      return fastPathHolds() ? calculationWith(plainBreakouts) : exactCalculation();
    },
    calculationWith,
  };
}

/** The reference's calculation with its breakouts rebuilt by `builders` (the exact path: rare). */
function withBreakouts<D, T>(
  calculation: InvoiceCalculation,
  builders: BreakoutBuilders<D, T>,
): InvoiceCalculationWith<D, T> {
  return {
    ...calculation,
    discounts: calculation.discounts.map((discount) => ({
      ...discount,
      breakouts: discount.breakouts.map((part) =>
        builders.discount(
          part.uid,
          builders.formatDecimal(part.eligibleAmount),
          builders.formatDecimal(part.discountAmount),
        ),
      ),
    })),
    taxes: calculation.taxes.map((tax) => ({
      ...tax,
      breakouts: tax.breakouts.map((part) =>
        builders.tax(
          part.uid,
          builders.formatDecimal(part.taxableAmount),
          builders.formatDecimal(part.taxAmount),
          builders.formatDecimal(part.taxExemptAmount),
        ),
      ),
    })),
  };
}
