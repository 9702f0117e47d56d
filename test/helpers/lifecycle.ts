/**
 * Fixtures for the subscription lifecycle tests (status, reactivation, migration, renewal preview):
 * the paths, a host gateway that always pays, a request through `handle()` with such a gateway, and a
 * site with one subscription in each state a request can reach.
 */
import { handle, type PaymentGateway } from '../../src/index.js';
import { type Called, get, type Method, num, type Site, site } from './api.js';

/** A 7-day free trial, then $20.00 a month. */
export const TRIAL = {
  trial_interval: 7,
  trial_interval_unit: 'day',
  trial_price_in_cents: 0,
  price_in_cents: 2000,
} as const;

/** The paths of the lifecycle requests for a subscription. */
export const paths = (id: number | string) => ({
  subscription: `/subscriptions/${id}.json`,
  delayedCancel: `/subscriptions/${id}/delayed_cancel.json`,
  hold: `/subscriptions/${id}/hold.json`,
  resume: `/subscriptions/${id}/resume.json`,
  reactivate: `/subscriptions/${id}/reactivate.json`,
  migrations: `/subscriptions/${id}/migrations.json`,
  migrationPreview: `/subscriptions/${id}/migrations/preview.json`,
  renewalPreview: `/subscriptions/${id}/renewals/preview.json`,
});

/** A host gateway that pays every attempt. */
export const succeed: PaymentGateway = () => ({ success: true, gatewayTransactionId: 'host-ok' });

/** One request through `handle()` with a host gateway; the site's state moves on. */
export function viaGateway(
  s: Site,
  payments: PaymentGateway,
  method: Method,
  path: string,
  body?: unknown,
): Called {
  const request = { method, path, ...(body === undefined ? {} : { body }), headers: s.headers };
  const result = handle(s.state, request, { now: s.now, payments });
  s.state = result.state;
  return {
    state: result.state,
    status: result.response.status,
    body: result.response.body,
    events: result.events,
    result,
  };
}

/** A subscription's field as the API shows it now. */
export const field = (s: Site, id: number, name: string): unknown => get(s.subscription(id), name);

let withoutCard = 0;

/** A subscription without a payment method (a new customer); returns its id. */
export function subscribeWithoutCard(s: Site, productId: number): number {
  const n = ++withoutCard;
  const customer = { first_name: 'Noel', last_name: 'Card', email: `no-card-${n}@example.com` };
  return num(s.subscribe({ product_id: productId, customer_attributes: customer }), 'subscription', 'id');
}

/** The states `statesSite` reaches. */
export const REACHABLE = [
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'canceled',
  'trial_ended',
  'expired',
  'on_hold',
] as const;
export type Reachable = (typeof REACHABLE)[number];

/** The instant at which every subscription of `statesSite` is in its state. */
export const STATES_AT = '2026-01-22T00:00:00Z';

/**
 * A site (dunning: one retry after 5 days, then unpaid) with one subscription in each reachable state
 * at `STATES_AT`, and another product to migrate to.
 */
export function statesSite(): { s: Site; ids: Record<Reachable, number>; other: number } {
  const s = site({ dunning: { retryDays: [5], finalAction: 'unpaid' } });
  const family = s.family();
  const monthly = s.product({ price_in_cents: 1000 }, family);
  const other = s.product({ price_in_cents: 1500 }, family);
  const trialOf = (days: number) => s.product({ ...TRIAL, trial_interval: days }, family);
  const expiring = s.product({ expiration_interval: 3, expiration_interval_unit: 'day' }, family);
  const ids: Record<Reachable, number> = {
    active: s.subscribed(monthly).id,
    trialing: s.subscribed(trialOf(30)).id,
    // The trial ends on 18 January and the payment fails; the retry is due on 23 January.
    past_due: s.subscribed(trialOf(3), 2).id,
    // The trial ends on 16 January; the retry fails on 21 January, then unpaid.
    unpaid: s.subscribed(trialOf(1), 2).id,
    canceled: s.subscribed(monthly).id,
    trial_ended: subscribeWithoutCard(s, trialOf(1)),
    expired: s.subscribed(expiring).id,
    on_hold: s.subscribed(monthly).id,
  };
  s.ok('DELETE', paths(ids.canceled).subscription);
  s.ok('POST', paths(ids.on_hold).hold, {}, 200);
  s.advance(STATES_AT);
  return { s, ids, other };
}
