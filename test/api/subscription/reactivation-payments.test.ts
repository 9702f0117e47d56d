/** Reactivation and money: a retained balance, coupons, 3-D Secure, and the states besides canceled. */
import { describe, expect, it } from 'vitest';
import { errorsOf, get, num, type Site, show, site } from '../../helpers/api.js';
import { field, paths, succeed, TRIAL, viaGateway } from '../../helpers/lifecycle.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);
const statuses = (s: Site, id: number) => s.invoices(id).map((invoice) => get(invoice, 'status'));

/** A card ending in 2 pays nothing: the first renewal (22 January) fails, dunning cancels on 5 February. */
function canceledByDunning(): { s: Site; id: number; family: number } {
  const s = site();
  const family = s.family();
  const { id } = s.subscribed(s.product(TRIAL, family), 2);
  s.advance('2026-02-10T00:00:00Z');
  expect(s.subscription(id)).toMatchObject({
    state: 'canceled',
    cancellation_method: 'dunning',
    balance_in_cents: 2000,
  });
  expect(statuses(s, id)).toEqual(['paid', 'canceled']);
  return { s, id, family };
}

/** A $100.00 monthly subscription with a card that pays, canceled on 20 January; coupons in its family. */
function withCoupons(signupCoupon?: string): { s: Site; id: number } {
  const s = site();
  const family = s.family();
  const product = s.product({ price_in_cents: 10000 }, family);
  const coupon = (fields: Record<string, unknown>) =>
    s.ok('POST', `/product_families/${family}/coupons.json`, { coupon: fields });
  coupon({ name: 'Early bird', code: 'EARLYBIRD', percentage: '25' });
  coupon({ name: 'Once', code: 'ONCE', percentage: '50' });
  const customer = s.customer();
  const profile = s.card(customer);
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    payment_profile_id: profile,
    ...(signupCoupon === undefined ? {} : { coupon_code: signupCoupon }),
  });
  const id = num(body, 'subscription', 'id');
  s.at('2026-01-20T00:00:00Z');
  s.ok('DELETE', paths(id).subscription);
  s.at('2026-03-01T00:00:00Z');
  return { s, id };
}

describe('a subscription canceled by dunning with a retained balance', () => {
  it('reactivation charges the product and the balance: active, balance zero, old invoices paid', () => {
    const { s, id } = canceledByDunning();
    const called = viaGateway(s, succeed, 'PUT', paths(id).reactivate);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      state: 'active',
      balance_in_cents: 0,
      canceled_at: null,
      total_revenue_in_cents: 4000,
    });
    expect(keys(called.events).filter((key) => key === 'payment_success')).toHaveLength(2);
    const invoices = s.invoices(id);
    expect(invoices.map((invoice) => [get(invoice, 'role'), get(invoice, 'status')])).toEqual([
      ['signup', 'paid'],
      ['renewal', 'paid'],
      ['reactivation', 'paid'],
    ]);
    expect(invoices.map((invoice) => get(invoice, 'due_amount'))).toEqual(['0.00', '0.00', '0.00']);
    expect(invoices[2]).toMatchObject({ total_amount: '20.00' });
  });

  it('while the card still fails, reactivation is refused (422) and nothing changes', () => {
    const { s, id } = canceledByDunning();
    const before = s.state;
    const called = s.request('PUT', paths(id).reactivate);
    expect(called.status).toBe(422);
    expect(errorsOf(called.body)).toMatch(/Payment failed/);
    expect(called.state).toBe(before);
    expect(field(s, id, 'state')).toBe('canceled');
  });

  it('resume within the canceled period: the balance is collected and the period kept', () => {
    const { s, id } = canceledByDunning();
    const called = viaGateway(s, succeed, 'PUT', paths(id).reactivate, { resume: true });
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      state: 'active',
      balance_in_cents: 0,
      next_assessment_at: '2026-02-22T12:00:00Z',
    });
    expect(statuses(s, id)).toEqual(['paid', 'paid']);
  });
});

