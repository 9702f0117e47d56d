/**
 * Coupons: a discount defined in a product family, by percentage or by amount, optionally
 * restricted to some products and components, reachable by its code and by any of its subcodes.
 */
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';

/** How a percentage coupon stacks on earlier discounts: on what they left, or on the full price. */
export type CompoundingStrategy = 'compound' | 'full-price';

/** The coupon resource's kind of discount (not the invoice discount's `discount_type`). */
export type DiscountType = 'amount' | 'percent';

/** Whether and how long a coupon keeps discounting renewals. */
export type RecurringScheme = 'do_not_recur' | 'recur_indefinitely' | 'recur_with_duration';

/** What a restriction names. */
export type RestrictionType = 'Component' | 'Product';

/** A product or component the coupon applies to. A coupon without restrictions applies to everything. */
export interface CouponRestriction {
  readonly id: number;
  readonly itemType: RestrictionType;
  readonly itemId: number;
}

/** Usage counters of a coupon for one product (the usage report). */
export interface CouponProductUse {
  readonly productId: number;
  readonly signups: number;
  /** What the coupon took off, in the site currency. */
  readonly savings: Dec;
  /** What was charged with the coupon applied, in the site currency. */
  readonly revenue: Dec;
}

export interface Coupon {
  readonly id: number;
  readonly productFamilyId: number;
  readonly name: string;
  /** Normalized (see `normalizeCouponCode`); unique in the site among codes and subcodes. */
  readonly code: string;
  readonly description: string | null;
  readonly discountType: DiscountType;
  /** Percent coupons: 0 to 100 with up to 4 decimals; null for amount coupons. */
  readonly percentage: Dec | null;
  /** Amount coupons: the amount in the site currency; null for percent coupons. */
  readonly amount: Dec | null;
  readonly recurring: boolean;
  /** Recurring coupons: the number of periods it discounts; null for no limit. */
  readonly durationPeriodCount: number | null;
  /** The last day (site zone) on which the coupon can be newly applied; null for no end. */
  readonly endDate: CalendarDate | null;
  readonly allowNegativeBalance: boolean;
  readonly stackable: boolean;
  readonly compoundingStrategy: CompoundingStrategy;
  readonly excludeMidPeriodAllocations: boolean;
  readonly applyOnCancelAtEndOfPeriod: boolean;
  readonly applyOnSubscriptionExpiration: boolean;
  readonly restrictions: readonly CouponRestriction[];
  /** Per-product usage, in the order products first used the coupon. */
  readonly uses: readonly CouponProductUse[];
  /** Archived coupons keep their code but cannot be newly applied. */
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** An extra code that redeems a coupon (`/coupons/{id}/codes.json`). */
export interface CouponSubcode {
  readonly id: number;
  readonly couponId: number;
  /** Normalized, like coupon codes, and unique in the same namespace. */
  readonly code: string;
  readonly createdAt: Instant;
}
