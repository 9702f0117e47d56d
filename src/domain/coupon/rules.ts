/** Pure coupon rules: availability, the recurring scheme, restrictions and usage counters. */
import { add } from '../../kernel/money.js';
import type { CalendarDate } from '../../kernel/time.js';
import type { Coupon, RecurringScheme, RestrictionType } from './types.js';

/** Whether a coupon can be newly applied: `valid`, or why not. */
export type CouponAvailability = 'valid' | 'archived' | 'expired';

/**
 * Whether a coupon can be newly applied on `today` (a site-zone date). An archived coupon stays active
 * where it already applies; an expired one can be added up to the end of its `endDate`.
 * @example couponAvailability({ ...coupon, endDate: '2026-01-14' }, '2026-01-15') // 'expired'
 */
export function couponAvailability(coupon: Coupon, today: CalendarDate): CouponAvailability {
  if (coupon.archivedAt !== null) return 'archived';
  if (coupon.endDate !== null && coupon.endDate < today) return 'expired';
  return 'valid';
}

/**
 * The recurring scheme a coupon reports.
 * @example recurringScheme({ ...coupon, recurring: true, durationPeriodCount: 3 }) // 'recur_with_duration'
 */
export function recurringScheme(coupon: Pick<Coupon, 'recurring' | 'durationPeriodCount'>): RecurringScheme {
  if (!coupon.recurring) return 'do_not_recur';
  return coupon.durationPeriodCount === null ? 'recur_indefinitely' : 'recur_with_duration';
}

/**
 * Whether a coupon discounts an item: every item when it has no restrictions, else only those it names.
 * @example couponAppliesTo(coupon, 'Product', 3) // true when unrestricted
 */
export function couponAppliesTo(coupon: Coupon, itemType: RestrictionType, itemId: number): boolean {
  if (coupon.restrictions.length === 0) return true;
  return coupon.restrictions.some(
    (restriction) => restriction.itemType === itemType && restriction.itemId === itemId,
  );
}

/**
 * The coupon with a use added to a product's counters (savings and revenue in the site currency).
 * @example withCouponUse(coupon, 2, '5', '45').uses // [{ productId: 2, signups: 1, savings: '5', revenue: '45' }]
 */
export function withCouponUse(
  coupon: Coupon,
  productId: number,
  savings: string,
  revenue: string,
  signups = 1,
): Coupon {
  const existing = coupon.uses.find((use) => use.productId === productId);
  const uses =
    existing === undefined
      ? [...coupon.uses, { productId, signups, savings: add('0', savings), revenue: add('0', revenue) }]
      : coupon.uses.map((use) =>
          use.productId === productId
            ? {
                productId,
                signups: use.signups + signups,
                savings: add(use.savings, savings),
                revenue: add(use.revenue, revenue),
              }
            : use,
        );
  return { ...coupon, uses };
}
