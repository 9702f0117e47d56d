/**
 * The signup preview runs the signup on a scratch transaction: it answers the first invoice and the next
 * renewal as billing manifests, keeps nothing (the state object is the very same), asks no gateway, and
 * refuses what the signup refuses.
 */
import { describe, expect, it } from 'vitest';
import { arr, get, num, site } from '../../helpers/api.js';

const START = '2026-01-10T12:00:00Z';

describe('POST /subscriptions/preview.json', () => {
  it('previews the signup invoice and the next renewal, and keeps nothing', () => {
    const s = site({}, START);
    const family = s.family();
    const product = s.product({ price_in_cents: 4900, initial_charge_in_cents: 1000 }, family);
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Ten', code: 'TEN', percentage: '10', recurring: true },
    });
    const before = s.state;
    const called = s.request('POST', '/subscriptions/preview.json', {
      subscription: { product_id: product, coupon_code: 'TEN' },
    });
    expect(called.status).toBe(200);
    expect(called.state).toBe(before);
    expect(called.events).toEqual([]);
    const current = get(called.body, 'subscription_preview', 'current_billing_manifest');
    expect(num(current, 'subtotal_in_cents')).toBe(5900);
    expect(num(current, 'total_discount_in_cents')).toBe(590);
    expect(num(current, 'total_in_cents')).toBe(5310);
    expect(arr(current, 'line_items').map((line) => get(line, 'kind'))).toEqual(['baseline', 'initial']);
    expect(get(current, 'start_date')).toBe('2026-01-10');
    const next = get(called.body, 'subscription_preview', 'next_billing_manifest');
    expect(num(next, 'total_in_cents')).toBe(4410);
    expect(get(next, 'start_date')).toBe('2026-02-10');
  });

  it('refuses what the signup refuses, and a card the gateway would decline is not charged', () => {
    const s = site({}, START);
    const product = s.product();
    s.fail('POST', '/subscriptions/preview.json', { subscription: { product_id: 999 } }, 422);
    s.fail(
      'POST',
      '/subscriptions/preview.json',
      { subscription: { product_id: product, coupon_code: 'NOPE' } },
      422,
    );
    const customer = s.customer();
    const declining = s.card(customer, 2);
    const before = s.state;
    const called = s.request('POST', '/subscriptions/preview.json', {
      subscription: { product_id: product, customer_id: customer, payment_profile_id: declining },
    });
    expect(called.status).toBe(200);
    expect(called.state).toBe(before);
  });
});
