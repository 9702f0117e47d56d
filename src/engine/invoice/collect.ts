/**
 * Turning charges into invoices and collecting them: the shared path of signups, renewals and (later)
 * allocations, migrations and ad hoc invoices.
 */

import type { Invoice, InvoiceLine, InvoicePayment } from '../../domain/invoice/types.js';
import { attemptKeyedBy, paymentAttemptKey } from '../../domain/payment/idempotency.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { subscriptionCopy } from '../../domain/subscription/row-copy.js';
import { listToArray } from '../../kernel/collection.js';
import { flatText } from '../../kernel/compact.js';
import { uidOf } from '../../kernel/ids.js';
import { add, type Dec, isPositive, min, sub, toMinor } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import { payingProfileId, settleChildren } from '../group/invoices.js';
import type { Transaction } from '../transaction.js';

export { createInvoice } from './build.js';
export type { ChargeLine } from './drafts.js';

export type CollectionOutcome =
  | { readonly kind: 'nothing-due' }
  | {
      readonly kind: 'not-collected';
      /** `collections-paused`: the subscription is `unpaid`, whose charges accrue without collection. */
      readonly reason: 'remittance' | 'no-payment-profile' | 'collections-paused';
    }
  | { readonly kind: 'paid'; readonly amount: Dec; readonly transactionId: number }
  | {
      readonly kind: 'failed';
      readonly amount: Dec;
      readonly message: string;
      readonly requiresAction: boolean;
    };

/**
 * Attempts to collect what an invoice still owes with the subscription's payment profile. Success pays
 * the invoice; failure leaves it open and records the failure in its history. Subscription revenue and
 * balance follow.
 */
export function collectInvoice(
  tx: Transaction,
  invoiceId: number,
  gateway: PaymentGateway,
): CollectionOutcome {
  const invoice = tx.get('invoices', invoiceId);
  if (invoice === undefined) throw new Error('invoice to collect exists');
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  if (subscription === undefined) throw new Error('invoice subscription exists');
  const due = invoice.totals.due;
  if (!isPositive(due)) {
    if (invoice.status !== 'paid') settle(tx, invoice);
    if (invoice.consolidationLevel === 'parent') settleChildren(tx, invoice);
    return { kind: 'nothing-due' };
  }
  if (subscription.paymentCollectionMethod === 'remittance')
    return { kind: 'not-collected', reason: 'remittance' };
  const profileId = payingProfileId(tx, invoice, subscription);
  const profile = profileId === null ? undefined : tx.get('paymentProfiles', profileId);
  if (profile === undefined) return { kind: 'not-collected', reason: 'no-payment-profile' };
  const outcome = gateway(
    attemptKeyedBy(
      {
        kind: 'payment',
        amount: due,
        currency: invoice.currency,
        paymentProfile: profile,
        customerId: invoice.customerId,
        subscriptionId: subscription.id,
        memo: `Payment for invoice ${invoice.number}`,
        at: tx.now,
      },
      () => paymentAttemptKey(tx.settings.subdomain, invoice, profile, due),
    ),
  );
  const transactionId = tx.next('transactions');
  if (!outcome.success) {
    tx.put('invoices', {
      ...invoice,
      history: [
        ...invoice.history,
        {
          at: tx.now,
          kind: 'payment_failed',
          detail: outcome.message,
          attempt: {
            transactionId,
            amount: due,
            method: profile.paymentType === 'bank_account' ? 'ach' : 'credit_card',
          },
        },
      ],
      updatedAt: tx.now,
    });
    tx.record({
      key: 'payment_failure',
      message: `Payment of ${due} failed for invoice ${invoice.number}: ${outcome.message}`,
      subscriptionId: subscription.id,
      customerId: invoice.customerId,
      data: { product_id: subscription.productId, account_transaction_id: transactionId },
    });
    return {
      kind: 'failed',
      amount: due,
      message: outcome.message,
      requiresAction: outcome.requiresAction === true,
    };
  }
  const payment: InvoicePayment = {
    uid: uidOf('pmt', transactionId),
    transactionId,
    transactionTime: tx.now,
    memo: flatText(`Payment for invoice ${invoice.number}`),
    originalAmount: due,
    appliedAmount: due,
    prepayment: false,
    method: profile.paymentType === 'bank_account' ? 'bank_account' : 'credit_card',
    lastFour: profile.lastFour,
    cardType: profile.cardType,
    gatewayTransactionId: flatOrNull(outcome.gatewayTransactionId ?? null),
    receivedOn: calendarDateOf(tx.now, tx.settings.timeZone),
  };
  const paid: Invoice = {
    ...invoice,
    // Not a spread into a literal, which leaves room for 17 elements behind one payment; a first payment
    // in a literal of its own rather than concatenated to the shared empty list, which takes longer.
    payments: invoice.payments.length === 0 ? [payment] : invoice.payments.concat(payment),
    totals: { ...invoice.totals, paid: add(invoice.totals.paid, due), due: '0' },
    status: 'paid',
    paidDate: calendarDateOf(tx.now, tx.settings.timeZone),
    updatedAt: tx.now,
  };
  // Paid and settled in one row: a renewal day copies each of its invoices once less.
  tx.put('invoices', paid);
  // A consolidated invoice's revenue belongs to the members whose child invoices it pays.
  if (paid.consolidationLevel === 'parent') settleChildren(tx, paid);
  else {
    const revised = subscriptionCopy(tx.get('subscriptions', subscription.id) ?? subscription);
    revised.totalRevenue = add(subscription.totalRevenue, due);
    revised.balance = sub(subscription.balance, min(due, subscription.balance));
    revised.updatedAt = tx.now;
    tx.put('subscriptions', revised);
  }
  tx.record({
    key: 'payment_success',
    message: `Successful payment of ${due} for invoice ${invoice.number}`,
    subscriptionId: subscription.id,
    customerId: invoice.customerId,
    data: { product_id: subscription.productId, account_transaction_id: transactionId },
  });
  return { kind: 'paid', amount: due, transactionId };
}

function settle(tx: Transaction, invoice: Invoice): void {
  tx.put('invoices', {
    ...invoice,
    status: 'paid',
    paidDate: calendarDateOf(tx.now, tx.settings.timeZone),
    updatedAt: tx.now,
  });
}

/** Cents of an amount in the site currency, for `*_in_cents` fields. */
export const centsOf = (tx: Transaction, amount: Dec): number => toMinor(amount, tx.settings.currency);

/** The lines of an invoice as an array. */
export const invoiceLines = (invoice: Invoice): InvoiceLine[] => listToArray(invoice.lines);

const flatOrNull = (text: string | null): string | null => (text === null ? null : flatText(text));
