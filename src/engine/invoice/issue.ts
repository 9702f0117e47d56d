/**
 * Issuing a draft or pending invoice: its balances applied, collected, and what a failed payment does.
 * Balances, voiding and recorded payments have files of their own in this folder.
 */

import type { DomainError } from '../../domain/errors.js';
import type { Invoice, InvoiceStatus } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { addSeconds } from '../../kernel/time.js';
import { changeState } from '../subscription/state-change.js';
import type { Transaction } from '../transaction.js';
import { applyBalances, restoreBalances, settleIfPaid } from './balances.js';
import { collectInvoice } from './collect.js';
import { recordInvoiceIssued } from './issued-event.js';
import { refused } from './refusal.js';

export type FailedPaymentAction = 'leave_open_invoice' | 'rollback_to_pending' | 'initiate_dunning';

function recordIssued(
  tx: Transaction,
  invoice: Invoice,
  fromStatus: InvoiceStatus,
  onEmail: (invoice: Invoice) => void,
): Invoice {
  recordInvoiceIssued(tx, invoice, fromStatus);
  if (tx.settings.invoiceEmails) {
    onEmail(invoice);
    return tx.put('invoices', {
      ...invoice,
      history: [...invoice.history, { at: tx.now, kind: 'email_sent', detail: invoice.customer.email }],
    });
  }
  return invoice;
}

/**
 * Issues a draft or pending invoice: it opens, takes service credits then prepayments, and is collected
 * unless it is a remittance invoice or already paid. A failed payment leaves it open (the default),
 * rolls it back to pending with its balances returned, or starts dunning (`onFailedPayment`). `onEmail`
 * records the customer email where the site setting is on.
 */
export function issueInvoice(
  tx: Transaction,
  invoice: Invoice,
  onFailedPayment: FailedPaymentAction | undefined,
  gateway: PaymentGateway,
  onEmail: (invoice: Invoice) => void,
): Result<Invoice, DomainError> {
  if (invoice.status !== 'draft' && invoice.status !== 'pending')
    return err(refused(`Only draft or pending invoices can be issued; this one is ${invoice.status}.`));
  if (invoice.consolidationLevel === 'child' && invoice.status === 'pending')
    return err(
      refused('A pending child invoice of a subscription group member cannot be issued on its own.'),
    );
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  if (subscription === undefined) return err(refused('The invoice has no subscription.'));
  const remittance = invoice.collectionMethod === 'remittance';
  if (remittance && onFailedPayment !== undefined)
    return err(refused('on_failed_payment cannot be used for remittance invoices.'));
  const fromStatus = invoice.status;
  const opened = tx.put('invoices', {
    ...invoice,
    status: 'open',
    history: [...invoice.history, { at: tx.now, kind: 'issued', detail: `from ${fromStatus}` }],
    updatedAt: tx.now,
  });
  const applied = settleIfPaid(tx, applyBalances(tx, opened));
  if (remittance || applied.status === 'paid')
    return ok(recordIssued(tx, tx.get('invoices', applied.id) ?? applied, fromStatus, onEmail));
  const outcome = collectInvoice(tx, applied.id, gateway);
  const collected = tx.get('invoices', applied.id) ?? applied;
  if (outcome.kind === 'paid' || outcome.kind === 'nothing-due')
    return ok(recordIssued(tx, collected, fromStatus, onEmail));
  const action = onFailedPayment ?? 'leave_open_invoice';
  const failure = outcome.kind === 'failed' ? outcome.message : 'No payment profile';
  const withFailure: Invoice =
    outcome.kind === 'failed'
      ? collected
      : {
          ...collected,
          history: [...collected.history, { at: tx.now, kind: 'payment_failed', detail: failure }],
        };
  if (action === 'rollback_to_pending') {
    // Nothing applied stays applied: the credits and prepayments go back, the invoice waits as pending.
    restoreBalances(tx, invoice, withFailure);
    return ok(
      tx.put('invoices', { ...invoice, status: 'pending', history: withFailure.history, updatedAt: tx.now }),
    );
  }
  const issued = recordIssued(tx, tx.put('invoices', withFailure), fromStatus, onEmail);
  if (action === 'initiate_dunning')
    startInvoiceDunning(tx, tx.get('subscriptions', subscription.id) ?? subscription, issued);
  return ok(issued);
}

function startInvoiceDunning(tx: Transaction, subscription: Subscription, invoice: Invoice): void {
  if (
    subscription.state === 'past_due' ||
    subscription.state === 'canceled' ||
    subscription.state === 'expired'
  )
    return;
  const firstRetry = tx.settings.dunning.retryDays[0] ?? 0;
  changeState(tx, subscription, 'past_due', {
    dunningAttempts: 0,
    nextDunningAt: addSeconds(tx.now, Math.max(1, firstRetry) * 86_400),
    dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoice.id],
  });
}
