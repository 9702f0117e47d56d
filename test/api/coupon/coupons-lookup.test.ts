import { describe, expect, it } from 'vitest';
import { applyChanges } from '../../../src/engine/changes.js';
import { recordCouponUse } from '../../../src/engine/coupon/coupon-use.js';
import { Transaction } from '../../../src/engine/transaction.js';
import { get, num, type Site, site } from '../../helpers/api.js';

const coupon = (code: string, extra: Record<string, unknown> = {}) => ({
  coupon: { name: code, code, percentage: 10, ...extra },
});

function setup(s: Site) {
  const family = s.family('plans');
  const other = s.family('other');
  const id = num(s.ok('POST', `/product_families/${family}/coupons.json`, coupon('spring')), 'coupon', 'id');
  s.ok('POST', `/coupons/${id}/codes.json`, { codes: ['spring-a'] });
  return { family, other, id };
}

describe('coupons: find', () => {
  it('finds by code or subcode in any case, in any family unless one is named; archived too', () => {
    const s = site();
    const { family, other, id } = setup(s);
    for (const query of [
      'code=spring',
      'code=SPRING',
      'code=spring-a',
      `code=Spring&product_family_id=${family}`,
    ])
      expect(num(s.ok('GET', `/coupons/find.json?${query}`), 'coupon', 'id'), query).toBe(id);
    expect(
      num(s.ok('GET', '/coupons/find.json?code=spring&product_family_id=handle:plans'), 'coupon', 'id'),
    ).toBe(id);
    s.fail('GET', `/coupons/find.json?code=spring&product_family_id=${other}`, undefined, 404);
    s.fail('GET', '/coupons/find.json?code=summer', undefined, 404);
    s.fail('GET', '/coupons/find.json', undefined, 404);
    expect(s.fail('GET', '/coupons/find.json?code=spring&product_family_id=99', undefined, 404)).toEqual({
      errors: ['Product family not found.'],
    });
    s.ok('DELETE', `/product_families/${family}/coupons/${id}.json`);
    expect(get(s.ok('GET', '/coupons/find.json?code=spring'), 'coupon', 'archived_at')).not.toBeNull();
  });
});

describe('coupons: validate', () => {
  it('answers {coupon} for a valid code or subcode, at both paths', () => {
    const s = site();
    const { family, id } = setup(s);
    for (const path of [
      '/coupons/validate.json?code=spring',
      `/coupons/validate.json?code=SPRING-A&product_family_id=${family}`,
      '/coupons/validate.json?code=spring&product_family_id=handle:plans',
      `/product_families/${family}/coupons/validate.json?code=spring`,
      '/product_families/handle:plans/coupons/validate.json?code=spring-a',
    ])
      expect(num(s.ok('GET', path), 'coupon', 'id'), path).toBe(id);
  });

  it('answers 404 {errors: "message"} when not found, in another family, archived or expired', () => {
    const s = site();
    const { family, other, id } = setup(s);
    const reason = (path: string) => s.fail('GET', path, undefined, 404);
    expect(reason('/coupons/validate.json?code=nope')).toEqual({ errors: 'Coupon not found' });
    expect(reason('/coupons/validate.json')).toEqual({ errors: 'Coupon not found' });
    expect(reason('/coupons/validate.json?code=bad%20code')).toEqual({ errors: 'Coupon not found' });
    expect(reason(`/coupons/validate.json?code=spring&product_family_id=${other}`)).toEqual({
      errors: 'Coupon not found',
    });
    expect(reason('/product_families/handle:nope/coupons/validate.json?code=spring')).toEqual({
      errors: 'Product family not found',
    });
    s.ok('DELETE', `/product_families/${family}/coupons/${id}.json`);
    expect(reason('/coupons/validate.json?code=spring')).toEqual({ errors: 'Coupon is invalid' });
    expect(reason(`/product_families/${family}/coupons/validate.json?code=spring-a`)).toEqual({
      errors: 'Coupon is invalid',
    });
  });

  it('keeps a coupon valid through its end_date in the site zone, expired from the next day', () => {
    const s = site({ timeZone: 'America/New_York' }, '2026-01-15T12:00:00Z');
    const family = s.family('plans');
    s.ok('POST', `/product_families/${family}/coupons.json`, coupon('LAST', { end_date: '2026-01-20' }));
    const path = '/coupons/validate.json?code=last';
    s.at('2026-01-21T04:59:59Z'); // 23:59:59 on the 20th in New York
    s.ok('GET', path);
    s.at('2026-01-21T05:00:00Z');
    expect(s.fail('GET', path, undefined, 404)).toEqual({ errors: 'Coupon expired' });
  });
});

describe('coupons: usage', () => {
  it("lists every product of the coupon's family with zeros before any use", () => {
    const s = site();
    const family = s.family('plans');
    const a = s.product({ name: 'A' }, family);
    const b = s.product({ name: 'B' }, family);
    s.product({}, s.family('other'));
    const id = num(s.ok('POST', `/product_families/${family}/coupons.json`, coupon('USE')), 'coupon', 'id');
    const zero = { signups: 0, savings: 0, savings_in_cents: 0, revenue: 0, revenue_in_cents: 0 };
    expect(s.ok('GET', `/product_families/${family}/coupons/${id}/usage.json`)).toEqual([
      { name: 'A', id: a, ...zero },
      { name: 'B', id: b, ...zero },
    ]);
    s.fail('GET', `/product_families/${family}/coupons/99/usage.json`, undefined, 404);
    s.fail('GET', `/product_families/99/coupons/${id}/usage.json`, undefined, 404);
  });

  it('reports the counters recordCouponUse keeps per product (signups, savings, revenue)', () => {
    const s = site();
    const family = s.family('plans');
    const a = s.product({ name: 'A' }, family);
    const b = s.product({ name: 'B' }, family);
    const id = num(s.ok('POST', `/product_families/${family}/coupons.json`, coupon('USE')), 'coupon', 'id');
    const tx = new Transaction(s.state, s.state.clock ?? '2026-01-15T12:00:00.000Z');
    recordCouponUse(tx, id, b, '10', '90');
    recordCouponUse(tx, id, b, '2.5', '22.5');
    expect(recordCouponUse(tx, 99, b, '1', '1')).toBeUndefined();
    s.state = applyChanges(s.state, tx.changes());
    expect(s.ok('GET', `/product_families/${family}/coupons/${id}/usage.json`)).toEqual([
      { name: 'A', id: a, signups: 0, savings: 0, savings_in_cents: 0, revenue: 0, revenue_in_cents: 0 },
      {
        name: 'B',
        id: b,
        signups: 2,
        savings: 12.5,
        savings_in_cents: 1250,
        revenue: 112.5,
        revenue_in_cents: 11250,
      },
    ]);
  });
});
