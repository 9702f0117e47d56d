/**
 * What happens to an invoice after it is created: issue, void, record a payment; and the subscription
 * balances invoices draw on: prepayments and service credits.
 */

import type { Invoice } from '../../domain/invoice/types.js';
import { recordEmail } from '../../engine/email/emails.js';
import { issueInvoice } from '../../engine/invoice/issue.js';
import { receivePrepayment } from '../../engine/invoice/prepayments.js';
import { recordInvoicePayment } from '../../engine/invoice/record-payment.js';
import { grantServiceCredit } from '../../engine/invoice/service-credits.js';
import { voidInvoice } from '../../engine/invoice/void.js';
import type { Transaction } from '../../engine/transaction.js';
import { isPositive, toMinor } from '../../kernel/money.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing, stamp } from '../common.js';
import { z, zDecimal, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { presentSubscription } from '../subscription/subscription-present.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { presentInvoice } from './invoice-present.js';
import { findInvoice } from './invoices.js';

const money = () => zDecimal({ maxScale: 2, allowNegative: false, maxIntegerDigits: 12 });
const issueBody = z.object({
  on_failed_payment: z.enum(['leave_open_invoice', 'rollback_to_pending', 'initiate_dunning']).optional(),
});
const voidBody = z.object({ void: z.object({ reason: zText(2000).min(1, "can't be blank") }) });
const paymentBody = z.object({
  payment: z.object({
    amount: money(),
    memo: zText(2000).optional(),
    method: z.enum(['credit_card', 'check', 'cash', 'money_order', 'ach', 'other']).optional(),
    details: zText(2000).optional(),
  }),
  type: z.enum(['external', 'prepayment', 'service_credit', 'payment']).optional(),
});
const prepaymentBody = z.object({
  prepayment: z.object({
    amount: money(),
    memo: zText(2000).optional(),
    details: zText(2000).optional(),
    method: z
      .enum([
        'check',
        'cash',
        'money_order',
        'ach',
        'paypal_account',
        'credit_card',
        'credit_card_on_file',
        'other',
      ])
      .optional(),
  }),
});
const serviceCreditBody = z.object({
  service_credit: z.object({ amount: money(), memo: zText(2000).optional() }),
});

const bare = (invoice: Invoice) => reply(200, (state) => presentInvoice(state, invoice));

/** Records the customer email of an issued invoice (the engine sends nothing; see the outbox). */
export function invoiceEmail(tx: Transaction): (invoice: Invoice) => void {
  return (invoice) => {
    recordEmail(tx, {
      kind: 'invoice',
      to: invoice.customer.email,
      customerId: invoice.customerId,
      subscriptionId: invoice.subscriptionId,
      subject: `Invoice ${invoice.number}`,
    });
  };
}

export const invoiceActionRoutes = [
  {
    method: 'POST',
    path: '/invoices/{uid}/issue.json',
    body: issueBody,
    run: ({ tx, params, body, gateway }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const input = decodeBody(issueBody, body);
      if (!input.ok) return input;
      const issued = issueInvoice(tx, invoice, input.value.on_failed_payment, gateway, invoiceEmail(tx));
      return issued.ok ? bare(issued.value) : issued;
    },
  },
  {
    method: 'POST',
    path: '/invoices/{uid}/void.json',
    body: voidBody,
    run: ({ tx, params, body }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const input = decodeBody(voidBody, body);
      if (!input.ok) return input;
      const voided = voidInvoice(tx, invoice, input.value.void.reason);
      return voided.ok ? bare(voided.value) : voided;
    },
  },
  {
    method: 'POST',
    path: '/invoices/{uid}/payments.json',
    body: paymentBody,
    run: ({ tx, params, body }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const input = decodeBody(paymentBody, body);
      if (!input.ok) return input;
      const { payment, type = 'external' } = input.value;
      const recorded = recordInvoicePayment(tx, invoice, {
        amount: payment.amount,
        memo: payment.memo ?? '',
        method: payment.method ?? 'other',
        source: type === 'payment' ? 'external' : type,
      });
      return recorded.ok ? bare(recorded.value) : recorded;
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/prepayments.json',
    body: prepaymentBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(prepaymentBody, body);
      if (!input.ok) return input;
      const { amount, memo, details, method } = input.value.prepayment;
      if (!isPositive(amount))
        return err({ code: 'amount', status: 422, message: 'Amount: must be greater than 0.' });
      const received = receivePrepayment(tx, subscription, {
        amount,
        memo: memo ?? '',
        details: details ?? null,
        method: method === 'credit_card_on_file' ? 'credit_card' : (method ?? 'other'),
      });
      const { prepayment } = received;
      return reply(201, (state) => ({
        prepayment: {
          id: prepayment.id,
          subscription_id: prepayment.subscriptionId,
          amount_in_cents: toMinor(amount, state.settings.currency),
          memo: prepayment.memo,
          created_at: stamp(state, tx.now),
        },
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/service_credits.json',
    body: serviceCreditBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(serviceCreditBody, body);
      if (!input.ok) return input;
      const { amount, memo } = input.value.service_credit;
      const granted = grantServiceCredit(tx, subscription, amount, memo);
      if (!granted.ok) return granted;
      const { id, subscription: updated } = granted.value;
      return reply(201, (state) => ({
        service_credit: {
          id,
          amount_in_cents: toMinor(amount, state.settings.currency),
          ending_balance_in_cents: toMinor(updated.serviceCreditBalance, state.settings.currency),
          entry_type: 'Credit',
          memo: memo ?? '',
        },
        subscription: presentSubscription(state, updated),
      }));
    },
  },
] as const satisfies readonly Route[];
