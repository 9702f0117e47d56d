/**
 * The calculation of an invoice with neither coupons nor taxes, most renewals: each line's subtotal is
 * its total, and the invoice's subtotal is its total. Without the classes, columns and splits a
 * calculation with coupons or taxes needs, a renewal of one line costs several objects and typed arrays
 * less; the figures are those `createInvoiceCalculator` gives, as the same strings.
 */
import type { Dec } from '../../../kernel/money.js';
import { formatMinor, minorWriter, SCALED_LIMIT } from '../../../kernel/scaled.js';
import { lineSubtotalMinor } from './line-table.js';
import type { CalcLine, CalculatedLine } from './types.js';

/** The figures of an invoice with neither coupons nor taxes: its lines' and its own subtotal. */
export interface PlainCalculation {
  /** Each line's amounts: subtotal and total alike, no discount, no tax. */
  readonly lines: CalculatedLine[];
  /** The invoice's subtotal, which is also its total. */
  readonly subtotal: Dec;
  /** No discount and no tax, as the calculation writes zero. */
  readonly zero: Dec;
}

/**
 * The calculation of lines with neither coupons nor taxes, in the currency's minor `digits`; undefined
 * when a line is negative or the sum leaves the range where every partial sum is exact (the general
 * calculation then decides, as it always did).
 * @example calculatePlain([{ uid: 'a', quantity: '2', unitPrice: '1.5', taxable: false }], 2)?.subtotal // '3'
 */
export function calculatePlain(lines: readonly CalcLine[], digits: number): PlainCalculation | undefined {
  const count = lines.length;
  const amounts = new Float64Array(count);
  let sum = 0;
  for (let index = 0; index < count; index += 1) {
    const amount = lineSubtotalMinor(lines[index]!, digits);
    // NaN fails both tests; so does a negative line, left to the general calculation.
    if (!(amount >= 0 && amount <= SCALED_LIMIT)) return undefined;
    sum += amount;
    if (!(sum <= SCALED_LIMIT)) return undefined;
    amounts[index] = amount;
  }
  const money = minorWriter(formatMinor, digits);
  const zero = money(0);
  const calculated: CalculatedLine[] = new Array(count);
  for (let index = 0; index < count; index += 1) {
    const subtotal = money(amounts[index]!);
    calculated[index] = { uid: lines[index]!.uid, subtotal, discount: zero, tax: zero, total: subtotal };
  }
  return { lines: calculated, subtotal: formatMinor(sum, digits), zero: formatMinor(0, digits) };
}
