/**
 * Status operations run by hand: retry (no dunning step used up), cancel dunning, the automatic
 * resumption of a hold (rescheduled in the due queue: one big step of time equals many small), activate
 * a trial now (charged through the invoice path, reverted on failure), override dates, purge. The books
 * balance after each.
 */
import { describe, expect, it } from 'vitest';
import { advance } from '../../../src/index.js';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { get, num, type Site, site, str } from '../../helpers/api.js';

const START = '2026-01-10T12:00:00Z';
const DUNNING = { dunning: { retryDays: [3, 6], finalAction: 'canceled' as const } };

/** A subscription whose card starts failing at the first renewal; returns its ids. */
function pastDue(s: Site) {
  const product = s.product({ price_in_cents: 1000 });
  const customer = s.customer();
  const good = s.card(customer, 1);
  const failing = s.card(customer, 2);
  const id = num(
    s.subscribe({ product_id: product, customer_id: customer, payment_profile_id: good }),
    'subscription',
    'id',
  );
  s.ok(
    'POST',
    `/subscriptions/${id}/payment_profiles/${failing}/change_payment_profile.json`,
    undefined,
    200,
  );
  s.advance('2026-02-10T12:00:00Z');
  expect(str(s.subscription(id), 'state')).toBe('past_due');
  return { id, good, failing };
}

describe('retry and cancel dunning', () => {
  it('a failed retry changes nothing; with a good card the retry pays and ends dunning', () => {
    const s = site(DUNNING, START);
    const { id, good } = pastDue(s);
    const before = get(s.subscription(id), 'next_assessment_at');
    const failed = s.ok('PUT', `/subscriptions/${id}/retry.json`);
    expect(str(failed, 'subscription', 'state')).toBe('past_due');
    s.ok('POST', `/subscriptions/${id}/payment_profiles/${good}/change_payment_profile.json`, undefined, 200);
    const retried = s.ok('PUT', `/subscriptions/${id}/retry.json`);
    expect(str(retried, 'subscription', 'state')).toBe('active');
    expect(get(retried, 'subscription', 'next_assessment_at')).toBe(before);
    expect(s.invoices(id).map((invoice) => str(invoice, 'status'))).toEqual(['paid', 'paid']);
    expect(checkLedger(s.state)).toEqual([]);
    s.fail('PUT', `/subscriptions/${id}/retry.json`, undefined, 422);
  });

  it('cancel dunning makes the subscription active with its invoice still owed, and no final action', () => {
    const s = site(DUNNING, START);
    const { id } = pastDue(s);
    const called = s.ok('POST', `/subscriptions/${id}/cancel_dunning.json`, undefined, 200);
    expect(str(called, 'subscription', 'state')).toBe('active');
    s.advance('2026-02-25T12:00:00Z');
    expect(str(s.subscription(id), 'state')).toBe('active');
    expect(s.invoices(id).map((invoice) => str(invoice, 'status'))).toEqual(['paid', 'open']);
    expect(checkState(s.state)).toEqual([]);
  });
});

describe('PUT /subscriptions/{id}/hold.json', () => {
  it('reschedules the automatic resumption; one big step of time equals many small', () => {
    const s = site({}, START);
    const { id } = s.subscribed(s.product());
    s.ok(
      'POST',
      `/subscriptions/${id}/hold.json`,
      { hold: { automatically_resume_at: '2026-03-01T00:00:00Z' } },
      200,
    );
    const moved = s.ok('PUT', `/subscriptions/${id}/hold.json`, {
      hold: { automatically_resume_at: '2026-01-20T00:00:00Z' },
    });
    expect(str(moved, 'subscription', 'automatically_resume_at')).toBe('2026-01-20T00:00:00Z');
    const big = advance(s.state, { now: '2026-04-01T00:00:00Z' }).state;
    let small = s.state;
    for (const now of [
      '2026-01-19T00:00:00Z',
      '2026-01-20T00:00:00Z',
      '2026-02-20T00:00:00Z',
      '2026-04-01T00:00:00Z',
    ])
      small = advance(small, { now }).state;
    expect(small.tables.subscriptions).toEqual(big.tables.subscriptions);
    expect(small.tables.invoices).toEqual(big.tables.invoices);
    s.state = big;
    expect(str(s.subscription(id), 'state')).toBe('active');
    expect(checkLedger(big)).toEqual([]);
  });

  it('clears the date with null, and refuses a past date or a subscription not on hold', () => {
    const s = site({}, START);
    const { id } = s.subscribed(s.product());
    s.fail('PUT', `/subscriptions/${id}/hold.json`, { hold: { automatically_resume_at: null } }, 422);
    s.ok(
      'POST',
      `/subscriptions/${id}/hold.json`,
      { hold: { automatically_resume_at: '2026-03-01T00:00:00Z' } },
      200,
    );
    s.fail(
      'PUT',
      `/subscriptions/${id}/hold.json`,
      { hold: { automatically_resume_at: '2026-01-01T00:00:00Z' } },
      422,
    );
    const cleared = s.ok('PUT', `/subscriptions/${id}/hold.json`, {
      hold: { automatically_resume_at: null },
    });
    expect(get(cleared, 'subscription', 'automatically_resume_at')).toBeNull();
    s.advance('2026-06-01T00:00:00Z');
    expect(str(s.subscription(id), 'state')).toBe('on_hold');
  });
});

