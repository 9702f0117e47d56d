/**
 * An invoice's per-line breakouts, kept as the API presents them (`line_item_breakouts`). An invoice of
 * 100,000 lines with three coupons and two taxes has 500,000 of them: built once in this shape and
 * frozen, they go into every response as they are instead of being copied on every read.
 */
import { type Dec, moneyFormatter } from '../../kernel/money.js';
import { formatMinorFixed } from '../../kernel/scaled.js';
import type { BreakoutBuilders } from './calculation/types.js';
import type { Invoice, InvoiceDiscountBreakout, InvoiceTaxBreakout } from './types.js';

/**
 * Builders for `calculationWith`: each breakout with the currency's decimals, frozen.
 * @example storedBreakouts('USD').discount('li_1', '10.00', '1.50') // { uid: 'li_1', eligible_amount: '10.00', discount_amount: '1.50' }
 */
export function storedBreakouts(
  currency: string,
): BreakoutBuilders<InvoiceDiscountBreakout, InvoiceTaxBreakout> {
  return {
    formatMinor: formatMinorFixed,
    formatDecimal: moneyFormatter(currency),
    discount: (uid, eligibleAmount, discountAmount) =>
      Object.freeze({ uid, eligible_amount: eligibleAmount, discount_amount: discountAmount }),
    tax: (uid, taxableAmount, taxAmount, taxExemptAmount) =>
      Object.freeze({
        uid,
        taxable_amount: taxableAmount,
        tax_amount: taxAmount,
        tax_exempt_amount: taxExemptAmount,
      }),
  };
}

/**
 * The breakouts as a response may carry them: the stored array itself when it is frozen (built by
 * `storedBreakouts`), else a copy with each amount formatted (a state read back from JSON, whose objects a
 * host could otherwise change through the response).
 * @example presentedDiscountBreakouts(discount.breakouts, moneyFormatter('USD'))
 */
export function presentedDiscountBreakouts(
  breakouts: readonly InvoiceDiscountBreakout[],
  money: (value: Dec) => Dec,
): readonly InvoiceDiscountBreakout[] {
  if (Object.isFrozen(breakouts)) return breakouts;
  return breakouts.map((breakout) => ({
    uid: breakout.uid,
    eligible_amount: money(breakout.eligible_amount),
    discount_amount: money(breakout.discount_amount),
  }));
}

/** `presentedDiscountBreakouts` for a tax's breakouts. @example presentedTaxBreakouts(tax.breakouts, moneyFormatter('USD')) */
export function presentedTaxBreakouts(
  breakouts: readonly InvoiceTaxBreakout[],
  money: (value: Dec) => Dec,
): readonly InvoiceTaxBreakout[] {
  if (Object.isFrozen(breakouts)) return breakouts;
  return breakouts.map((breakout) => ({
    uid: breakout.uid,
    taxable_amount: money(breakout.taxable_amount),
    tax_amount: money(breakout.tax_amount),
    tax_exempt_amount: money(breakout.tax_exempt_amount),
  }));
}

/**
 * An invoice stored before breakouts were kept as presented (`eligibleAmount`, ...), with them renamed;
 * the same invoice when there is nothing to rename. Amounts are formatted when presented.
 * @example withPresentedBreakouts(invoice).discounts[0]?.breakouts[0]?.discount_amount
 */
export function withPresentedBreakouts(invoice: Invoice): Invoice {
  const old = (breakout: object): boolean =>
    Reflect.has(breakout, 'eligibleAmount') || Reflect.has(breakout, 'taxAmount');
  // One invoice's breakouts were all stored alike: the first of each list tells.
  const stale = (breakouts: readonly object[]): boolean => breakouts[0] !== undefined && old(breakouts[0]);
  if (
    !invoice.discounts.some((discount) => stale(discount.breakouts)) &&
    !invoice.taxes.some((tax) => stale(tax.breakouts))
  )
    return invoice;
  const text = (breakout: object, key: string): Dec => String(Reflect.get(breakout, key) ?? '0');
  return {
    ...invoice,
    discounts: invoice.discounts.map((discount) => ({
      ...discount,
      breakouts: discount.breakouts.map((breakout) =>
        old(breakout)
          ? {
              uid: breakout.uid,
              eligible_amount: text(breakout, 'eligibleAmount'),
              discount_amount: text(breakout, 'discountAmount'),
            }
          : breakout,
      ),
    })),
    taxes: invoice.taxes.map((tax) => ({
      ...tax,
      breakouts: tax.breakouts.map((breakout) =>
        old(breakout)
          ? {
              uid: breakout.uid,
              taxable_amount: text(breakout, 'taxableAmount'),
              tax_amount: text(breakout, 'taxAmount'),
              tax_exempt_amount: text(breakout, 'taxExemptAmount'),
            }
          : breakout,
      ),
    })),
  };
}
