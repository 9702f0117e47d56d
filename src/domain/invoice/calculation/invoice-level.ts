/**
 * The invoice-level figures, from the line classes' subtotal sums alone: each coupon's eligible amount,
 * discount and split over classes, each tax's taxable amount and tax, and the totals. O(classes ×
 * (coupons + taxes)); this is all an incremental edit recomputes.
 */
import { invariant } from '../../../kernel/invariant.js';
import { percentOfMinor, roundedMinor, SCALED_LIMIT } from '../../../kernel/scaled.js';
import { splitWithCaps } from './capped-split.js';
import type { LineClass } from './line-classes.js';
import type { CalcCoupon, CalcTax } from './types.js';

/** A coupon reduced to what the arithmetic needs. */
export interface CouponTerms {
  /** Compound percentage coupons work on what is left; full-price and amount coupons on the original subtotal. */
  readonly onWhatIsLeft: boolean;
  /** Percentage coupons: the percentage. */
  readonly percentage: string | undefined;
  /** Amount coupons: the amount in minor units (NaN: beyond the fast range, i.e. more than any invoice). */
  readonly amountMinor: number;
}

/**
 * Checks a coupon and reduces it to its terms. A coupon without the value its kind needs, or with a
 * negative one, is a caller bug (the API layer validates requests).
 * @example couponTerms({ code: 'A', kind: 'amount', amount: '5', compoundingStrategy: 'compound' }, 2) // { onWhatIsLeft: false, percentage: undefined, amountMinor: 500 }
 */
export function couponTerms(coupon: CalcCoupon, digits: number): CouponTerms {
  if (coupon.kind === 'percentage') {
    invariant(coupon.percentage !== undefined, `percentage coupon ${coupon.code} has no percentage`);
    percentOfMinor(0, coupon.percentage); // validates the decimal
    return {
      onWhatIsLeft: coupon.compoundingStrategy === 'compound',
      percentage: coupon.percentage,
      amountMinor: Number.NaN,
    };
  }
  invariant(coupon.amount !== undefined, `amount coupon ${coupon.code} has no amount`);
  return { onWhatIsLeft: false, percentage: undefined, amountMinor: roundedMinor(coupon.amount, digits) };
}

/** One coupon at invoice level. */
export interface DiscountLevel {
  readonly eligibleAmount: number;
  readonly discountAmount: number;
  /** Per class id: the class's part of the discount (0 when not eligible). */
  readonly classAmounts: Float64Array;
  /** Per class id: 1 when the class gives everything it had left. */
  readonly classCapped: Uint8Array;
  /** The exact share of a line in an uncapped class is numerator × its weight / denominator. */
  readonly numerator: number;
  readonly denominator: number;
}

/** One tax at invoice level. */
export interface TaxLevel {
  readonly taxableAmount: number;
  readonly taxAmount: number;
  readonly exemptAmount: number;
}

/** All invoice-level figures, in minor units. */
export interface InvoiceLevel {
  readonly discounts: readonly DiscountLevel[];
  readonly taxes: readonly TaxLevel[];
  readonly subtotal: number;
  readonly discount: number;
  readonly tax: number;
  readonly total: number;
}

/**
 * Applies coupons in request order, then taxes, to class sums.
 *
 * Decisions: a percentage coupon rounds once, half up, on its whole eligible amount; an amount coupon
 * never exceeds the original subtotal of its eligible lines; and any discount is then capped at what its
 * eligible lines have left, so a line never goes below zero (a 100% coupon after another coupon takes
 * what remains, not more). The discount is split over classes in proportion to their eligible amounts,
 * no class giving more than it has left. Undefined when a figure leaves the fast range.
 * @example settleInvoice([{ key: 1, taxable: true, eligible: [] }], [0], [300], [], [{ name: 'VAT', percentage: '10' }])?.tax // 30
 */
export function settleInvoice(
  classes: readonly LineClass[],
  order: readonly number[],
  classSubtotals: readonly number[],
  terms: readonly CouponTerms[],
  taxes: readonly CalcTax[],
): InvoiceLevel | undefined {
  const classCount = classes.length;
  const left = new Float64Array(classCount);
  let subtotal = 0;
  for (let id = 0; id < classCount; id += 1) {
    left[id] = classSubtotals[id] ?? 0;
    subtotal += left[id]!;
  }
  let discount = 0;
  const discounts = terms.map((term, couponIndex): DiscountLevel => {
    const rows = order.filter((id) => classes[id]!.eligible[couponIndex]);
    const weights = rows.map((id) => (term.onWhatIsLeft ? left[id]! : classSubtotals[id]!));
    const caps = rows.map((id) => left[id]!);
    const eligibleAmount = weights.reduce((sum, weight) => sum + weight, 0);
    const available = caps.reduce((sum, cap) => sum + cap, 0);
    const wanted =
      term.percentage !== undefined
        ? percentOfMinor(eligibleAmount, term.percentage)
        : Math.min(term.amountMinor, eligibleAmount);
    // NaN (beyond the fast range) can only mean more than is left.
    const discountAmount = wanted <= available ? wanted : available;
    const split = splitWithCaps(discountAmount, weights, caps);
    const classAmounts = new Float64Array(classCount);
    const classCapped = new Uint8Array(classCount);
    rows.forEach((id, row) => {
      classAmounts[id] = split.amounts[row]!;
      classCapped[id] = split.capped[row]!;
      left[id] = left[id]! - split.amounts[row]!;
    });
    discount += discountAmount;
    const { numerator, denominator } = split;
    return { eligibleAmount, discountAmount, classAmounts, classCapped, numerator, denominator };
  });
  let tax = 0;
  const taxLevels: TaxLevel[] = [];
  for (const rate of taxes) {
    let taxableAmount = 0;
    let exemptAmount = 0;
    for (let id = 0; id < classCount; id += 1) {
      if (classes[id]!.taxable) taxableAmount += left[id]!;
      else exemptAmount += left[id]!;
    }
    const taxAmount = percentOfMinor(taxableAmount, rate.percentage);
    if (!(taxAmount <= SCALED_LIMIT)) return undefined;
    tax += taxAmount;
    taxLevels.push({ taxableAmount, taxAmount, exemptAmount });
  }
  const total = subtotal - discount + tax;
  if (!(total <= SCALED_LIMIT)) return undefined;
  return { discounts, taxes: taxLevels, subtotal, discount, tax, total };
}
