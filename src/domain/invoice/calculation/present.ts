/**
 * Turning integer results into the calculation's plain-data output. Strings are built here only, and
 * only for what is asked for.
 */

import type { Dec } from '../../../kernel/money.js';
import { formatMinor } from '../../../kernel/scaled.js';
import type { InvoiceLevel } from './invoice-level.js';
import type { LineResults } from './line-level.js';
import type {
  BreakoutBuilders,
  CalcCoupon,
  CalcLine,
  CalcTax,
  CalculatedLine,
  DiscountBreakout,
  DiscountSummary,
  InvoiceCalculationInput,
  InvoiceCalculationWith,
  InvoiceColumns,
  InvoiceTotals,
  TaxBreakout,
  TaxSummary,
} from './types.js';

/**
 * The documented breakouts: plain objects with the calculation's decimal strings.
 * @example plainBreakouts.discount('li_1', '10', '1') // { uid: 'li_1', eligibleAmount: '10', discountAmount: '1' }
 */
export const plainBreakouts: BreakoutBuilders<DiscountBreakout, TaxBreakout> = {
  formatMinor,
  formatDecimal: (value) => value,
  discount: (uid, eligibleAmount, discountAmount) => ({ uid, eligibleAmount, discountAmount }),
  tax: (uid, taxableAmount, taxAmount, taxExemptAmount) => ({
    uid,
    taxableAmount,
    taxAmount,
    taxExemptAmount,
  }),
};

/**
 * A coupon's invoice-level figures with the coupon's own fields passed through.
 * @example describeDiscount({ code: 'A', kind: 'percentage', percentage: '10', compoundingStrategy: 'compound' }, '175.5', '17.55').discountAmount // '17.55'
 */
export function describeDiscount(
  coupon: CalcCoupon,
  eligibleAmount: Dec,
  discountAmount: Dec,
): DiscountSummary {
  return {
    code: coupon.code,
    kind: coupon.kind,
    compoundingStrategy: coupon.compoundingStrategy,
    ...(coupon.percentage !== undefined ? { percentage: coupon.percentage } : {}),
    ...(coupon.amount !== undefined ? { amount: coupon.amount } : {}),
    ...(coupon.sourceId !== undefined ? { sourceId: coupon.sourceId } : {}),
    ...(coupon.title !== undefined ? { title: coupon.title } : {}),
    ...(coupon.description !== undefined ? { description: coupon.description } : {}),
    eligibleAmount,
    discountAmount,
  };
}

/**
 * A tax's invoice-level figures with the rate's own fields passed through.
 * @example describeTax({ name: 'VAT', percentage: '20' }, '100', '20', '0').taxAmount // '20'
 */
export function describeTax(
  rate: CalcTax,
  taxableAmount: Dec,
  taxAmount: Dec,
  taxExemptAmount: Dec,
): TaxSummary {
  return {
    name: rate.name,
    percentage: rate.percentage,
    ...(rate.sourceId !== undefined ? { sourceId: rate.sourceId } : {}),
    taxableAmount,
    taxAmount,
    taxExemptAmount,
  };
}

/**
 * The invoice-level figures as strings.
 * @example presentTotals(input, level, 2).total // '168.61'
 */
export function presentTotals(
  input: InvoiceCalculationInput,
  level: InvoiceLevel,
  digits: number,
): InvoiceTotals {
  const money = (minor: number): Dec => formatMinor(minor, digits);
  return {
    currency: input.currency,
    subtotal: money(level.subtotal),
    discount: money(level.discount),
    tax: money(level.tax),
    total: money(level.total),
    discounts: level.discounts.map((discount, index) =>
      describeDiscount(input.coupons[index]!, money(discount.eligibleAmount), money(discount.discountAmount)),
    ),
    taxes: level.taxes.map((tax, index) =>
      describeTax(
        input.taxes[index]!,
        money(tax.taxableAmount),
        money(tax.taxAmount),
        money(tax.exemptAmount),
      ),
    ),
  };
}

/**
 * One line's amounts as strings.
 * @example presentLine(input.lines, columns, 0) // { uid: 'li_1', subtotal: '99', discount: '9.9', ... }
 */
