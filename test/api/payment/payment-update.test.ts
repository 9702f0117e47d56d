import { describe, expect, it } from 'vitest';
import { emailOutbox } from '../../../src/index.js';
import { errorsOf, site } from '../../helpers/api.js';

const path = (id: number | string) => `/subscriptions/${id}/request_payment_profiles_update.json`;

function subscribed(config = {}) {
  const s = site(config);
  const product = s.product();
  const sub = s.subscribed(product);
  return { s, product, ...sub };
}

describe('request payment update email', () => {
  it('answers 200 with no body and records an email to the customer', () => {
    const { s, id, customer } = subscribed({ name: 'Acme' });
    const email = s.ok('GET', `/customers/${customer}.json`) as { customer: { email: string } };
    const before = s.state;
    const called = s.request('POST', path(id));
    expect(called.status).toBe(200);
    expect(called.body).toBeUndefined();
    expect(called.result.response).toEqual({ status: 200 });
    expect(called.state).not.toBe(before);
    expect(emailOutbox(s.state)).toEqual([
      {
        id: 1,
        kind: 'payment_update_request',
        to: email.customer.email,
        customerId: customer,
        subscriptionId: id,
        at: '2026-01-15T12:00:00.000Z',
        subject: 'Please update your payment details for Acme',
      },
    ]);
  });

  it('allows five per subscription in any 30 minutes; the sixth is a 422 naming the instant in the site offset', () => {
    const { s, id } = subscribed({ timeZone: 'America/New_York' });
    for (const minute of ['00', '05', '10', '15', '20'])
      s.at(`2026-01-15T12:${minute}:00Z`).ok('POST', path(id), undefined, 200);
    s.at('2026-01-15T12:25:00Z');
    const refused = s.fail('POST', path(id), undefined, 422);
    expect(errorsOf(refused)).toMatch(
      /5 times within 30 minutes.*resubmit at or after 2026-01-15T07:30:00-05:00/,
    );
    s.at('2026-01-15T12:29:59Z').fail('POST', path(id), undefined, 422);
    // Sliding: at 12:30 the 12:00 request leaves the window, at 12:35 the 12:05 one.
    s.at('2026-01-15T12:30:00Z').ok('POST', path(id), undefined, 200);
    expect(errorsOf(s.at('2026-01-15T12:31:00Z').fail('POST', path(id), undefined, 422))).toMatch(
      /2026-01-15T07:35:00-05:00/,
    );
    s.at('2026-01-15T12:35:00Z').ok('POST', path(id), undefined, 200);
    expect(emailOutbox(s.state)).toHaveLength(7);
  });

  it('limits each subscription on its own', () => {
    const { s, id, product } = subscribed();
    const other = s.subscribed(product).id;
    for (let i = 0; i < 5; i += 1) s.ok('POST', path(id), undefined, 200);
    s.fail('POST', path(id), undefined, 422);
    s.ok('POST', path(other), undefined, 200);
  });

  it('answers 404 for an unknown subscription', () => {
    const { s } = subscribed();
    expect(errorsOf(s.fail('POST', path(99), undefined, 404))).toMatch(/Subscription not found/);
    s.fail('POST', path('abc'), undefined, 404);
    s.fail('GET', path(1), undefined, 405);
  });
});
