/** The `billing_date_change` record of an operation that moves a subscription's next billing date. */

import type { Subscription } from '../../domain/subscription/types.js';
import type { Transaction } from '../transaction.js';

/** Records `billing_date_change` when `after` bills on another date than `before` (docs/events.md). */
export function recordBillingDateChange(tx: Transaction, before: Subscription, after: Subscription): void {
  if (before.nextAssessmentAt === after.nextAssessmentAt) return;
  tx.record({
    key: 'billing_date_change',
    message: `Billing date of subscription ${before.id} changed to ${after.nextAssessmentAt}`,
    subscriptionId: before.id,
    customerId: before.customerId,
  });
}
