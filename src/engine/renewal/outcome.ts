import type { Subscription } from '../../domain/subscription/types.js';
import type { CollectionOutcome } from '../invoice/collect.js';
import type { Transaction } from '../transaction.js';
import { startDunning } from './dunning.js';

export const renewalFailed = (outcome: CollectionOutcome): boolean =>
  outcome.kind === 'failed' || (outcome.kind === 'not-collected' && outcome.reason !== 'remittance');

/** Records `renewal_success` or `renewal_failure` for a renewal invoice; a failure starts or joins dunning. */
export function recordRenewalOutcome(
  tx: Transaction,
  subscription: Subscription,
  invoiceId: number,
  outcome: CollectionOutcome,
  dunning = true,
): void {
  const failed = renewalFailed(outcome);
  tx.record({
    key: failed ? 'renewal_failure' : 'renewal_success',
    message: `Renewal ${failed ? 'failed' : 'succeeded'} for subscription ${subscription.id}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: { product_id: subscription.productId, account_transaction_id: invoiceId },
  });
  if (!failed || !dunning) return;
  // An unpaid subscription's renewal joins what it owes; no retry is scheduled while collections pause.
  if (outcome.kind === 'not-collected' && outcome.reason === 'collections-paused') {
    tx.put('subscriptions', {
      ...subscription,
      dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId],
      updatedAt: tx.now,
    });
    return;
  }
  startDunning(tx, subscription, invoiceId);
}
