/**
 * Random status requests (cancel, delayed cancel and its cancellation, hold, resume, reactivate with
 * random options, migrate, both previews) interleaved with random time over a few subscriptions: never a
 * fault, a 4xx changes nothing, the table decides, and every subscription stays in a state it knows.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { can, type SubscriptionCommand, TRANSITIONS } from '../../../src/domain/subscription/transitions.js';
import {
  advance,
  handle,
  type PaymentGateway,
  type SiteState,
  type SubscriptionState,
} from '../../../src/index.js';
import { tableGet, tableRows } from '../../../src/kernel/collection.js';
import { checkState } from '../../../src/testing/index.js';
import { type Method, show, site } from '../../helpers/api.js';
import { paths, subscribeWithoutCard, succeed, TRIAL } from '../../helpers/lifecycle.js';

const FAULT = 'could not be processed';
const STATUSES = [200, 201, 404, 422];
const KNOWN = Object.keys(TRANSITIONS);

/** Six subscriptions (monthly, trial, failing card, expiring, 3-D Secure card, no card) and four products. */
function baseSite(): { state: SiteState; products: number[]; now: string } {
  const s = site({ dunning: { retryDays: [2, 4] } });
  const family = s.family();
  const monthly = s.product({ price_in_cents: 1000 }, family);
  const trial = s.product(TRIAL, family);
  const expiring = s.product(
    { price_in_cents: 700, expiration_interval: 40, expiration_interval_unit: 'day' },
    family,
  );
  const other = s.product(
    {
      price_in_cents: 1500,
      trial_interval: 5,
      trial_interval_unit: 'day',
      trial_price_in_cents: 0,
      initial_charge_in_cents: 250,
    },
    family,
  );
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Save', code: 'SAVE', percentage: '10', recurring: true },
  });
  s.subscribed(monthly);
  s.subscribed(trial);
  s.subscribed(trial, 2);
  s.subscribed(expiring);
  s.subscribed(trial, 4);
  subscribeWithoutCard(s, trial);
  return { state: s.state, products: [monthly, trial, expiring, other], now: s.now };
}

const BASE = baseSite();
const SUBSCRIPTIONS = 6;

const subscriptionArb = fc.integer({ min: 1, max: SUBSCRIPTIONS });
const productArb = fc.integer({ min: 0, max: BASE.products.length - 1 });
const migrationArb = fc.record({
  product: productArb,
  preserve_period: fc.boolean(),
  include_trial: fc.boolean(),
  include_initial_charge: fc.boolean(),
  include_coupons: fc.boolean(),
});
const opArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('time' as const),
      seconds: fc.oneof(fc.integer({ min: 0, max: 3 * 86_400 }), fc.integer({ min: 0, max: 40 * 86_400 })),
      explicit: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('cancel' as const), id: subscriptionArb }),
  fc.record({ kind: fc.constant('delay' as const), id: subscriptionArb }),
  fc.record({ kind: fc.constant('undelay' as const), id: subscriptionArb }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('hold' as const),
      id: subscriptionArb,
      resumeIn: fc.option(fc.integer({ min: -86_400, max: 60 * 86_400 }), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('resume' as const), id: subscriptionArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reactivate' as const),
      id: subscriptionArb,
      includeTrial: fc.boolean(),
      resume: fc.constantFrom('none', 'true', 'false', 'require'),
      coupon: fc.constantFrom(null, 'SAVE', 'save', 'NOPE'),
      via: fc.constantFrom('query', 'body'),
    }),
  },
  fc.record({ kind: fc.constant('migrate' as const), id: subscriptionArb, migration: migrationArb }),
  fc.record({ kind: fc.constant('preview' as const), id: subscriptionArb, migration: migrationArb }),
  fc.record({ kind: fc.constant('renewal' as const), id: subscriptionArb }),
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;
type Migration = typeof migrationArb extends fc.Arbitrary<infer T> ? T : never;
const gatewayArb = fc.constantFrom<PaymentGateway | undefined>(undefined, succeed);

const later = (now: string, seconds: number) => new Date(Date.parse(now) + seconds * 1000).toISOString();

