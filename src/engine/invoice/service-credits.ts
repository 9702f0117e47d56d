/**
 * Service credit granted or taken back by hand (`service_credits.json`, `service_credit_deductions.json`,
 * and a group's, which is its primary subscription's): the balance, the books and the
 * `subscription_service_credit_account_balance_changed` record move together.
 */

import type { DomainError } from '../../domain/errors.js';
import { serviceCreditBalanceChangedData } from '../../domain/event-log/balance-data.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, cmp, type Dec, isPositive, neg, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { formatTimestamp } from '../../kernel/time.js';
import { postServiceCreditGranted } from '../ledger/transfers.js';
import type { Transaction } from '../transaction.js';

/** A manual change of a service credit balance: the entry's transaction id and the subscription after it. */
export interface ServiceCreditEntry {
  readonly id: number;
  readonly subscription: Subscription;
}

/** Grants service credit by hand: credits_granted ← service_credits, source `manual`. */
export function grantServiceCredit(
  tx: Transaction,
  subscription: Subscription,
  amount: Dec,
  memo: string | undefined,
): Result<ServiceCreditEntry, DomainError> {
  if (!isPositive(amount))
    return err({ code: 'amount', status: 422, message: 'Amount: must be greater than 0.' });
  const updated = tx.put('subscriptions', {
    ...subscription,
    serviceCreditBalance: add(subscription.serviceCreditBalance, amount),
    updatedAt: tx.now,
  });
  postServiceCreditGranted(tx, subscription.id, amount, 'manual');
  const id = tx.next('transactions');
  recordChange(tx, updated, amount, memo ?? 'Service credit', `Service credit of ${amount} added`);
  return ok({ id, subscription: updated });
}

/** Takes service credit back, at most the balance: service_credits ← credits_granted. */
export function deductServiceCredit(
  tx: Transaction,
  subscription: Subscription,
  amount: Dec,
  memo: string | undefined,
): Result<ServiceCreditEntry, DomainError> {
  if (!isPositive(amount))
    return err({ code: 'amount', status: 422, message: 'Amount: must be greater than 0.' });
  if (cmp(amount, subscription.serviceCreditBalance) > 0)
    return err({
      code: 'amount',
      status: 422,
      message: "Amount: must be less than or equal to the subscription's service credit balance.",
    });
  const updated = tx.put('subscriptions', {
    ...subscription,
    serviceCreditBalance: sub(subscription.serviceCreditBalance, amount),
    updatedAt: tx.now,
  });
  tx.transfer({
    kind: 'service_credit_deducted',
    debit: { name: 'service_credits', of: subscription.id },
    credit: { name: 'credits_granted', of: null },
    amount,
    subscriptionId: subscription.id,
    invoiceId: null,
    source: null,
  });
  const id = tx.next('transactions');
  recordChange(
    tx,
    updated,
    neg(amount),
    memo ?? 'Service credit deduction',
    `Service credit of ${amount} deducted`,
  );
  return ok({ id, subscription: updated });
}

function recordChange(
  tx: Transaction,
  subscription: Subscription,
  change: Dec,
  reason: string,
  message: string,
): void {
  tx.record({
    key: 'subscription_service_credit_account_balance_changed',
    message,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: serviceCreditBalanceChangedData(
      { reason, balance: subscription.serviceCreditBalance, change, currency: tx.settings.currency },
      formatTimestamp(tx.now, tx.settings.timeZone),
    ),
  });
}
