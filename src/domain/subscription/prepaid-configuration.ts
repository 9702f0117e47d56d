/** A subscription's prepaid configuration: how its prepayment account is funded and topped up. */
import type { Dec } from '../../kernel/money.js';
import { cmp } from '../../kernel/money.js';

/** How a subscription's prepayment account is funded and, when `autoReplenish`, refilled. */
export interface PrepaidConfiguration {
  /** Its id: a subscription has at most one, so it takes the subscription's id. */
  readonly id: number;
  /** What the account was to be funded with at first. */
  readonly initialFundingAmount: Dec;
  /** Whether the account is to be refilled when it falls below `replenishThresholdAmount`. */
  readonly autoReplenish: boolean;
  /** The balance a refill brings the account back up to, or null when none was given. */
  readonly replenishToAmount: Dec | null;
  /** The balance under which a refill is due, or null when none was given. */
  readonly replenishThresholdAmount: Dec | null;
}

/**
 * Why a configuration cannot stand, or undefined: a refill needs both amounts, and bringing the balance
 * "up to" an amount at or below the trigger would refill again at once.
 */
export function prepaidConfigurationProblem(
  configuration: PrepaidConfiguration,
): { readonly message: string; readonly field: string } | undefined {
  const { replenishToAmount: to, replenishThresholdAmount: threshold } = configuration;
  if (configuration.autoReplenish && to === null)
    return {
      message: 'Replenish to amount in cents: is required when auto replenish is on.',
      field: 'replenish_to_amount_in_cents',
    };
  if (configuration.autoReplenish && threshold === null)
    return {
      message: 'Replenish threshold amount in cents: is required when auto replenish is on.',
      field: 'replenish_threshold_amount_in_cents',
    };
  if (to !== null && threshold !== null && cmp(to, threshold) <= 0)
    return {
      message: 'Replenish to amount in cents: must be greater than the replenish threshold amount.',
      field: 'replenish_to_amount_in_cents',
    };
  return undefined;
}
