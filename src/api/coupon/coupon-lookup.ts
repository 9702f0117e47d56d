/**
 * Finding coupons by code: find (any coupon, archived too), validate (whether a code can be
 * newly applied today, answering 404 `{errors: "reason"}` when not), and the per-product usage report.
 * A code or any subcode of a coupon finds it.
 */

import { couponAvailability } from '../../domain/coupon/rules.js';
import type { Coupon } from '../../domain/coupon/types.js';
import type { DomainError } from '../../domain/errors.js';
import { resolveCouponCode } from '../../engine/coupon/coupon-use.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { calendarDateOf } from '../../kernel/time.js';
import { missing } from '../common.js';
import type { QueryParams } from '../query.js';
import { type Route, reply } from '../route.js';
import { oneCoupon, presentCouponUsage } from './coupon-present.js';
import { findFamily, withFamilyCoupon } from './coupons.js';

const notValid = (message: string): DomainError => ({ code: 'coupon_not_valid', status: 404, message });

/**
 * The coupon a code names, limited to a family when one is given (`familyRef` an id or `handle:`), or
 * which of the two was not found.
 */
function lookup(
  tx: Transaction,
  query: QueryParams,
  familyRef: string | undefined,
): Result<Coupon, 'family' | 'coupon'> {
  const family = familyRef === undefined || familyRef === '' ? null : findFamily(tx, familyRef);
  if (family === undefined) return err('family');
  const code = query.get('code') ?? '';
  const resolved = code.trim() === '' ? undefined : resolveCouponCode(tx, code);
  if (resolved === undefined || (family !== null && resolved.coupon.productFamilyId !== family.id))
    return err('coupon');
  return ok(resolved.coupon);
}

function validate(tx: Transaction, query: QueryParams, familyRef: string | undefined) {
  const found = lookup(tx, query, familyRef);
  if (!found.ok)
    return err(notValid(found.error === 'family' ? 'Product family not found' : 'Coupon not found'));
  switch (couponAvailability(found.value, calendarDateOf(tx.now, tx.settings.timeZone))) {
    case 'archived':
      return err(notValid('Coupon is invalid'));
    case 'expired':
      return err(notValid('Coupon expired'));
    case 'valid':
      return reply(200, oneCoupon(found.value));
  }
}

export const couponLookupRoutes = [
  {
    method: 'GET',
    path: '/coupons/find.json',
    query: ['code', 'product_family_id'],
    run: ({ tx, query }) => {
      const found = lookup(tx, query, query.get('product_family_id'));
      if (!found.ok) return err(missing(found.error === 'family' ? 'Product family' : 'Coupon'));
      return reply(200, oneCoupon(found.value));
    },
  },
  {
    method: 'GET',
    path: '/coupons/validate.json',
    query: ['code', 'product_family_id'],
    errorShape: 'message',
    run: ({ tx, query }) => validate(tx, query, query.get('product_family_id')),
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/coupons/validate.json',
    query: ['code'],
    errorShape: 'message',
    run: ({ tx, params, query }) => validate(tx, query, params['product_family_id'] ?? ''),
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/coupons/{coupon_id}/usage.json',
    run: (context) =>
      withFamilyCoupon(context, (_family, coupon) =>
        reply(200, (state) => presentCouponUsage(state, coupon)),
      ),
  },
] as const satisfies readonly Route[];