describe('PUT /subscriptions/{id}/activate.json', () => {
  const trialSite = () => {
    const s = site({}, START);
    const product = s.product({ trial_interval: 14, trial_interval_unit: 'day', trial_price_in_cents: 0 });
    return { s, product };
  };

  it('ends the trial now and bills the first period through the invoice path', () => {
    const { s, product } = trialSite();
    const { id } = s.subscribed(product);
    const called = s.ok('PUT', `/subscriptions/${id}/activate.json`, {});
    expect(str(called, 'subscription', 'state')).toBe('active');
    expect(str(called, 'subscription', 'current_period_started_at')).toBe(START);
    expect(s.invoices(id).map((invoice) => str(invoice, 'total_amount'))).toEqual(['0.00', '10.00']);
    expect(checkLedger(s.state)).toEqual([]);
    expect(get(s.fail('PUT', `/subscriptions/${id}/activate.json`, {}, 400), 'errors', 'base')).toHaveLength(
      1,
    );
  });

  it('reverts on a failed payment by default; without revert it goes past due', () => {
    const { s, product } = trialSite();
    const { id } = s.subscribed(product, 2);
    s.fail('PUT', `/subscriptions/${id}/activate.json`, {}, 400);
    expect(str(s.subscription(id), 'state')).toBe('trialing');
    const called = s.ok('PUT', `/subscriptions/${id}/activate.json`, { revert_on_failure: false });
    expect(str(called, 'subscription', 'state')).toBe('past_due');
    expect(checkLedger(s.state)).toEqual([]);
  });
});

describe('override and purge', () => {
  it('overrides dates; an expiry date is honoured by time, and bad input answers {error}', () => {
    const s = site({}, START);
    const { id } = s.subscribed(s.product());
    s.ok(
      'PUT',
      `/subscriptions/${id}/override.json`,
      {
        subscription: { activated_at: '2025-06-01T00:00:00Z', expires_at: '2026-03-01T00:00:00Z' },
      },
      204,
    );
    const overridden = s.subscription(id);
    expect(str(overridden, 'activated_at')).toBe('2025-06-01T00:00:00Z');
    expect(str(overridden, 'expires_at')).toBe('2026-03-01T00:00:00Z');
    expect(str(overridden, 'next_assessment_at')).toBe('2026-02-10T12:00:00Z');
    expect(
      get(
        s.fail('PUT', `/subscriptions/${id}/override.json`, { subscription: { expires_at: 'x' } }, 422),
        'error',
      ),
    ).toBeTypeOf('string');
    s.fail(
      'PUT',
      `/subscriptions/${id}/override.json`,
      { subscription: { canceled_at: '2026-01-01T00:00:00Z' } },
      422,
    );
    s.fail(
      'PUT',
      `/subscriptions/${id}/override.json`,
      { subscription: { current_period_starts_at: '2026-01-01T00:00:00Z' } },
      422,
    );
    s.advance('2026-03-02T00:00:00Z');
    expect(str(s.subscription(id), 'state')).toBe('expired');
    expect(checkState(s.state)).toEqual([]);
  });

  it('purges a subscription that moved no money, with its customer; refuses one that did', () => {
    const s = site({}, START);
    const trial = s.product({ trial_interval: 14, trial_interval_unit: 'day', trial_price_in_cents: 0 });
    const customer = s.customer();
    const id = num(
      s.subscribe({ product_id: trial, customer_id: customer, payment_collection_method: 'remittance' }),
      'subscription',
      'id',
    );
    s.ok('POST', `/subscriptions/${id}/notes.json`, { note: { body: 'x', sticky: false } });
    s.fail('POST', `/subscriptions/${id}/purge.json?ack=999`, undefined, 400);
    const purged = s.ok(
      'POST',
      `/subscriptions/${id}/purge.json?ack=${customer}&cascade[]=customer&cascade[]=payment_profile`,
      undefined,
      200,
    );
    expect(num(purged, 'subscription', 'id')).toBe(id);
    s.fail('GET', `/subscriptions/${id}.json`, undefined, 404);
    s.fail('GET', `/customers/${customer}.json`, undefined, 404);
    const paid = s.subscribed(s.product());
    s.fail('POST', `/subscriptions/${paid.id}/purge.json?ack=${paid.customer}`, undefined, 400);
    expect(checkState(s.state)).toEqual([]);
    // The purged trial was due on 24 January: its day must not hold up what falls due after it.
    s.advance('2026-02-10T12:00:00Z');
    expect(str(s.subscription(paid.id), 'current_period_started_at')).toBe('2026-02-10T12:00:00Z');
    expect(s.state.schedule.days.every((day) => day > '2026-02-10')).toBe(true);
  });
});