describe('coupon_code on reactivation', () => {
  it.each([
    ['query', '?coupon_code=earlybird', undefined],
    ['body', '', { coupon_code: 'EARLYBIRD' }],
  ])('in the %s: the coupon discounts the reactivation invoice', (_, query, body) => {
    const { s, id } = withCoupons();
    const called = s.request('PUT', `${paths(id).reactivate}${query}`, body);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription', 'coupon_code')).toBe('EARLYBIRD');
    const invoice = s.invoices(id)[1];
    expect(invoice).toMatchObject({
      role: 'reactivation',
      subtotal_amount: '100.00',
      discount_amount: '25.00',
      total_amount: '75.00',
      status: 'paid',
    });
    expect(get(invoice, 'discounts', 0, 'code')).toBe('EARLYBIRD');
  });

  it('an unknown coupon code is refused (422) like at signup, and nothing changes', () => {
    const { s, id } = withCoupons();
    const before = s.state;
    const called = s.request('PUT', `${paths(id).reactivate}?coupon_code=NOSUCHCODE`);
    expect(called.status, show(called.body)).toBe(422);
    expect(called.state).toBe(before);
  });

  it('a one-time coupon used at signup does not discount the reactivation again', () => {
    const { s, id } = withCoupons('ONCE');
    expect(s.invoices(id)[0]).toMatchObject({ total_amount: '50.00' });
    s.ok('PUT', `${paths(id).reactivate}?coupon_code=EARLYBIRD`);
    expect(s.invoices(id)[1]).toMatchObject({ discount_amount: '25.00', total_amount: '75.00' });
  });

  it('resume with a coupon keeps the coupon when canceled invoices are collected on the way', () => {
    const { s, id, family } = canceledByDunning();
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Back', code: 'BACK', amount_in_cents: 500, recurring: true },
    });
    const called = viaGateway(s, succeed, 'PUT', paths(id).reactivate, { resume: true, coupon_code: 'BACK' });
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription', 'coupon_code')).toBe('BACK');
  });
});

describe('3-D Secure', () => {
  it('a card that needs authentication: 422 with an action_link, the very same state', () => {
    const s = site();
    const { id } = s.subscribed(s.product(TRIAL), 4);
    s.ok('DELETE', paths(id).subscription);
    s.at('2026-03-01T00:00:00Z');
    const before = s.state;
    const called = s.request('PUT', paths(id).reactivate);
    expect(called.status).toBe(422);
    expect(errorsOf(called.body)).toMatch(/3D secure/);
    const link = get(called.body, 'action_link');
    expect(typeof link).toBe('string');
    expect(String(link)).toMatch(new RegExp(`^https://.+/${id}$`));
    expect(called.state).toBe(before);
    expect(called.events).toEqual([]);
  });
});

describe('reactivation from the other states the table allows', () => {
  it('unpaid: the invoice dunning left unpaid is collected with the reactivation', () => {
    const s = site({ dunning: { retryDays: [1], finalAction: 'unpaid' } });
    const { id } = s.subscribed(s.product(TRIAL), 2);
    s.advance('2026-01-25T00:00:00Z');
    expect(field(s, id, 'state')).toBe('unpaid');
    const called = viaGateway(s, succeed, 'PUT', paths(id).reactivate);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription', 'state')).toBe('active');
    // The period it is in was billed by the renewal dunning chased: collected, not charged again.
    expect(statuses(s, id)).toEqual(['paid', 'paid']);
  });

  it('expired: either refused, or the reactivated subscription stays active through its new period', () => {
    const s = site();
    const { id } = s.subscribed(s.product({ expiration_interval: 1, expiration_interval_unit: 'month' }));
    s.advance('2026-03-01T00:00:00Z');
    expect(field(s, id, 'state')).toBe('expired');
    const called = s.request('PUT', paths(id).reactivate);
    if (called.status === 422) return;
    expect(called.status, show(called.body)).toBe(200);
    s.at('2026-03-01T00:00:01Z');
    expect(s.subscription(id)).toMatchObject({
      state: 'active',
      current_period_ends_at: '2026-04-01T00:00:00Z',
    });
  });
});
