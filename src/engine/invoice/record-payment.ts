/** Recording a payment on an invoice: by the payer, from prepayments or from service credit. */

import type { DomainError } from '../../domain/errors.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { uidOf } from '../../kernel/ids.js';
import { add, type Dec, isNegative, isPositive, isZero, neg, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { calendarDateOf } from '../../kernel/time.js';
import { childRefusal, settleChildren } from '../group/invoices.js';
import { listed } from '../list-index.js';
import { changeState } from '../subscription/state-change.js';
import type { Transaction } from '../transaction.js';
import { settleIfPaid } from './balances.js';
import { creditOf, issueCreditNote } from './credit-notes.js';
import { refused } from './refusal.js';

/** Records a payment received outside the gateway (cash, check, ...) against an open invoice. */
export function recordInvoicePayment(
  tx: Transaction,
  invoice: Invoice,
  payment: {
    amount: Dec;
    memo: string;
    method: 'check' | 'cash' | 'money_order' | 'ach' | 'other' | 'credit_card';
    /** Money received (`external`), or taken from the subscription's prepayments or service credit. */
    source: 'external' | 'prepayment' | 'service_credit';
  },
): Result<Invoice, DomainError> {
  if (invoice.status !== 'open' && invoice.status !== 'pending')
    return err(refused(`Payments can only be recorded on open invoices; this one is ${invoice.status}.`));
  const alone = childRefusal(tx, invoice, 'paid');
  if (alone !== null) return err(refused(alone));
  if (!isPositive(payment.amount)) return err(refused('Amount: must be greater than 0.'));
  if (sub(invoice.totals.due, payment.amount).startsWith('-'))
    return err(refused('Amount: must be less than or equal to the amount due.'));
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  const balanceProblem = drawProblem(subscription, invoice, payment.source, payment.amount);
  if (balanceProblem !== null) return err(balanceProblem);
  const credit = payment.source === 'service_credit';
  const note = credit
    ? issueCreditNote(tx, {
        reason: 'service_credit',
        invoice,
        amount: payment.amount,
        memo: payment.memo,
        applied: true,
      })
    : undefined;
  const transactionId = tx.next('transactions');
  const entry = {
    uid: uidOf('pmt', transactionId),
    transactionTime: tx.now,
    memo: payment.memo,
    originalAmount: payment.amount,
    appliedAmount: payment.amount,
  };
  const paid = tx.put('invoices', {
    ...invoice,
    ...(note !== undefined
      ? { credits: [...invoice.credits, creditOf(note, 'service_credit')] }
      : {
          payments: [
            ...invoice.payments,
            {
              ...entry,
              transactionId,
              prepayment: payment.source === 'prepayment',
              method: payment.method,
              lastFour: null,
              cardType: null,
              gatewayTransactionId: null,
              receivedOn: calendarDateOf(tx.now, tx.settings.timeZone),
            },
          ],
        }),
    totals: {
      ...invoice.totals,
      ...(credit
        ? { credit: add(invoice.totals.credit, payment.amount) }
        : { paid: add(invoice.totals.paid, payment.amount) }),
      due: sub(invoice.totals.due, payment.amount),
    },
    history: [...invoice.history, { at: tx.now, kind: 'payment_recorded', detail: payment.memo }],
    updatedAt: tx.now,
  });
  if (subscription !== undefined) {
    // Revenue is money received: a prepayment counted when it came in, a service credit is none. A
    // consolidated invoice's goes to its members when it pays them (settleChildren), counting whatever
    // paid it, so the primary's prepayment or service credit spent on one leaves the primary's revenue
    // for theirs: the site's revenue stays the money it received.
    const parent = invoice.consolidationLevel === 'parent';
    const revenue =
      payment.source === 'external' ? (parent ? '0' : payment.amount) : parent ? neg(payment.amount) : '0';
    tx.put('subscriptions', {
      ...subscription,
      totalRevenue: add(subscription.totalRevenue, revenue),
      prepaymentBalance:
        payment.source === 'prepayment'
          ? sub(subscription.prepaymentBalance, payment.amount)
          : subscription.prepaymentBalance,
      serviceCreditBalance: credit
        ? sub(subscription.serviceCreditBalance, payment.amount)
        : subscription.serviceCreditBalance,
      updatedAt: tx.now,
    });
  }
  tx.record({
    key: 'payment_success',
    message: `Payment of ${payment.amount} recorded for invoice ${invoice.number}`,
    subscriptionId: invoice.subscriptionId,
    customerId: invoice.customerId,
    data:
      subscription === undefined
        ? null
        : { product_id: subscription.productId, account_transaction_id: transactionId },
  });
  const settled = settleIfPaid(tx, paid);
  if (settled.status === 'paid' && settled.consolidationLevel === 'parent') settleChildren(tx, settled);
  if (settled.status === 'paid') resumeIfPaidUp(tx, settled.subscriptionId);
  return ok(settled);
}

/**
 * An `unpaid` subscription whose owed invoices are all paid is `active` again: its collections resume
 * (Maxio: "Charges accrue, but collections pause" until it is reactivated or its balance is paid).
 */
function resumeIfPaidUp(tx: Transaction, subscriptionId: number): void {
  const subscription = tx.get('subscriptions', subscriptionId);
  if (subscription?.state !== 'unpaid') return;
  const owed = [
    ...subscription.dunningInvoiceIds,
    ...listed(tx.state.listIndexes, 'openInvoiceSubscriptions', subscriptionId),
  ].some((id) => {
    const invoice = tx.get('invoices', id);
    return invoice !== undefined && (invoice.status === 'open' || invoice.status === 'pending');
  });
  if (owed) return;
  changeState(tx, subscription, 'active', { dunningAttempts: 0, nextDunningAt: null, dunningInvoiceIds: [] });
}

/** Why a payment from a subscription's balance cannot be taken, or null when it can. */
function drawProblem(
  subscription: Subscription | undefined,
  invoice: Invoice,
  source: 'external' | 'prepayment' | 'service_credit',
  amount: Dec,
): DomainError | null {
  if (
    source === 'prepayment' &&
    (subscription === undefined || isNegative(sub(subscription.prepaymentBalance, amount)))
  )
    return {
      code: 'prepayment_balance',
      status: 422,
      message: "Amount: must be less than or equal to the subscription's prepayment balance.",
    };
  if (source !== 'service_credit') return null;
  if (subscription === undefined || isNegative(sub(subscription.serviceCreditBalance, amount)))
    return {
      code: 'service_credit_balance',
      status: 422,
      message: "Amount: must be less than or equal to the subscription's service credit balance.",
    };
  if (!isZero(sub(invoice.totals.due, amount)))
    return {
      code: 'service_credit_partial',
      status: 422,
      message: 'A service credit payment must pay the full amount due.',
    };
  return null;
}
