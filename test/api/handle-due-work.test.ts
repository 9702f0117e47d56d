/**
 * Time's effects survive a refused request (CONTRACT 2, amended 2026-11-25; issue 20): what fell due by
 * `now` is performed before the request is routed and kept whatever the answer, so a host's gateway is
 * charged once for one renewal. Every attempt carries an idempotency key (CONTRACT 5), a gateway that
 * throws is a failed payment, and a fault is a 500 that names itself (CONTRACT 3).
 */
import { describe, expect, it } from 'vitest';
import {
  type ApiRequest,
  advance,
  handle,
  type PaymentAttempt,
  type PaymentGateway,
  type SiteState,
} from '../../src/index.js';
import { checkLedger, checkRefusal } from '../../src/testing/index.js';
import { basicAuth, num, site } from '../helpers/api.js';

const RENEWAL = '2026-02-15T12:00:00Z';
const LATER = '2026-02-16T09:00:00Z';

/** A $49.00 monthly subscription on a card, signed up on 15 January; the gateway records every attempt. */
function subscribed(config: Parameters<typeof site>[0] = {}) {
  const s = site(config);
  const id = s.subscribed(s.product({ price_in_cents: 4900 })).id;
  const attempts: PaymentAttempt[] = [];
  const gateway: PaymentGateway = (attempt) => {
    attempts.push(attempt);
    return { success: true, gatewayTransactionId: `gw_${attempts.length}` };
  };
  return { s, id, attempts, gateway };
}

const refusedRequests: readonly ApiRequest[] = [
  { method: 'GET', path: '/nothing-here.json' },
  { method: 'POST', path: '/customers.json', body: { customer: { first_name: '' } } },
  { method: 'POST', path: '/customers.json', body: '{"customer":' },
  { method: 'PATCH', path: '/customers.json' },
];

describe('what fell due survives a refused request', () => {
  it('a 404, a 422, a 400 and a 405 after the renewal date charge the renewal once, and keep it', () => {
    const { s, id, attempts, gateway } = subscribed();
    let state: SiteState = s.state;
    const statuses: number[] = [];
    for (const request of refusedRequests) {
      const result = handle(state, request, { now: LATER, payments: gateway });
      statuses.push(result.response.status);
      state = result.state;
    }
    expect(statuses).toEqual([404, 422, 400, 405]);
    expect(attempts.map((attempt) => attempt.amount)).toEqual(['49']);
    // The same state a plain advance to that instant reaches (with the same gateway answer).
    const advanced = advance(s.state, {
      now: LATER,
      payments: () => ({ success: true, gatewayTransactionId: 'gw_1' }),
    });
    expect(JSON.stringify(state)).toBe(JSON.stringify(advanced.state));
    const read = handle(
      state,
      { method: 'GET', path: `/subscriptions/${id}.json` },
      { now: LATER, payments: gateway },
    );
    expect(num(read.response.body, 'subscription', 'total_revenue_in_cents')).toBe(4900 + 4900);
    expect(attempts).toHaveLength(1);
    expect(checkLedger(state)).toEqual([]);
  });

  it('a 401 catches up too: time does not wait for credentials', () => {
    const { s, attempts, gateway } = subscribed({ apiKeys: ['secret'] });
    const unauthorized = handle(
      s.state,
      { method: 'GET', path: '/customers.json' },
      { now: LATER, payments: gateway },
    );
    expect(unauthorized.response.status).toBe(401);
    expect(attempts).toHaveLength(1);
    const authorized = handle(
      unauthorized.state,
      { method: 'GET', path: '/customers.json', headers: { authorization: basicAuth('secret:x') } },
      { now: LATER, payments: gateway },
    );
    expect(authorized.response.status).toBe(200);
    expect(attempts).toHaveLength(1);
  });

  it('the refusal carries the catch-up events and changes; with nothing due it is the very same state', () => {
    const { s } = subscribed();
    const due = handle(s.state, refusedRequests[0] as ApiRequest, { now: LATER });
    expect(due.events.map((event) => event.key)).toContain('renewal_success');
    expect(checkRefusal(s.state, due, LATER)).toEqual([]);
    const quiet = handle(s.state, refusedRequests[0] as ApiRequest, { now: '2026-01-20T00:00:00Z' });
    expect(quiet.state).toBe(s.state);
    expect(quiet.events).toEqual([]);
    expect(quiet.changes).toEqual([]);
  });
});