/** The request of an operation, and the table command it asks for (if one). */
function requestOf(
  op: Exclude<Op, { kind: 'time' }>,
  now: string,
): [Method, string, unknown, SubscriptionCommand | null] {
  const at = paths(op.id);
  const migration = ({ product, ...flags }: Migration) => ({
    migration: { product_id: BASE.products[product], ...flags },
  });
  switch (op.kind) {
    case 'cancel':
      return ['DELETE', at.subscription, undefined, 'cancel'];
    case 'delay':
      return ['POST', at.delayedCancel, {}, 'initiate_delayed_cancel'];
    case 'undelay':
      return ['DELETE', at.delayedCancel, undefined, null];
    case 'hold': {
      const body = op.resumeIn === null ? {} : { hold: { automatically_resume_at: later(now, op.resumeIn) } };
      return ['POST', at.hold, body, 'hold'];
    }
    case 'resume':
      return ['POST', at.resume, undefined, 'resume'];
    case 'reactivate': {
      const options: Record<string, unknown> = { include_trial: op.includeTrial };
      if (op.coupon !== null) options['coupon_code'] = op.coupon;
      if (op.resume === 'true' || op.resume === 'false') options['resume'] = op.resume === 'true';
      if (op.resume === 'require') options['resume'] = { require_resume: true };
      if (op.via === 'body') return ['PUT', at.reactivate, options, 'reactivate'];
      const query = Object.entries(options)
        .map(([key, value]) =>
          typeof value === 'object'
            ? 'resume[require_resume]=true'
            : `${key}=${encodeURIComponent(String(value))}`,
        )
        .join('&');
      return ['PUT', `${at.reactivate}?${query}`, undefined, 'reactivate'];
    }
    case 'migrate':
      return ['POST', at.migrations, migration(op.migration), 'migrate'];
    case 'preview':
      return ['POST', at.migrationPreview, migration(op.migration), null];
    case 'renewal':
      return ['POST', at.renewalPreview, {}, null];
  }
}

const stateOf = (state: SiteState, id: number): SubscriptionState | undefined =>
  tableGet(state.tables.subscriptions, id)?.state;

describe('subscription lifecycle under random requests and time', () => {
  test.prop([fc.array(fc.tuple(opArb, gatewayArb), { minLength: 1, maxLength: 30 })], { numRuns: 60 })(
    'no fault, a 4xx changes nothing, the table decides, every state is known',
    (ops) => {
      let state = BASE.state;
      let now = BASE.now;
      for (const [op, gateway] of ops) {
        const payments = gateway === undefined ? {} : { payments: gateway };
        if (op.kind === 'time') {
          now = later(now, op.seconds);
          if (op.explicit) state = advance(state, { now, ...payments }).state;
          continue;
        }
        // Catch up first, so that the request's own catch-up is a no-op and the state it sees is known.
        state = advance(state, { now, ...payments }).state;
        const [method, path, body, command] = requestOf(op, now);
        const previous = stateOf(state, op.id);
        const before = state;
        const request = { method, path, ...(body === undefined ? {} : { body }) };
        const called = handle(state, request, { now, ...payments });
        const status = called.response.status;
        const text = JSON.stringify(called.response.body) ?? '';
        const label = `${method} ${path} ${show(body)} (${String(previous)}) → ${status} ${text}`;
        expect(STATUSES, label).toContain(status);
        expect(text, label).not.toContain(FAULT);
        if (status >= 400) {
          expect(called.state, label).toBe(before);
          expect(called.events, label).toEqual([]);
        }
        if (op.kind === 'preview' || op.kind === 'renewal') expect(called.state, label).toBe(before);
        if (command !== null && previous !== undefined) {
          if (status === 200) expect(can(previous, command), label).toBe(true);
          if (!can(previous, command)) expect(status, label).toBe(422);
        }
        if (op.kind === 'reactivate' && status === 200)
          expect(['active', 'trialing'], label).toContain(stateOf(called.state, op.id));
        state = called.state;
        for (const subscription of tableRows(state.tables.subscriptions))
          expect(KNOWN, `${label}: subscription ${subscription.id}`).toContain(subscription.state);
      }
      expect(checkState(state)).toEqual([]);
    },
  );
});
