/**
 * The invoice lifecycle after creation (SPEC 3, invoice table): issuing a draft or pending invoice,
 * applying the subscription's service credits and prepayments, collecting, recording payments, voiding.
 */

import type { DomainError } from '../../domain/errors.js';
import { invoiceIssuedData } from '../../domain/invoice/issued-event.js';
import type { Invoice, InvoiceStatus } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { uidOf } from '../../kernel/ids.js';
import { add, type Dec, isNegative, isPositive, isZero, min, neg, sub, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { addSeconds, calendarDateOf } from '../../kernel/time.js';
import { childInvoices, childRefusal, settleChildren } from '../group/invoices.js';
import { listed } from '../list-index.js';
import { changeState } from '../subscription/state-change.js';
import type { Transaction } from '../transaction.js';
import { collectInvoice } from './collect.js';

export type FailedPaymentAction = 'leave_open_invoice' | 'rollback_to_pending' | 'initiate_dunning';

const refused = (message: string): DomainError => ({ code: 'invoice_refused', status: 422, message });

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
    const transactionId = tx.next('transactions');
    updated = {
      ...updated,
      credits: [
        ...updated.credits,
        {
          uid: uidOf('cn', transactionId),
          creditNoteNumber: String(transactionId),
          transactionTime: tx.now,
          memo: 'Service credit',
          originalAmount: creditApplied,
          appliedAmount: creditApplied,
          kind: 'service_credit',
        },
      ],
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

function recordIssued(
  tx: Transaction,
  invoice: Invoice,
  fromStatus: InvoiceStatus,
  onEmail: (invoice: Invoice) => void,
): Invoice {
  tx.record({
    key: 'invoice_issued',
    message: `Invoice ${invoice.number} issued`,
    subscriptionId: invoice.subscriptionId,
    customerId: invoice.customerId,
    data: { ...invoiceIssuedData(invoice), from_status: fromStatus, to_status: invoice.status },
  });
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
 * Issues a draft or pending invoice with every row of SPEC 3's table. `onEmail` records the customer
 * email where the site setting is on.
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

function restoreBalances(tx: Transaction, before: Invoice, after: Invoice): void {
  const subscription = tx.get('subscriptions', before.subscriptionId);
  if (subscription === undefined) return;
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

/**
 * Voids an invoice: prepayments and credits applied to it return to the subscription, and money received
 * on it moves to the subscription's prepayments (a `subscription_prepayment_account_balance_changed`
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
  const returnedCredit = invoice.credits.reduce(
    (total, credit) => add(total, credit.appliedAmount),
    '0' as Dec,
  );
  const returnedPrepayment = invoice.payments
    .filter((payment) => payment.prepayment)
    .reduce((total, payment) => add(total, payment.appliedAmount), '0' as Dec);
  // A child's payments are its parent's money, which moves with the parent.
  const received =
    invoice.consolidationLevel === 'child'
      ? '0'
      : invoice.payments
          .filter((payment) => !payment.prepayment)
          .reduce((total, payment) => add(total, payment.appliedAmount), '0' as Dec);
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
  const voided = tx.put('invoices', {
    ...invoice,
    status: 'voided',
    voidReason: reason,
    credits: [],
    payments: invoice.payments.filter((payment) => !payment.prepayment),
    totals: { ...invoice.totals, credit: '0', paid: sub(invoice.totals.paid, returnedPrepayment), due: '0' },
    history: [...invoice.history, { at: tx.now, kind: 'voided', detail: reason }],
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
  const transactionId = tx.next('transactions');
  const credit = payment.source === 'service_credit';
  const entry = {
    uid: uidOf(credit ? 'cn' : 'pmt', transactionId),
    transactionTime: tx.now,
    memo: payment.memo,
    originalAmount: payment.amount,
    appliedAmount: payment.amount,
  };
  const paid = tx.put('invoices', {
    ...invoice,
    ...(credit
      ? {
          credits: [
            ...invoice.credits,
            { ...entry, creditNoteNumber: String(transactionId), kind: 'service_credit' as const },
          ],
        }
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
    // consolidated invoice's goes to its members when it pays them (settleChildren), so the primary's
    // prepayment spent on one leaves the primary's revenue for theirs.
    const parent = invoice.consolidationLevel === 'parent';
    const revenue =
      payment.source === 'external'
        ? parent
          ? '0'
          : payment.amount
        : payment.source === 'prepayment' && parent
          ? neg(payment.amount)
          : '0';
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