describe('idempotency keys', () => {
  it('the same attempt made twice (a host retrying the call) has the same key; a dunning retry a new one', () => {
    const { s } = subscribed();
    const keys: string[] = [];
    const declining: PaymentGateway = (attempt) => {
      keys.push(attempt.idempotencyKey);
      return { success: false, message: 'Insufficient funds' };
    };
    const first = advance(s.state, { now: RENEWAL, payments: declining });
    advance(s.state, { now: RENEWAL, payments: declining });
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toMatch(/^acme\/inv_\w+\/payment\/1\/[0-9a-f]{16}$/);
    advance(first.state, { now: '2026-02-18T12:00:00Z', payments: declining });
    expect(keys[2]).toMatch(/\/payment\/2\/[0-9a-f]{16}$/);
    expect(new Set(keys).size).toBe(2);
  });

  it('an attempt a refused request made leaves no trace, so another charge on the same invoice id gets another key', () => {
    const s = site();
    const cheap = s.product({ price_in_cents: 1500 });
    const dear = s.product({ price_in_cents: 4900 });
    const customer = s.customer();
    const profile = s.card(customer);
    const keys: string[] = [];
    const declining: PaymentGateway = (attempt) => {
      keys.push(attempt.idempotencyKey);
      return { success: false, message: 'Declined' };
    };
    for (const product of [cheap, dear, cheap]) {
      const refused = handle(
        s.state,
        {
          method: 'POST',
          path: '/subscriptions.json',
          body: { subscription: { product_id: product, customer_id: customer, payment_profile_id: profile } },
        },
        { now: s.now, payments: declining },
      );
      expect(refused.response.status).toBe(422);
    }
    // The same invoice id and ordinal each time; the amount tells the 15.00 and the 49.00 apart.
    expect(keys[0]).toBe(keys[2]);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('a card verification is keyed by the profile it creates', () => {
    const s = site();
    const customer = s.customer();
    const keys: string[] = [];
    handle(
      s.state,
      {
        method: 'POST',
        path: '/payment_profiles.json',
        body: {
          payment_profile: {
            customer_id: customer,
            full_number: '4111111111111111',
            expiration_month: 1,
            expiration_year: 2031,
          },
        },
      },
      {
        now: s.now,
        payments: (attempt) => {
          keys.push(attempt.idempotencyKey);
          return { success: true };
        },
      },
    );
    expect(keys).toEqual([expect.stringMatching(/^acme\/payment_profile_1\/authorization\/[0-9a-f]{16}$/)]);
  });
});

describe('a host gateway that misbehaves', () => {
  it('a gateway that throws is a failed payment with its reason, never a refusal or a fault', () => {
    const { s, id } = subscribed();
    const throwing: PaymentGateway = () => {
      throw new Error('connection reset');
    };
    const result = handle(
      s.state,
      { method: 'GET', path: `/subscriptions/${id}.json` },
      { now: LATER, payments: throwing },
    );
    expect(result.response.status).toBe(200);
    expect(result.fault).toBeUndefined();
    expect(result.events.find((event) => event.key === 'payment_failure')?.message).toContain(
      'Gateway error: connection reset',
    );
    expect(result.response.body).toMatchObject({ subscription: { state: 'past_due' } });
  });

  it('an asynchronous gateway on the synchronous path is a failed payment that says so', () => {
    const { s, id } = subscribed();
    const asynchronous = (() => Promise.resolve({ success: true })) as unknown as PaymentGateway;
    const result = handle(
      s.state,
      { method: 'GET', path: `/subscriptions/${id}.json` },
      { now: LATER, payments: asynchronous },
    );
    expect(result.events.find((event) => event.key === 'payment_failure')?.message).toContain(
      'an asynchronous answer on the synchronous path',
    );
  });
});

describe('faults', () => {
  /** An error whose own `name` and `message` getters throw. */
  const poisoned = (): Error => {
    const error = new Error('x');
    Object.defineProperty(error, 'name', {
      get: () => {
        throw new Error('name');
      },
    });
    Object.defineProperty(error, 'message', {
      get: () => {
        throw new Error('message');
      },
    });
    return error;
  };

  it('handle never throws, even when the request, its body, headers or context throw from getters', () => {
    const { s } = subscribed();
    const throwing = (field: string) =>
      new Proxy(
        {},
        {
          get: () => {
            throw poisoned();
          },
          has: () => {
            throw poisoned();
          },
          ownKeys: () => {
            throw new Error(field);
          },
        },
      );
    const requests: unknown[] = [
      new Proxy(
        { method: 'GET', path: '/customers.json' },
        {
          get: () => {
            throw poisoned();
          },
        },
      ),
      { method: 'POST', path: '/customers.json', body: throwing('body') },
      { method: 'GET', path: '/customers.json', headers: throwing('headers') },
      { method: 'GET', path: '/customers.json', query: throwing('query') },
    ];
    for (const request of requests) {
      const result = handle(s.state, request as ApiRequest, { now: LATER });
      expect(typeof result.response.status).toBe('number');
      expect(result.response.status === 500).toBe(result.fault !== undefined);
    }
    const context = new Proxy(
      { now: LATER },
      {
        get: () => {
          throw poisoned();
        },
      },
    );
    const result = handle(s.state, { method: 'GET', path: '/customers.json' }, context);
    expect(result.response.status).toBe(500);
    expect(result.state).toBe(s.state);
  });

  it('a fault answers 500 "Internal error <id>", keeps what fell due, and carries the fault for the host', () => {
    const { s } = subscribed();
    const request = new Proxy({ method: 'GET', path: '/customers.json' } as ApiRequest, {
      get: (target, key) => {
        if (key === 'method') throw new Error('the request broke');
        return Reflect.get(target, key);
      },
    });
    const result = handle(s.state, request, { now: LATER });
    expect(result.response).toEqual({
      status: 500,
      body: { errors: [`Internal error ${result.fault?.id}`] },
    });
    expect(result.fault).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      message: 'the request broke',
    });
    expect(result.events.map((event) => event.key)).toContain('renewal_success');
    // The same fault on the same input has the same id.
    expect(handle(s.state, request, { now: LATER }).fault?.id).toBe(result.fault?.id);
  });
});
