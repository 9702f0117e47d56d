import { describe, expect, it } from 'vitest';
import { get, type Site, show, site } from '../../helpers/api.js';
import { field, paths, TRIAL } from '../../helpers/lifecycle.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);

/** A $10.00 monthly subscription signed up at T0 (its first period ends on 15 February at noon). */
function monthly(): { s: Site; id: number } {
  const s = site();
  return { s, id: s.subscribed(s.product({ price_in_cents: 1000 })).id };
}

const messageOf = (body: unknown): string => {
  expect(Object.keys(body as object)).toEqual(['message']);
  const message = get(body, 'message');
  expect(typeof message).toBe('string');
  return String(message);
};

describe('delayed cancellation', () => {
  it('POST flags the subscription and it cancels at the end of the period, without a renewal', () => {
    const { s, id } = monthly();
    const body = s.ok(
      'POST',
      paths(id).delayedCancel,
      { subscription: { cancellation_message: 'Too dear' } },
      200,
    );
    expect(messageOf(body)).toMatch(/end of the current billing period/);
    expect(s.subscription(id)).toMatchObject({
      state: 'active',
      cancel_at_end_of_period: true,
      delayed_cancel_at: '2026-02-15T12:00:00Z',
    });
    s.advance('2026-02-15T11:59:59Z');
    expect(field(s, id, 'state')).toBe('active');
    expect(keys(s.advance('2026-02-16T00:00:00Z'))).toEqual(['subscription_state_change']);
    expect(s.subscription(id)).toMatchObject({
      state: 'canceled',
      previous_state: 'active',
      canceled_at: '2026-02-15T12:00:00Z',
      cancellation_method: 'merchant_api',
      cancellation_message: 'Too dear',
      cancel_at_end_of_period: false,
      delayed_cancel_at: null,
    });
    s.advance('2026-05-01T00:00:00Z');
    expect(s.invoices(id)).toHaveLength(1);
  });

  it('accepts an empty body and no body at all', () => {
    const { s, id } = monthly();
    messageOf(s.ok('POST', paths(id).delayedCancel, undefined, 200));
    messageOf(s.ok('POST', paths(id).delayedCancel, {}, 200));
    expect(field(s, id, 'cancel_at_end_of_period')).toBe(true);
  });

  it('is refused while the subscription is past due: 422, the very same state', () => {
    const s = site();
    const { id } = s.subscribed(s.product(TRIAL), 2);
    s.advance('2026-01-23T00:00:00Z');
    expect(field(s, id, 'state')).toBe('past_due');
    s.fail('POST', paths(id).delayedCancel, {}, 422);
    expect(field(s, id, 'cancel_at_end_of_period')).toBe(false);
  });

  it('DELETE clears the flag and the subscription renews instead; a second DELETE changes nothing', () => {
    const { s, id } = monthly();
    const flagged = s.request('POST', paths(id).delayedCancel, {});
    expect(flagged.events.map((event) => event.event_specific_data)).toEqual([
      { cancellation_state: 'pending', cancels_at: '2026-02-15T12:00:00Z' },
    ]);
    const cleared = s.request('DELETE', paths(id).delayedCancel);
    expect(messageOf(cleared.body)).toMatch(/no longer be canceled/);
    // The official data requires cancels_at: it names the cancellation that is no longer pending.
    expect(cleared.events.map((event) => event.event_specific_data)).toEqual([
      { cancellation_state: 'not_pending', cancels_at: '2026-02-15T12:00:00Z' },
    ]);
    expect(s.subscription(id)).toMatchObject({ cancel_at_end_of_period: false, delayed_cancel_at: null });
    const before = s.state;
    const again = s.request('DELETE', paths(id).delayedCancel);
    expect(again.status).toBe(200);
    messageOf(again.body);
    expect(again.state).toBe(before);
    s.advance('2026-02-16T00:00:00Z');
    expect(field(s, id, 'state')).toBe('active');
    expect(s.invoices(id)).toHaveLength(2);
  });

  it('DELETE succeeds when no cancellation was pending and leaves the very same state', () => {
    const { s, id } = monthly();
    const before = s.state;
    const called = s.request('DELETE', paths(id).delayedCancel);
    expect(called.status).toBe(200);
    messageOf(called.body);
    expect(called.state).toBe(before);
    expect(called.events).toEqual([]);
  });

  it('answers 404 for an unknown subscription', () => {
    const { s } = monthly();
    s.fail('POST', paths(99).delayedCancel, {}, 404);
    s.fail('DELETE', paths(99).delayedCancel, undefined, 404);
  });

  it('a trialing subscription flagged to cancel cancels at the trial end, without a charge', () => {
    const s = site();
    const { id } = s.subscribed(s.product(TRIAL));
    s.ok('POST', paths(id).delayedCancel, {}, 200);
    expect(field(s, id, 'delayed_cancel_at')).toBe('2026-01-22T12:00:00Z');
    s.advance('2026-01-23T00:00:00Z');
    expect(s.subscription(id)).toMatchObject({ state: 'canceled', canceled_at: '2026-01-22T12:00:00Z' });
    expect(s.invoices(id).map((invoice) => get(invoice, 'total_amount'))).toEqual(['0.00']);
  });

  it('after a migration restarts the period, it cancels at the instant delayed_cancel_at shows', () => {
    const { s, id } = monthly();
    const other = s.product({ price_in_cents: 2000 });
    s.at('2026-01-20T00:00:00Z');
    s.ok('POST', paths(id).delayedCancel, {}, 200);
    s.ok('POST', paths(id).migrations, { migration: { product_id: other } }, 200);
    const shown = String(field(s, id, 'delayed_cancel_at'));
    s.advance('2026-03-01T00:00:00Z');
    expect(field(s, id, 'canceled_at')).toBe(shown);
  });
});

