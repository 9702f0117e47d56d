import { describe, expect, it } from 'vitest';
import { arr, get, num, site } from '../../helpers/api.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);

describe('renewals', () => {
  it('renews after the period end: a renewal invoice, the period moves on, the catch-up events come back', () => {
    const s = site();
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    s.at('2026-02-16T00:00:00Z');
    const read = s.request('GET', `/subscriptions/${id}.json`);
    expect(keys(read.events)).toEqual([
      'statement_closed',
      'invoice_issued',
      'payment_success',
      'renewal_success',
    ]);
    expect(read.events.map((event) => event.created_at)).toEqual([
      '2026-02-15T12:00:00.000Z',
      '2026-02-15T12:00:00.000Z',
      '2026-02-15T12:00:00.000Z',
      '2026-02-15T12:00:00.000Z',
    ]);
    expect(get(read.body, 'subscription')).toMatchObject({
      state: 'active',
      current_period_started_at: '2026-02-15T12:00:00Z',
      current_period_ends_at: '2026-03-15T12:00:00Z',
      total_revenue_in_cents: 2000,
    });
    const invoices = s.invoices(id);
    expect(invoices).toMatchObject([
      { role: 'signup', status: 'paid' },
      {
        role: 'renewal',
        status: 'paid',
        issue_date: '2026-02-15',
        total_amount: '10.00',
        line_items: [{ period_range_start: '2026-02-15' }],
      },
    ]);
  });

  it('renews nothing before the period end, and the state object stays the same', () => {
    const s = site();
    s.subscribed(s.product());
    const before = s.state;
    s.at('2026-02-15T11:59:59Z');
    const read = s.request('GET', '/subscriptions.json');
    expect(read.state).toBe(before);
    expect(read.events).toEqual([]);
  });

  it('catches up several periods at once, each at its own instant', () => {
    const s = site();
    const { id } = s.subscribed(s.product());
    s.at('2026-05-20T00:00:00Z');
    const events = s.request('GET', '/subscriptions.json').events;
    expect(
      events.filter((event) => event.key === 'renewal_success').map((event) => event.created_at),
    ).toEqual([
      '2026-02-15T12:00:00.000Z',
      '2026-03-15T12:00:00.000Z',
      '2026-04-15T12:00:00.000Z',
      '2026-05-15T12:00:00.000Z',
    ]);
    expect(s.invoices(id).map((invoice) => get(invoice, 'number'))).toEqual(['1', '2', '3', '4', '5']);
  });

  it('keeps a monthly anchor of 31 January in the site zone: Feb 28, then Mar 31 (across DST)', () => {
    // 2026-02-01T03:00Z is 31 January 22:00 in New York
    const s = site({ timeZone: 'America/New_York' }, '2026-02-01T03:00:00Z');
    const { id } = s.subscribed(s.product());
    const periodEnds = [get(s.subscription(id), 'current_period_ends_at')];
    for (const now of ['2026-03-01T03:00:00Z', '2026-04-01T02:00:00Z', '2026-05-01T02:00:00Z']) {
      s.advance(now);
      periodEnds.push(get(s.subscription(id), 'current_period_ends_at'));
    }
    expect(periodEnds).toEqual([
      '2026-02-28T22:00:00-05:00',
      '2026-03-31T22:00:00-04:00',
      '2026-04-30T22:00:00-04:00',
      '2026-05-31T22:00:00-04:00',
    ]);
    expect(s.invoices(id).map((invoice) => get(invoice, 'issue_date'))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
  });

  it('renews at the new price after a price change, and shows the product version', () => {
    const s = site();
    const product = s.product({ price_in_cents: 1000 });
    const { id } = s.subscribed(product);
    s.ok('PUT', `/products/${product}.json`, { product: { price_in_cents: 1500 } });
    s.advance('2026-02-16T00:00:00Z');
    const totals = s.invoices(id).map((invoice) => get(invoice, 'total_amount'));
    expect(totals).toEqual(['10.00', '15.00']);
    expect(get(s.invoices(id)[1], 'line_items', 0, 'product_version')).toBe(2);
  });

  it('after an interval change, the next period starts at the end of the current one (nothing retroactive)', () => {
    const s = site();
    const product = s.product();
    const { id } = s.subscribed(product);
    s.advance('2026-02-16T00:00:00Z'); // renewed on 15 February; the period runs to 15 March
    s.ok('PUT', `/products/${product}.json`, { product: { interval: 1, interval_unit: 'day' } });
    const events = s.advance('2026-03-16T00:00:00Z');
    expect(events.filter((event) => event.created_at < '2026-03-15T12:00:00.000Z')).toEqual([]);
    const invoices = s.invoices(id);
    expect(invoices).toHaveLength(3);
    expect(get(invoices[2], 'line_items', 0, 'period_range_start')).toBe('2026-03-15');
    expect(get(s.subscription(id), 'current_period_started_at')).toBe('2026-03-15T12:00:00Z');
  });

  it('expires at the end of the expiration interval', () => {
    const s = site();
    const { id } = s.subscribed(s.product({ expiration_interval: 2, expiration_interval_unit: 'month' }));
    expect(get(s.subscription(id), 'expires_at')).toBe('2026-03-15T12:00:00Z');
    s.advance('2026-06-01T00:00:00Z');
    expect(get(s.subscription(id), 'state')).toBe('expired');
    expect(s.invoices(id)).toHaveLength(2);
  });
});

describe('trial ends', () => {
  const trial = {
    trial_interval: 14,
    trial_interval_unit: 'day',
    trial_price_in_cents: 0,
    price_in_cents: 3000,
  };

  it('with a card: active, a charge for the first paid period, anchored at the trial end', () => {
    const s = site();
    const { id } = s.subscribed(s.product(trial));
    const events = s.advance('2026-02-01T00:00:00Z');
    expect(keys(events)).toEqual([
      'subscription_state_change',
      'invoice_issued',
      'payment_success',
      'renewal_success',
    ]);
    expect(s.subscription(id)).toMatchObject({
      state: 'active',
      previous_state: 'trialing',
      activated_at: '2026-01-29T12:00:00Z',
      current_period_started_at: '2026-01-29T12:00:00Z',
      current_period_ends_at: '2026-02-28T12:00:00Z',
      total_revenue_in_cents: 3000,
    });
    expect(s.invoices(id)[1]).toMatchObject({ status: 'paid', total_amount: '30.00' });
    s.advance('2026-03-01T00:00:00Z');
    expect(s.invoices(id)).toHaveLength(3);
  });

  it('with initial_charge_after_trial: the initial charge comes at the trial end, not at signup', () => {
    const s = site();
    const product = s.product({ ...trial, initial_charge_in_cents: 500, initial_charge_after_trial: true });
    const { id } = s.subscribed(product);
    expect(s.invoices(id)).toMatchObject([{ total_amount: '0.00' }]);
    s.advance('2026-02-01T00:00:00Z');
    const pricePointId = num(
      s.ok('GET', `/products/${product}.json`),
      'product',
      'default_product_price_point_id',
    );
    expect(s.invoices(id)[1]).toMatchObject({
      total_amount: '35.00',
      line_items: [
        { kind: 'baseline' },
        { kind: 'initial', product_id: product, product_price_point_id: pricePointId, total_amount: '5.00' },
      ],
    });
  });

  it('with initial_charge_after_trial and a zero initial charge: the trial end bills no initial line', () => {
    const s = site();
    const product = s.product({ ...trial, initial_charge_in_cents: 0, initial_charge_after_trial: true });
    const { id } = s.subscribed(product);
    const preview = s.ok('POST', `/subscriptions/${id}/renewals/preview.json`, {}, 200);
    s.advance('2026-02-01T00:00:00Z');
    const renewal = s.invoices(id)[1];
    expect(renewal).toMatchObject({ total_amount: '30.00', line_items: [{ kind: 'baseline' }] });
    expect(arr(renewal, 'line_items')).toHaveLength(1);
    expect(get(preview, 'renewal_preview', 'total_in_cents')).toBe(3000);
  });

  it('without a card on a product that does not require one: trial_ended, no charge, nothing further', () => {
    const s = site();
    const product = s.product({ ...trial, require_credit_card: false });
    const customer = s.customer();
    const id = num(s.subscribe({ product_id: product, customer_id: customer }), 'subscription', 'id');
    expect(get(s.subscription(id), 'state')).toBe('trialing');
    const events = s.advance('2026-02-01T00:00:00Z');
    expect(keys(events)).toEqual(['subscription_state_change']);
    expect(s.subscription(id)).toMatchObject({ state: 'trial_ended', previous_state: 'trialing' });
    s.advance('2026-08-01T00:00:00Z');
    expect(get(s.subscription(id), 'state')).toBe('trial_ended');
    expect(arr(s.ok('GET', `/invoices.json?subscription_id=${id}`), 'invoices')).toHaveLength(1);
  });
});
