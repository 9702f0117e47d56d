/**
 * A migration credits only what was paid (issue 20, the books): the unused share, at the migration, of
 * what the current period's invoices charged and collected for the old product, net of discounts. A free
 * or unpaid period earns nothing, and what one migration credited is never credited again.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/testing/index.js';
import { num, type Site, site } from '../../helpers/api.js';
import { paths } from '../../helpers/lifecycle.js';

/** Two $10.00 monthly products from 1 January 2026 (a 31-day period); a 100% and a 50% recurring coupon. */
function catalog() {
  const s = site({}, '2026-01-01T00:00:00Z');
  const family = s.family();
  const a = s.product({ price_in_cents: 1000, handle: 'a' }, family);
  const b = s.product({ price_in_cents: 1000, handle: 'b' }, family);
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Free', code: 'FREE', percentage: '100', recurring: true },
  });
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Half', code: 'HALF', percentage: '50', recurring: true },
  });
  return { s, a, b };
}

const migrate = (s: Site, id: number, productId: number, extra: Record<string, unknown> = {}) =>
  s.ok('POST', paths(id).migrations, { migration: { product_id: productId, ...extra } }, 200);
/** A card subscription to a product, with extra signup fields (a coupon code); returns its id. */
const subscribe = (s: Site, productId: number, extra: Record<string, unknown> = {}) => {
  const customer = s.customer();
  const body = s.subscribe({
    product_id: productId,
    customer_id: customer,
    payment_profile_id: s.card(customer),
    ...extra,
  });
  return num(body, 'subscription', 'id');
};
const creditOf = (s: Site, id: number) => num(s.subscription(id), 'credit_balance_in_cents');
const revenueOf = (s: Site, id: number) => num(s.subscription(id), 'total_revenue_in_cents');

describe('a migration credits only what was paid', () => {
  it('alternating migrations under a 100% coupon build no credit (the old rule built 5.16 each time)', () => {
    const { s, a, b } = catalog();
    const id = subscribe(s, a, { coupon_code: 'FREE' });
    s.at('2026-01-16T00:00:00Z');
    for (let round = 0; round < 6; round += 1) migrate(s, id, round % 2 === 0 ? b : a);
    expect(creditOf(s, id)).toBe(0);
    expect(revenueOf(s, id)).toBe(0);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('an unpaid remittance signup earns no credit', () => {
    const { s, a, b } = catalog();
    const customer = s.customer();
    const id = num(
      s.subscribe({ product_id: a, customer_id: customer, payment_collection_method: 'remittance' }),
      'subscription',
      'id',
    );
    s.at('2026-01-16T00:00:00Z');
    migrate(s, id, b);
    expect(creditOf(s, id)).toBe(0);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('a paid period with a 50% coupon credits the unused share of the 5.00 paid: 5.00 × 16/31 = 2.58', () => {
    const { s, a, b } = catalog();
    const id = subscribe(s, a, { coupon_code: 'HALF' });
    s.at('2026-01-16T00:00:00Z');
    const preview = s.ok('POST', paths(id).migrationPreview, { migration: { product_id: b } }, 200);
    expect(preview).toMatchObject({ migration: { prorated_adjustment_in_cents: -258 } });
    const migrated = s.request('POST', paths(id).migrations, { migration: { product_id: b } });
    expect(migrated.status).toBe(200);
    // The credit paid the new product's first (half-price) period first: 5.00 − 2.58 = 2.42 collected.
    expect(revenueOf(s, id)).toBe(500 + 242);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('keeping the period, a migration back does not credit the first product twice', () => {
    const { s, a, b } = catalog();
    const id = subscribe(s, a);
    s.at('2026-01-16T00:00:00Z');
    migrate(s, id, b, { preserve_period: true });
    // 10.00 × 16/31 = 5.16 credited for A, which pays B's 5.16 for the rest of the period.
    expect(creditOf(s, id)).toBe(0);
    migrate(s, id, a, { preserve_period: true });
    // B's 5.16 (paid by credit) is credited back at the same instant; A's period charge is not again.
    expect(creditOf(s, id)).toBe(0);
    expect(revenueOf(s, id)).toBe(1000);
    expect(checkLedger(s.state)).toEqual([]);
  });
});