describe('hold and resume', () => {
  it('with automatically_resume_at: on hold, then active again by itself in the same period', () => {
    const { s, id } = monthly();
    s.at('2026-01-20T00:00:00Z');
    const held = s.ok(
      'POST',
      paths(id).hold,
      { hold: { automatically_resume_at: '2026-02-01T00:00:00Z' } },
      200,
    );
    expect(get(held, 'subscription')).toMatchObject({ state: 'on_hold', on_hold_at: '2026-01-20T00:00:00Z' });
    s.advance('2026-01-31T23:59:59Z');
    expect(field(s, id, 'state')).toBe('on_hold');
    expect(keys(s.advance('2026-02-02T00:00:00Z'))).toEqual(['subscription_state_change']);
    expect(s.subscription(id)).toMatchObject({
      state: 'active',
      previous_state: 'on_hold',
      on_hold_at: null,
      current_period_started_at: '2026-01-15T12:00:00Z',
      next_assessment_at: '2026-02-15T12:00:00Z',
    });
    expect(s.invoices(id)).toHaveLength(1);
  });

  it('resuming automatically after the period ended starts a billed period at the resume instant', () => {
    const { s, id } = monthly();
    s.ok('POST', paths(id).hold, { hold: { automatically_resume_at: '2026-03-01T00:00:00Z' } }, 200);
    s.advance('2026-03-02T00:00:00Z');
    expect(s.subscription(id)).toMatchObject({
      state: 'active',
      current_period_started_at: '2026-03-01T00:00:00Z',
      current_period_ends_at: '2026-04-01T00:00:00Z',
      total_revenue_in_cents: 2000,
    });
    expect(s.invoices(id).map((invoice) => get(invoice, 'status'))).toEqual(['paid', 'paid']);
  });

  it('without a date it stays on hold and is not billed; resume before the period end keeps the period', () => {
    const { s, id } = monthly();
    s.ok('POST', paths(id).hold, undefined, 200);
    s.at('2026-02-01T00:00:00Z');
    const resumed = s.ok('POST', paths(id).resume, undefined, 200);
    expect(get(resumed, 'subscription')).toMatchObject({
      state: 'active',
      current_period_started_at: '2026-01-15T12:00:00Z',
      next_assessment_at: '2026-02-15T12:00:00Z',
    });
    expect(s.invoices(id)).toHaveLength(1);
  });

  it('resume after the period ended during the hold starts a new billed period now', () => {
    const { s, id } = monthly();
    s.ok('POST', paths(id).hold, {}, 200);
    s.advance('2026-04-01T00:00:00Z');
    expect(field(s, id, 'state')).toBe('on_hold');
    expect(s.invoices(id)).toHaveLength(1);
    s.at('2026-04-10T00:00:00Z');
    const resumed = s.request('POST', paths(id).resume);
    expect(resumed.status, show(resumed.body)).toBe(200);
    expect(get(resumed.body, 'subscription')).toMatchObject({
      state: 'active',
      current_period_started_at: '2026-04-10T00:00:00Z',
      current_period_ends_at: '2026-05-10T00:00:00Z',
      next_assessment_at: '2026-05-10T00:00:00Z',
    });
    const invoices = s.invoices(id);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ status: 'paid', total_amount: '10.00' });
    expect(get(invoices[1], 'line_items', 0, 'period_range_start')).toBe('2026-04-10');
  });

  it('refuses a resume date in the past or not a timestamp, and a second hold (422, same state)', () => {
    const { s, id } = monthly();
    s.at('2026-01-20T00:00:00Z');
    s.fail('POST', paths(id).hold, { hold: { automatically_resume_at: '2026-01-19T00:00:00Z' } }, 422);
    s.fail('POST', paths(id).hold, { hold: { automatically_resume_at: 'tomorrow' } }, 422);
    s.ok('POST', paths(id).hold, {}, 200);
    s.fail('POST', paths(id).hold, {}, 422);
  });

  it('a subscription flagged to cancel and resumed after its period ended is canceled, not billed again', () => {
    const { s, id } = monthly();
    s.ok('POST', paths(id).delayedCancel, {}, 200);
    s.ok('POST', paths(id).hold, {}, 200);
    s.at('2026-03-01T00:00:00Z');
    s.request('POST', paths(id).resume);
    expect(field(s, id, 'state')).toBe('canceled');
    expect(s.invoices(id)).toHaveLength(1);
  });
});
