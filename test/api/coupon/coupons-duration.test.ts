/**
 * Coupons that end and coupons of another family (issue 20). `duration_period_count`: a recurring coupon
 * limited to n periods discounts n of the subscription's billing periods, the signup's first; renewals,
 * advance invoices, the renewal preview and proforma invoices agree. A coupon is created under a product
 * family (find and validate take `product_family_id`) and discounts only that family's products.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/testing/index.js';
import { errorsOf, get, num, type Site, site, str } from '../../helpers/api.js';

/** A $20.00 monthly product, and a 50% coupon limited to two periods, in family `plans`. */
function limited(durationPeriodCount: number | null = 2) {
  const s = site({}, '2026-01-01T00:00:00Z');
  const family = s.family();
  const product = s.product({ price_in_cents: 2000 }, family);
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: {
      name: 'Half for two',
      code: 'HALF2',
      percentage: '50',
      recurring: true,
      ...(durationPeriodCount === null ? {} : { duration_period_count: durationPeriodCount }),
    },
  });
  const customer = s.customer();
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    payment_profile_id: s.card(customer),
    coupon_code: 'HALF2',
  });
  return { s, family, product, id: num(body, 'subscription', 'id') };
}

const discounts = (s: Site, id: number) => s.invoices(id).map((invoice) => str(invoice, 'discount_amount'));
const previewDiscount = (s: Site, id: number) =>
  num(
    s.ok('POST', `/subscriptions/${id}/renewals/preview.json`, {}, 200),
    'renewal_preview',
    'total_discount_in_cents',
  );

describe('duration_period_count', () => {
  it('a 50% coupon limited to 2 periods discounts the signup and one renewal, then stops', () => {
    const { s, id } = limited(2);
    expect(previewDiscount(s, id)).toBe(1000);
    s.advance('2026-02-01T00:00:00Z');
    expect(previewDiscount(s, id)).toBe(0);
    s.advance('2026-03-01T00:00:00Z');
    s.advance('2026-04-01T00:00:00Z');
    expect(discounts(s, id)).toEqual(['10.00', '10.00', '0.00', '0.00']);
    expect(num(s.subscription(id), 'total_revenue_in_cents')).toBe(1000 + 1000 + 2000 + 2000);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('without a limit a recurring coupon discounts every renewal', () => {
    const { s, id } = limited(null);
    s.advance('2026-04-01T00:00:00Z');
    expect(discounts(s, id)).toEqual(['10.00', '10.00', '10.00', '10.00']);
  });

  it('an advance invoice and its renewal bill one period: the coupon counts it once', () => {
    const { s, id } = limited(2);
    s.at('2026-01-20T00:00:00Z');
    const advance = s.ok('POST', `/subscriptions/${id}/advance_invoice/issue.json`, {}, 201);
    expect(str(advance, 'discount_amount')).toBe('10.00');
    s.advance('2026-02-01T00:00:00Z');
    s.advance('2026-03-01T00:00:00Z');
    const live = s.invoices(id).filter((invoice) => get(invoice, 'status') !== 'voided');
    // Signup, the advance invoice of February (its renewal has nothing left to bill), March at full price.
    expect(live.map((invoice) => str(invoice, 'discount_amount'))).toEqual(['10.00', '10.00', '0.00']);
  });
});

describe('a coupon of another product family', () => {
  function twoFamilies() {
    const s = site();
    const plans = s.family('plans');
    const addons = s.family('addons');
    const product = s.product({ price_in_cents: 2000 }, plans);
    s.ok('POST', `/product_families/${addons}/coupons.json`, {
      coupon: { name: 'Addons only', code: 'ADDON10', percentage: '10', recurring: true },
    });
    return { s, product, customer: s.customer() };
  }

  it('is refused at signup with a 422 naming the code, and nothing is written', () => {
    const { s, product, customer } = twoFamilies();
    const before = s.state;
    const refused = s.fail(
      'POST',
      '/subscriptions.json',
      {
        subscription: {
          product_id: product,
          customer_id: customer,
          payment_profile_id: s.card(customer),
          coupon_code: 'addon10',
        },
      },
      422,
    );
    expect(errorsOf(refused)).toContain("Coupon code 'ADDON10' belongs to another product family");
    expect(s.state.tables.subscriptions).toBe(before.tables.subscriptions);
  });

  it('is refused at reactivation with coupon_code', () => {
    const { s, product, customer } = twoFamilies();
    const id = num(
      s.subscribe({ product_id: product, customer_id: customer, payment_profile_id: s.card(customer) }),
      'subscription',
      'id',
    );
    s.ok('DELETE', `/subscriptions/${id}.json`, undefined, 200);
    const refused = s.fail('PUT', `/subscriptions/${id}/reactivate.json`, { coupon_code: 'ADDON10' }, 422);
    expect(errorsOf(refused)).toContain("Coupon code 'ADDON10' belongs to another product family");
    expect(get(s.subscription(id), 'state')).toBe('canceled');
  });

  it('is left behind when a migration moves to another family (api-notes 7.1 item 7)', () => {
    const s = site();
    const plans = s.family('plans');
    const other = s.family('other');
    const a = s.product({ price_in_cents: 2000 }, plans);
    const b = s.product({ price_in_cents: 2000 }, other);
    s.ok('POST', `/product_families/${plans}/coupons.json`, {
      coupon: { name: 'Ten', code: 'TEN', percentage: '10', recurring: true },
    });
    const customer = s.customer();
    const id = num(
      s.subscribe({
        product_id: a,
        customer_id: customer,
        payment_profile_id: s.card(customer),
        coupon_code: 'TEN',
      }),
      'subscription',
      'id',
    );
    s.ok('POST', `/subscriptions/${id}/migrations.json`, { migration: { product_id: b } }, 200);
    expect(get(s.subscription(id), 'coupon_codes')).toEqual([]);
    expect(str(s.invoices(id).at(-1), 'discount_amount')).toBe('0.00');
  });
});
