/**
 * Prepayments: money a customer pays ahead. Each one is kept (`prepayments` table) so it can be listed and
 * refunded; the subscription's `prepaymentBalance` is what its invoices draw on, oldest money first, so
 * what remains of each prepayment is the newest part of the balance.
 */
import type { DomainError } from '../../domain/errors.js';
import type { PrepaymentRecord } from '../../domain/invoice/credit-note.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, cmp, type Dec, isPositive, min, neg, sub, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { postPrepaymentReceived } from '../ledger/transfers.js';
import { listed, listedRows } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/** How a prepayment was received. */
export type PrepaymentMethod = PrepaymentRecord['method'];

/**
 * Money received for a subscription's prepayments: a `prepayments` row, the balance, the books
 * (cash ← prepayments) and a `subscription_prepayment_account_balance_changed` record. Revenue counts it
 * now, as money received, and not again when it pays an invoice.
 */
export function receivePrepayment(
  tx: Transaction,
  subscription: Subscription,
  input: { amount: Dec; memo: string; details: string | null; method: PrepaymentMethod },
): { prepayment: PrepaymentRecord; subscription: Subscription } {
  const id = tx.nextId('prepayments');
  const prepayment = tx.put('prepayments', {
    id,
    subscriptionId: subscription.id,
    amount: input.amount,
    refunded: '0',
    memo: input.memo,
    details: input.details,
    method: input.method,
    external: true,
    createdAt: tx.now,
  });
  const updated = tx.put('subscriptions', {
    ...subscription,
    prepaymentBalance: add(subscription.prepaymentBalance, input.amount),
    totalRevenue: add(subscription.totalRevenue, input.amount),
    updatedAt: tx.now,
  });
  postPrepaymentReceived(tx, subscription.id, input.amount);
  recordPrepaymentChange(tx, updated, input.amount, input.memo === '' ? 'Prepayment' : input.memo);
  return { prepayment, subscription: updated };
}

/**
 * Keeps a row for money that became a prepayment without being received as one (a voided invoice's
 * payments), so that listing and refunding see it; the caller moves the balance and the books.
 */
export function keepAsPrepayment(tx: Transaction, subscriptionId: number, amount: Dec, memo: string): void {
  const id = tx.nextId('prepayments');
  tx.put('prepayments', {
    id,
    subscriptionId,
    amount,
    refunded: '0',
    memo,
    details: null,
    method: 'other',
    external: true,
    createdAt: tx.now,
  });
}

/** The `subscription_prepayment_account_balance_changed` record of a change of the balance. */
export function recordPrepaymentChange(
  tx: Transaction,
  subscription: Subscription,
  change: Dec,
  reason: string,
): void {
  const currency = tx.settings.currency;
  tx.record({
    key: 'subscription_prepayment_account_balance_changed',
    message: isPositive(change)
      ? `Prepayment of ${change} received`
      : `Prepayment of ${neg(change)} refunded`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      reason,
      prepayment_account_balance_in_cents: toMinor(subscription.prepaymentBalance, currency),
      prepayment_balance_change_in_cents: toMinor(change, currency),
      currency_code: currency,
    },
  });
}

/** A subscription's prepayments, oldest first. */
export function prepaymentsOf(tx: Transaction, subscriptionId: number): PrepaymentRecord[] {
  return listedRows(tx.state, 'subscriptionPrepayments', subscriptionId, 'prepayments');
}

/**
 * What remains of each prepayment, by id: invoices draw the oldest money first, so the balance is the
 * newest prepayments' unrefunded amounts, the oldest of them partly.
 */
export function remainingOf(
  prepayments: readonly PrepaymentRecord[],
  balance: Dec,
): ReadonlyMap<number, Dec> {
  const remaining = new Map<number, Dec>();
  let left = balance;
  for (let i = prepayments.length - 1; i >= 0; i -= 1) {
    const prepayment = prepayments[i];
    if (prepayment === undefined) continue;
    const unrefunded = sub(prepayment.amount, prepayment.refunded);
    const held = isPositive(left) ? min(unrefunded, left) : '0';
    remaining.set(prepayment.id, held);
    left = sub(left, held);
  }
  return remaining;
}

/**
 * Returns unused prepaid money to the customer: at most what remains of that prepayment. The books move
 * prepayments ← cash; revenue loses it, as it gained it when it came in.
 */
export function refundPrepayment(
  tx: Transaction,
  subscription: Subscription,
  prepayment: PrepaymentRecord,
  input: { amount: Dec; memo: string },
): Result<PrepaymentRecord, DomainError> {
  const remaining =
    remainingOf(prepaymentsOf(tx, subscription.id), subscription.prepaymentBalance).get(prepayment.id) ?? '0';
  if (!isPositive(input.amount))
    return err({ code: 'amount', status: 400, message: 'Amount: must be greater than 0.' });
  if (cmp(input.amount, remaining) > 0)
    return err({
      code: 'amount',
      status: 400,
      message: `Amount: must be less than or equal to the prepayment's remaining amount (${remaining}).`,
    });
  const refunded = tx.put('prepayments', { ...prepayment, refunded: add(prepayment.refunded, input.amount) });
  const updated = tx.put('subscriptions', {
    ...subscription,
    prepaymentBalance: sub(subscription.prepaymentBalance, input.amount),
    totalRevenue: sub(subscription.totalRevenue, input.amount),
    updatedAt: tx.now,
  });
  tx.transfer({
    kind: 'prepayment_refunded',
    debit: { name: 'prepayments', of: subscription.id },
    credit: { name: 'cash', of: subscription.id },
    amount: input.amount,
    subscriptionId: subscription.id,
    invoiceId: null,
    source: null,
  });
  recordPrepaymentChange(tx, updated, neg(input.amount), input.memo);
  return ok(refunded);
}

/** Whether a subscription has invoices still owed (open or pending). */
export function owesInvoices(tx: Transaction, subscriptionId: number): boolean {
  return listed(tx.state.listIndexes, 'openInvoiceSubscriptions', subscriptionId).length > 0;
}
