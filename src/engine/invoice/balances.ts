import type { Invoice } from '../../domain/invoice/types.js';
import { uidOf } from '../../kernel/ids.js';
import { add, isPositive, min, sub } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';
import { creditOf, issueCreditNote, reverseCreditNotes } from './credit-notes.js';

/**
 * Applies the subscription's service credits, then its prepayments, to what the invoice owes. Both come
 * off the subscription's balances.
 */
export function applyBalances(tx: Transaction, invoice: Invoice): Invoice {
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  if (subscription === undefined || !isPositive(invoice.totals.due)) return invoice;
  const creditApplied = min(subscription.serviceCreditBalance, invoice.totals.due);
  const afterCredit = sub(invoice.totals.due, isPositive(creditApplied) ? creditApplied : '0');
  const prepaymentApplied = min(subscription.prepaymentBalance, afterCredit);
  let updated = invoice;
  if (isPositive(creditApplied)) {
    // Applying the credit is a transaction of the account, numbered like payments and lines.
    tx.next('transactions');
    const note = issueCreditNote(tx, {
      reason: 'service_credit',
      invoice,
      amount: creditApplied,
      memo: 'Service credit',
      applied: true,
    });
    updated = {
      ...updated,
      credits: [...updated.credits, creditOf(note, 'service_credit')],
      totals: {
        ...updated.totals,
        credit: add(updated.totals.credit, creditApplied),
        due: sub(updated.totals.due, creditApplied),
      },
    };
  }
  if (isPositive(prepaymentApplied)) {
    const transactionId = tx.next('transactions');
    updated = {
      ...updated,
      payments: [
        ...updated.payments,
        {
          uid: uidOf('pmt', transactionId),
          transactionId,
          transactionTime: tx.now,
          memo: 'Prepayment',
          originalAmount: prepaymentApplied,
          appliedAmount: prepaymentApplied,
          prepayment: true,
          method: 'other',
          lastFour: null,
          cardType: null,
          gatewayTransactionId: null,
          receivedOn: calendarDateOf(tx.now, tx.settings.timeZone),
        },
      ],
      totals: {
        ...updated.totals,
        paid: add(updated.totals.paid, prepaymentApplied),
        due: sub(updated.totals.due, prepaymentApplied),
      },
    };
  }
  if (updated === invoice) return invoice;
  tx.put('subscriptions', {
    ...subscription,
    serviceCreditBalance: sub(
      subscription.serviceCreditBalance,
      isPositive(creditApplied) ? creditApplied : '0',
    ),
    prepaymentBalance: sub(
      subscription.prepaymentBalance,
      isPositive(prepaymentApplied) ? prepaymentApplied : '0',
    ),
    updatedAt: tx.now,
  });
  return tx.put('invoices', { ...updated, updatedAt: tx.now });
}

/** Marks an invoice paid when nothing is due. */
export function settleIfPaid(tx: Transaction, invoice: Invoice): Invoice {
  if (isPositive(invoice.totals.due) || invoice.status === 'paid') return invoice;
  return tx.put('invoices', {
    ...invoice,
    status: 'paid',
    paidDate: calendarDateOf(tx.now, tx.settings.timeZone),
    updatedAt: tx.now,
  });
}

/**
 * Gives back what an invoice took from the subscription's balances between `before` and `after` (a
 * rollback to pending), and reverses the credit notes of the credits it gives back.
 */
export function restoreBalances(tx: Transaction, before: Invoice, after: Invoice): void {
  const subscription = tx.get('subscriptions', before.subscriptionId);
  if (subscription === undefined) return;
  reverseCreditNotes(tx, after, after.credits.slice(before.credits.length));
  const credit = sub(after.totals.credit, before.totals.credit);
  const prepaid = sub(after.totals.paid, before.totals.paid);
  if (!isPositive(credit) && !isPositive(prepaid)) return;
  tx.put('subscriptions', {
    ...subscription,
    serviceCreditBalance: add(subscription.serviceCreditBalance, credit),
    prepaymentBalance: add(subscription.prepaymentBalance, prepaid),
    updatedAt: tx.now,
  });
}
