/**
 * Turning integer results into the calculation's plain-data output. Strings are built here only, and
 * only for what is asked for.
 */

import type { Dec } from '../../../kernel/money.js';
import { formatMinor, minorWriter } from '../../../kernel/scaled.js';
import type { InvoiceLevel } from './invoice-level.js';
import type { LineResults } from './line-level.js';
import type { LineTable } from './line-table.js';
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
 *
 * At a hundred thousand lines this builds about a million strings and six hundred thousand objects, all
 * alive until the caller drops them: their count is the cost (each one is copied by the young-generation
 * collector, then promoted). So every amount that equals one already written shares its string (a
 * line's net amount is its total when it has no tax, a breakout often equals the line's own figure),
 * small amounts come from the writer's table, and arrays are allocated at their final length.
 * @example presentCalculation(input, table, level, results, plainBreakouts).lines.length // input.lines.length
 */
export function presentCalculation<D, T>(
  input: InvoiceCalculationInput,
  table: LineTable,
  level: InvoiceLevel,
  results: LineResults,
  builders: BreakoutBuilders<D, T>,
): InvoiceCalculationWith<D, T> {
  const { columns } = results;
  const digits = columns.minorDigits;
  const totals = presentTotals(input, level, digits);
  const inputLines = input.lines;
  const lineCount = inputLines.length;
  const { subtotal, discount, tax, total } = columns;
  const money = minorWriter(formatMinor, digits);
  // The documented breakouts write amounts as the lines do, and then share the lines' strings.
  const shared = builders.formatMinor === formatMinor;
  const breakoutMoney = shared ? money : minorWriter(builders.formatMinor, digits);

  const lines: CalculatedLine[] = new Array(lineCount);
  // Each line's subtotal and net amount (subtotal less discounts) as the breakouts write them: the lines'
  // own strings, or, for breakouts written another way, only what some breakout shows.
  const subtotals: Dec[] = new Array(shared || totals.discounts.length > 0 ? lineCount : 0);
  const nets: Dec[] = new Array(shared || totals.taxes.length > 0 ? lineCount : 0);
  for (let index = 0; index < lineCount; index += 1) {
    const lineSubtotal = subtotal[index]!;
    const lineDiscount = discount[index]!;
    const lineTax = tax[index]!;
    const subtotalText = money(lineSubtotal);
    const netText = lineDiscount === 0 ? subtotalText : money(lineSubtotal - lineDiscount);
    // total = net + tax, exactly (integers below 2^53).
    lines[index] = {
      uid: inputLines[index]!.uid,
      subtotal: subtotalText,
      discount: money(lineDiscount),
      tax: money(lineTax),
      total: lineTax === 0 ? netText : money(total[index]!),
    };
    if (shared) {
      subtotals[index] = subtotalText;
      nets[index] = netText;
    } else {
      if (subtotals.length > 0) subtotals[index] = breakoutMoney(lineSubtotal);
      if (nets.length > 0) nets[index] = breakoutMoney(lineSubtotal - lineDiscount);
    }
  }

  const { classOf } = table;
  const classes = table.classifier.classes;
  // What each line has left before each coupon: a compound coupon's eligible amount per line.
  const left = subtotal.slice();
  const makeDiscount = builders.discount;
  const discounts = totals.discounts.map((summary, couponIndex) => {
    const onWhatIsLeft =
      input.coupons[couponIndex]!.kind === 'percentage' && summary.compoundingStrategy === 'compound';
    const parts = results.discountBreakouts[couponIndex]!;
    const eligibleClass = classes.map((lineClass) => lineClass.eligible[couponIndex] === true);
    let eligibleCount = 0;
    for (let line = 0; line < lineCount; line += 1) if (eligibleClass[classOf[line]!]) eligibleCount += 1;
    const breakouts: D[] = new Array(eligibleCount);
    let position = 0;
    for (let line = 0; line < lineCount; line += 1) {
      if (!eligibleClass[classOf[line]!]) continue;
      const before = left[line]!;
      const part = parts[line]!;
      // Mostly the line's subtotal or its net amount, whose strings are already made.
      const eligibleText =
        !onWhatIsLeft || before === subtotal[line]
          ? subtotals[line]!
          : nets.length > 0 && before === subtotal[line]! - discount[line]!
            ? nets[line]!
            : breakoutMoney(before);
      const partText = shared && part === discount[line] ? lines[line]!.discount : breakoutMoney(part);
      breakouts[position] = makeDiscount(inputLines[line]!.uid, eligibleText, partText);
      position += 1;
      left[line] = before - part;
    }
    return { ...summary, breakouts };
  });

  const zero = breakoutMoney(0);
  const taxableClass = classes.map((lineClass) => lineClass.taxable);
  const makeTax = builders.tax;
  const taxes = totals.taxes.map((summary, taxIndex) => {
    const parts = results.taxBreakouts[taxIndex]!;
    const breakouts: T[] = new Array(lineCount);
    for (let line = 0; line < lineCount; line += 1) {
      const net = nets[line]!;
      const uid = inputLines[line]!.uid;
      if (taxableClass[classOf[line]!]) {
        const part = parts[line]!;
        const partText = shared && part === tax[line] ? lines[line]!.tax : breakoutMoney(part);
        breakouts[line] = makeTax(uid, net, partText, zero);
      } else {
        breakouts[line] = makeTax(uid, zero, zero, net);
      }
    }
    return { ...summary, breakouts };
  });
  const { currency } = totals;
  return {
    currency,
    subtotal: totals.subtotal,
    discount: totals.discount,
    tax: totals.tax,
    total: totals.total,
    lines,
    discounts,
    taxes,
  };
}
