import { describe, expect, it } from 'vitest';
import { type SiteState, upgradeState } from '../../../src/index.js';
import { site } from '../../helpers/api.js';
import { field, paths } from '../../helpers/lifecycle.js';

/** A $10.00 monthly subscription signed up at T0 (its first period ends on 15 February at noon). */
function monthly() {
  const s = site();
  return { s, id: s.subscribed(s.product({ price_in_cents: 1000 })).id };
}

describe('the reason code given with a cancellation', () => {
  it('is kept by a cancellation now and shown with the subscription', () => {
    const { s, id } = monthly();
    expect(field(s, id, 'reason_code')).toBeNull();
    const body = s.ok('DELETE', paths(id).subscription, {
      subscription: { cancellation_message: 'Too dear', reason_code: 'PRICE' },
    });
    expect(body).toMatchObject({
      subscription: { state: 'canceled', cancellation_message: 'Too dear', reason_code: 'PRICE' },
    });
    expect(s.subscription(id)).toMatchObject({ reason_code: 'PRICE', cancellation_method: 'merchant_api' });
  });

  it('is kept while a delayed cancellation is pending and when it takes effect', () => {
    const { s, id } = monthly();
    s.ok('POST', paths(id).delayedCancel, { subscription: { reason_code: 'MOVED' } }, 200);
    expect(s.subscription(id)).toMatchObject({ cancel_at_end_of_period: true, reason_code: 'MOVED' });
    s.advance('2026-02-16T00:00:00Z');
    expect(s.subscription(id)).toMatchObject({
      state: 'canceled',
      reason_code: 'MOVED',
      cancellation_message: null,
    });
  });

  it('a second delayed cancellation without one keeps the first; a new one replaces it', () => {
    const { s, id } = monthly();
    s.ok('POST', paths(id).delayedCancel, { subscription: { reason_code: 'MOVED' } }, 200);
    s.ok('POST', paths(id).delayedCancel, { subscription: { cancellation_message: 'Bye' } }, 200);
    expect(s.subscription(id)).toMatchObject({ reason_code: 'MOVED', cancellation_message: 'Bye' });
    s.ok('POST', paths(id).delayedCancel, { subscription: { reason_code: 'PRICE' } }, 200);
    expect(field(s, id, 'reason_code')).toBe('PRICE');
  });

  it('is trimmed, and a blank one counts as none', () => {
    const { s, id } = monthly();
    s.ok('DELETE', paths(id).subscription, { subscription: { reason_code: '  PRICE ' } });
    expect(field(s, id, 'reason_code')).toBe('PRICE');
    const other = monthly();
    other.s.ok('DELETE', paths(other.id).subscription, { subscription: { reason_code: '   ' } });
    expect(field(other.s, other.id, 'reason_code')).toBeNull();
  });

  it('is cleared by a reactivation', () => {
    const { s, id } = monthly();
    s.ok('DELETE', paths(id).subscription, { subscription: { reason_code: 'PRICE' } });
    s.ok('PUT', paths(id).reactivate);
    expect(s.subscription(id)).toMatchObject({ state: 'active', reason_code: null });
  });

  it('refuses one over 255 characters: 422, the very same state', () => {
    const { s, id } = monthly();
    s.fail('DELETE', paths(id).subscription, { subscription: { reason_code: 'x'.repeat(256) } }, 422);
    expect(field(s, id, 'state')).toBe('active');
  });

  it('reads as null on a subscription saved before the engine kept it, and is kept once given', () => {
    const { s, id } = monthly();
    const saved = JSON.stringify(s.state);
    expect(saved).toContain('"reasonCode":null');
    s.state = upgradeState(JSON.parse(saved.replaceAll('"reasonCode":null,', '')) as SiteState);
    expect(JSON.stringify(s.state)).not.toContain('"reasonCode":');
    expect(field(s, id, 'reason_code')).toBeNull();
    s.ok('DELETE', paths(id).subscription, { subscription: { reason_code: 'PRICE' } });
    expect(field(s, id, 'reason_code')).toBe('PRICE');
  });
});
