/**
 * A subscription's account: its balances, its prepayments (listed and refunded) and service credit taken
 * back.
 */

import type { PrepaymentRecord } from '../../domain/invoice/credit-note.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { prepaymentsOf, refundPrepayment, remainingOf } from '../../engine/invoice/prepayments.js';
import { deductServiceCredit } from '../../engine/invoice/service-credits.js';
import { listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { parseId } from '../../kernel/ids.js';
import { add, type Dec, fromMinor, toMinor } from '../../kernel/money.js';
import { err } from '../../kernel/result.js';
import { endOfDay, isCalendarDate, startOfDay } from '../../kernel/time.js';
import { decodeBody, missing, PAGING_QUERY, pageOf, paging, stamp } from '../common.js';
import { z, zBool, zDecimal, zInt, zText } from '../decode.js';
import { type Route, type RouteError, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';

const money = () => zDecimal({ maxScale: 2, allowNegative: false, maxIntegerDigits: 12 });
const refundBody = z.object({
  refund: z.object({
    amount_in_cents: zInt(0, 100_000_000_000_000).nullable().optional(),
    amount: money().optional(),
    memo: zText(2000).optional(),
    external: zBool().optional(),
  }),
});
const deductionBody = z.object({
  deduction: z.object({ amount: money(), memo: zText(2000).optional() }),
});

/** A refund problem as the official `RefundPrepaymentBaseErrorsResponse` shows it (a 400). */
const refundProblem = (message: string): RouteError => ({
  response: { status: 400, body: { errors: { refund: { base: [message] } } } },
});

/** What a subscription's invoices owe, open and pending, split by how they are collected. */
function owed(state: SiteState, subscription: Subscription, status: 'open' | 'pending') {
  let automatic: Dec = '0';
  let remittance: Dec = '0';
  for (const invoice of listedRows(state, 'subscriptionInvoices', subscription.id, 'invoices')) {
    if (invoice.status !== status || invoice.consolidationLevel === 'child') continue;
    if (invoice.collectionMethod === 'remittance') remittance = add(remittance, invoice.totals.due);
    else automatic = add(automatic, invoice.totals.due);
  }
  const cents = (value: Dec) => toMinor(value, state.settings.currency);
  return {
    balance_in_cents: cents(add(automatic, remittance)),
    automatic_balance_in_cents: cents(automatic),
    remittance_balance_in_cents: cents(remittance),
  };
}

/** A prepayment as the official `Prepayment` shows it. */
function presentPrepayment(state: SiteState, prepayment: PrepaymentRecord, remaining: Dec) {
  const cents = (value: Dec) => toMinor(value, state.settings.currency);
  return {
    id: prepayment.id,
    subscription_id: prepayment.subscriptionId,
    amount_in_cents: cents(prepayment.amount),
    remaining_amount_in_cents: cents(remaining),
    refunded_amount_in_cents: cents(prepayment.refunded),
    ...(prepayment.details === null ? {} : { details: prepayment.details }),
    external: prepayment.external,
    memo: prepayment.memo,
    payment_type: prepayment.method,
    created_at: stamp(state, prepayment.createdAt),
  };
}

/** A subscription's prepayments with what remains of each, oldest first. */
function prepaymentsWithRemaining(tx: Transaction, subscription: Subscription) {
  const prepayments = prepaymentsOf(tx, subscription.id);
  const remaining = remainingOf(prepayments, subscription.prepaymentBalance);
  return prepayments.map((prepayment) => ({ prepayment, remaining: remaining.get(prepayment.id) ?? '0' }));
}

export const accountBalanceRoutes = [
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/account_balances.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      return reply(200, (state) => {
        const cents = (value: Dec) => toMinor(value, state.settings.currency);
        return {
          open_invoices: owed(state, subscription, 'open'),
          pending_invoices: owed(state, subscription, 'pending'),
          pending_discounts: { balance_in_cents: 0 },
          service_credits: { balance_in_cents: cents(subscription.serviceCreditBalance) },
          prepayments: { balance_in_cents: cents(subscription.prepaymentBalance) },
        };
      });
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/prepayments.json',
    query: [...PAGING_QUERY, 'filter.date_field', 'filter.start_date', 'filter.end_date'],
    run: ({ tx, params, query }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const page = paging(query);
      if (!page.ok) return page;
      const start = query.get('filter.start_date');
      const end = query.get('filter.end_date');
      for (const date of [start, end])
        if (date !== undefined && !isCalendarDate(date))
          return err({ code: 'filter', status: 422, message: 'filter: dates must be YYYY-MM-DD.' });
      const zone = tx.settings.timeZone;
      const from = start === undefined ? undefined : startOfDay(start, zone);
      const to = end === undefined ? undefined : endOfDay(end, zone);
      const rows = prepaymentsWithRemaining(tx, subscription).filter(
        ({ prepayment }) =>
          (from === undefined || prepayment.createdAt >= from) &&
          (to === undefined || prepayment.createdAt <= to),
      );
      const shown = pageOf(rows, page.value.page, page.value.perPage);
      return reply(200, (state) => ({
        prepayments: shown.map(({ prepayment, remaining }) =>
          presentPrepayment(state, prepayment, remaining),
        ),
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/prepayments/{prepayment_id}/refunds.json',
    body: refundBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const id = parseId(params['prepayment_id']);
      const prepayment = id === undefined ? undefined : tx.get('prepayments', id);
      if (prepayment === undefined || prepayment.subscriptionId !== subscription.id)
        return err(missing('Prepayment'));
      const input = decodeBody(refundBody, body);
      if (!input.ok) return input;
      const { refund } = input.value;
      const currency = tx.settings.currency;
      const amount =
        refund.amount ??
        (refund.amount_in_cents === null || refund.amount_in_cents === undefined
          ? undefined
          : fromMinor(refund.amount_in_cents, currency));
      if (amount === undefined) return err(refundProblem('Amount: must be given.'));
      const refunded = refundPrepayment(tx, subscription, prepayment, {
        amount,
        memo: refund.memo ?? 'Refund',
      });
      if (!refunded.ok) return err(refundProblem(refunded.error.message));
      const after = refunded.value;
      const balance = tx.get('subscriptions', subscription.id)?.prepaymentBalance ?? '0';
      const remaining = remainingOf(
        prepaymentsOf(tx, subscription.id).map((row) => (row.id === after.id ? after : row)),
        balance,
      );
      return reply(201, (state) => ({
        prepayment: presentPrepayment(state, after, remaining.get(after.id) ?? '0'),
        currency,
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/service_credit_deductions.json',
    body: deductionBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(deductionBody, body);
      if (!input.ok) return input;
      const { amount, memo } = input.value.deduction;
      const deducted = deductServiceCredit(tx, subscription, amount, memo);
      if (!deducted.ok) return deducted;
      const { id, subscription: updated } = deducted.value;
      return reply(201, (state) => ({
        service_credit: {
          id,
          amount_in_cents: toMinor(amount, state.settings.currency),
          ending_balance_in_cents: toMinor(updated.serviceCreditBalance, state.settings.currency),
          entry_type: 'Debit',
          memo: memo ?? '',
        },
      }));
    },
  },
] as const satisfies readonly Route[];
