/** Moving a subscription to another state, with its `subscription_state_change` record. */

import type { Subscription, SubscriptionState } from '../../domain/subscription/types.js';
import type { Transaction } from '../transaction.js';

/** Moves a subscription to another state, recording `subscription_state_change`. */
export function changeState(
  tx: Transaction,
  subscription: Subscription,
  next: SubscriptionState,
  patch: Partial<Subscription> = {},
): Subscription {
  const updated = tx.put('subscriptions', {
    ...subscription,
    ...patch,
    state: next,
    previousState: subscription.state,
    updatedAt: tx.now,
  });
  if (next !== subscription.state) {
    tx.record({
      key: 'subscription_state_change',
      message: `State changed on subscription ${subscription.id} from ${subscription.state} to ${next}`,
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
      data: { previous_subscription_state: subscription.state, new_subscription_state: next },
    });
  }
  return updated;
}
