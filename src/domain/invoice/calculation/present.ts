/**
 * Turning integer results into the calculation's plain-data output. Strings are built here only, and
 * only for what is asked for.
 */

import type { Dec } from '../../../kernel/money.js';
import { formatMinor } from '../../../kernel/scaled.js';
import type { InvoiceLevel } from './invoice-level.js';
import type { LineResults } from './line-level.js';
import type {
  CalcCoupon,
  CalcLine,
  CalcTax,
  CalculatedDiscount,
  CalculatedLine,
  CalculatedTax,
  DiscountBreakout,
  DiscountSummary,
  InvoiceCalculation,
  InvoiceCalculationInput,
  InvoiceColumns,
  InvoiceTotals,
  TaxBreakout,
  TaxSummary,
} from './types.js';

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
 * The whole calculation as plain data: every line, and every breakout of every discount and tax.
 * @example presentCalculation(input, isEligible, isTaxable, level, results).lines.length // input.lines.length
 */
export function presentCalculation(
  input: InvoiceCalculationInput,
  eligibility: (line: number, couponIndex: number) => boolean,
  taxable: (line: number) => boolean,
  level: InvoiceLevel,
  results: LineResults,
): InvoiceCalculation {
  const { columns } = results;
  const digits = columns.minorDigits;
  const money = (minor: number): Dec => formatMinor(minor, digits);
  const totals = presentTotals(input, level, digits);
  const inputLines = input.lines;
  const lineCount = inputLines.length;
  // Plain loops over preallocated work: at a million lines this function builds several million objects.
  const lines: CalculatedLine[] = [];
  for (let index = 0; index < lineCount; index += 1) lines.push(presentLine(inputLines, columns, index));
  // What each line has left before each coupon: a compound coupon's eligible amount per line.
  const left = columns.subtotal.slice();
  const discounts = totals.discounts.map((summary, couponIndex): CalculatedDiscount => {
    const onWhatIsLeft =
      input.coupons[couponIndex]!.kind === 'percentage' && summary.compoundingStrategy === 'compound';
    const parts = results.discountBreakouts[couponIndex]!;
    const breakouts: DiscountBreakout[] = [];
    for (let line = 0; line < lineCount; line += 1) {
      if (!eligibility(line, couponIndex)) continue;
      // Mostly the line's subtotal, whose string the line already has: share it rather than format again.
      const untouched = !onWhatIsLeft || left[line] === columns.subtotal[line];
      const part = parts[line]!;
      breakouts.push({
        uid: inputLines[line]!.uid,
        eligibleAmount: untouched ? lines[line]!.subtotal : money(left[line]!),
        discountAmount: money(part),
      });
      left[line] = left[line]! - part;
    }
    return { ...summary, breakouts };
  });
  const zero = money(0);
  // Every tax shows each line's net amount (taxable or exempt): formatted once, shared by all taxes.
  const nets: Dec[] = [];
  if (totals.taxes.length > 0)
    for (let line = 0; line < lineCount; line += 1)
      nets.push(money(columns.subtotal[line]! - columns.discount[line]!));
  const taxes = totals.taxes.map((summary, taxIndex): CalculatedTax => {
    const parts = results.taxBreakouts[taxIndex]!;
    const breakouts: TaxBreakout[] = [];
    for (let line = 0; line < lineCount; line += 1) {
      const net = nets[line]!;
      const uid = inputLines[line]!.uid;
      breakouts.push(
        taxable(line)
          ? { uid, taxableAmount: net, taxAmount: money(parts[line]!), taxExemptAmount: zero }
          : { uid, taxableAmount: zero, taxAmount: zero, taxExemptAmount: net },
      );
    }
    return { ...summary, breakouts };
  });
  const { currency, subtotal, discount, tax, total } = totals;
  return { currency, subtotal, discount, tax, total, lines, discounts, taxes };
}
