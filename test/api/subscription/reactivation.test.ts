/** Reactivation through `handle()`: SPEC 3 (subscription table) and api-notes 7.9, row by row. */
import { describe, expect, it } from 'vitest';
import { errorsOf, get, type Site, show, site } from '../../helpers/api.js';
import { field, paths, subscribeWithoutCard, TRIAL } from '../../helpers/lifecycle.js';

/** A $10.00 monthly subscription signed up at T0 (period to 15 February noon) canceled on 20 January. */
function canceledMonthly(): { s: Site; id: number } {
  const s = site();
  const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
  s.at('2026-01-20T00:00:00Z');
  s.ok('DELETE', paths(id).subscription, { subscription: { cancellation_message: 'Moving away' } });
  expect(s.subscription(id)).toMatchObject({ state: 'canceled', cancellation_message: 'Moving away' });
  return { s, id };
}

/** A trial subscription (7 days to 22 January noon) canceled mid-trial on 18 January. */
function canceledInTrial(): { s: Site; id: number } {
  const s = site();
  const { id } = s.subscribed(s.product(TRIAL));
  s.at('2026-01-18T00:00:00Z');
  s.ok('DELETE', paths(id).subscription);
  return { s, id };
}

/** Reactivates with the options in the query string or in the JSON body. */
function reactivate(s: Site, id: number, query: string, body: Record<string, unknown> | undefined) {
  return s.request('PUT', `${paths(id).reactivate}${query}`, body);
}

const CLEARED = {
  canceled_at: null,
  cancellation_message: null,
  cancellation_method: null,
  cancel_at_end_of_period: false,
};

describe('reactivation of a canceled subscription', () => {
  it.each([
    ['after the canceled period', '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z'],
    ['within the canceled period, without resume', '2026-01-25T00:00:00Z', '2026-02-25T00:00:00Z'],
  ])('%s: active with a new billing period that is charged', (_, at, ends) => {
    const { s, id } = canceledMonthly();
    s.at(at);
    const called = s.request('PUT', paths(id).reactivate);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      ...CLEARED,
      state: 'active',
      previous_state: 'canceled',
      current_period_started_at: at,
      current_period_ends_at: ends,
      next_assessment_at: ends,
    });
    const invoices = s.invoices(id);
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ role: 'reactivation', status: 'paid', total_amount: '10.00' });
    expect(called.events.map((event) => event.key)).toContain('subscription_state_change');
  });

  it.each([
    ['query', '?include_trial=1', undefined],
    ['body', '', { include_trial: 1 }],
    ['body (boolean)', '', { include_trial: true }],
  ])('include_trial in the %s with a trial product: trialing, a new trial, no charge', (_, query, body) => {
    const { s, id } = canceledInTrial();
    s.at('2026-03-01T00:00:00Z');
    const called = reactivate(s, id, query, body);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      ...CLEARED,
      state: 'trialing',
      trial_started_at: '2026-03-01T00:00:00Z',
      trial_ended_at: '2026-03-08T00:00:00Z',
      current_period_ends_at: '2026-03-08T00:00:00Z',
    });
    expect(s.invoices(id)).toHaveLength(1);
  });

  it('a trial product without include_trial: active and charged at once', () => {
    const { s, id } = canceledInTrial();
    s.at('2026-03-01T00:00:00Z');
    const called = s.request('PUT', paths(id).reactivate);
    expect(get(called.body, 'subscription', 'state')).toBe('active');
    expect(s.invoices(id)[1]).toMatchObject({ role: 'reactivation', status: 'paid', total_amount: '20.00' });
  });

  it('include_trial with a product without a trial: active', () => {
    const { s, id } = canceledMonthly();
    s.at('2026-03-01T00:00:00Z');
    expect(get(s.ok('PUT', `${paths(id).reactivate}?include_trial=1`), 'subscription', 'state')).toBe(
      'active',
    );
  });

  it('trial_ended: active with a new period', () => {
    const s = site();
    const id = subscribeWithoutCard(s, s.product(TRIAL));
    s.advance('2026-01-25T00:00:00Z');
    expect(field(s, id, 'state')).toBe('trial_ended');
    const called = s.request('PUT', paths(id).reactivate);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      state: 'active',
      previous_state: 'trial_ended',
      current_period_started_at: '2026-01-25T00:00:00Z',
      current_period_ends_at: '2026-02-25T00:00:00Z',
    });
  });
});

