/**
 * Adding coupons to a live subscription and removing them. An added coupon discounts the renewals from
 * the next one on, so only recurring coupons can be added: a one-time coupon would have no invoice left
 * to discount. Stacking follows the coupons' `stackable` flags.
 */

import { type DomainError, invalid } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { findCouponByCode, invalidCouponCode } from '../coupon/coupon-use.js';
import type { Transaction } from '../transaction.js';

const LIVE = new Set(['active', 'trialing', 'past_due', 'unpaid', 'soft_failure', 'on_hold']);

/**
 * The subscription with `codes` added (or, with `replace`, in place of its codes): each must be valid
 * for its product family today and recurring, and together they must stack.
 */
export function addCoupons(
  tx: Transaction,
  subscription: Subscription,
  codes: readonly string[],
  replace: boolean,
): Result<Subscription, DomainError> {
  if (!LIVE.has(subscription.state))
    return err(
      invalid('invalid_coupon', `A ${subscription.state} subscription cannot take coupons.`, 'subscription'),
    );
  if (codes.length === 0)
    return err(invalid('invalid_coupon', 'Codes: give at least one coupon code.', 'codes'));
  const familyId = tx.get('products', subscription.productId)?.productFamilyId ?? -1;
  const kept = replace ? [] : subscription.couponCodes;
  const added: string[] = [];
  for (const code of codes) {
    const problem = invalidCouponCode(tx, code, familyId);
    if (problem !== undefined)
      return err({ ...problem, message: `${code}: ${problem.message}`, field: 'codes' });
    if (kept.includes(code) || added.includes(code))
      return err(invalid('invalid_coupon', `${code}: is already applied to the subscription.`, 'codes'));
    if (findCouponByCode(tx, code)?.recurring !== true)
      return err(
        invalid(
          'invalid_coupon',
          `${code}: only recurring coupons can be added to a subscription after signup.`,
          'codes',
        ),
      );
    added.push(code);
  }
  const all = [...kept, ...added];
  if (all.length > 1 && all.some((code) => findCouponByCode(tx, code)?.stackable !== true))
    return err(invalid('invalid_coupon', 'Codes: only stackable coupons can be combined.', 'codes'));
  return ok(tx.put('subscriptions', { ...subscription, couponCodes: all, updatedAt: tx.now }));
}

/** The subscription without coupon `code` (its only coupon when `code` is null). */
export function removeCoupon(
  tx: Transaction,
  subscription: Subscription,
  code: string | null,
): Result<Subscription, DomainError> {
  const target = code ?? (subscription.couponCodes.length === 1 ? subscription.couponCodes[0] : undefined);
  if (target === undefined || !subscription.couponCodes.includes(target))
    return err(
      invalid(
        'invalid_coupon',
        code === null
          ? 'Coupon code: name the coupon to remove.'
          : `Coupon code ${code} is not applied to this subscription.`,
        'subscription',
      ),
    );
  return ok(
    tx.put('subscriptions', {
      ...subscription,
      couponCodes: subscription.couponCodes.filter((held) => held !== target),
      updatedAt: tx.now,
    }),
  );
}
