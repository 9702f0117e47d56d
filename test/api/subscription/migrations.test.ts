/** Product migration through `handle()` (SPEC 2.12, 4.8; api-notes 7.1 item 7). */
import { describe, expect, it } from 'vitest';
import { errorsOf, get, num, type Site, show, site } from '../../helpers/api.js';
import { field, paths, TRIAL } from '../../helpers/lifecycle.js';

/**
 * A $10.00 monthly subscription (`old`) from 1 January 2026, a 31-day period, looked at on 16 January at
 * midnight: 16 of 31 days are left, so the unused part of the old product is 10.00 × 16/31 = 5.16.
 * `next` costs $25.00 (price point `gold`: $40.00); `cheap` $3.00.
 */
function migrating(nextFields: Record<string, unknown> = {}, signup: Record<string, unknown> = {}) {
  const s = site({}, '2026-01-01T00:00:00Z');
  const family = s.family();
  const old = s.product({ price_in_cents: 1000, handle: 'old' }, family);
  const next = s.product({ price_in_cents: 2500, handle: 'next', ...nextFields }, family);
  const cheap = s.product({ price_in_cents: 300, handle: 'cheap' }, family);
  const gold = num(
    s.ok('POST', `/products/${next}/price_points.json`, {
      price_point: {
        name: 'Gold',
        handle: 'gold',
        price_in_cents: 4000,
        interval: 1,
        interval_unit: 'month',
      },
    }),
    'price_point',
    'id',
  );
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Ten', code: 'TEN', percentage: '10', recurring: true },
  });
  const customer = s.customer();
  const profile = s.card(customer);
  const body = s.subscribe({
    product_id: old,
    customer_id: customer,
    payment_profile_id: profile,
    ...signup,
  });
  s.at('2026-01-16T00:00:00Z');
  return { s, id: num(body, 'subscription', 'id'), old, next, cheap, gold };
}

const migrate = (s: Site, id: number, migration: Record<string, unknown>) =>
  s.request('POST', paths(id).migrations, { migration });
const lastInvoice = (s: Site, id: number) => s.invoices(id).at(-1);

describe('migration', () => {
  it.each([
    ['product_id', (next: number) => ({ product_id: next })],
    ['product_handle', () => ({ product_handle: 'next' })],
    ['product_id as handle:', () => ({ product_id: 'handle:next' })],
  ])('by %s, default price point: the period restarts, full price less the unused credit', (_, target) => {
    const { s, id, next } = migrating();
    const called = migrate(s, id, target(next));
    expect(called.status, show(called.body)).toBe(200);
    const defaultPricePoint = num(
      s.ok('GET', `/products/${next}.json`),
      'product',
      'default_product_price_point_id',
    );
    expect(get(called.body, 'subscription')).toMatchObject({
      state: 'active',
      product: { id: next },
      product_price_point_id: defaultPricePoint,
      product_price_in_cents: 2500,
      current_period_started_at: '2026-01-16T00:00:00Z',
      current_period_ends_at: '2026-02-16T00:00:00Z',
      next_assessment_at: '2026-02-16T00:00:00Z',
      total_revenue_in_cents: 1000 + 1984,
      credit_balance_in_cents: 0,
    });
    expect(lastInvoice(s, id)).toMatchObject({
      role: 'migration',
      status: 'paid',
      subtotal_amount: '25.00',
      total_amount: '25.00',
      credit_amount: '5.16',
      paid_amount: '19.84',
      due_amount: '0.00',
    });
  });

  it.each([
    ['product_price_point_id', (gold: number) => ({ product_price_point_id: gold })],
    ['product_price_point_handle', () => ({ product_price_point_handle: 'gold' })],
    ['product_price_point_id as handle:', () => ({ product_price_point_id: 'handle:gold' })],
  ])('to a price point by %s', (_, pricePoint) => {
    const { s, id, next, gold } = migrating();
    const called = migrate(s, id, { product_id: next, ...pricePoint(gold) });
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      product_price_point_id: gold,
      product_price_in_cents: 4000,
    });
    expect(lastInvoice(s, id)).toMatchObject({ total_amount: '40.00', paid_amount: '34.84' });
  });

  it.each([
    ['preserve_period', { preserve_period: true }],
    ['proration.preserve_period', { proration: { preserve_period: true } }],
  ])('%s true: the period stays and the new price is prorated over what is left', (_, flag) => {
    const { s, id, next } = migrating();
    const called = migrate(s, id, { product_id: next, ...flag });
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      current_period_started_at: '2026-01-01T00:00:00Z',
      current_period_ends_at: '2026-02-01T00:00:00Z',
      next_assessment_at: '2026-02-01T00:00:00Z',
    });
    // 25.00 × 16/31 = 12.90, less the 5.16 credit: 7.74 paid
    expect(lastInvoice(s, id)).toMatchObject({
      total_amount: '12.90',
      credit_amount: '5.16',
      paid_amount: '7.74',
    });
    s.advance('2026-02-02T00:00:00Z');
    expect(lastInvoice(s, id)).toMatchObject({ role: 'renewal', total_amount: '25.00' });
  });

  it('a downgrade: the credit pays the new product and what is left stays as credit', () => {
    const { s, id, cheap } = migrating();
    const called = migrate(s, id, { product_id: cheap });
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription', 'credit_balance_in_cents')).toBe(516 - 300);
    expect(lastInvoice(s, id)).toMatchObject({
      total_amount: '3.00',
      credit_amount: '3.00',
      paid_amount: '0.00',
    });
  });

  it('include_trial with a trial product: trialing, a new trial, nothing charged', () => {
    const { s, id, next } = migrating({
      trial_interval: 5,
      trial_interval_unit: 'day',
      trial_price_in_cents: 0,
    });
    const called = migrate(s, id, { product_id: next, include_trial: true });
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      state: 'trialing',
      trial_started_at: '2026-01-16T00:00:00Z',
      trial_ended_at: '2026-01-21T00:00:00Z',
      current_period_ends_at: '2026-01-21T00:00:00Z',
      total_revenue_in_cents: 1000,
    });
    expect(lastInvoice(s, id)).toMatchObject({ total_amount: '0.00' });
  });

  it('include_trial is ignored with preserve_period, and without a trial on the product', () => {
    const trial = { trial_interval: 5, trial_interval_unit: 'day', trial_price_in_cents: 0 };
    const preserved = migrating(trial);
    const kept = migrate(preserved.s, preserved.id, {
      product_id: preserved.next,
      include_trial: true,
      preserve_period: true,
    });
    expect(get(kept.body, 'subscription', 'state')).toBe('active');
    const plain = migrating();
    const active = migrate(plain.s, plain.id, { product_id: plain.next, include_trial: true });
    expect(get(active.body, 'subscription', 'state')).toBe('active');
  });

  it('include_initial_charge adds the new product initial charge; without it there is none', () => {
    const { s, id, next } = migrating({ initial_charge_in_cents: 700 });
    const snapshot = s.state;
    migrate(s, id, { product_id: next, include_initial_charge: true });
    expect(lastInvoice(s, id)).toMatchObject({ subtotal_amount: '32.00', paid_amount: '26.84' });
    expect(get(lastInvoice(s, id), 'line_items')).toHaveLength(2);
    s.state = snapshot;
    migrate(s, id, { product_id: next });
    expect(lastInvoice(s, id)).toMatchObject({ subtotal_amount: '25.00' });
  });

  it('include_coupons: true by default (the coupon stays and discounts), false drops it', () => {
    const { s, id, next } = migrating({}, { coupon_code: 'TEN' });
    const snapshot = s.state;
    migrate(s, id, { product_id: next });
    expect(lastInvoice(s, id)).toMatchObject({ discount_amount: '2.50', total_amount: '22.50' });
    expect(field(s, id, 'coupon_code')).toBe('TEN');
    s.state = snapshot;
    migrate(s, id, { product_id: next, include_coupons: false });
    expect(lastInvoice(s, id)).toMatchObject({ discount_amount: '0.00', total_amount: '25.00' });
    expect(field(s, id, 'coupon_codes')).toEqual([]);
  });

  it('records subscription_product_change with the new and previous product ids', () => {
    const { s, id, old, next } = migrating();
    const events = migrate(s, id, { product_id: next }).events;
    const change = events.find((event) => event.key === 'subscription_product_change');
    expect(change?.event_specific_data).toEqual({ new_product_id: next, previous_product_id: old });
  });

  it('with the new catalog experience the key is subscription_plan_change', () => {
    const s = site({ newCatalogExperience: true });
    const family = s.family();
    const old = s.product({}, family);
    const next = s.product({ price_in_cents: 2000 }, family);
    const { id } = s.subscribed(old);
    const events = migrate(s, id, { product_id: next }).events.map((event) => [
      event.key,
      event.event_specific_data,
    ]);
    expect(events).toContainEqual([
      'subscription_plan_change',
      { new_product_id: next, previous_product_id: old },
    ]);
    expect(events.map(([key]) => key)).not.toContain('subscription_product_change');
  });
});

