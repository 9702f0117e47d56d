/**
 * Dunning (README "Dunning"): retrying unpaid renewal invoices on the site's retry days, then the final
 * action.
 */

import type { PaymentGateway } from '../../domain/payment/types.js';
import { NO_CANCELLATION_REASON, type Subscription } from '../../domain/subscription/types.js';
import { addSeconds } from '../../kernel/time.js';
import { collectInvoice } from '../invoice/collect.js';
import { changeState } from '../subscription/state-change.js';
import { cancelNow } from '../subscription/status.js';
import type { Transaction } from '../transaction.js';

/**
 * A renewal invoice went unpaid. The first failure starts dunning (`past_due`, retries at the site's
 * retry days counted from that failure); later failures join the invoices already being chased without
 * restarting the schedule, so dunning always ends.
 */
export function startDunning(tx: Transaction, subscription: Subscription, invoiceId: number): void {
  if (subscription.nextDunningAt !== null) {
    tx.put('subscriptions', {
      ...subscription,
      dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId],
      updatedAt: tx.now,
    });
    return;
  }
  const firstRetry = tx.settings.dunning.retryDays[0];
  if (firstRetry === undefined) {
    finishDunning(tx, { ...subscription, dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId] });
    return;
  }
  changeState(tx, subscription, subscription.state === 'unpaid' ? 'unpaid' : 'past_due', {
    dunningAttempts: 0,
    nextDunningAt: addSeconds(tx.now, firstRetry * 86_400),
    dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId],
  });
}

/** Retries every invoice dunning chases; all paid ends dunning, otherwise the next retry or the final action. */
export function retryDunning(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  const unpaid: number[] = [];
  for (const invoiceId of subscription.dunningInvoiceIds) {
    const invoice = tx.get('invoices', invoiceId);
    if (invoice === undefined || invoice.status === 'paid' || invoice.status === 'voided') continue;
    const outcome = collectInvoice(tx, invoiceId, gateway);
    if (outcome.kind !== 'paid' && outcome.kind !== 'nothing-due') unpaid.push(invoiceId);
  }
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  if (unpaid.length === 0) {
    changeState(tx, current, 'active', { dunningAttempts: 0, nextDunningAt: null, dunningInvoiceIds: [] });
    return;
  }
  const attempts = current.dunningAttempts + 1;
  const retryDays = tx.settings.dunning.retryDays;
  const next = retryDays[attempts];
  const previous = retryDays[attempts - 1] ?? 0;
  if (next === undefined) {
    finishDunning(tx, { ...current, dunningAttempts: attempts, dunningInvoiceIds: unpaid });
    return;
  }
  tx.put('subscriptions', {
    ...current,
    dunningAttempts: attempts,
    dunningInvoiceIds: unpaid,
    nextDunningAt: addSeconds(tx.now, Math.max(1, next - previous) * 86_400),
    updatedAt: tx.now,
  });
}

function finishDunning(tx: Transaction, subscription: Subscription): void {
  if (tx.settings.dunning.finalAction === 'unpaid') {
    changeState(tx, subscription, 'unpaid', { nextDunningAt: null });
    return;
  }
  cancelNow(tx, tx.put('subscriptions', subscription), 'dunning', NO_CANCELLATION_REASON);
}
