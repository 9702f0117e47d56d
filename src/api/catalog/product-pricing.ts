/** The pricing fields products and product price points share, decoded and presented alike. */

import type { ProductPricing } from '../../domain/catalog/types.js';
import type { DomainError } from '../../domain/errors.js';
import type { SiteState } from '../../engine/state.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { cents } from '../common.js';
import { z, zCents, zInt } from '../decode.js';

export const pricingFields = (currency: string) => ({
  price_in_cents: zCents(currency).optional(),
  interval: zInt(1, 10_000).optional(),
  interval_unit: z.enum(['day', 'month']).optional(),
  initial_charge_in_cents: zCents(currency).nullish(),
  trial_price_in_cents: zCents(currency).nullish(),
  trial_interval: zInt(0, 10_000).nullish(),
  trial_interval_unit: z.enum(['day', 'month']).nullish(),
  expiration_interval: zInt(0, 10_000).nullish(),
  expiration_interval_unit: z.enum(['day', 'month', 'never']).nullish(),
});

type PricingInput = {
  price_in_cents?: string | undefined;
  interval?: number | undefined;
  interval_unit?: 'day' | 'month' | undefined;
  initial_charge_in_cents?: string | null | undefined;
  trial_price_in_cents?: string | null | undefined;
  trial_interval?: number | null | undefined;
  trial_interval_unit?: 'day' | 'month' | null | undefined;
  expiration_interval?: number | null | undefined;
  expiration_interval_unit?: 'day' | 'month' | 'never' | null | undefined;
};

const invalid = (message: string): DomainError => ({ code: 'invalid_pricing', status: 422, message });

/** Merges sent pricing fields over the current pricing (or requires them on create), then validates. */
export function resolvePricing(
  input: PricingInput,
  current: ProductPricing | undefined,
): Result<ProductPricing, DomainError> {
  const price = input.price_in_cents ?? current?.price;
  const interval = input.interval ?? current?.interval;
  const intervalUnit = input.interval_unit ?? current?.intervalUnit;
  if (price === undefined) return err(invalid('Price in cents: cannot be blank.'));
  if (interval === undefined) return err(invalid('Interval: cannot be blank.'));
  if (intervalUnit === undefined) return err(invalid('Interval unit: cannot be blank.'));
  const pick = <T>(sent: T | null | undefined, existing: T | null | undefined): T | null =>
    sent === undefined ? (existing ?? null) : sent;
  const pricing: ProductPricing = {
    price,
    interval,
    intervalUnit,
    initialCharge: pick(input.initial_charge_in_cents, current?.initialCharge),
    trialPrice: pick(input.trial_price_in_cents, current?.trialPrice),
    trialInterval: pick(input.trial_interval, current?.trialInterval),
    trialIntervalUnit: pick(input.trial_interval_unit, current?.trialIntervalUnit),
    expirationInterval: pick(input.expiration_interval, current?.expirationInterval),
    expirationIntervalUnit: pick(input.expiration_interval_unit, current?.expirationIntervalUnit),
  };
  if (pricing.trialInterval !== null && pricing.trialInterval > 0 && pricing.trialIntervalUnit === null) {
    return err(invalid('Trial interval unit: cannot be blank when a trial interval is given.'));
  }
  if (
    pricing.expirationInterval !== null &&
    pricing.expirationInterval > 0 &&
    pricing.expirationIntervalUnit === null
  ) {
    return err(invalid('Expiration interval unit: cannot be blank when an expiration interval is given.'));
  }
  return ok(pricing);
}

/** Whether the pricing has a trial. */
export const hasTrial = (pricing: ProductPricing): boolean =>
  pricing.trialInterval !== null && pricing.trialInterval > 0 && pricing.trialIntervalUnit !== null;

/** The wire fields of a pricing. */
export function presentPricing(state: SiteState, pricing: ProductPricing) {
  return {
    price_in_cents: cents(state, pricing.price),
    interval: pricing.interval,
    interval_unit: pricing.intervalUnit,
    initial_charge_in_cents: cents(state, pricing.initialCharge),
    trial_price_in_cents: cents(state, pricing.trialPrice),
    trial_interval: pricing.trialInterval,
    trial_interval_unit: pricing.trialIntervalUnit,
    expiration_interval: pricing.expirationInterval,
    expiration_interval_unit: pricing.expirationIntervalUnit ?? 'never',
  };
}
