/**
 * A subscription group's invoice account. A group's consolidated invoices are its primary subscription's,
 * so money the group receives or is credited goes to the primary's balances, and deductions come from
 * them; the group's listing shows every member's prepayments, as its `account_balances` adds up every
 * member's balances.
 */

import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { prepaymentsOf, receivePrepayment, remainingOf } from '../../engine/invoice/prepayments.js';
import { deductServiceCredit, grantServiceCredit } from '../../engine/invoice/service-credits.js';
import type { Transaction } from '../../engine/transaction.js';
import { isPositive, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { endOfDay, isCalendarDate, startOfDay } from '../../kernel/time.js';
import { decodeBody, missing, PAGING_QUERY, pageOf, paging, stamp } from '../common.js';
import { z, zDecimal, zText } from '../decode.js';
import { findGroup } from '../group/subscription-groups.js';
import { type Route, type RouteError, reply } from '../route.js';

const money = () => zDecimal({ maxScale: 2, allowNegative: false, maxIntegerDigits: 12 });
const prepaymentBody = z.object({
  prepayment: z.object({
    amount: money(),
    details: zText(2000).optional(),
    memo: zText(2000).optional(),
    method: z.enum(['check', 'cash', 'money_order', 'ach', 'paypal_account', 'other']).optional(),
  }),
});
const serviceCreditBody = z.object({
  service_credit: z.object({ amount: money(), memo: zText(2000).optional() }),
});
const deductionBody = z.object({
  deduction: z.object({ amount: money(), memo: zText(2000).optional() }),
});

/** The group by uid and its primary subscription, whose balances are the group's. */
function groupAccount(
  tx: Transaction,
  uid: string,
): Result<{ group: SubscriptionGroup; primary: Subscription }, RouteError> {
  const group = findGroup(tx, uid);
  if (group === undefined) return err(missing('Subscription group'));
  const primary = tx.get('subscriptions', group.primarySubscriptionId);
  if (primary === undefined) return err(missing('Subscription'));
  return ok({ group, primary });
}

/** A manual service credit entry as the official `ServiceCredit` shows it. */
const entryShown = (
  currency: string,
  entry: { id: number; subscription: Subscription },
  amount: string,
  type: 'Credit' | 'Debit',
  memo: string | undefined,
) => ({
  id: entry.id,
  amount_in_cents: toMinor(amount, currency),
  ending_balance_in_cents: toMinor(entry.subscription.serviceCreditBalance, currency),
  entry_type: type,
  memo: memo ?? '',
});

export const groupAccountRoutes = [
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/prepayments.json',
    body: prepaymentBody,
    run: ({ tx, params, body }) => {
      const account = groupAccount(tx, params['uid'] ?? '');
      if (!account.ok) return account;
      const input = decodeBody(prepaymentBody, body);
      if (!input.ok) return input;
      const { amount, details, memo, method } = input.value.prepayment;
      if (!isPositive(amount))
        return err({ code: 'amount', status: 422, message: 'Amount: must be greater than 0.' });
      const received = receivePrepayment(tx, account.value.primary, {
        amount,
        memo: memo ?? '',
        details: details ?? null,
        method: method ?? 'other',
      });
      const currency = tx.settings.currency;
      return reply(201, () => ({
        id: received.prepayment.id,
        amount_in_cents: toMinor(amount, currency),
        ending_balance_in_cents: toMinor(received.subscription.prepaymentBalance, currency),
        entry_type: 'Credit',
        memo: memo ?? null,
      }));
    },
  },
  {
    method: 'GET',
    path: '/subscription_groups/{uid}/prepayments.json',
    query: [...PAGING_QUERY, 'filter.date_field', 'filter.start_date', 'filter.end_date'],
    run: ({ tx, params, query }) => {
      const account = groupAccount(tx, params['uid'] ?? '');
      if (!account.ok) return account;
      const page = paging(query);
      if (!page.ok) return page;
      const { group, primary } = account.value;
      const start = query.get('filter.start_date');
      const end = query.get('filter.end_date');
      for (const date of [start, end])
        if (date !== undefined && !isCalendarDate(date))
          return err({ code: 'filter', status: 422, message: 'filter: dates must be YYYY-MM-DD.' });
      const zone = tx.settings.timeZone;
      // The group's balance is its members' together (as the group's `account_balances` shows it).
      const remaining = new Map<number, string>();
      const prepayments = group.memberIds.flatMap((memberId) => {
        const member = memberId === primary.id ? primary : tx.get('subscriptions', memberId);
        if (member === undefined) return [];
        const own = prepaymentsOf(tx, member.id);
        for (const [id, left] of remainingOf(own, member.prepaymentBalance)) remaining.set(id, left);
        return own;
      });
      prepayments.sort((a, b) => a.id - b.id);
      const rows = prepayments.filter(
        (prepayment) =>
          (start === undefined || prepayment.createdAt >= startOfDay(start, zone)) &&
          (end === undefined || prepayment.createdAt <= endOfDay(end, zone)),
      );
      const shown = pageOf(rows, page.value.page, page.value.perPage);
      return reply(200, (state) => {
        const cents = (value: string) => toMinor(value, state.settings.currency);
        return {
          prepayments: shown.map((prepayment) => ({
            prepayment: {
              id: prepayment.id,
              subscription_group_uid: group.uid,
              amount_in_cents: cents(prepayment.amount),
              remaining_amount_in_cents: cents(remaining.get(prepayment.id) ?? '0'),
              ...(prepayment.details === null ? {} : { details: prepayment.details }),
              external: prepayment.external,
              memo: prepayment.memo,
              payment_type: prepayment.method,
              created_at: stamp(state, prepayment.createdAt),
            },
          })),
        };
      });
    },
  },
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/service_credits.json',
    body: serviceCreditBody,
    run: ({ tx, params, body }) => {
      const account = groupAccount(tx, params['uid'] ?? '');
      if (!account.ok) return account;
      const input = decodeBody(serviceCreditBody, body);
      if (!input.ok) return input;
      const { amount, memo } = input.value.service_credit;
      const granted = grantServiceCredit(tx, account.value.primary, amount, memo);
      if (!granted.ok) return granted;
      const currency = tx.settings.currency;
      return reply(201, () => ({
        service_credit: entryShown(currency, granted.value, amount, 'Credit', memo),
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/service_credit_deductions.json',
    body: deductionBody,
    run: ({ tx, params, body }) => {
      const account = groupAccount(tx, params['uid'] ?? '');
      if (!account.ok) return account;
      const input = decodeBody(deductionBody, body);
      if (!input.ok) return input;
      const { amount, memo } = input.value.deduction;
      const deducted = deductServiceCredit(tx, account.value.primary, amount, memo);
      if (!deducted.ok) return deducted;
      const currency = tx.settings.currency;
      return reply(201, () => entryShown(currency, deducted.value, amount, 'Debit', memo));
    },
  },
] as const satisfies readonly Route[];
