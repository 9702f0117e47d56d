/** Credit notes, listed and read (`/credit_notes.json`): what the site credited its customers. */

import type { CreditNote } from '../../domain/invoice/credit-note.js';
import { listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet, tableRows } from '../../kernel/collection.js';
import { idOfUid, parseId } from '../../kernel/ids.js';
import { add, type Dec, moneyFormatter, sub } from '../../kernel/money.js';
import { err } from '../../kernel/result.js';
import { missing, PAGING_QUERY, pageOf, paging, stamp } from '../common.js';
import { type Route, reply } from '../route.js';
import { invoiceAddresses, presentRefund, sellerAndCustomer } from './invoice-present.js';

const INCLUDES = ['line_items', 'discounts', 'taxes', 'refunds', 'applications'] as const;
/** A part of a credit note a listing shows only when asked for. */
export type Include = (typeof INCLUDES)[number];

/** What a credit note's value went to: applied to invoices, paid back, and what is left. */
function amountsOf(note: CreditNote): { applied: Dec; refunded: Dec; remaining: Dec } {
  let applied: Dec = '0';
  if (!note.reversed) for (const application of note.applications) applied = add(applied, application.amount);
  let refunded: Dec = '0';
  for (const refund of note.refunds) refunded = add(refunded, refund.amount);
  return { applied, refunded, remaining: sub(sub(note.total, applied), refunded) };
}

/**
 * A credit note as the official `CreditNote` shows it. One line carries its value; the arrays a listing
 * leaves out unless asked for are `line_items`, `discounts`, `taxes`, `refunds` and `applications`.
 */
export function presentCreditNote(state: SiteState, note: CreditNote, include: ReadonlySet<Include>) {
  const money = moneyFormatter(note.currency);
  const origin = tableGet(state.tables.invoices, note.originInvoiceId);
  const { applied, remaining } = amountsOf(note);
  const issued = note.issueDate;
  return {
    uid: note.uid,
    site_id: state.settings.id,
    customer_id: note.customerId,
    subscription_id: note.subscriptionId,
    number: String(note.id),
    sequence_number: note.id,
    issue_date: issued,
    applied_date: issued,
    status: note.reversed ? ('open' as const) : ('applied' as const),
    currency: note.currency,
    memo: note.memo,
    ...(origin === undefined ? {} : { ...sellerAndCustomer(state, origin), ...invoiceAddresses(origin) }),
    subtotal_amount: money(note.total),
    discount_amount: money('0'),
    tax_amount: money('0'),
    total_amount: money(note.total),
    applied_amount: money(applied),
    remaining_amount: money(remaining),
    ...(include.has('line_items')
      ? {
          line_items: [
            {
              uid: `${note.uid}_li`,
              title: note.reason === 'refund' ? 'Refund' : 'Service credit',
              description: note.memo,
              quantity: '1.0',
              unit_price: money(note.total),
              subtotal_amount: money(note.total),
              discount_amount: money('0'),
              tax_amount: money('0'),
              total_amount: money(note.total),
              tiered_unit_price: false,
              custom_item: false,
            },
          ],
        }
      : {}),
    ...(include.has('discounts') ? { discounts: [] } : {}),
    ...(include.has('taxes') ? { taxes: [] } : {}),
    ...(include.has('applications')
      ? {
          applications: note.reversed
            ? []
            : note.applications.map((application) => ({
                uid: application.uid,
                transaction_time: stamp(state, application.at),
                invoice_uid: tableGet(state.tables.invoices, application.invoiceId)?.uid ?? '',
                memo: application.memo,
                applied_amount: money(application.amount),
              })),
        }
      : {}),
    ...(include.has('refunds')
      ? { refunds: note.refunds.map((refund) => presentRefund(refund, money)) }
      : {}),
    origin_invoices: origin === undefined ? [] : [{ uid: origin.uid, number: origin.number }],
  };
}

/** A credit note by uid (the uid encodes the row id). */
function findCreditNote(state: SiteState, uid: string): CreditNote | undefined {
  const id = idOfUid('cn', uid);
  const note = id === undefined ? undefined : tableGet(state.tables.creditNotes, id);
  return note?.uid === uid ? note : undefined;
}

export const creditNoteRoutes = [
  {
    method: 'GET',
    path: '/credit_notes.json',
    query: [...PAGING_QUERY, 'subscription_id', ...INCLUDES],
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const subscription = query.get('subscription_id');
      if (subscription !== undefined && parseId(subscription) === undefined)
        return err({ code: 'subscription_id', status: 422, message: 'subscription_id: must be an id.' });
      const rows =
        subscription === undefined
          ? tableRows(tx.state.tables.creditNotes)
          : listedRows(tx.state, 'subscriptionCreditNotes', subscription, 'creditNotes');
      const notes = pageOf(rows, page.value.page, page.value.perPage);
      const include = new Set(INCLUDES.filter((name) => query.get(name) === 'true'));
      return reply(200, (state) => ({
        credit_notes: notes.map((note) => presentCreditNote(state, note, include)),
      }));
    },
  },
  {
    method: 'GET',
    path: '/credit_notes/{uid}.json',
    run: ({ tx, params }) => {
      const note = findCreditNote(tx.state, params['uid'] ?? '');
      if (note === undefined) return err(missing('Credit note'));
      return reply(200, (state) => presentCreditNote(state, note, new Set(INCLUDES)));
    },
  },
] as const satisfies readonly Route[];
