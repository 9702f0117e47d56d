/** The migration preview (SPEC 4.8): the amounts of the migration it previews, and no side effects. */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorsOf, get, num, type Site, show, site } from '../../helpers/api.js';
import { paths } from '../../helpers/lifecycle.js';

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

/** A $10.00 monthly subscription from 1 January 2026 (31 days) and a $25.00 product, on 16 January. */
function previewing(): { s: Site; id: number; next: number; old: number } {
  const s = site({}, '2026-01-01T00:00:00Z');
  const old = s.product({ price_in_cents: 1000 });
  const next = s.product({ price_in_cents: 2500 });
  const { id } = s.subscribed(old);
  s.at('2026-01-16T00:00:00Z');
  return { s, id, next, old };
}

/** A preview that must answer 200 and leave the very same state; returns its `migration`. */
function preview(s: Site, id: number, migration: Record<string, unknown>): unknown {
  const before = s.state;
  const called = s.request('POST', paths(id).migrationPreview, { migration });
  expect(called.status, show(called.body)).toBe(200);
  expect(called.state).toBe(before);
  expect(called.events).toEqual([]);
  return get(called.body, 'migration');
}

describe('migration preview', () => {
  it('as of now: the prorated credit, the charge, the payment and the credit applied', () => {
    const { s, id, next } = previewing();
    expect(preview(s, id, { product_id: next })).toEqual({
      prorated_adjustment_in_cents: -516,
      charge_in_cents: 2500,
      payment_due_in_cents: 1984,
      credit_applied_in_cents: 516,
    });
    expect(preview(s, id, { product_id: next, preserve_period: true })).toEqual({
      prorated_adjustment_in_cents: -516,
      charge_in_cents: 1290,
      payment_due_in_cents: 774,
      credit_applied_in_cents: 516,
    });
  });

  it('with a proration_date inside the current period: the amounts as of that date (7 days left)', () => {
    const { s, id, next } = previewing();
    const at = { product_id: next, proration_date: '2026-01-25T00:00:00Z' };
    expect(preview(s, id, at)).toEqual({
      prorated_adjustment_in_cents: -226,
      charge_in_cents: 2500,
      payment_due_in_cents: 2274,
      credit_applied_in_cents: 226,
    });
    // 25.00 × 7/31 = 5.645 → 5.65
    expect(get(preview(s, id, { ...at, preserve_period: true }), 'charge_in_cents')).toBe(565);
    // a date already past in the period is inside it too
    expect(preview(s, id, { product_id: next, proration_date: '2026-01-01T00:00:00Z' })).toMatchObject({
      prorated_adjustment_in_cents: -1000,
    });
  });

  it.each([
    ['before the period', '2025-12-31T23:59:59Z'],
    ['at the period end', '2026-02-01T00:00:00Z'],
    ['after the period', '2026-03-01T00:00:00Z'],
    ['not a timestamp', 'next tuesday'],
  ])('with a proration_date %s: 422, the same state', (_, date) => {
    const { s, id, next } = previewing();
    const body = s.fail(
      'POST',
      paths(id).migrationPreview,
      { migration: { product_id: next, proration_date: date } },
      422,
    );
    expect(errorsOf(body)).toMatch(/Proration date/);
  });

  it('refuses what the migration refuses: the current product, a canceled subscription', () => {
    const { s, id, next, old } = previewing();
    s.fail('POST', paths(id).migrationPreview, { migration: { product_id: old } }, 422);
    s.ok('DELETE', paths(id).subscription);
    s.fail('POST', paths(id).migrationPreview, { migration: { product_id: next } }, 422);
  });
});

const caseArb = fc.record({
  oldPrice: fc.integer({ min: 0, max: 500_000 }),
  newPrice: fc.integer({ min: 0, max: 500_000 }),
  /** Where in the period the migration happens, as a share of the period in millionths. */
  share: fc.integer({ min: 1, max: 999_999 }),
  preservePeriod: fc.boolean(),
  includeInitialCharge: fc.boolean(),
  coupon: fc.constantFrom('none', 'kept', 'dropped'),
  taxRate: fc.option(fc.constantFrom('8.25', '20', '7.5'), { nil: undefined }),
  zone: fc.constantFrom('UTC', 'America/New_York', 'Pacific/Apia'),
});

describe('migration preview law', () => {
  test.prop([caseArb], { numRuns: 50 })(
    'the preview (as of a later proration_date, and at that date) answers what the migration then charges and collects',
    ({ oldPrice, newPrice, share, preservePeriod, includeInitialCharge, coupon, taxRate, zone }) => {
      const taxes = taxRate === undefined ? [] : [{ name: 'Tax', percentage: taxRate }];
      const s = site({ timeZone: zone, ...(taxes.length === 0 ? {} : { taxes }) }, '2026-01-01T00:00:00Z');
      const family = s.family();
      const old = s.product({ price_in_cents: oldPrice, taxable: true }, family);
      const next = s.product(
        { price_in_cents: newPrice, taxable: true, initial_charge_in_cents: 333 },
        family,
      );
      s.ok('POST', `/product_families/${family}/coupons.json`, {
        coupon: { name: 'Fifteen', code: 'FIFTEEN', percentage: '15', recurring: true },
      });
      const customer = s.customer();
      const profile = s.card(customer);
      const body = s.subscribe({
        product_id: old,
        customer_id: customer,
        payment_profile_id: profile,
        ...(coupon === 'none' ? {} : { coupon_code: 'FIFTEEN' }),
      });
      const id = num(body, 'subscription', 'id');
      const start = Date.parse(String(get(body, 'subscription', 'current_period_started_at')));
      const end = Date.parse(String(get(body, 'subscription', 'current_period_ends_at')));
      const at = new Date(start + Math.floor(((end - start) / 1000) * (share / 1e6)) * 1000).toISOString();
      const migration = {
        product_id: next,
        preserve_period: preservePeriod,
        include_initial_charge: includeInitialCharge,
        include_coupons: coupon !== 'dropped',
      };

      const early = preview(s, id, { ...migration, proration_date: at });
      s.at(at);
      expect(preview(s, id, migration)).toEqual(early);
      const revenue = num(s.subscription(id), 'total_revenue_in_cents');

      const migrated = s.request('POST', paths(id).migrations, { migration });
      expect(migrated.status, show(migrated.body)).toBe(200);
      const invoice = s.invoices(id).at(-1);
      expect(get(invoice, 'role')).toBe('migration');
      expect(get(early, 'charge_in_cents')).toBe(cents(get(invoice, 'total_amount')));
      expect(get(early, 'payment_due_in_cents')).toBe(cents(get(invoice, 'paid_amount')));
      expect(get(early, 'credit_applied_in_cents')).toBe(cents(get(invoice, 'credit_amount')));
      expect(num(get(migrated.body, 'subscription'), 'total_revenue_in_cents') - revenue).toBe(
        get(early, 'payment_due_in_cents'),
      );
      expect(get(invoice, 'due_amount')).toBe('0.00');
    },
  );
});
