/**
 * Setting a subscription's prepaid configuration. Fields left out keep what was set before (the
 * official operation is an upsert), and the merged whole is checked before anything is written.
 */
import { type DomainError, invalid } from '../../domain/errors.js';
import {
  type PrepaidConfiguration,
  prepaidConfigurationProblem,
} from '../../domain/subscription/prepaid-configuration.js';
import type { Subscription } from '../../domain/subscription/types.js';
import type { Dec } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Transaction } from '../transaction.js';

/** The fields a request may set; an absent one keeps its value. */
export interface PrepaidConfigurationChange {
  readonly initialFundingAmount?: Dec;
  readonly autoReplenish?: boolean;
  readonly replenishToAmount?: Dec;
  readonly replenishThresholdAmount?: Dec;
}

/** States in which a subscription no longer holds money for what comes next. */
const ENDED = new Set(['canceled', 'expired']);

/** Writes the merged configuration on the subscription, or refuses and changes nothing. */
export function setPrepaidConfiguration(
  tx: Transaction,
  subscription: Subscription,
  change: PrepaidConfigurationChange,
): Result<PrepaidConfiguration, DomainError> {
  if (ENDED.has(subscription.state))
    return err(
      invalid(
        'invalid_subscription',
        `Subscription: a ${subscription.state} subscription cannot be configured for prepayment.`,
      ),
    );
  const before = subscription.prepaidConfiguration;
  const configuration: PrepaidConfiguration = {
    id: subscription.id,
    initialFundingAmount: change.initialFundingAmount ?? before?.initialFundingAmount ?? '0',
    autoReplenish: change.autoReplenish ?? before?.autoReplenish ?? false,
    replenishToAmount: change.replenishToAmount ?? before?.replenishToAmount ?? null,
    replenishThresholdAmount: change.replenishThresholdAmount ?? before?.replenishThresholdAmount ?? null,
  };
  const problem = prepaidConfigurationProblem(configuration);
  if (problem !== undefined)
    return err(invalid('invalid_prepaid_configuration', problem.message, problem.field));
  tx.put('subscriptions', { ...subscription, prepaidConfiguration: configuration, updatedAt: tx.now });
  return ok(configuration);
}
