import { describe, expect, it } from 'vitest';
import { advance, handle, type PaymentGateway, type SiteConfig, testGateway } from '../../../src/index.js';
import { get, num, type Site, site } from '../../helpers/api.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);
// A trial lets a card ending in 2 (authorizes, never pays) sign up; its first charge comes at the trial end.
const trial = {
  trial_interval: 7,
  trial_interval_unit: 'day',
  trial_price_in_cents: 0,
  price_in_cents: 2000,
};
const TRIAL_END = '2026-01-22T12:00:00Z';
const days = (n: number) => new Date(Date.parse(TRIAL_END) + n * 86_400_000).toISOString();

function failing(config: SiteConfig = {}): { s: Site; id: number } {
  const s = site(config);
  const { id } = s.subscribed(s.product(trial), 2);
  return { s, id };
}

describe('dunning', () => {
  it('a failed renewal makes the subscription past_due with the invoice left open', () => {
    const { s, id } = failing();
    const events = s.advance(days(0));
    expect(keys(events)).toEqual([
      'subscription_state_change',
      'invoice_issued',
      'payment_failure',
      'renewal_failure',
      'subscription_state_change',
    ]);
    expect(s.subscription(id)).toMatchObject({ state: 'past_due', previous_state: 'active' });
    expect(s.invoices(id)[1]).toMatchObject({ status: 'open', due_amount: '20.00', paid_amount: '0.00' });
  });

  it('retries on the site retryDays (3, 7, 14 by default), then cancels', () => {
    const { s, id } = failing();
    s.advance(days(0));
    const at = (n: number) => keys(s.advance(days(n)));
    expect(at(2.9)).toEqual([]);
    expect(at(3)).toEqual(['payment_failure']);
    expect(at(6.9)).toEqual([]);
    expect(at(7)).toEqual(['payment_failure']);
    expect(at(13.9)).toEqual([]);
    expect(at(14)).toEqual(['payment_failure', 'subscription_state_change']);
    expect(s.subscription(id)).toMatchObject({
      state: 'canceled',
      previous_state: 'past_due',
      cancellation_method: 'dunning',
      canceled_at: '2026-02-05T12:00:00Z',
    });
    s.advance('2026-06-01T00:00:00Z');
    expect(s.invoices(id)).toHaveLength(2);
  });

  it('honours a site dunning config: custom retryDays and finalAction unpaid', () => {
    const { s, id } = failing({ dunning: { retryDays: [1, 2], finalAction: 'unpaid' } });
    s.advance(days(0));
    expect(keys(s.advance(days(1)))).toEqual(['payment_failure']);
    expect(keys(s.advance(days(2)))).toEqual(['payment_failure', 'subscription_state_change']);
    expect(s.subscription(id)).toMatchObject({
      state: 'unpaid',
      previous_state: 'past_due',
      canceled_at: null,
    });
  });

  it('with no retries, a failed renewal goes straight to the final action', () => {
    const { s, id } = failing({ dunning: { retryDays: [] } });
    s.advance(days(0));
    expect(get(s.subscription(id), 'state')).toBe('canceled');
  });

  it('a retry that succeeds pays the invoice and makes the subscription active again', () => {
    const { s, id } = failing();
    s.advance(days(0));
    // From day 5 on the card pays (a host gateway decides).
    const recovering: PaymentGateway = (attempt) =>
      attempt.at >= days(5) ? { success: true, gatewayTransactionId: 'ok' } : testGateway(attempt);
    const recovered = advance(s.state, { now: days(8), payments: recovering });
    s.state = recovered.state;
    // day 3 still fails; day 7 pays
    expect(keys(recovered.events)).toEqual([
      'payment_failure',
      'payment_success',
      'subscription_state_change',
    ]);
    expect(s.subscription(id)).toMatchObject({
      state: 'active',
      previous_state: 'past_due',
      total_revenue_in_cents: 2000,
    });
    expect(s.invoices(id)[1]).toMatchObject({ status: 'paid', due_amount: '0.00' });
  });

  it('a short billing period does not restart dunning for ever: the subscription reaches the final action', () => {
    // Daily plan, retries at 3, 7 and 14 days: renewals fall due before each retry.
    const s = site();
    const { id } = s.subscribed(s.product({ ...trial, interval: 1, interval_unit: 'day' }), 2);
    s.advance('2026-03-31T00:00:00Z');
    // the first renewal failed at the trial end (22 January); the last retry is 14 days later
    expect(s.subscription(id)).toMatchObject({
      state: 'canceled',
      cancellation_method: 'dunning',
      canceled_at: '2026-02-05T12:00:00Z',
    });
  });
});

describe('a retry that falls due with the next renewal', () => {
  // A 3-day plan and one retry after 3 days: the retry and the next renewal fall due at the same instant.
  function pastDue(): { s: Site; id: number } {
    const s = site({ dunning: { retryDays: [3] } });
    const product = s.product({
      price_in_cents: 0,
      interval: 3,
      interval_unit: 'day',
      require_credit_card: false,
    });
    const customer = s.customer();
    const id = num(s.subscribe({ product_id: product, customer_id: customer }), 'subscription', 'id');
    s.ok('PUT', `/products/${product}.json`, { product: { price_in_cents: 500 } });
    s.advance('2026-01-19T00:00:00Z'); // renewal on 18 January: no payment profile -> past_due, retry on 21 January
    expect(get(s.subscription(id), 'state')).toBe('past_due');
    s.ok('PUT', `/products/${product}.json`, { product: { price_in_cents: 0 } });
    return { s, id };
  }

  it('advance() does not throw when the renewal at that instant succeeds', () => {
    const { s } = pastDue();
    expect(() => advance(s.state, { now: '2026-01-22T00:00:00Z' })).not.toThrow();
  });

  it('handle() keeps answering (no internal fault) once that instant has passed', () => {
    const { s, id } = pastDue();
    const result = handle(
      s.state,
      { method: 'GET', path: `/subscriptions/${id}.json` },
      { now: '2026-01-22T00:00:00Z' },
    );
    expect(JSON.stringify(result.response.body)).not.toContain('could not be processed');
    expect(result.response.status).toBe(200);
  });

  it('the same with a host gateway that declines once and then pays', () => {
    const s = site({ dunning: { retryDays: [3] } });
    s.subscribed(s.product({ interval: 3, interval_unit: 'day' }));
    const declinesOnce: PaymentGateway = (attempt) =>
      attempt.kind === 'payment' && attempt.at.startsWith('2026-01-18')
        ? { success: false, message: 'Declined' }
        : testGateway(attempt);
    s.state = advance(s.state, { now: '2026-01-19T00:00:00Z', payments: declinesOnce }).state;
    expect(() => advance(s.state, { now: '2026-01-22T00:00:00Z', payments: declinesOnce })).not.toThrow();
  });
});
