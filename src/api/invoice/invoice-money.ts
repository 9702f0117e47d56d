/**
 * Money on invoices beyond one payment: refunds, one payment spread over several invoices, and a payment
 * for a subscription that pays its oldest open invoices and keeps the rest as a prepayment.
 */

import type { Invoice } from '../../domain/invoice/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { groupOf } from '../../engine/group/membership.js';
import { receivePrepayment } from '../../engine/invoice/prepayments.js';
import { recordInvoicePayment } from '../../engine/invoice/record-payment.js';
import { refundInvoice } from '../../engine/invoice/refund.js';
import { listed } from '../../engine/list-index.js';
import type { Transaction } from '../../engine/transaction.js';
import { add, cmp, type Dec, isPositive, min, moneyFormatter, sub, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zBool, zDecimal, zId, zText } from '../decode.js';
import { type Route, type RouteError, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { presentInvoice } from './invoice-present.js';
import { findInvoice } from './invoices.js';

const money = () => zDecimal({ maxScale: 2, allowNegative: false, maxIntegerDigits: 12 });
const METHODS = ['credit_card', 'check', 'cash', 'money_order', 'ach', 'other'] as const;
const refundBody = z.object({
  refund: z.object({
    amount: money(),
    memo: zText(2000).optional(),
    payment_id: zId(),
    external: zBool().optional(),
    apply_credit: zBool().optional(),
    void_invoice: zBool().optional(),
    segment_uids: z.union([z.literal('all'), z.array(zText(40))]).optional(),
  }),
});
const multiPaymentBody = z.object({
  payment: z.object({
    memo: zText(2000).optional(),
    details: zText(2000).optional(),
    method: z.enum(METHODS).optional(),
    amount: money(),
    received_on: zText(40).optional(),
    applications: z
      .array(z.object({ invoice_uid: zText(40), amount: money() }))
      .min(1)
      .max(200),
  }),
});
const subscriptionPaymentBody = z.object({
  payment: z.object({
    amount: money(),
    memo: zText(2000).optional(),
    payment_details: zText(2000).optional(),
    payment_method: z.enum(METHODS).optional(),
  }),
});

const refused = (message: string): RouteError => ({ code: 'refused', status: 422, message });

/** A subscription's open invoices it can be paid for, oldest first (a group member's segments are its parent's). */
function openInvoicesOf(tx: Transaction, subscription: Subscription): Invoice[] {
  const invoices: Invoice[] = [];
  for (const id of listed(tx.state.listIndexes, 'openInvoiceSubscriptions', subscription.id)) {
    const invoice = tx.get('invoices', id);
    if (invoice !== undefined && invoice.status === 'open' && invoice.consolidationLevel !== 'child')
      invoices.push(invoice);
  }
  return invoices.sort((a, b) => a.id - b.id);
}

/** Why a subscription cannot take a bulk payment (a group member that is not its primary), or null. */
function memberRefusal(tx: Transaction, subscription: Subscription): string | null {
  const group = groupOf(tx, subscription.id);
  return group !== undefined && group.primarySubscriptionId !== subscription.id
    ? 'Only ungrouped or primary subscriptions may be paid with a bulk payment.'
    : null;
}

/** Pays a subscription's oldest open invoices, then keeps what is left as a prepayment. */
function paySubscription(
  tx: Transaction,
  subscription: Subscription,
  payment: { amount: Dec; memo: string; details: string | null; method: (typeof METHODS)[number] },
): Result<{ paid: Invoice[]; excess: Dec }, RouteError> {
  let left = payment.amount;
  const paid: Invoice[] = [];
  for (const invoice of openInvoicesOf(tx, subscription)) {
    if (!isPositive(left)) break;
    const amount = min(left, invoice.totals.due);
    if (!isPositive(amount)) continue;
    const recorded = recordInvoicePayment(tx, invoice, {
      amount,
      memo: payment.memo,
      method: payment.method,
      source: 'external',
    });
    if (!recorded.ok) return recorded;
    paid.push(recorded.value);
    left = sub(left, amount);
  }
  if (isPositive(left)) {
    const current = tx.get('subscriptions', subscription.id) ?? subscription;
    receivePrepayment(tx, current, {
      amount: left,
      memo: payment.memo === '' ? 'Excess of a payment' : payment.memo,
      details: payment.details,
      method: payment.method,
    });
  }
  return ok({ paid, excess: left });
}

export const invoiceMoneyRoutes = [
  {
    method: 'POST',
    path: '/invoices/{uid}/refunds.json',
    body: refundBody,
    run: ({ tx, params, body, gateway }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const input = decodeBody(refundBody, body);
      if (!input.ok) return input;
      const refund = input.value.refund;
      const refunded = refundInvoice(
        tx,
        invoice,
        {
          paymentId: refund.payment_id,
          amount: refund.amount,
          memo: refund.memo ?? '',
          external: refund.external ?? false,
          applyCredit: refund.apply_credit ?? false,
          voidInvoice: refund.void_invoice ?? false,
        },
        gateway,
      );
      if (!refunded.ok) return refunded;
      const after = refunded.value;
      return reply(200, (state) => presentInvoice(state, after));
    },
  },
  {
    method: 'POST',
    path: '/invoices/payments.json',
    body: multiPaymentBody,
    run: ({ tx, body }) => {
      const input = decodeBody(multiPaymentBody, body);
      if (!input.ok) return input;
      const { payment } = input.value;
      let applied: Dec = '0';
      for (const application of payment.applications) applied = add(applied, application.amount);
      if (cmp(applied, payment.amount) > 0)
        return err(refused('Amount: must be greater than or equal to the sum of the applications.'));
      const invoices: Invoice[] = [];
      for (const application of payment.applications) {
        const invoice = findInvoice(tx, application.invoice_uid);
        if (invoice === undefined) return err(refused(`Invoice ${application.invoice_uid} not found.`));
        if (invoice.customerId !== invoices[0]?.customerId && invoices.length > 0)
          return err(refused('All invoices of one payment must belong to one customer.'));
        invoices.push(invoice);
      }
      const applications: { invoiceUid: string; uid: string; amount: Dec; transactionId: number }[] = [];
      for (const application of payment.applications) {
        const invoice = findInvoice(tx, application.invoice_uid);
        if (invoice === undefined) return err(missing('Invoice'));
        const recorded = recordInvoicePayment(tx, invoice, {
          amount: application.amount,
          memo: payment.memo ?? '',
          method: payment.method ?? 'other',
          source: 'external',
        });
        if (!recorded.ok) return recorded;
        const entry = recorded.value.payments.at(-1);
        if (entry !== undefined)
          applications.push({
            invoiceUid: invoice.uid,
            uid: entry.uid,
            amount: application.amount,
            transactionId: entry.transactionId,
          });
      }
      const excess = sub(payment.amount, applied);
      const first = invoices[0];
      const subscription = first === undefined ? undefined : tx.get('subscriptions', first.subscriptionId);
      if (isPositive(excess) && subscription !== undefined)
        receivePrepayment(tx, subscription, {
          amount: excess,
          memo: payment.memo ?? 'Excess of a payment',
          details: payment.details ?? null,
          method: payment.method ?? 'other',
        });
      const currency = tx.settings.currency;
      const format = moneyFormatter(currency);
      return reply(200, () => ({
        payment: {
          transaction_id: applications[0]?.transactionId ?? 0,
          total_amount: format(payment.amount),
          currency_code: currency,
          applications: applications.map((application) => ({
            invoice_uid: application.invoiceUid,
            application_uid: application.uid,
            applied_amount: format(application.amount),
          })),
        },
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/payments.json',
    body: subscriptionPaymentBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(subscriptionPaymentBody, body);
      if (!input.ok) return input;
      const { payment } = input.value;
      if (!isPositive(payment.amount)) return err(refused('Amount: must be greater than 0.'));
      const member = memberRefusal(tx, subscription);
      if (member !== null) return err(refused(member));
      const result = paySubscription(tx, subscription, {
        amount: payment.amount,
        memo: payment.memo ?? '',
        details: payment.payment_details ?? null,
        method: payment.payment_method ?? 'other',
      });
      if (!result.ok) return result;
      const { paid, excess } = result.value;
      const balance = tx.get('subscriptions', subscription.id)?.prepaymentBalance ?? '0';
      return reply(200, (state) => {
        const currency = state.settings.currency;
        const format = moneyFormatter(currency);
        return {
          paid_invoices: paid.map((invoice) => ({
            invoice_id: invoice.uid,
            status: invoice.status,
            due_amount: format(invoice.totals.due),
            paid_amount: format(invoice.totals.paid),
          })),
          prepayment: isPositive(excess)
            ? {
                subscription_id: subscription.id,
                amount_in_cents: toMinor(excess, currency),
                ending_balance_in_cents: toMinor(balance, currency),
              }
            : null,
        };
      });
    },
  },
] as const satisfies readonly Route[];
