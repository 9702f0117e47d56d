/** Coupons: codes, availability, restrictions and usage. */
export { COUPON_CODE_MAX_LENGTH, normalizeCouponCode } from './code.js';
export {
  type CouponAvailability,
  couponAppliesTo,
  couponAvailability,
  recurringScheme,
  withCouponUse,
} from './rules.js';
export type {
  CompoundingStrategy,
  Coupon,
  CouponProductUse,
  CouponRestriction,
  CouponSubcode,
  DiscountType,
  RecurringScheme,
  RestrictionType,
} from './types.js';
