/** A coupon code given at signup: it discounts the signup invoice, counts in usage, and recurs as it says. */
import { describe, expect, it } from 'vitest';
import { arr, get, num, Site, str } from '../../helpers/api.js';

function setup(coupon: Record<string, unknown>) {
  const site = new Site({ timeZone: 'UTC' });
  const family = site.family('plans');
  const product = site.product({ price_in_cents: 2000 }, family);
  site.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Launch', code: 'launch', ...coupon },
  });
  const customer = site.customer();
  const profile = site.card(customer);
  return { site, family, product, customer, profile };
}

const totals = (invoices: unknown[]) =>
  invoices.map((invoice) => [
    str(invoice, 'role'),
    str(invoice, 'discount_amount'),
    str(invoice, 'total_amount'),
  ]);

describe('coupon_code at signup', () => {
  it('a recurring percentage coupon discounts the signup and every renewal, and counts in usage', () => {
    const { site, family, product, customer, profile } = setup({ percentage: 25, recurring: true });
    const body = site.subscribe({
      product_id: product,
      customer_id: customer,
      payment_profile_id: profile,
      coupon_code: 'Launch',
    });
    const id = num(body, 'subscription', 'id');
    expect(get(body, 'subscription', 'coupon_code')).toBe('LAUNCH');
    site.advance('2026-03-20T12:00:00Z');
    expect(totals(site.invoices(id))).toEqual([
      ['signup', '5.00', '15.00'],
      ['renewal', '5.00', '15.00'],
      ['renewal', '5.00', '15.00'],
    ]);
    const usage = arr(site.ok('GET', `/product_families/${family}/coupons/1/usage.json`));
    expect(usage).toContainEqual(
      expect.objectContaining({ id: product, signups: 1, savings_in_cents: 500, revenue_in_cents: 1500 }),
    );
  });

  it('a coupon that does not recur discounts the signup only', () => {
    const { site, product, customer, profile } = setup({ amount_in_cents: 300 });
    const id = num(
      site.subscribe({
        product_id: product,
        customer_id: customer,
        payment_profile_id: profile,
        coupon_code: 'LAUNCH',
      }),
      'subscription',
      'id',
    );
    site.advance('2026-02-20T12:00:00Z');
    expect(totals(site.invoices(id))).toEqual([
      ['signup', '3.00', '17.00'],
      ['renewal', '0.00', '20.00'],
    ]);
  });

  it('an unknown, archived or expired code refuses the signup and changes nothing', () => {
    const { site, family, product, customer, profile } = setup({ percentage: 10, end_date: '2026-01-10' });
    const fields = { product_id: product, customer_id: customer, payment_profile_id: profile };
    expect(
      JSON.stringify(
        site.fail('POST', '/subscriptions.json', { subscription: { ...fields, coupon_code: 'NOPE' } }, 422),
      ),
    ).toContain('Coupon code');
    expect(
      JSON.stringify(
        site.fail('POST', '/subscriptions.json', { subscription: { ...fields, coupon_code: 'LAUNCH' } }, 422),
      ),
    ).toContain('Coupon code');
    site.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Old', code: 'old', percentage: 5 },
    });
    site.ok('DELETE', `/product_families/${family}/coupons/2.json`);
    site.fail('POST', '/subscriptions.json', { subscription: { ...fields, coupon_code: 'OLD' } }, 422);
  });
});