describe('migration of a trialing subscription', () => {
  it.each([false, true])(
    'preserve_period %s, no include_trial: still trialing means nothing charged for the trial',
    (preserve) => {
      const s = site();
      const { id } = s.subscribed(s.product(TRIAL));
      const next = s.product({ price_in_cents: 3100 });
      s.at('2026-01-18T12:00:00Z');
      const called = migrate(s, id, { product_id: next, preserve_period: preserve });
      expect(called.status, show(called.body)).toBe(200);
      const after = get(called.body, 'subscription');
      if (get(after, 'state') === 'trialing') expect(get(after, 'total_revenue_in_cents')).toBe(0);
      else
        expect(after).toMatchObject({ state: 'active', current_period_started_at: '2026-01-18T12:00:00Z' });
    },
  );
});

describe('migration refusals: 422 and the very same state', () => {
  it('to the current product', () => {
    const { s, id, old } = migrating();
    expect(errorsOf(s.fail('POST', paths(id).migrations, { migration: { product_id: old } }, 422))).toMatch(
      /already on this product/,
    );
  });

  it('a canceled subscription', () => {
    const { s, id, next } = migrating();
    s.ok('DELETE', paths(id).subscription);
    s.fail('POST', paths(id).migrations, { migration: { product_id: next } }, 422);
  });

  it('an unknown product, an unknown price point, no product at all', () => {
    const { s, id, next } = migrating();
    s.fail('POST', paths(id).migrations, { migration: { product_id: 999 } }, 422);
    s.fail(
      'POST',
      paths(id).migrations,
      { migration: { product_id: next, product_price_point_handle: 'nope' } },
      422,
    );
    s.fail('POST', paths(id).migrations, { migration: {} }, 422);
  });

  it('a card that needs 3-D Secure: 422 with an action_link', () => {
    const s = site();
    const { id } = s.subscribed(s.product(TRIAL), 4);
    const next = s.product({ price_in_cents: 5000 });
    const body = s.fail('POST', paths(id).migrations, { migration: { product_id: next } }, 422);
    expect(errorsOf(body)).toMatch(/3D secure/);
    expect(String(get(body, 'action_link'))).toMatch(new RegExp(`^https://.+/${id}$`));
  });
});
