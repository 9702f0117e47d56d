/** The coupons that keep discounting a subscription's renewals, within their `duration_period_count`. */

import type { Coupon } from '../../domain/coupon/types.js';
import type { InvoiceDiscount } from '../../domain/invoice/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { isPositive } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';
import { type ChargeLine, catalogCouponSpec, type InvoiceCouponSpec } from '../invoice/drafts.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';
import { resolveCouponCode } from './coupon-use.js';

/**
 * The subscription's coupons that keep discounting renewals (recurring ones; every one at signup with
 * `recurringOnly` false), as invoice coupon specs for `charges`. Unknown codes are left out; an archived coupon keeps applying where it applies already.
 */
export function renewalCouponSpecs(
  tx: Transaction,
  subscription: Subscription,
  charges: readonly ChargeLine[],
  recurringOnly = true,
  periodStart: Instant = subscription.currentPeriodStartedAt,
): InvoiceCouponSpec[] {
  const specs: InvoiceCouponSpec[] = [];
  for (const code of subscription.couponCodes) {
    const resolved = resolveCouponCode(tx, code);
    if (resolved === undefined || (recurringOnly && !resolved.coupon.recurring)) continue;
    const coupon = resolved.coupon;
    if (recurringOnly && !withinDuration(tx, subscription.id, coupon, periodStart)) continue;
    specs.push(catalogCouponSpec(coupon, resolved.subcode?.code ?? null, charges));
  }
  return specs;
}

/**
 * Whether a recurring coupon still discounts the period starting at `periodStart`: a coupon limited to
 * `duration_period_count` periods discounts that many of the subscription's billing periods (the signup's
 * is the first), counted as the distinct periods its live invoices were discounted by it. The period being
 * billed does not count against itself, so an advance invoice and its renewal share one period.
 */
function withinDuration(
  tx: Transaction,
  subscriptionId: number,
  coupon: Coupon,
  periodStart: Instant,
): boolean {
  const limit = coupon.durationPeriodCount;
  if (limit === null) return true;
  const periods = new Set<Instant>();
  for (const id of listed(tx.state.listIndexes, 'subscriptionInvoices', subscriptionId)) {
    const invoice = tx.get('invoices', id);
    if (invoice === undefined || invoice.status === 'draft' || invoice.status === 'voided') continue;
    const period = invoice.periodStartedAt ?? invoice.createdAt;
    if (period === periodStart) continue;
    // A period the coupon took nothing off (a free trial) does not use it up.
    const discounted = (discount: InvoiceDiscount) =>
      discount.sourceType === 'Coupon' &&
      discount.sourceId === coupon.id &&
      isPositive(discount.discountAmount);
    if (invoice.discounts.some(discounted)) periods.add(period);
  }
  return periods.size < limit;
}
