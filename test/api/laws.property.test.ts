import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { createSite, type SiteState } from '../../src/index.js';
import { checkRefusal } from '../../src/testing/index.js';
import { call, type Method } from '../helpers/api.js';
import { routeRequestArb } from '../helpers/routes.js';
import { catalogSite } from '../helpers/scenarios.js';
import { runSteps, scriptArb } from '../helpers/scripts.js';

const base = catalogSite();
const nowArb = fc.constantFrom('2026-01-15T12:00:00Z', '2026-01-25T00:00:00Z', '2026-04-01T00:00:00Z');
const blank = fc.constantFrom('', ' ', '\t', '  \n');
const text = fc.string({ maxLength: 20 });

/** Requests that must be refused, with the status they must get. */
const invalidRequestArb: fc.Arbitrary<{ method: Method; path: string; body?: unknown; status: number }> =
  fc.oneof(
    fc.record({ first_name: blank, last_name: text, email: text }).map((customer) => ({
      method: 'POST' as const,
      path: '/customers.json',
      body: { customer },
      status: 422,
    })),
    fc
      .record({
        first_name: fc.constant('A'),
        last_name: fc.constant('B'),
        email: text.filter((t) => !t.includes('@')),
      })
      .map((customer) => ({
        method: 'POST' as const,
        path: '/customers.json',
        body: { customer },
        status: 422,
      })),
    fc
      .record({
        first_name: fc.constant('A'),
        last_name: fc.constant('B'),
        email: fc.constant('a@b.co'),
        reference: fc.constantFrom('ref-1', 'ref-2'),
      })
      .map((customer) => ({
        method: 'POST' as const,
        path: '/customers.json',
        body: { customer },
        status: 422,
      })),
    fc
      .record({ name: fc.string({ minLength: 1, maxLength: 20 }), handle: fc.constant('plans') })
      .map((product_family) => ({
        method: 'POST' as const,
        path: '/product_families.json',
        body: { product_family },
        status: 422,
      })),
    fc.stringMatching(/^\d{11,18}[02-9]$/).map((full_number) => ({
      method: 'POST' as const,
      path: '/subscriptions.json',
      body: {
        subscription: {
          product_handle: 'basic',
          customer_attributes: { first_name: 'New', last_name: 'Person', email: 'new@example.com' },
          credit_card_attributes: { full_number, expiration_month: 1, expiration_year: 2030 },
        },
      },
      status: 422,
    })),
    fc.stringMatching(/^\d{11,18}[035-9]$/).map((full_number) => ({
      method: 'POST' as const,
      path: '/payment_profiles.json',
      body: { payment_profile: { customer_id: 1, full_number, expiration_month: 1, expiration_year: 2030 } },
      status: 422,
    })),
    fc.constantFrom(1, 2).map((parent_id) => ({
      method: 'PUT' as const,
      path: `/customers/${parent_id}.json`,
      body: { customer: { parent_id } },
      status: 422,
    })),
    fc.constantFrom(
      { method: 'DELETE' as const, path: '/products/1/price_points/1.json', status: 422 },
      { method: 'DELETE' as const, path: '/subscriptions/3.json', status: 422 },
      { method: 'DELETE' as const, path: '/customers/1.json', status: 422 },
      { method: 'DELETE' as const, path: '/payment_profiles/1.json', status: 422 },
      { method: 'GET' as const, path: '/customers/99.json', status: 404 },
      { method: 'POST' as const, path: '/customers.json', body: '{"customer":', status: 400 },
    ),
  );

describe('laws of handle()', () => {
  test.prop([invalidRequestArb, nowArb])(
    'law: a rejected request changes nothing it asked for: only what fell due by its instant (CONTRACT 2, amended)',
    ({ method, path, body, status }, now) => {
      const result = call(base, method, path, body, now);
      expect(result.status).toBe(status);
      expect(checkRefusal(base, result.result, now)).toEqual([]);
      // Nothing falls due on the first day: then the very same state object, and no events.
      if (now === '2026-01-15T12:00:00Z') {
        expect(result.state).toBe(base);
        expect(result.events).toEqual([]);
      }
    },
  );

  test.prop([routeRequestArb, nowArb])(
    'law: any request answered with an error status leaves the state as advance would at its instant',
    ({ method, path, body }, now) => {
      const result = call(base, method, path, body, now);
      expect(checkRefusal(base, result.result, now)).toEqual([]);
    },
  );

  test('law: JSON round trip of the state gives an equal state', () => {
    const copy: unknown = JSON.parse(JSON.stringify(base));
    expect(copy).toStrictEqual(base);
  });

  test.prop([scriptArb, fc.nat()], { numRuns: 40 })(
    'law: JSON round trip of state: further requests on the copy give the same responses and state',
    (steps, cut) => {
      const split = Math.min(steps.length, 6 + (cut % Math.max(1, steps.length - 5)));
      const prefix = runSteps(createSite(), steps.slice(0, split));
      const copy = JSON.parse(JSON.stringify(prefix.state)) as SiteState;
      expect(copy).toStrictEqual(prefix.state);
      const original = runSteps(prefix.state, steps.slice(split), prefix.at);
      const revived = runSteps(copy, steps.slice(split), prefix.at);
      expect(revived.responses).toEqual(original.responses);
      expect(JSON.stringify(revived.state)).toBe(JSON.stringify(original.state));
    },
  );

  test.prop([scriptArb], { numRuns: 40 })('law: the same requests give the same bytes', (steps) => {
    const first = runSteps(createSite(), steps);
    const second = runSteps(createSite(), steps);
    expect(second.responses).toEqual(first.responses);
    expect(JSON.stringify(second.state)).toBe(JSON.stringify(first.state));
  });
});
