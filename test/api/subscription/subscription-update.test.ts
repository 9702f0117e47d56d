/**
 * Updating a subscription (`PUT /subscriptions/{id}.json`) and finding it by reference: the next billing
 * date moves what falls due (one big step of time equals many small), a product change now bills the new
 * price from the next period, a delayed one takes effect at the renewal, and a refused update changes
 * nothing. The books balance after every step.
 */
import { describe, expect, it } from 'vitest';
import { advance } from '../../../src/index.js';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, cardAttributes, get, num, type Site, site, str } from '../../helpers/api.js';

const START = '2026-01-10T12:00:00Z';

function subscribed(s: Site, priceInCents = 1000) {
  const family = s.family();
  const a = s.product({ price_in_cents: priceInCents }, family);
  const b = s.product({ price_in_cents: 2500 }, family);
  const { id, customer } = s.subscribed(a);
  return { a, b, id, customer };
}

const put = (s: Site, id: number, fields: Record<string, unknown>) =>
  get(s.ok('PUT', `/subscriptions/${id}.json`, { subscription: fields }), 'subscription');

const renewalTotals = (s: Site, id: number) => s.invoices(id).map((invoice) => str(invoice, 'total_amount'));

describe('PUT /subscriptions/{id}.json', () => {
  it('moves the next billing date: the renewal happens then, and the periods count from it', () => {
    const s = site({}, START);
    const { id } = subscribed(s);
    const updated = put(s, id, { next_billing_at: '2026-01-20T12:00:00Z' });
    expect(str(updated, 'current_period_ends_at')).toBe('2026-01-20T12:00:00Z');
    expect(str(updated, 'next_assessment_at')).toBe('2026-01-20T12:00:00Z');
    expect(str(updated, 'current_period_started_at')).toBe('2026-01-10T12:00:00Z');
    s.advance('2026-01-20T12:00:01Z');
    const renewed = s.subscription(id);
    expect(str(renewed, 'current_period_started_at')).toBe('2026-01-20T12:00:00Z');
    expect(str(renewed, 'current_period_ends_at')).toBe('2026-02-20T12:00:00Z');
    expect(renewalTotals(s, id)).toEqual(['10.00', '10.00']);
    expect(checkState(s.state)).toEqual([]);
  });

  it('one big step of time after a billing date change equals many small ones', () => {
    const s = site({}, START);
    const { id } = subscribed(s);
    put(s, id, { next_billing_at: '2026-01-25T00:00:00Z' });
    const big = advance(s.state, { now: '2026-05-01T00:00:00Z' }).state;
    let small = s.state;
    for (const day of ['2026-01-24', '2026-01-25', '2026-02-26', '2026-03-25', '2026-04-30', '2026-05-01'])
      small = advance(small, { now: `${day}T00:00:00Z` }).state;
    expect(small.tables.subscriptions).toEqual(big.tables.subscriptions);
    expect(small.tables.invoices).toEqual(big.tables.invoices);
    expect(checkLedger(big)).toEqual([]);
  });

  it('moves a trial end, and records billing_date_change', () => {
    const s = site({}, START);
    const trial = s.product({ trial_interval: 14, trial_interval_unit: 'day', trial_price_in_cents: 0 });
    const { id } = s.subscribed(trial);
    const called = s.request('PUT', `/subscriptions/${id}.json`, {
      subscription: { next_billing_at: '2026-01-15T12:00:00Z' },
    });
    expect(called.status).toBe(200);
    expect(called.events.map((event) => event.key)).toEqual(['billing_date_change']);
    expect(str(get(called.body, 'subscription'), 'trial_ended_at')).toBe('2026-01-15T12:00:00Z');
    s.advance('2026-01-15T12:00:00Z');
    expect(str(s.subscription(id), 'state')).toBe('active');
  });

  it('refuses a date in the past, a canceled subscription, and garbage; nothing changes', () => {
    const s = site({}, START);
    const { id } = subscribed(s);
    s.fail(
      'PUT',
      `/subscriptions/${id}.json`,
      { subscription: { next_billing_at: '2026-01-01T00:00:00Z' } },
      422,
    );
    s.fail('PUT', `/subscriptions/${id}.json`, { subscription: { next_billing_at: 'soon' } }, 422);
    s.fail('PUT', `/subscriptions/${id}.json`, { subscription: { snap_day: 0 } }, 422);
    s.fail('PUT', '/subscriptions/999.json', { subscription: { reference: 'x' } }, 404);
    s.ok('DELETE', `/subscriptions/${id}.json`);
    s.fail(
      'PUT',
      `/subscriptions/${id}.json`,
      { subscription: { next_billing_at: '2026-03-01T00:00:00Z' } },
      422,
    );
  });

  it('changes the product now: no charge now, the new price from the next renewal', () => {
    const s = site({}, START);
    const { b, id } = subscribed(s);
    const called = s.request('PUT', `/subscriptions/${id}.json`, { subscription: { product_id: b } });
    expect(called.status).toBe(200);
    expect(num(get(called.body, 'subscription'), 'product', 'id')).toBe(b);
    expect(called.events.map((event) => event.key)).toEqual(['subscription_product_change']);
    expect(s.invoices(id)).toHaveLength(1);
    s.advance('2026-02-10T12:00:00Z');
    expect(renewalTotals(s, id)).toEqual(['10.00', '25.00']);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('a delayed product change shows as next_product_id, takes effect at the renewal, and can be cleared', () => {
    const s = site({}, START);
    const { a, b, id } = subscribed(s);
    const scheduled = put(s, id, { product_id: b, product_change_delayed: true });
    expect(num(scheduled, 'product', 'id')).toBe(a);
    expect(num(scheduled, 'next_product_id')).toBe(b);
    const cleared = put(s, id, { next_product_id: '' });
    expect(get(cleared, 'next_product_id')).toBeNull();
    put(s, id, {
      product_handle: str(get(s.ok('GET', `/products/${b}.json`), 'product'), 'handle'),
      product_change_delayed: true,
    });
    s.advance('2026-02-10T12:00:00Z');
    const renewed = s.subscription(id);
    expect(num(renewed, 'product', 'id')).toBe(b);
    expect(get(renewed, 'next_product_id')).toBeNull();
    expect(renewalTotals(s, id)).toEqual(['10.00', '25.00']);
    expect(checkState(s.state)).toEqual([]);
  });

  it('changes the card, the collection method, net terms and reference', () => {
    const s = site({}, START);
    const { id } = subscribed(s);
    const called = s.request('PUT', `/subscriptions/${id}.json`, {
      subscription: {
        credit_card_attributes: { ...cardAttributes(4) },
        payment_collection_method: 'remittance',
        net_terms: 30,
        reference: 'sub-ref-1',
      },
    });
    expect(called.status).toBe(200);
    const updated = get(called.body, 'subscription');
    expect(str(updated, 'credit_card', 'masked_card_number')).toMatch(/4$/);
    expect(str(updated, 'payment_collection_method')).toBe('remittance');
    expect(num(updated, 'net_terms')).toBe(30);
    expect(str(updated, 'reference')).toBe('sub-ref-1');
    expect(called.events.map((event) => event.key)).toEqual([
      'subscription_card_update',
      'payment_collection_method_changed',
    ]);
    expect(get(called.events[1], 'event_specific_data')).toEqual({
      previous_value: 'automatic',
      current_value: 'remittance',
    });
  });
});

describe('GET /subscriptions/lookup.json', () => {
  it('finds a subscription by reference, and is never taken for an id', () => {
    const s = site({}, START);
    const { id, customer } = subscribed(s);
    s.fail('GET', '/subscriptions/lookup.json?reference=nope', undefined, 404);
    put(s, id, { reference: 'ref-42' });
    expect(num(s.ok('GET', '/subscriptions/lookup.json?reference=ref-42'), 'subscription', 'id')).toBe(id);
    const other = s.subscribe({
      product_id: num(s.subscription(id), 'product', 'id'),
      customer_id: customer,
      payment_collection_method: 'remittance',
    });
    const otherId = num(other, 'subscription', 'id');
    s.fail('PUT', `/subscriptions/${otherId}.json`, { subscription: { reference: 'ref-42' } }, 422);
    put(s, id, { reference: 'ref-43' });
    s.fail('GET', '/subscriptions/lookup.json?reference=ref-42', undefined, 404);
    expect(arr(s.ok('GET', '/subscriptions.json'))).toHaveLength(2);
  });
});
