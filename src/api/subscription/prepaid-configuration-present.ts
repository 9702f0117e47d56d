/** The wire form of a subscription's prepaid configuration. */

import type { PrepaidConfiguration } from '../../domain/subscription/prepaid-configuration.js';
import type { SiteState } from '../../engine/state.js';
import { type Dec, toMinor } from '../../kernel/money.js';

/** The wire form of a prepaid configuration; an amount never given is left out. */
export function presentPrepaidConfiguration(state: SiteState, configuration: PrepaidConfiguration) {
  const currency = state.settings.currency;
  const minor = (amount: Dec | null) => (amount === null ? undefined : toMinor(amount, currency));
  const replenishTo = minor(configuration.replenishToAmount);
  const threshold = minor(configuration.replenishThresholdAmount);
  return {
    id: configuration.id,
    initial_funding_amount_in_cents: toMinor(configuration.initialFundingAmount, currency),
    auto_replenish: configuration.autoReplenish,
    ...(replenishTo === undefined ? {} : { replenish_to_amount_in_cents: replenishTo }),
    ...(threshold === undefined ? {} : { replenish_threshold_amount_in_cents: threshold }),
  };
}
