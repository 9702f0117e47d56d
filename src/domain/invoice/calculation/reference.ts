/**
 * The invoice calculation written plainly with money.ts (decimal.js): one object per line, decimal
 * strings throughout. It states the rules the fast path must match, serves as the oracle of the
 * differential tests, and is the fallback when an invoice's amounts leave the fast path's range
 * (exact while the amounts involved stay below about 10^19 minor units).
 */
import { invariant } from '../../../kernel/invariant.js';
import {
  cmp,
  type Dec,
  div,
  isNegative,
  min,
  minorUnits,
  mul,
  percentOf,
  roundTo,
  sub,
  sum,
} from '../../../kernel/money.js';
import { describeDiscount, describeTax } from './present.js';
import { largestRemainder, waterFill } from './reference-split.js';
import type {
  CalculatedDiscount,
  CalculatedLine,
  CalculatedTax,
  InvoiceCalculation,
  InvoiceCalculationInput,
} from './types.js';

interface WorkLine {
  readonly uid: string;
  readonly subtotal: Dec;
  readonly taxable: boolean;
  readonly eligible: readonly boolean[];
  readonly classKey: string;
  remaining: Dec;
  tax: Dec;
}

const nonNegative = (value: Dec): Dec => {
  invariant(!isNegative(value), `negative amount ${value}`);
  return value;
};

/**
 * Calculates an invoice with decimal strings only (same rules and output as `calculateInvoice`).
 * @example
 * calculateInvoiceReference({
 *   currency: 'USD',
 *   lines: [{ uid: 'a', quantity: '1', unitPrice: '100', taxable: true }],
 *   coupons: [{ code: 'TEN', kind: 'percentage', percentage: '10', compoundingStrategy: 'compound' }],
 *   taxes: [],
 * }).total // '90'
 */
export function calculateInvoiceReference(input: InvoiceCalculationInput): InvoiceCalculation {
  const unit = `1${'0'.repeat(minorUnits(input.currency))}`;
  const toMinor = (value: Dec): Dec => roundTo(mul(nonNegative(value), unit), 0);
  const money = (minor: Dec): Dec => div(minor, unit);

  const restrictions = input.coupons.map((coupon) =>
    coupon.eligibleLineUids === undefined ? undefined : new Set(coupon.eligibleLineUids),
  );
  const lines: WorkLine[] = input.lines.map((line) => {
    const subtotal = toMinor(line.subtotal ?? mul(nonNegative(line.quantity), nonNegative(line.unitPrice)));
    const eligible = restrictions.map((uids) => uids?.has(line.uid) ?? true);
    const classKey = eligible.map((yes) => (yes ? '1' : '0')).join('') + (line.taxable ? '1' : '0');
    return {
      uid: line.uid,
      subtotal,
      taxable: line.taxable,
      eligible,
      classKey,
      remaining: subtotal,
      tax: '0',
    };
  });
  const classKeys = [...new Set(lines.map((line) => line.classKey))].sort();

  const discounts = input.coupons.map((coupon, couponIndex): CalculatedDiscount => {
    const onWhatIsLeft = coupon.kind === 'percentage' && coupon.compoundingStrategy === 'compound';
    const weightOf = (line: WorkLine): Dec => (onWhatIsLeft ? line.remaining : line.subtotal);
    const eligibleLines = lines.filter((line) => line.eligible[couponIndex]);
    const classes = classKeys
      .map((key) => eligibleLines.filter((line) => line.classKey === key))
      .filter((members) => members.length > 0);
    const eligibleAmount = sum(eligibleLines.map(weightOf));
    const available = sum(eligibleLines.map((line) => line.remaining));
    const value = coupon.kind === 'percentage' ? coupon.percentage : coupon.amount;
    invariant(value !== undefined, `${coupon.kind} coupon ${coupon.code} has no ${coupon.kind}`);
    const wanted =
      coupon.kind === 'percentage'
        ? roundTo(percentOf(eligibleAmount, nonNegative(value)), 0)
        : min(toMinor(value), eligibleAmount);
    const discountAmount = min(wanted, available);
    const classSplit = waterFill(
      discountAmount,
      classes.map((members) => sum(members.map(weightOf))),
      classes.map((members) => sum(members.map((line) => line.remaining))),
    );
    const parts = new Map<WorkLine, Dec>();
    classes.forEach((members, classIndex) => {
      const classAmount = classSplit.amounts[classIndex]!;
      const weights = members.map(weightOf);
      const caps = members.map((line) => line.remaining);
      let shares: readonly Dec[] = classSplit.capped[classIndex]
        ? caps
        : largestRemainder(classAmount, classSplit.numerator, classSplit.denominator, weights);
      if (shares.some((share, position) => cmp(share, caps[position]!) > 0)) {
        shares = waterFill(classAmount, weights, caps).amounts;
      }
      members.forEach((line, position) => {
        parts.set(line, shares[position]!);
      });
    });
    const breakouts = eligibleLines.map((line) => {
      const part = parts.get(line) ?? '0';
      const eligible = weightOf(line);
      line.remaining = sub(line.remaining, part);
      return { uid: line.uid, eligibleAmount: money(eligible), discountAmount: money(part) };
    });
    return { ...describeDiscount(coupon, money(eligibleAmount), money(discountAmount)), breakouts };
  });

  const taxes = input.taxes.map((rate): CalculatedTax => {
    const taxableLines = lines.filter((line) => line.taxable);
    const taxableAmount = sum(taxableLines.map((line) => line.remaining));
    const exemptAmount = sum(lines.filter((line) => !line.taxable).map((line) => line.remaining));
    const taxAmount = roundTo(percentOf(taxableAmount, nonNegative(rate.percentage)), 0);
    const shares = largestRemainder(
      taxAmount,
      taxAmount,
      taxableAmount,
      taxableLines.map((line) => line.remaining),
    );
    const shareOf = new Map(taxableLines.map((line, position) => [line, shares[position]!] as const));
    const breakouts = lines.map((line) => {
      const share = shareOf.get(line);
      if (share === undefined) {
        return { uid: line.uid, taxableAmount: '0', taxAmount: '0', taxExemptAmount: money(line.remaining) };
      }
      line.tax = sum([line.tax, share]);
      return {
        uid: line.uid,
        taxableAmount: money(line.remaining),
        taxAmount: money(share),
        taxExemptAmount: '0',
      };
    });
    return { ...describeTax(rate, money(taxableAmount), money(taxAmount), money(exemptAmount)), breakouts };
  });

  const calculatedLines = lines.map(
    (line): CalculatedLine => ({
      uid: line.uid,
      subtotal: money(line.subtotal),
      discount: money(sub(line.subtotal, line.remaining)),
      tax: money(line.tax),
      total: money(sum([line.remaining, line.tax])),
    }),
  );
  const subtotal = sum(lines.map((line) => line.subtotal));
  const discount = sum(discounts.map((entry) => entry.discountAmount));
  const tax = sum(taxes.map((entry) => entry.taxAmount));
  return {
    currency: input.currency,
    subtotal: money(subtotal),
    discount,
    tax,
    total: sub(sum([money(subtotal), tax]), discount),
    lines: calculatedLines,
    discounts,
    taxes,
  };
}
