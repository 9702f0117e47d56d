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
  /** The restriction's id. */
  readonly id: number;
  /** Whether it names a product or a component. */
  readonly itemType: RestrictionType;
  /** The product's or component's id. */
  readonly itemId: number;
}

/** Usage counters of a coupon for one product (the usage report). */
export interface CouponProductUse {
  /** The product. */
  readonly productId: number;
  /** How many signups to it used the coupon. */
  readonly signups: number;
  /** What the coupon took off, in the site currency. */
  readonly savings: Dec;
  /** What was charged with the coupon applied, in the site currency. */
  readonly revenue: Dec;
}

/** A coupon: a discount in a product family, by percentage or amount, found by its code or a subcode. */
export interface Coupon {
  /** The coupon's id. */
  readonly id: number;
  /** The family it belongs to; a code of another family is refused. */
  readonly productFamilyId: number;
  /** Its name. */
  readonly name: string;
  /** Normalized (see `normalizeCouponCode`); unique in the site among codes and subcodes. */
  readonly code: string;
  /** Its description, or null. */
  readonly description: string | null;
  /** A percentage or an amount. */
  readonly discountType: DiscountType;
  /** Percent coupons: 0 to 100 with up to 4 decimals; null for amount coupons. */
  readonly percentage: Dec | null;
  /** Amount coupons: the amount in the site currency; null for percent coupons. */
  readonly amount: Dec | null;
  /** Whether it also discounts renewals, advance and proforma invoices. */
  readonly recurring: boolean;
  /** Recurring coupons: the number of periods it discounts; null for no limit. */
  readonly durationPeriodCount: number | null;
  /** The last day (site zone) on which the coupon can be newly applied; null for no end. */
  readonly endDate: CalendarDate | null;
  /** The official coupon flag of that name, kept and shown; no engine rule reads it. */
  readonly allowNegativeBalance: boolean;
  /** The official coupon flag of that name, kept and shown; no engine rule reads it. */
  readonly stackable: boolean;
  /**
   * How a percentage coupon stacks on earlier discounts: on what they left (`compound`) or on the full price.
   */
  readonly compoundingStrategy: CompoundingStrategy;
  /** The official coupon flag of that name, kept and shown; no engine rule reads it. */
  readonly excludeMidPeriodAllocations: boolean;
  /** The official coupon flag of that name, kept and shown; no engine rule reads it. */
  readonly applyOnCancelAtEndOfPeriod: boolean;
  /** The official coupon flag of that name, kept and shown; no engine rule reads it. */
  readonly applyOnSubscriptionExpiration: boolean;
  /** The products and components it is limited to; none: everything. */
  readonly restrictions: readonly CouponRestriction[];
  /** Per-product usage, in the order products first used the coupon. */
  readonly uses: readonly CouponProductUse[];
  /** Archived coupons keep their code but cannot be newly applied. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** An extra code that redeems a coupon (`/coupons/{id}/codes.json`). */
export interface CouponSubcode {
  /** The subcode's id. */
  readonly id: number;
  /** The coupon it redeems. */
  readonly couponId: number;
  /** Normalized, like coupon codes, and unique in the same namespace. */
  readonly code: string;
  /** When it was added. */
  readonly createdAt: Instant;
}