export function presentLine(
  lines: readonly CalcLine[],
  columns: InvoiceColumns,
  index: number,
): CalculatedLine {
  const digits = columns.minorDigits;
  return {
    uid: lines[index]!.uid,
    subtotal: formatMinor(columns.subtotal[index]!, digits),
    discount: formatMinor(columns.discount[index]!, digits),
    tax: formatMinor(columns.tax[index]!, digits),
    total: formatMinor(columns.total[index]!, digits),
  };
}

/**
 * The whole calculation as plain data: every line, and every breakout of every discount and tax, each
 * built by `builders`.
 * @example presentCalculation(input, isEligible, isTaxable, level, results, plainBreakouts).lines.length // input.lines.length
 */
export function presentCalculation<D, T>(
  input: InvoiceCalculationInput,
  eligibility: (line: number, couponIndex: number) => boolean,
  taxable: (line: number) => boolean,
  level: InvoiceLevel,
  results: LineResults,
  builders: BreakoutBuilders<D, T>,
): InvoiceCalculationWith<D, T> {
  const { columns } = results;
  const digits = columns.minorDigits;
  const totals = presentTotals(input, level, digits);
  const inputLines = input.lines;
  const lineCount = inputLines.length;
  // Plain loops over preallocated work: at a million lines this function builds several million objects.
  const lines: CalculatedLine[] = [];
  for (let index = 0; index < lineCount; index += 1) lines.push(presentLine(inputLines, columns, index));
  // Breakout amounts are written as the builders write them; with the plain ones, a breakout's eligible
  // amount (mostly the line's subtotal) shares the line's string.
  const breakoutMoney = (minor: number): Dec => builders.formatMinor(minor, digits);
  // Other builders write a line's subtotal their own way: once per line, shared by every coupon.
  const ownSubtotals =
    builders.formatMinor === formatMinor || totals.discounts.length === 0
      ? undefined
      : Array.from(columns.subtotal, (minor) => breakoutMoney(minor));
  // What each line has left before each coupon: a compound coupon's eligible amount per line.
  const left = columns.subtotal.slice();
  const makeDiscount = builders.discount;
  const discounts = totals.discounts.map((summary, couponIndex) => {
    const onWhatIsLeft =
      input.coupons[couponIndex]!.kind === 'percentage' && summary.compoundingStrategy === 'compound';
    const parts = results.discountBreakouts[couponIndex]!;
    const breakouts: D[] = [];
    for (let line = 0; line < lineCount; line += 1) {
      if (!eligibility(line, couponIndex)) continue;
      // Mostly the line's subtotal, whose string is already made: share it rather than format again.
      const untouched = !onWhatIsLeft || left[line] === columns.subtotal[line];
      const part = parts[line]!;
      breakouts.push(
        makeDiscount(
          inputLines[line]!.uid,
          untouched ? (ownSubtotals?.[line] ?? lines[line]!.subtotal) : breakoutMoney(left[line]!),
          breakoutMoney(part),
        ),
      );
      left[line] = left[line]! - part;
    }
    return { ...summary, breakouts };
  });
  const zero = breakoutMoney(0);
  // Every tax shows each line's net amount (taxable or exempt): formatted once, shared by all taxes.
  const nets: Dec[] = [];
  if (totals.taxes.length > 0)
    for (let line = 0; line < lineCount; line += 1)
      nets.push(breakoutMoney(columns.subtotal[line]! - columns.discount[line]!));
  const makeTax = builders.tax;
  const taxes = totals.taxes.map((summary, taxIndex) => {
    const parts = results.taxBreakouts[taxIndex]!;
    const breakouts: T[] = [];
    for (let line = 0; line < lineCount; line += 1) {
      const net = nets[line]!;
      const uid = inputLines[line]!.uid;
      breakouts.push(
        taxable(line) ? makeTax(uid, net, breakoutMoney(parts[line]!), zero) : makeTax(uid, zero, zero, net),
      );
    }
    return { ...summary, breakouts };
  });
  const { currency, subtotal, discount, tax, total } = totals;
  return { currency, subtotal, discount, tax, total, lines, discounts, taxes };
}
