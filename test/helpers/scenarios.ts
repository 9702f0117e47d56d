/**
 * Ready-made sites for time-based tests: a handful of subscriptions whose schedules interleave
 * (monthly, daily, trials with and without a card, a failing card in dunning, remittance, expiry).
 */
import type { SiteConfig, SiteState } from '../../src/index.js';
import { cardAttributes, num, Site } from './api.js';

export type SubscriptionKind =
  | 'monthly'
  | 'daily'
  | 'trial'
  | 'trial-no-card'
  | 'failing'
  | 'remittance'
  | 'expiring';

export const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = [
  'monthly',
  'daily',
  'trial',
  'trial-no-card',
  'failing',
  'remittance',
  'expiring',
];

const productFields: Record<SubscriptionKind, Record<string, unknown>> = {
  monthly: { price_in_cents: 1999 },
  daily: { price_in_cents: 150, interval: 1, interval_unit: 'day' },
  trial: { price_in_cents: 3000, trial_interval: 10, trial_interval_unit: 'day', trial_price_in_cents: 0 },
  'trial-no-card': {
    price_in_cents: 3000,
    trial_interval: 5,
    trial_interval_unit: 'day',
    trial_price_in_cents: 0,
  },
  failing: { price_in_cents: 2500, trial_interval: 3, trial_interval_unit: 'day', trial_price_in_cents: 0 },
  remittance: { price_in_cents: 4000, interval: 2, interval_unit: 'month' },
  expiring: { price_in_cents: 999, expiration_interval: 45, expiration_interval_unit: 'day' },
};

/** Signs up one subscription of a kind at the site's current instant; returns its id. */
export function signUp(s: Site, kind: SubscriptionKind): number {
  const product = s.product(productFields[kind]);
  const customer = { first_name: 'Casey', last_name: kind, email: `${kind}@example.com` };
  const fields: Record<string, unknown> = { product_id: product, customer_attributes: customer };
  if (kind === 'remittance') fields['payment_collection_method'] = 'remittance';
  else if (kind !== 'trial-no-card')
    fields['credit_card_attributes'] = cardAttributes(kind === 'failing' ? 2 : 1);
  return num(s.subscribe(fields), 'subscription', 'id');
}

/** A site with one subscription of every kind, signed up on 15 January 2026 at hourly offsets. */
export function busySite(
  config: SiteConfig = {},
  kinds: readonly SubscriptionKind[] = SUBSCRIPTION_KINDS,
): SiteState {
  const s = new Site(config);
  kinds.forEach((kind, index) => {
    s.at(new Date(Date.parse('2026-01-15T12:00:00Z') + index * 3_600_000).toISOString());
    signUp(s, kind);
  });
  return s.state;
}

/**
 * A small catalog with subscriptions in several states, for request-level tests:
 * family 1 `plans`; product 1 `basic` (monthly $10, price points 1 default and 3 `gold`), product 2
 * `trial` (7-day free trial); customer 1 (`ref-1`, card 1 ending 1) with subscription 1 active;
 * customer 2 (`ref-2`, card 2 ending 2) with subscription 2 trialing; subscription 3 of customer 1
 * canceled; subscription 4 of customer 2 on remittance with an open invoice.
 */
export function catalogSite(config: SiteConfig = {}): SiteState {
  const s = new Site(config);
  const family = s.family('plans');
  const basic = s.product({ handle: 'basic', price_in_cents: 1000 }, family);
  s.product(
    { handle: 'trial', trial_interval: 7, trial_interval_unit: 'day', trial_price_in_cents: 0 },
    family,
  );
  s.ok('POST', `/products/${basic}/price_points.json`, {
    price_point: { name: 'Gold', handle: 'gold', price_in_cents: 5000, interval: 1, interval_unit: 'month' },
  });
  const first = s.customer({ reference: 'ref-1' });
  const second = s.customer({ reference: 'ref-2' });
  const firstCard = s.card(first);
  const secondCard = s.card(second, 2);
  s.subscribe({ product_id: basic, customer_id: first, payment_profile_id: firstCard });
  s.subscribe({ product_handle: 'trial', customer_id: second, payment_profile_id: secondCard });
  s.subscribe({ product_id: basic, customer_id: first, payment_profile_id: firstCard });
  s.ok('DELETE', '/subscriptions/3.json');
  s.subscribe({ product_id: basic, customer_id: second, payment_collection_method: 'remittance' });
  return s.state;
}