describe('reactivation with resume', () => {
  it.each([
    ['query resume=true', '?resume=true', undefined],
    ['body resume: true', '', { resume: true }],
    ['query resume[require_resume]=true', '?resume[require_resume]=true', undefined],
    ['body resume: {require_resume: true}', '', { resume: { require_resume: true } }],
  ])('resumable, %s: active, the next billing date unchanged, nothing charged', (_, query, body) => {
    const { s, id } = canceledMonthly();
    s.at('2026-02-10T00:00:00Z');
    const called = reactivate(s, id, query, body);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      ...CLEARED,
      state: 'active',
      current_period_started_at: '2026-01-15T12:00:00Z',
      next_assessment_at: '2026-02-15T12:00:00Z',
      total_revenue_in_cents: 1000,
    });
    expect(s.invoices(id)).toHaveLength(1);
    s.advance('2026-02-16T00:00:00Z');
    expect(s.invoices(id)).toHaveLength(2);
  });

  it('resumable, canceled mid-trial with trial time left: trialing, the next billing date unchanged', () => {
    const { s, id } = canceledInTrial();
    s.at('2026-01-20T00:00:00Z');
    const called = s.request('PUT', `${paths(id).reactivate}?resume=true`);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      ...CLEARED,
      state: 'trialing',
      next_assessment_at: '2026-01-22T12:00:00Z',
    });
    s.advance('2026-01-23T00:00:00Z');
    expect(field(s, id, 'state')).toBe('active');
    expect(s.invoices(id)[1]).toMatchObject({ total_amount: '20.00', status: 'paid' });
  });

  it.each([
    ['query', '?resume=true', undefined],
    ['body', '', { resume: true }],
  ])('not resumable, resume in the %s: active with a new period', (_, query, body) => {
    const { s, id } = canceledMonthly();
    s.at('2026-03-01T00:00:00Z');
    const called = reactivate(s, id, query, body);
    expect(called.status, show(called.body)).toBe(200);
    expect(get(called.body, 'subscription')).toMatchObject({
      state: 'active',
      current_period_started_at: '2026-03-01T00:00:00Z',
      next_assessment_at: '2026-04-01T00:00:00Z',
    });
    expect(s.invoices(id)).toHaveLength(2);
  });

  it.each([
    ['query', '?resume[require_resume]=true', undefined],
    ['body', '', { resume: { require_resume: true } }],
    ['body (string)', '', { resume: { require_resume: 'true' } }],
  ])(
    'not resumable, require_resume in the %s: 422 with the exact message, nothing changed',
    (_, query, body) => {
      const { s, id } = canceledMonthly();
      s.at('2026-03-01T00:00:00Z');
      const before = s.state;
      const called = reactivate(s, id, query, body);
      expect(called.status).toBe(422);
      expect(called.body).toEqual({
        errors: ["Request was 'resume only', but this subscription cannot be resumed."],
      });
      expect(called.state).toBe(before);
      expect(called.events).toEqual([]);
      expect(s.subscription(id)).toMatchObject({
        state: 'canceled',
        next_assessment_at: '2026-02-15T12:00:00Z',
      });
    },
  );

  it('refuses a malformed option (422, the same state)', () => {
    const { s, id } = canceledMonthly();
    const before = s.state;
    const called = s.request('PUT', `${paths(id).reactivate}?include_trial=maybe`);
    expect(called.status).toBe(422);
    expect(errorsOf(called.body)).toMatch(/include_trial|true or false/);
    expect(called.state).toBe(before);
  });
});
