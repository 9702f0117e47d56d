import { describe, expect, it } from 'vitest';
import {
  couponAppliesTo,
  couponAvailability,
  recurringScheme,
  withCouponUse,
} from '../../../src/domain/coupon/rules.js';
import type { Coupon } from '../../../src/domain/coupon/types.js';
import { findCouponByCode, resolveCouponCode } from '../../../src/engine/coupon/coupon-use.js';
import { Transaction } from '../../../src/engine/transaction.js';
import { num, site } from '../../helpers/api.js';

function twoFamilies() {
  const s = site();
  const plans = s.family('plans');
  const other = s.family('other');
  const spring = num(
    s.ok('POST', `/product_families/${plans}/coupons.json`, {
      coupon: { name: 'S', code: 'SPRING', percentage: 20 },
    }),
    'coupon',
    'id',
  );
  const old = num(
    s.ok('POST', `/product_families/${other}/coupons.json`, {
      coupon: { name: 'O', code: 'OLD', amount_in_cents: 100 },
    }),
    'coupon',
    'id',
  );
  s.ok('POST', `/coupons/${spring}/codes.json`, { codes: ['SPRING-VIP'] });
  s.ok('POST', `/coupons/${old}/codes.json`, { codes: ['OLD-VIP'] });
  s.ok('DELETE', `/product_families/${other}/coupons/${old}.json`);
  return { s, plans, other, spring, old };
}

describe('findCouponByCode', () => {
  it('resolves codes and subcodes in any case, from a state or a transaction', () => {
    const { s, plans, spring } = twoFamilies();
    const tx = new Transaction(s.state, '2026-01-15T12:00:00.000Z');
    for (const source of [s.state, tx]) {
      expect(findCouponByCode(source, 'spring')?.id).toBe(spring);
      expect(findCouponByCode(source, ' spring-vip ')?.id).toBe(spring);
      expect(findCouponByCode(source, 'SPRING', plans)?.percentage).toBe('20');
      expect(findCouponByCode(source, 'nope')).toBeUndefined();
      expect(findCouponByCode(source, 'not a code')).toBeUndefined();
    }
  });

  it('leaves out archived coupons and coupons of another family; resolveCouponCode keeps archived ones', () => {
    const { s, plans, other, old } = twoFamilies();
    expect(findCouponByCode(s.state, 'OLD')).toBeUndefined();
    expect(findCouponByCode(s.state, 'OLD-VIP')).toBeUndefined();
    expect(findCouponByCode(s.state, 'SPRING', other)).toBeUndefined();
    expect(findCouponByCode(s.state, 'SPRING', plans)).toBeDefined();
    const resolved = resolveCouponCode(s.state, 'old-vip');
    expect(resolved?.coupon.id).toBe(old);
    expect(resolved?.subcode?.code).toBe('OLD-VIP');
    expect(resolveCouponCode(s.state, 'OLD')?.subcode).toBeNull();
  });

  it('sees a coupon archived or a subcode removed earlier in the same transaction', () => {
    const { s, spring } = twoFamilies();
    const tx = new Transaction(s.state, '2026-01-15T12:00:00.000Z');
    const coupon = tx.get('coupons', spring);
    if (coupon === undefined) throw new Error('no coupon');
    tx.remove('couponSubcodes', 1);
    expect(findCouponByCode(tx, 'SPRING-VIP')).toBeUndefined();
    tx.put('coupons', { ...coupon, archivedAt: tx.now });
    expect(findCouponByCode(tx, 'SPRING')).toBeUndefined();
    expect(findCouponByCode(s.state, 'SPRING')?.id).toBe(spring);
  });
});

describe('coupon rules', () => {
  const { s, spring } = twoFamilies();
  const coupon = s.state.tables.coupons.rows.chunks[0]?.[spring - 1] as Coupon;

  it('couponAvailability: valid, archived, expired after the end date', () => {
    expect(couponAvailability(coupon, '2026-01-15')).toBe('valid');
    expect(couponAvailability({ ...coupon, endDate: '2026-01-15' }, '2026-01-15')).toBe('valid');
    expect(couponAvailability({ ...coupon, endDate: '2026-01-14' }, '2026-01-15')).toBe('expired');
    expect(couponAvailability({ ...coupon, archivedAt: '2026-01-01T00:00:00.000Z' }, '2026-01-15')).toBe(
      'archived',
    );
  });

  it('recurringScheme and couponAppliesTo', () => {
    expect(recurringScheme({ recurring: false, durationPeriodCount: null })).toBe('do_not_recur');
    expect(recurringScheme({ recurring: true, durationPeriodCount: null })).toBe('recur_indefinitely');
    expect(recurringScheme({ recurring: true, durationPeriodCount: 2 })).toBe('recur_with_duration');
    expect(couponAppliesTo(coupon, 'Product', 7)).toBe(true);
    const restricted: Coupon = { ...coupon, restrictions: [{ id: 1, itemType: 'Component', itemId: 7 }] };
    expect(couponAppliesTo(restricted, 'Component', 7)).toBe(true);
    expect(couponAppliesTo(restricted, 'Product', 7)).toBe(false);
  });

  it('withCouponUse adds to one product and leaves the coupon it was given unchanged', () => {
    const once = withCouponUse(coupon, 3, '1.50', '8.5');
    const twice = withCouponUse(withCouponUse(once, 3, '0.5', '1.5'), 4, '1', '2', 0);
    expect(coupon.uses).toEqual([]);
    expect(twice.uses).toEqual([
      { productId: 3, signups: 2, savings: '2', revenue: '10' },
      { productId: 4, signups: 0, savings: '1', revenue: '2' },
    ]);
  });
});
