/** How coupons, their restrictions and their usage look on the wire. */

import { recurringScheme } from '../../domain/coupon/rules.js';
import type { Coupon, CouponRestriction } from '../../domain/coupon/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet, tableRows } from '../../kernel/collection.js';
import { roundMoney } from '../../kernel/money.js';
import { cents, stamp } from '../common.js';

function presentRestriction(state: SiteState, restriction: CouponRestriction) {
  const item =
    restriction.itemType === 'Product'
      ? tableGet(state.tables.products, restriction.itemId)
      : tableGet(state.tables.components, restriction.itemId);
  return {
    id: restriction.id,
    item_type: restriction.itemType,
    item_id: restriction.itemId,
    name: item?.name ?? '',
    handle: item?.handle ?? null,
  };
}

/** A money amount as a JSON number in currency units (the coupon resource's `amount`, `savings`). */
const units = (state: SiteState, amount: string): number =>
  Number(roundMoney(amount, state.settings.currency));

/** The `coupon` object of a response. */
export function presentCoupon(state: SiteState, coupon: Coupon) {
  const family = tableGet(state.tables.productFamilies, coupon.productFamilyId);
  return {
    id: coupon.id,
    name: coupon.name,
    code: coupon.code,
    description: coupon.description,
    amount: coupon.amount === null ? null : units(state, coupon.amount),
    amount_in_cents: cents(state, coupon.amount),
    product_family_id: coupon.productFamilyId,
    product_family_name: family?.name ?? null,
    start_date: stamp(state, coupon.createdAt),
    end_date: coupon.endDate,
    percentage: coupon.percentage,
    recurring: coupon.recurring,
    recurring_scheme: recurringScheme(coupon),
    duration_period_count: coupon.durationPeriodCount,
    duration_interval: null,
    duration_interval_unit: null,
    duration_interval_span: null,
    allow_negative_balance: coupon.allowNegativeBalance,
    archived_at: stamp(state, coupon.archivedAt),
    conversion_limit: null,
    stackable: coupon.stackable,
    compounding_strategy: coupon.compoundingStrategy,
    use_site_exchange_rate: true,
    created_at: stamp(state, coupon.createdAt),
    updated_at: stamp(state, coupon.updatedAt),
    discount_type: coupon.discountType,
    exclude_mid_period_allocations: coupon.excludeMidPeriodAllocations,
    apply_on_cancel_at_end_of_period: coupon.applyOnCancelAtEndOfPeriod,
    apply_on_subscription_expiration: coupon.applyOnSubscriptionExpiration,
    coupon_restrictions: coupon.restrictions.map((restriction) => presentRestriction(state, restriction)),
    currency_prices: [],
  };
}

/** A `{coupon}` body of the coupon as the state after the request holds it. */
export const oneCoupon = (coupon: Coupon) => (state: SiteState) => ({
  coupon: presentCoupon(state, tableGet(state.tables.coupons, coupon.id) ?? coupon),
});

/**
 * The usage report: one entry per product of the coupon's family (zeros when unused), in id order, plus
 * any product outside the family that recorded a use.
 */
export function presentCouponUsage(state: SiteState, coupon: Coupon) {
  const uses = new Map(coupon.uses.map((use) => [use.productId, use]));
  const entries = [];
  for (const product of tableRows(state.tables.products)) {
    const use = uses.get(product.id);
    if (product.productFamilyId !== coupon.productFamilyId && use === undefined) continue;
    const savings = use?.savings ?? '0';
    const revenue = use?.revenue ?? '0';
    entries.push({
      name: product.name,
      id: product.id,
      signups: use?.signups ?? 0,
      savings: units(state, savings),
      savings_in_cents: cents(state, savings) ?? 0,
      revenue: units(state, revenue),
      revenue_in_cents: cents(state, revenue) ?? 0,
    });
  }
  return entries;
}
