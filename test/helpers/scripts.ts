/**
 * Scripts of mostly valid requests with time moving forward, for laws over whole histories (same bytes,
 * JSON round trip, no faults).
 */
import fc from 'fast-check';
import type { SiteState } from '../../src/index.js';
import { call, type Method, T0 } from './api.js';

export interface Step {
  readonly method: Method | string;
  readonly path: string;
  readonly body?: unknown;
  /** Hours after the previous step. */
  readonly hours: number;
}

/** Mostly valid requests over a growing site (ids stay small so they often exist). */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/customers.json'),
    body: fc.record({
      customer: fc.record({
        first_name: fc.constantFrom('Ada', 'Alan', ''),
        last_name: fc.constant('X'),
        email: fc.constant('x@example.com'),
        reference: fc.constantFrom('r1', 'r2', null),
      }),
    }),
    hours: fc.integer({ min: 0, max: 30 * 24 }),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/payment_profiles.json'),
    body: fc.record({
      payment_profile: fc.record({
        customer_id: fc.integer({ min: 1, max: 4 }),
        full_number: fc.constantFrom('4111111111111111', '4111111111111112', '4111111111111113'),
        expiration_month: fc.constant(1),
        expiration_year: fc.constant(2031),
      }),
    }),
    hours: fc.integer({ min: 0, max: 48 }),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/subscriptions.json'),
    body: fc.record({
      subscription: fc.record(
        {
          product_id: fc.integer({ min: 1, max: 4 }),
          customer_id: fc.integer({ min: 1, max: 4 }),
          payment_profile_id: fc.integer({ min: 1, max: 4 }),
        },
        { requiredKeys: ['product_id', 'customer_id'] },
      ),
    }),
    hours: fc.integer({ min: 0, max: 10 * 24 }),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/subscriptions.json'),
    body: fc.record({
      subscription: fc.record({
        product_id: fc.integer({ min: 1, max: 3 }),
        customer_attributes: fc.constant({
          first_name: 'New',
          last_name: 'Customer',
          email: 'new@example.com',
        }),
        credit_card_attributes: fc.record({
          full_number: fc.constantFrom('4111111111111111', '4111111111111112'),
          expiration_month: fc.constant(3),
          expiration_year: fc.constant(2032),
        }),
      }),
    }),
    hours: fc.integer({ min: 0, max: 72 }),
  }),
  fc.record({
    method: fc.constant('DELETE'),
    path: fc.integer({ min: 1, max: 5 }).map((id) => `/subscriptions/${id}.json`),
    hours: fc.integer({ min: 0, max: 40 * 24 }),
  }),
  fc.record({
    method: fc.constant('PUT'),
    path: fc.integer({ min: 1, max: 4 }).map((id) => `/products/${id}.json`),
    body: fc.record({
      product: fc.record({ price_in_cents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })) }),
    }),
    hours: fc.integer({ min: 0, max: 24 }),
  }),
  fc.record({
    method: fc.constant('GET'),
    path: fc.constantFrom('/subscriptions.json', '/invoices.json?per_page=200', '/customers.json'),
    hours: fc.integer({ min: 0, max: 60 * 24 }),
  }),
);

/**
 * Requests that set up a catalog a script can use: a family, four products (monthly; weekly with a
 * trial; quarterly with an initial charge; free every 3 days without a card), a customer with a card.
 */
export const SETUP: readonly Step[] = [
  {
    method: 'POST',
    path: '/product_families.json',
    body: { product_family: { name: 'Plans', handle: 'plans' } },
    hours: 0,
  },
  {
    method: 'POST',
    path: '/product_families/1/products.json',
    body: {
      product: {
        name: 'Monthly',
        handle: 'monthly',
        price_in_cents: 1000,
        interval: 1,
        interval_unit: 'month',
      },
    },
    hours: 0,
  },
  {
    method: 'POST',
    path: '/product_families/1/products.json',
    body: {
      product: {
        name: 'Weekly trial',
        price_in_cents: 500,
        interval: 7,
        interval_unit: 'day',
        trial_interval: 3,
        trial_interval_unit: 'day',
        trial_price_in_cents: 0,
      },
    },
    hours: 0,
  },
  {
    method: 'POST',
    path: '/product_families/1/products.json',
    body: {
      product: {
        name: 'Quarterly',
        price_in_cents: 2999,
        interval: 3,
        interval_unit: 'month',
        initial_charge_in_cents: 100,
      },
    },
    hours: 0,
  },
  {
    method: 'POST',
    path: '/product_families/1/products.json',
    body: {
      product: {
        name: 'Free',
        price_in_cents: 0,
        interval: 3,
        interval_unit: 'day',
        require_credit_card: false,
      },
    },
    hours: 0,
  },
  {
    method: 'POST',
    path: '/customers.json',
    body: { customer: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' } },
    hours: 0,
  },
  {
    method: 'POST',
    path: '/payment_profiles.json',
    body: {
      payment_profile: {
        customer_id: 1,
        full_number: '4111111111111111',
        expiration_month: 1,
        expiration_year: 2031,
      },
    },
    hours: 1,
  },
];

export const scriptArb: fc.Arbitrary<Step[]> = fc
  .array(stepArb, { minLength: 1, maxLength: 25 })
  .map((steps) => [...SETUP, ...steps]);

/** Runs steps from a state and instant; returns the final state, instant and each serialized response. */
export function runSteps(state: SiteState, steps: readonly Step[], startMs = Date.parse(T0)) {
  let current = state;
  let at = startMs;
  const responses: string[] = [];
  for (const step of steps) {
    at += step.hours * 3_600_000;
    const result = call(current, step.method, step.path, step.body, new Date(at).toISOString());
    current = result.state;
    responses.push(JSON.stringify({ status: result.status, body: result.body, events: result.events }));
  }
  return { state: current, at, responses };
}
