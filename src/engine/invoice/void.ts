/** Voiding an invoice: what it had taken goes back, and money paid on it moves to prepayments. */

import type { DomainError } from '../../domain/errors.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, type Dec, isPositive, sub, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { childInvoices, childRefusal } from '../group/invoices.js';
import type { Transaction } from '../transaction.js';
import { reverseCreditNotes } from './credit-notes.js';
import { keepAsPrepayment } from './prepayments.js';
import { refused } from './refusal.js';

/**
 * Voids an invoice: prepayments and credits applied to it return to the subscription (their credit notes
 * are reversed), and money received on it and not refunded moves to the subscription's prepayments (a `subscription_prepayment_account_balance_changed`
 * record says so), so nothing paid disappears with the invoice. The balances' return itself records no
 * site event: `void_invoice` is an invoice event of the official API (`/invoices/events.json`), not an
 * `EventKey`, and it mirrors their use by the invoice, which records none either.
 */
export function voidInvoice(tx: Transaction, invoice: Invoice, reason: string): Result<Invoice, DomainError> {
  if (!['open', 'pending', 'canceled'].includes(invoice.status))
    return err(refused(`A ${invoice.status} invoice cannot be voided.`));
  const alone = childRefusal(tx, invoice, 'voided');
  if (alone !== null) return err(refused(alone));
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  // Credit notes a refund applied stay: they forgave part of what the invoice billed, which was never owed.
  const kept = invoice.credits.filter((credit) => credit.kind === 'credit_note');
  const returned = invoice.credits.filter((credit) => credit.kind !== 'credit_note');
  const returnedCredit = returned.reduce((total, credit) => add(total, credit.appliedAmount), '0' as Dec);
  const refunded = (invoice.refunds ?? []).reduce((total, refund) => add(total, refund.amount), '0' as Dec);
  const returnedPrepayment = invoice.payments
    .filter((payment) => payment.prepayment)
    .reduce((total, payment) => add(total, payment.appliedAmount), '0' as Dec);
  // A child's payments are its parent's money, which moves with the parent.
  const received =
    invoice.consolidationLevel === 'child'
      ? '0'
      : sub(
          invoice.payments
            .filter((payment) => !payment.prepayment)
            .reduce((total, payment) => add(total, payment.appliedAmount), '0' as Dec),
          refunded,
        );
  if (
    subscription !== undefined &&
    (isPositive(returnedCredit) || isPositive(returnedPrepayment) || isPositive(received))
  ) {
    const prepaymentBalance = add(add(subscription.prepaymentBalance, returnedPrepayment), received);
    tx.put('subscriptions', {
      ...subscription,
      serviceCreditBalance: add(subscription.serviceCreditBalance, returnedCredit),
      prepaymentBalance,
      // Money paid on a consolidated invoice becomes revenue when it pays a member; voided, it is the primary's.
      totalRevenue:
        invoice.consolidationLevel === 'parent'
          ? add(add(subscription.totalRevenue, received), returnedPrepayment)
          : subscription.totalRevenue,
      updatedAt: tx.now,
    });
    if (isPositive(received)) recordPaymentMoved(tx, subscription, invoice, received, prepaymentBalance);
  }
  reverseCreditNotes(tx, invoice, returned);
  const voided = tx.put('invoices', {
    ...invoice,
    status: 'voided',
    voidReason: reason,
    credits: kept,
    payments: invoice.payments.filter((payment) => !payment.prepayment),
    totals: {
      ...invoice.totals,
      credit: sub(invoice.totals.credit, returnedCredit),
      paid: sub(invoice.totals.paid, returnedPrepayment),
      due: '0',
    },
    history: [
      ...invoice.history,
      // What is taken off keeps an entry, so the invoice still tells that it was applied.
      ...returned.map((credit) => ({
        at: tx.now,
        kind: 'credit_removed' as const,
        detail: 'credit returned on void',
        credit,
      })),
      ...invoice.payments
        .filter((payment) => payment.prepayment)
        .map((payment) => ({
          at: tx.now,
          kind: 'payment_removed' as const,
          detail: 'prepayment returned on void',
          payment,
        })),
      { at: tx.now, kind: 'voided', detail: reason },
    ],
    updatedAt: tx.now,
  });
  // Voiding a consolidated invoice voids the child invoices it stood for.
  if (voided.consolidationLevel === 'parent')
    for (const child of childInvoices(tx, voided))
      if (child.status === 'pending' || child.status === 'open') voidInvoice(tx, child, reason);
  return ok(voided);
}

function recordPaymentMoved(
  tx: Transaction,
  subscription: Subscription,
  invoice: Invoice,
  amount: Dec,
  balance: Dec,
): void {
  const currency = tx.settings.currency;
  keepAsPrepayment(tx, subscription.id, amount, `Payment on voided invoice ${invoice.number}`);
  tx.record({
    key: 'subscription_prepayment_account_balance_changed',
    message: `Payment of ${amount} on voided invoice ${invoice.number} moved to prepayments`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      reason: `Payment on voided invoice ${invoice.number}`,
      prepayment_account_balance_in_cents: toMinor(balance, currency),
      prepayment_balance_change_in_cents: toMinor(amount, currency),
      currency_code: currency,
    },
  });
}
